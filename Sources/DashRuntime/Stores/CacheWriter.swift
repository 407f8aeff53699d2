import Foundation
import DashScheduler

/// Writes timeline records to the cache on a thread of its own, so the loop never waits for the
/// disk: each record is a file written, synced and renamed, and a reload of 1,000 tiles handed
/// the loop 1,000 of them at once (issue 25: keys waited seconds behind the fsyncs). Records
/// wait by instance, the latest one kept, and are written in the order they first came. A plain
/// thread, started when records come and ended when they are written: no Swift task or dispatch
/// pool (decision 21), and no thread while idle.
public final class CacheWriter: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [String: InstanceRecord] = [:]
    private var order: [String] = []
    private var writing = false
    private var started = false
    private let write: @Sendable ([InstanceRecord]) -> Void

    /// `write` runs on the writer's thread, one call per batch.
    public init(write: @escaping @Sendable ([InstanceRecord]) -> Void) { self.write = write }

    /// Hands records over to be written; returns at once.
    public func save(_ records: [InstanceRecord]) {
        guard !records.isEmpty else { return }
        condition.lock()
        for r in records where pending.updateValue(r, forKey: r.id) == nil { order.append(r.id) }
        if !started {
            started = true
            let thread = Thread { [self] in loop() }
            thread.name = "cache writer"
            thread.stackSize = 512 * 1024
            thread.start()
        }
        condition.signal()
        condition.unlock()
    }

    /// Waits until every record handed over is written (before the process ends).
    public func flush() {
        condition.lock()
        while !pending.isEmpty || writing { condition.wait() }
        condition.unlock()
    }

    /// Writes batches until nothing waits, then ends (the next `save` starts a thread again): an
    /// idle home screen keeps no thread for the cache.
    private func loop() {
        while true {
            condition.lock()
            if pending.isEmpty {
                started = false
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = order.compactMap { pending[$0] }
            pending.removeAll()
            order.removeAll()
            writing = true
            condition.unlock()
            write(batch)
            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
