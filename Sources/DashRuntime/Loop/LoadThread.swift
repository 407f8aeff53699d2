import Foundation
import DashApp
import DashHome

/// Runs the jobs of one load on a thread of its own (a `TaskExecutor` preference for the
/// load's task), so a provider that blocks its thread — a hung subprocess, a synchronous read —
/// never takes a thread another load needs. The cooperative pool has one thread per core (two
/// here); five hung network loads used to starve the clock's own load into a timeout.
/// The thread ends when the load's task calls `finish()`.
final class LoadThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    init(name: String) {
        let thread = Thread { [self] in self.loop() }
        thread.name = name
        thread.stackSize = 512 * 1024
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    /// No more work will come: the thread exits once its queue is empty.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// A plain thread for blocking work off the main loop (a request to the provider host or an
/// extension, a scan of the widgets folder, a watcher, tmux's refresh): no Swift task, so no
/// worker pool.
enum OffLoopThread {
    static func start(_ name: String, stackSize: Int = 512 * 1024, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
    }
}

extension OffLoopThread {
    /// The nice value of the threads that write for the loop (the cache, the Smart Stacks
    /// history). Not the loads' threads: a process they start (an extension, a command, the
    /// provider host) would inherit it, and nobody may raise it again (decision 52).
    static let niceness: Int32 = 10

    /// Lowers the calling thread's priority (`niceness`): when a thousand loads finish together
    /// their records are written while the loop draws keys (issue 25.3). Linux keeps a nice
    /// value per thread; with nothing else to run, a nice thread runs as fast as any other.
    static func yieldToTheLoop() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
    }

    private static let endsKey = "swiftdash.endsWithItsLoad"

    /// Marks the calling thread as a load's own, which ends with the load and starts no process
    /// after its answer is read (`Runtime.concurrentLoad`'s remote loads).
    static func endsWithItsLoad() {
        Thread.current.threadDictionary[endsKey] = true
    }

    /// On a load's own thread (`endsWithItsLoad`), once the answer of the provider host or an
    /// extension is read: the rest (decoding its entries) runs at `niceness`, below the loop
    /// (issue 25.3: a thousand loads' decoding shared the two cores with the loop while keys
    /// waited). Reading stays at nice 0: a reader at 10 beside busy programs was too slow for an
    /// extension's large answer, and a process started from the thread would inherit the value
    /// for good (decision 52). Anywhere else (a thread of a pool, the loop, a command) it does
    /// nothing.
    static func yieldAfterTheAnswer() {
        guard Thread.current.threadDictionary[endsKey] as? Bool == true else { return }
        Thread.current.threadDictionary[endsKey] = nil
        yieldToTheLoop()
    }
}
