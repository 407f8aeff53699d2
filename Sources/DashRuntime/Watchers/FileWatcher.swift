import Foundation
import DashApp
import DashHome
#if canImport(Glibc)
    import Glibc
#endif

/// Tells when files change on disk, with inotify: no polling. A thread of its own sleeps in
/// `poll()` on the inotify descriptor and starts only when there is a first file to watch.
///
/// It watches each file's *directory* and picks the file's name out of the events, because
/// the usual ways of saving a file replace it (an editor's or our own temp file renamed
/// over it: `IN_MOVED_TO`) and a watch on the file itself would stay with the old inode. A
/// symbolic link is followed: the directory of the file it points to is watched too, and a
/// change there is reported under the name the caller gave.
public final class FileWatcher: @unchecked Sendable {
    public typealias Handler = @Sendable ([String]) -> Void

    private let lock = NSLock()
    private var fd: Int32 = -1
    private var stopPipe: [Int32] = [-1, -1]
    /// Watch descriptor → directory.
    private var directories: [Int32: String] = [:]
    /// Directory → file name in it → the paths, as the caller gave them, that name means.
    private var interest: [String: [String: Set<String>]] = [:]
    private var handler: Handler?
    private var stopped = false

    static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)

    public init() {}

    deinit { stop() }

    /// The watcher the home screen's runtime uses (one per process).
    public static let shared = FileWatcher()

    /// `RuntimeServices.watchFiles`: changes come back as `Msg.filesChanged`.
    @Sendable public static func runtimeWatch(_ paths: [String], _ inbox: Inbox) {
        shared.watch(paths) { inbox.post(.filesChanged($0)) }
    }

    /// Watches exactly `paths` from now on (an empty list stops all watches); `handler` is
    /// called on the watcher's thread with the paths, as given here, that changed.
    public func watch(_ paths: [String], handler: @escaping Handler) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        self.handler = handler
        if fd < 0 {
            guard !paths.isEmpty else { return }
            guard start() else { return }
        }
        var wanted: [String: [String: Set<String>]] = [:]
        for path in paths {
            for candidate in Set([path, Self.resolved(path)]) {
                let url = URL(fileURLWithPath: candidate)
                wanted[url.deletingLastPathComponent().path, default: [:]][url.lastPathComponent, default: []]
                    .insert(path)
            }
        }
        for (wd, dir) in directories where wanted[dir] == nil {
            inotify_rm_watch(fd, wd)
            directories[wd] = nil
        }
        let have = Set(directories.values)
        for dir in wanted.keys where !have.contains(dir) {
            let wd = inotify_add_watch(fd, dir, Self.mask)
            if wd >= 0 { directories[wd] = dir }
        }
        interest = wanted
    }

    /// The directories watched now (for tests).
    public var watchedDirectories: [String] {
        lock.lock()
        defer { lock.unlock() }
        return directories.values.sorted()
    }

    /// Ends the thread; the watcher watches nothing more.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if stopPipe[1] >= 0 {
            var b: UInt8 = 1
            _ = Glibc.write(stopPipe[1], &b, 1)
        }
    }

    /// The file a path names after symbolic links (the path itself when it does not exist).
    static func resolved(_ path: String) -> String {
        guard let r = realpath(path, nil) else { return path }
        defer { free(r) }
        return String(cString: r)
    }

    /// Opens inotify and starts the thread (the lock is held).
    private func start() -> Bool {
        let ino = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard ino >= 0 else { return false }
        var p: [Int32] = [-1, -1]
        guard pipe(&p) == 0 else {
            close(ino)
            return false
        }
        for e in p { _ = fcntl(e, F_SETFD, FD_CLOEXEC) }
        fd = ino
        stopPipe = p
        let stopRead = p[0]
        let thread = Thread { [self] in self.loop(ino, stopRead) }
        thread.name = "file watcher"
        thread.stackSize = 256 * 1024
        thread.start()
        return true
    }

    private func loop(_ ino: Int32, _ stopRead: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        defer {
            lock.lock()
            close(ino)
            close(stopPipe[0])
            close(stopPipe[1])
            fd = -1
            directories = [:]
            lock.unlock()
        }
        while true {
            var fds = [
                pollfd(fd: ino, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0),
            ]
            let r = poll(&fds, 2, -1)
            if r < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            let n = buffer.withUnsafeMutableBytes { read(ino, $0.baseAddress, $0.count) }
            guard n > 0 else { continue }
            let (changed, h) = events(buffer, count: n)
            if !changed.isEmpty { h?(changed) }
        }
    }

    /// The paths a batch of inotify events is about, and the handler to tell.
    private func events(_ buffer: [UInt8], count n: Int) -> ([String], Handler?) {
        lock.lock()
        defer { lock.unlock() }
        var changed: Set<String> = []
        for e in InotifyWake.events(buffer, count: n) {
            if e.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                for names in interest.values { for paths in names.values { changed.formUnion(paths) } }
            } else if e.mask & UInt32(IN_IGNORED) != 0 {
                directories[e.watch] = nil
            } else if let dir = directories[e.watch], let paths = interest[dir]?[e.name] {
                changed.formUnion(paths)
            }
        }
        return (changed.sorted(), handler)
    }
}
