import DashApp

/// The loads asked for and not started yet, oldest first. Taken from the front without moving the
/// rest, and a cancelled one is skipped when its turn comes (issue 25: 10,000 first loads, 24 at a
/// time, moved the whole queue at every start and scanned it at every cancel).
struct LoadQueue {
    private var items: [LoadJob] = []
    private var head = 0
    /// The tokens of the loads waiting (not started, not cancelled).
    private var waiting: Set<UInt64> = []

    var count: Int { waiting.count }

    mutating func append(_ job: LoadJob) {
        items.append(job)
        waiting.insert(job.token)
    }

    mutating func cancel(_ token: UInt64) { waiting.remove(token) }

    /// Up to `n` loads, in the order they were asked for.
    mutating func take(_ n: Int) -> [LoadJob] {
        var out: [LoadJob] = []
        while out.count < n, head < items.count {
            let job = items[head]
            head += 1
            if waiting.remove(job.token) != nil { out.append(job) }
        }
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return out
    }
}
