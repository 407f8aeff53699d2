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
        OffLoopThread.start(name) { [self] in self.loop() }
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
/// worker pool. A thread whose work is done waits, parked, for the next work (`ParkedThreads`), so
/// a home screen that loads a sample every second creates no thread a second (issue 35.1); a
/// parked thread costs no wake-up. A thread that lowered its priority is not kept (decision 52:
/// nothing may raise it again, and the next work may start a process that would inherit it).
enum OffLoopThread {
    static func start(_ name: String, stackSize: Int = 512 * 1024, _ body: @escaping @Sendable () -> Void) {
        if ParkedThreads.shared.hand(body, name: name) { return }
        ParkedThreads.shared.noteStarted()
        let thread = Thread { ParkedThreads.shared.serve(first: body) }
        thread.name = name
        // One size for every kept thread, so any may take any work.
        thread.stackSize = max(stackSize, 512 * 1024)
        thread.start()
    }
}

/// Threads whose work is done, waiting for more (at most `most` of them; more end).
final class ParkedThreads: @unchecked Sendable {
    static let shared = ParkedThreads()
    /// How many parked threads are kept (a load, a file write, a refresh may overlap; more than
    /// that is a burst, whose extra threads end).
    static let most = 4

    /// A parked thread's own wake-up: handing work wakes that thread alone (one condition for
    /// all woke every parked thread at each load, two or three context switches for nothing;
    /// issue 35.1).
    private final class Slot: @unchecked Sendable {
        let wake = NSCondition()
        var work: (name: String, body: @Sendable () -> Void)?
    }
    private let condition = NSCondition()
    private var parked: [Slot] = []
    private var started = 0

    /// How many threads were started so far, and how many wait now (tests: work after work
    /// reuses one).
    var threadsStarted: Int { condition.withLock { started } }
    var parkedCount: Int { condition.withLock { parked.count } }

    fileprivate func noteStarted() { condition.withLock { started += 1 } }

    /// Gives `body` to a parked thread; false when none waits.
    fileprivate func hand(_ body: @escaping @Sendable () -> Void, name: String) -> Bool {
        guard let slot = condition.withLock({ parked.popLast() }) else { return false }
        slot.wake.withLock { slot.work = (name, body) }
        // After unlocking: signalled under the lock, the thread woke into a held lock.
        slot.wake.signal()
        return true
    }

    /// A kept thread's life: its first work, then whatever it is handed while parked.
    fileprivate func serve(first: @escaping @Sendable () -> Void) {
        var next: (@Sendable () -> Void)? = first
        let slot = Slot()
        while let body = next {
            body()
            next = nil
            // Lowered (a load's decoding, a writer): it ends here.
            if OffLoopThread.lowered { return }
            OffLoopThread.forgetTheLoad()
            condition.lock()
            guard parked.count < Self.most else {
                condition.unlock()
                return
            }
            parked.append(slot)
            condition.unlock()
            slot.wake.lock()
            while slot.work == nil { slot.wake.wait() }
            let work = slot.work!
            slot.work = nil
            slot.wake.unlock()
            Thread.current.name = work.name
            next = work.body
        }
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
        Thread.current.threadDictionary[loweredKey] = true
    }

    private static let loweredKey = "swiftdash.lowered"

    /// Whether the calling thread lowered its priority (it is not kept for other work).
    static var lowered: Bool { Thread.current.threadDictionary[loweredKey] as? Bool == true }

    /// How many loads read an answer now; above `busyLoads`, their decoding runs below the loop.
    private static let inFlight = NSLock()
    nonisolated(unsafe) private static var loadsReading = 0
    /// The loads at once above which decoding yields to the loop (issue 25.3 was a thousand; one
    /// sample a second decodes at the loop's priority, on a thread that is kept).
    nonisolated(unsafe) static var busyLoads = 4

    /// Counts a remote load for `yieldAfterTheAnswer` while `body` runs.
    static func counted<T>(_ body: () throws -> T) rethrows -> T {
        inFlight.withLock { loadsReading += 1 }
        defer { inFlight.withLock { loadsReading -= 1 } }
        return try body()
    }

    private static let endsKey = "swiftdash.endsWithItsLoad"

    /// Marks the calling thread as a load's own, which ends with the load and starts no process
    /// after its answer is read (`Runtime.concurrentLoad`'s remote loads).
    static func endsWithItsLoad() {
        Thread.current.threadDictionary[endsKey] = true
    }

    /// The load's work is over (a kept thread takes other work next).
    static func forgetTheLoad() {
        Thread.current.threadDictionary[endsKey] = nil
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
        guard inFlight.withLock({ loadsReading > busyLoads }) else { return }
        yieldToTheLoop()
    }
}
