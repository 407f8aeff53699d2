import Foundation

/// The one thread the provider host runs providers on (a `TaskExecutor` preference for each
/// request's task; the host serves one request at a time). Swift's global pool would start
/// libdispatch's workers, and with them a monitor that wakes the host once a second for as long
/// as it lives (decision 21), and would hand each request from thread to thread: the system
/// monitor's host, asked every two seconds, woke about five times a sample (issue 35.1). Here a
/// request wakes this thread once. Its timers (`sleep`) are kept here too, for the same reason.
final class HostExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var timers: [Timer] = []

    /// One sleeping task: resumed once, by its deadline or by its cancellation.
    private final class Timer: @unchecked Sendable {
        let deadline: ContinuousClock.Instant
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Void, any Error>?
        private var cancelled = false

        init(deadline: ContinuousClock.Instant) { self.deadline = deadline }

        /// False when the task was cancelled first (then it is resumed here, at once).
        func start(_ c: CheckedContinuation<Void, any Error>) -> Bool {
            lock.lock()
            if cancelled {
                lock.unlock()
                c.resume(throwing: CancellationError())
                return false
            }
            continuation = c
            lock.unlock()
            return true
        }

        func fire(cancelled cancel: Bool) {
            lock.lock()
            cancelled = cancelled || cancel
            let c = continuation
            continuation = nil
            lock.unlock()
            if cancel { c?.resume(throwing: CancellationError()) } else { c?.resume() }
        }
    }

    init(name: String = "providers") {
        // Named from inside: a name set before `start()` does not reach the kernel's (`comm`).
        let thread = Thread { [self] in
            Thread.current.name = name
            self.loop()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.unlock()
        // After unlocking: signalled under the lock, the thread woke into a held lock and slept again.
        condition.signal()
    }

    /// Waits `duration` on this thread's own timers; a cancelled task wakes at once.
    @Sendable func sleep(_ duration: Duration) async throws {
        try Task.checkCancellation()
        let timer = Timer(deadline: .now + duration)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                guard timer.start(c) else { return }
                condition.lock()
                timers.append(timer)
                condition.signal()
                condition.unlock()
            }
        } onCancel: {
            timer.fire(cancelled: true)
        }
    }

    private func loop() {
        condition.lock()
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
                condition.lock()
                continue
            }
            let now = ContinuousClock.now
            if timers.contains(where: { $0.deadline <= now }) {
                let due = timers.filter { $0.deadline <= now }
                timers.removeAll { $0.deadline <= now }
                condition.unlock()
                for t in due { t.fire(cancelled: false) }
                condition.lock()
                continue
            }
            if let next = timers.map(\.deadline).min() {
                let left = now.duration(to: next)
                let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
                _ = condition.wait(until: Date().addingTimeInterval(seconds))
            } else {
                condition.wait()
            }
        }
    }
}
