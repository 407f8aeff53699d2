import Foundation
import DashApp
import DashHome
import DashHomeFiles

/// The runtime's file work, off the loop thread and in order: writing home.yaml, loading a theme,
/// reading home.yaml again. One plain thread runs the queue and exits when it is empty (no Swift
/// task, no worker pool), so a write that waits for the file's lock (another swiftdash holds it)
/// or a slow disk never freezes keys or drawing; results come back through the inbox as messages.
final class FileWork: @unchecked Sendable {
    /// Run each piece of work on the caller's thread at once (a test's harness: the virtual
    /// clock and the headless terminal need no thread; the outcome still comes as a message).
    let inline: Bool
    init(inline: Bool = false) { self.inline = inline }

    private let lock = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    private var running = false
    /// The last write's base text and the file it left, so a write asked for before the last
    /// one's result reached the state is made over what that one wrote (worker thread only).
    private var lastWrite: (baseText: String?, wrote: HomeFileState)?

    /// Runs `work` after everything queued before it.
    func run(_ work: @escaping @Sendable () -> Void) {
        if inline { return work() }
        let start: Bool = lock.withLock {
            queue.append(work)
            if running { return false }
            running = true
            return true
        }
        guard start else { return }
        OffLoopThread.start("swiftdash files") { [self] in
            while let next = take() { next() }
        }
    }

    private func take() -> (@Sendable () -> Void)? {
        lock.withLock {
            guard !queue.isEmpty else {
                running = false
                lock.broadcast()
                return nil
            }
            return queue.removeFirst()
        }
    }

    /// Waits (at most `seconds`) until everything queued has run: the program does not quit with
    /// a change of home.yaml still unwritten.
    func waitUntilDone(seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        lock.lock()
        defer { lock.unlock() }
        while running || !queue.isEmpty {
            if !lock.wait(until: deadline) { return }
        }
    }

    /// Writes `home` over `base` with `writer` (in the queue's order) and posts the outcome.
    func writeHome(
        _ home: HomeConfig, over base: HomeFileState?,
        with writer:
            @escaping @Sendable (HomeConfig, HomeFileState?, @escaping @Sendable (String) -> Void) -> Result<
                String, HomeWriteFailure
            >,
        to inbox: Inbox
    ) {
        run { [self] in
            var base = base
            if let last = lastWrite, let b = base, b.text == last.baseText, b.problem == nil { base = last.wrote }
            let result = writer(home, base) { holder in inbox.post(.homeLockHeld(by: holder)) }
            if case .success(let text) = result, var wrote = base {
                let baseText = wrote.text
                // What the file now holds: a value shared through a YAML anchor changed for all its users.
                wrote.home = HomeText.sharing(baseText, holding: wrote.home, to: home).home
                wrote.text = text
                lastWrite = (baseText, wrote)
            } else {
                lastWrite = nil
            }
            inbox.post(.homeWritten(home, result))
        }
    }
}
