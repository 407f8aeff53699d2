import Foundation
import DashHome
import DashHomeFiles
#if canImport(Glibc)
    import Glibc
#endif

/// What an inotify watcher's thread sleeps on: the inotify descriptor and a pipe that wakes it
/// to stop (`HomeFileWatcher`, `FolderWatcher`). `start` runs the thread, which calls `wait`;
/// `finish` wakes it, waits for it to end and closes the descriptors.
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

    /// One inotify event: the watch, what happened, and the name in the watched folder.
    struct Event {
        var watch: Int32
        var mask: UInt32
        var name: String
    }

    /// Sleeps until the next burst of events is over: `drain` reads what is pending (true when
    /// it is news), and the burst ends once nothing came for `settle` milliseconds, or after
    /// `rounds` more reads (a copy is a create, writes and a close; a save a write and a rename).
    /// Whether any of it was news; nil when the watcher is stopped.
    func nextBurst(settle: Int32, rounds: Int, drain: () -> Bool) -> Bool? {
        guard wait(timeout: -1) == .event else { return nil }
        var relevant = drain()
        for _ in 0..<rounds {
            let w = wait(timeout: settle)
            if w == .stop { return nil }
            if w == .timeout { break }
            relevant = drain() || relevant
        }
        return relevant
    }

    /// Reads the pending events into `buffer` and returns them.
    func readEvents(_ buffer: inout [UInt8]) -> [Event] {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return n > 0 ? Self.events(buffer, count: n) : []
    }

    /// The events in the first `count` bytes `read` put in `buffer`.
    static func events(_ buffer: [UInt8], count n: Int) -> [Event] {
        var out: [Event] = []
        buffer.withUnsafeBytes { raw in
            var off = 0
            let header = MemoryLayout<inotify_event>.size
            while off + header <= n {
                let wd = raw.loadUnaligned(fromByteOffset: off, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: off + 4, as: UInt32.self)
                let len = Int(raw.loadUnaligned(fromByteOffset: off + 12, as: UInt32.self))
                let nameBytes = raw[(off + header)..<min(n, off + header + len)].prefix { $0 != 0 }
                out.append(Event(watch: wd, mask: mask, name: String(decoding: nameBytes, as: UTF8.self)))
                off += header + len
            }
        }
        return out
    }

    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var started = false
    private var finished = false

    /// Starts the watcher's thread running `body` (which returns when `wait` says `.stop`).
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        lock.withLock { started = true }
        let done = done
        OffLoopThread.start(name, stackSize: 256 * 1024) {
            body()
            done.signal()
        }
    }

    /// Wakes the thread to end, waits for it, and closes the descriptors; once (later calls do
    /// nothing).
    func finish() {
        let (first, running) = lock.withLock { () -> (Bool, Bool) in
            defer { finished = true }
            return (!finished, started)
        }
        guard first else { return }
        var b: UInt8 = 1
        _ = write(stopWrite, &b, 1)
        if running { done.wait() }
        closeDescriptors()
    }

    /// Closes the descriptors of a watcher whose thread never started (setting up failed);
    /// `finish` then does nothing.
    func close() {
        let first = lock.withLock { () -> Bool in
            defer { finished = true }
            return !finished
        }
        if first { closeDescriptors() }
    }

    private func closeDescriptors() {
        Glibc.close(fd)
        Glibc.close(stopRead)
        Glibc.close(stopWrite)
    }
}
