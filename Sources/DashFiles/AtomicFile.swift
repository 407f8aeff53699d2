import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one way swiftdash replaces a file: home.yaml, its ids record, the timeline cache, Smart
/// Stacks' usage, the interactive widgets' files (todo.txt). The new contents go to a temporary
/// file beside the target (`.NAME.tmp-PID-NONCE`, created exclusively, closed on exec), are
/// written whole and `fsync`ed, take the target's permission bits (and owner, when root) or
/// `mode` for a new file, and are renamed over it; then the folder is `fsync`ed. A reader sees
/// the old file or the new one, never half of one; a symbolic link is written through (the file
/// it names is replaced, the link stays). With `backup`, the old file stays under that name,
/// put in place atomically too.
public enum AtomicFile {
    public struct Failure: Error, CustomStringConvertible, LocalizedError, Sendable {
        public var message: String
        /// The `errno` that stopped the write.
        public var code: Int32
        public init(message: String, code: Int32) {
            self.message = message
            self.code = code
        }
        public var description: String { message }
        public var errorDescription: String? { message }
    }

    /// The moments of a write a test can stop a writer at, to kill it there (`moments`).
    public enum Moment: String, CaseIterable, Sendable {
        /// The new contents are on disk in the temporary file; nothing else has changed.
        case written
        /// The old file has become the backup too; the target is still the old file.
        case backedUp = "backed-up"
        /// The new file has replaced the old one; the folder is not yet flushed.
        case renamed
    }

    /// Called at each `Moment` of every write with the target's path. Only the executable sets
    /// it, and only when an end-to-end test asks (`SWIFTDASH_TEST_STOP_WRITE`), before any
    /// thread starts; nil otherwise.
    nonisolated(unsafe) public static var moments: ((Moment, String) -> Void)?

    /// The temporary file a write of `name` uses in process `pid`.
    public static func tempName(for name: String, pid: Int32, nonce: UInt32) -> String {
        ".\(name).tmp-\(pid)-\(nonce)"
    }

    /// The writer's process id if `name` is one of our temporary files (`.NAME.tmp-PID-NONCE`).
    public static func tempFileWriter(_ name: String) -> Int32? {
        guard name.hasPrefix("."), let r = name.range(of: ".tmp-", options: .backwards) else { return nil }
        let parts = name[r.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, UInt32(parts[1]) != nil else { return nil }
        return pid
    }

    /// The file a path names once its symbolic links are followed (the path itself when it names
    /// none, or a link that leads nowhere yet).
    public static func resolved(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(current, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return current }
            guard let dest = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current =
                dest.hasPrefix("/")
                ? dest : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(dest).path
        }
        return current
    }

    /// Replaces the file at `path` with `data` (see the type's description). `beforeRename` runs
    /// once the new contents are on disk, just before the old file is replaced: a compare-and-swap
    /// checks there that nobody changed the file meanwhile, and throws to write nothing.
    /// `durable: false` skips both `fsync`s, for files the program can make again (the timeline
    /// cache: a thousand records a reload waited on the disk, issue 25.3); a reader still sees
    /// the old file or the new one, and after a power cut at worst a record that is refused and
    /// loaded again.
    public static func write(
        _ data: Data, to path: String, mode newMode: mode_t = 0o600, backup: String? = nil, durable: Bool = true,
        beforeRename: () throws -> Void = {}
    ) throws {
        let target = resolved(path)
        let url = URL(fileURLWithPath: target)
        let dir = url.deletingLastPathComponent().path
        var st = stat()
        let exists = stat(target, &st) == 0
        let mode = exists ? st.st_mode & 0o7777 : newMode
        let tmp = dir + "/" + tempName(for: url.lastPathComponent, pid: getpid(), nonce: .random(in: 0...UInt32.max))
        func failure(_ what: String, _ code: Int32 = errno) -> Failure {
            Failure(
                message: "cannot write \(target): \(what): \(String(cString: strerror(code)).lowercased())", code: code)
        }
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("creating a temporary file") }
        var done = false
        defer { if !done { unlink(tmp) } }
        do {
            defer { close(fd) }
            guard fchmod(fd, mode) == 0 else { throw failure("setting permissions") }
            if exists, getuid() == 0 { _ = fchown(fd, st.st_uid, st.st_gid) }
            let written: Int = data.withUnsafeBytes { buf in
                var off = 0
                while off < buf.count {
                    let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                    if n < 0 {
                        if errno == EINTR { continue }
                        return -1
                    }
                    off += n
                }
                return off
            }
            guard written == data.count else { throw failure("writing") }
            guard !durable || fsync(fd) == 0 else { throw failure("flushing") }
        }
        moments?(.written, target)
        try beforeRename()
        if exists, let backup {
            // The old file becomes the backup: a second name for it, put in place atomically.
            let bakTmp =
                URL(fileURLWithPath: backup).deletingLastPathComponent().path + "/"
                + tempName(for: URL(fileURLWithPath: backup).lastPathComponent, pid: getpid(), nonce: 0)
            unlink(bakTmp)
            if link(target, bakTmp) == 0 {
                guard rename(bakTmp, backup) == 0 else {
                    unlink(bakTmp)
                    throw failure("keeping the backup")
                }
                // When the backup already is this very file (a writer killed after making it),
                // rename(2) does nothing and leaves the second name: remove it.
                unlink(bakTmp)
            } else if let old = FileManager.default.contents(atPath: target) {
                try write(old, to: backup, mode: mode)
            }
            moments?(.backedUp, target)
        }
        guard rename(tmp, target) == 0 else { throw failure("renaming the temporary file") }
        done = true
        moments?(.renamed, target)
        guard durable else { return }
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
    }
}
