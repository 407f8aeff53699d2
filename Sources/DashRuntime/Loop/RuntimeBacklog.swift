import Foundation
import DashScheduler
import DashApp

/// Messages from the inbox waiting to be applied, oldest first (a queue read from the front
/// without moving the rest).
struct RuntimeBacklog {
    private var items: [Msg] = []
    private var head = 0

    var hasMore: Bool { head < items.count }
    var count: Int { items.count - head }

    mutating func append(_ msgs: [Msg]) {
        if head == items.count {
            items = msgs
            head = 0
        } else {
            items += msgs
        }
    }

    var first: Msg? { hasMore ? items[head] : nil }

    mutating func removeFirst() -> Msg {
        defer {
            head += 1
            if head == items.count {
                items.removeAll()
                head = 0
            }
        }
        return items[head]
    }
}

extension Msg {
    /// A load's result (the bulk of what arrives together: a thousand tiles' first loads).
    public var isLoadResult: Bool {
        switch self {
        case .loaded, .loadTimedOut: return true
        default: return false
        }
    }
}

extension Runtime {
    /// Messages wait to be applied in a later turn (the loop comes back at once).
    public var hasBacklog: Bool { backlog.hasMore }

    /// Applies what arrived, for at most `sliceSeconds`: load results that arrived together go
    /// through `App.update(_:batch:)` (Smart Stacks' pass over every tile once for all of
    /// them), any other message on its own, in order. What is left waits for the next turn,
    /// so a key pressed meanwhile is read and drawn first (issue 25: 1,000 load results held
    /// keys for 8 s). A turn applies at least one message, so the backlog always drains.
    func applyBacklog(slice: Double? = nil) {
        let sliceSeconds = slice ?? self.sliceSeconds
        backlog.append(inbox.drain())
        let start = clock.now
        func elapsed() -> Double { clock.now.timeIntervalSince(start) }
        while let msg = backlog.first {
            if msg.isLoadResult {
                // Half the slice for the results, the rest for the passes after them and the
                // frame; on a home whose passes take longer than that, three passes' time, so the
                // number of slices (each with a tick and a settle over every tile) stays
                // proportional to the results, not to the results times the tiles.
                let budget = max(sliceSeconds / 2, 3 * settleSeconds)
                var first = true
                while let m = backlog.first, m.isLoadResult, first || elapsed() < budget {
                    first = false
                    _ = backlog.removeFirst()
                    if case .loaded(_, let token, _) = m { cancels[token] = nil }
                    if case .loadTimedOut(_, let token, _) = m { cancels[token] = nil }
                    apply(m)
                }
                let settling = clock.now
                settle()
                settleSeconds = clock.now.timeIntervalSince(settling)
            } else {
                deliver(backlog.removeFirst())
            }
            if elapsed() >= max(sliceSeconds, 5 * settleSeconds) { break }
        }
    }
}
