import Foundation
import Glibc
import DashActivities
import DashActivityFiles

/// The home screen's ear for reporters that die without a word: for each active activity with an
/// owner (`swiftdash run`, `activity watch`), a pidfd that becomes readable when that process
/// exits. A thread of its own sleeps in `poll()` on them and exists only while there are owners;
/// when one exits it changes the store (which ends the orphan, `ActivityStore.modify`), and the
/// file's change reaches the home screen as any other. Without pidfds, an orphan is ended the next
/// time anyone reads the book.
final class OwnerWatch: @unchecked Sendable {
    private let store: ActivityStore
    private let lock = NSLock()
    private var watched: [Int32: Int32] = [:]  // pid → pidfd
    private var wake: (read: Int32, write: Int32)?
    private var running = false

    init(store: ActivityStore) { self.store = store }

    /// The owners of the active activities in `book` become the set watched.
    func follow(_ book: ActivityBook) {
        guard let pidfdOpen = PosixExtras.pidfdOpen else { return }
        let pids = Set(book.active.compactMap { $0.owner?.pid })
        lock.lock()
        defer { lock.unlock() }
        for (pid, fd) in watched where !pids.contains(pid) {
            close(fd)
            watched[pid] = nil
        }
        for pid in pids where watched[pid] == nil {
            let fd = pidfdOpen(pid, 0)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                watched[pid] = fd
            } else if errno == ESRCH {
                // Gone already: the change below ends it.
                DispatchQueue.global().async { [store] in Self.touch(store) }
            }
        }
        if wake == nil, !watched.isEmpty, let p = PosixExtras.cloexecPipe() {
            PosixExtras.setNonBlocking(p.read)
            wake = p
        }
        if let w = wake {
            var byte: UInt8 = 1
            _ = write(w.write, &byte, 1)
        }
        if !running, !watched.isEmpty, let w = wake {
            running = true
            let thread = Thread { [self] in loop(w.read) }
            thread.name = "activity-owners"
            thread.start()
        }
    }

    private func loop(_ wakeRead: Int32) {
        while true {
            lock.lock()
            let fds = Array(watched.values)
            if fds.isEmpty {
                running = false
                lock.unlock()
                return
            }
            lock.unlock()
            var polls = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            polls += fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let n = poll(&polls, nfds_t(polls.count), -1)
            if n < 0 { if errno == EINTR { continue } else { return } }
            if polls[0].revents != 0 {
                var buf = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &buf, buf.count) > 0 {}
            }
            let exited = polls.dropFirst().filter { $0.revents != 0 }.map(\.fd)
            guard !exited.isEmpty else { continue }
            lock.lock()
            for (pid, fd) in watched where exited.contains(fd) {
                close(fd)
                watched[pid] = nil
            }
            lock.unlock()
            // Whether it ended its activity itself before it went, the store knows: a change that
            // finds nothing to do writes nothing.
            Self.touch(store)
        }
    }

    static func touch(_ store: ActivityStore) {
        _ = try? store.modify(durable: false, now: { Date() }) { _, _ in }
    }
}
