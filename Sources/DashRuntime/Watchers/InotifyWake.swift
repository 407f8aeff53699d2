import Foundation
import DashHome
#if canImport(Glibc)
    import Glibc
#endif

/// What an inotify watcher's thread sleeps on: the inotify descriptor and a pipe that wakes it
/// to stop (`HomeFileWatcher`, `FolderWatcher`). The thread calls `wait`; the owner calls
/// `stop` once, which wakes the thread, and `close` after the thread has ended.
final class InotifyWake: @unchecked Sendable {
    let fd: Int32
    private let stopRead: Int32
    private let stopWrite: Int32

    enum Wake { case event, stop, timeout }

    /// A new inotify descriptor (close-on-exec) and stop pipe; why not, as `HomeFileError`.
    init() throws {
        let ino = inotify_init1(Int32(IN_CLOEXEC))
        guard ino >= 0 else { throw HomeFileError(message: "inotify: \(String(cString: strerror(errno)))") }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            Glibc.close(ino)
            throw HomeFileError(message: "pipe: \(String(cString: strerror(errno)))")
        }
        fd = ino
        stopRead = pipeFDs[0]
        stopWrite = pipeFDs[1]
    }

    /// Sleeps until an inotify event, `stop`, or `timeout` milliseconds (-1: no timeout).
    func wait(timeout: Int32) -> Wake {
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let n = poll(&fds, 2, timeout)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return n == 0 ? .timeout : .stop }
            if fds[1].revents != 0 { return .stop }
            return .event
        }
    }

    /// Wakes the thread to end.
    func stop() {
        var b: UInt8 = 1
        _ = write(stopWrite, &b, 1)
    }

    /// Closes the descriptors (the thread has ended, or never started).
    func close() {
        Glibc.close(fd)
        Glibc.close(stopRead)
        Glibc.close(stopWrite)
    }
}
