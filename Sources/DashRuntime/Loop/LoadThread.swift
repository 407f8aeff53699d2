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

/// A short-lived plain thread for blocking work off the main loop (a request to the provider
/// host or an extension): no Swift task, so no worker pool.
enum OffLoopThread {
    /// `belowTheLoop`: the thread lowers its priority (`yieldToTheLoop`), for the bulk work of
    /// loads; a process it needs is started by the spawner's thread, which keeps nice 0.
    static func start(_ name: String, belowTheLoop: Bool = false, _ body: @escaping @Sendable () -> Void) {
        if belowTheLoop { Spawner.prepare() }
        let thread = Thread {
            if belowTheLoop { yieldToTheLoop() }
            body()
        }
        thread.name = name
        thread.stackSize = 512 * 1024
        thread.start()
    }
}

extension OffLoopThread {
    /// The nice value of the threads that do bulk work for the loop: the writers (the cache,
    /// the Smart Stacks history) and the threads that wait for another process's answer and
    /// decode it. A process is never started from such a thread: it would inherit the value and
    /// could never raise it again (decision 52).
    static let niceness: Int32 = 10

    /// Lowers the calling thread's priority (`niceness`): when a thousand loads finish together
    /// they share the cores with the loop, which then draws a key first (issue 25.3). Linux keeps
    /// a nice value per thread; with nothing else to run, a nice thread runs as fast as any other.
    static func yieldToTheLoop() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
    }
}
