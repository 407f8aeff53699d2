import Foundation

/// Writes what the loop hands it on a thread of its own, so the loop never waits for encoding or
/// the disk (issue 25: a thousand tiles' cache records, and the Smart Stacks history saved after
/// every pass while they first load). What comes while a write runs is merged into one batch
/// (`merge`: the cache keeps each instance's latest record, the usage history only its latest
/// state) and written next. A plain thread, started when something first comes and parked between
/// batches: no Swift task or dispatch pool (decision 21), and no wake-up while idle.
public final class OffLoopWriter<Batch: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: Batch?
    private var writing = false
    private var started = false
    private let name: String
    private let merge: @Sendable (Batch, Batch) -> Batch
    private let write: @Sendable (Batch) -> Void

    /// `write` runs on the writer's thread, one call per batch; `merge(waiting, new)` joins what
    /// came while a batch was written.
    public init(
        name: String, merge: @escaping @Sendable (Batch, Batch) -> Batch, write: @escaping @Sendable (Batch) -> Void
    ) {
        self.name = name
        self.merge = merge
        self.write = write
    }

    /// Hands a batch over to be written; returns at once.
    public func save(_ batch: Batch) {
        condition.lock()
        pending = pending.map { merge($0, batch) } ?? batch
        if !started {
            started = true
            let thread = Thread { [self] in
                OffLoopThread.yieldToTheLoop()
                loop()
            }
            thread.name = name
            thread.stackSize = 512 * 1024
            thread.start()
        }
        condition.signal()
        condition.unlock()
    }

    /// Waits until everything handed over is written (before the process ends).
    public func flush() {
        condition.lock()
        while pending != nil || writing { condition.wait() }
        condition.unlock()
    }

    /// Writes batches as they come; between them the thread waits, parked (a writer handed a
    /// record a minute creates no thread a minute, issue 35.1; a parked thread never wakes).
    private func loop() {
        while true {
            condition.lock()
            guard let batch = pending else {
                condition.broadcast()
                condition.wait()
                condition.unlock()
                continue
            }
            pending = nil
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
