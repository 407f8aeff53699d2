import Foundation
import DashCore
import DashWidgets
import DashFiles
#if canImport(Glibc)
    import Glibc
#endif

/// Files the interactive widgets read and write: written through the one atomic writer
/// (`DashFiles.AtomicFile`: a temp file beside the target, fsync'd, renamed over it, the directory
/// fsync'd), so a reader sees the old file or the new one, never half of one; read with a limit,
/// and only when they are regular files.
enum AtomicFile {
    struct Failure: Error, CustomStringConvertible, LocalizedError {
        var message: String
        /// Nothing is at the path (a file not made yet, not a file that cannot be read).
        var missing = false
        var description: String { message }
        var errorDescription: String? { message }
    }

    /// Tests: runs for a path just before its compare-and-swap (another writer gets in there).
    final class Hooks: @unchecked Sendable {
        private let lock = NSLock()
        private var hooks: [String: () -> Void] = [:]
        func set(_ path: String, _ hook: (() -> Void)?) { lock.withLock { hooks[path] = hook } }
        func run(_ path: String) {
            guard let hook = lock.withLock({ hooks[path] }) else { return }
            hook()
        }
    }
    static let beforeSwap = Hooks()

    /// The file changed between the read and the write (`write(_:to:ifStill:)`): nothing written.
    struct Changed: Error {}

    /// What a file was when it was read: the compare of a compare-and-swap write.
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int
        var modifiedNanoseconds: Int
        /// The bytes read (at most the reader's limit): compared whole, a hash that cannot collide.
        var contents: Data

        init?(_ path: String, contents: Data) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
            size = Int64(st.st_size)
            modified = st.st_mtim.tv_sec
            modifiedNanoseconds = st.st_mtim.tv_nsec
            self.contents = contents
        }
    }

    /// Reads `path` as `read` does, with what it was, for a compare-and-swap write.
    static func readForUpdate(_ path: String, limit: Int) throws -> (Data, Identity?) {
        let data = try read(path, limit: limit)
        return (data, Identity(resolved(path), contents: data))
    }

    /// Replaces `path` with `data`. A symbolic link is followed (the file it points to is
    /// replaced, the link stays); an existing file keeps its permission bits. With `ifStill`,
    /// a compare-and-swap: the file is replaced only if it is still what was read (inode, size,
    /// modification time and every byte), checked after the new text is on disk, just before
    /// the rename; else `Changed` is thrown and nothing is written.
    static func write(_ data: Data, to path: String, ifStill expected: Identity? = nil) throws {
        let target = resolved(path)
        do {
            // The one atomic writer; a new file is 0644 (a todo.txt is the user's ordinary file).
            try DashFiles.AtomicFile.write(data, to: target, mode: 0o644) {
                guard let expected else { return }
                beforeSwap.run(target)
                let now = (try? read(target, limit: expected.contents.count)).flatMap { Identity(target, contents: $0) }
                guard now == expected else { throw Changed() }
            }
        } catch let f as DashFiles.AtomicFile.Failure {
            throw Failure(message: f.message)
        }
    }

    /// Reads at most `limit` bytes of `path`; a larger file is an error, not a gigabyte. Only
    /// a regular file is read: a folder says so, and a FIFO or device is refused at once (it is
    /// opened without blocking and never read, so a reader never waits on a writer).
    static func read(_ path: String, limit: Int) throws -> Data {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw Failure(message: "no file at \(path)", missing: true) }
            throw Failure(message: "cannot read \(path): \(errorText(code))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            throw Failure(message: "cannot read \(path): \(errorText(code))")
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR:
            close(fd)
            throw Failure(message: "\(path) is a folder, not a file; name a file in it")
        default:
            close(fd)
            throw Failure(message: "\(path) is not a regular file (a \(kindName(st.st_mode))); not read")
        }
        // Back to blocking reads for the regular file.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let h = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let data: Data
        do { data = try h.read(upToCount: limit + 1) ?? Data() } catch {
            throw Failure(message: "cannot read \(path): \(error.localizedDescription)")
        }
        if data.count > limit { throw Failure(message: "\(path) is larger than \(limit / 1024) KB; not read") }
        return data
    }

    /// What a file that is not a regular file or folder is, in words.
    static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "named pipe"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        case S_IFSOCK: return "socket"
        default: return "special file"
        }
    }

    /// The file a path names after symbolic links (the path itself when it does not exist yet).
    static func resolved(_ path: String) -> String {
        guard let r = realpath(path, nil) else { return path }
        defer { free(r) }
        return String(cString: r)
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// State a widget keeps per instance between runs (a running timer, today's glasses): one
/// small JSON file in the context's state directory (`$XDG_CACHE_HOME/swiftdash/state`),
/// written atomically by the widget's actions and read by its timeline.
enum WidgetStateStore {
    static func path(kind: String, _ context: TimelineContext) -> String? {
        guard let dir = context.stateDirectory, let id = context.instanceID else { return nil }
        let safe = String(
            id.unicodeScalars.map { s -> Character in
                (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "-" || s == "_") && s.isASCII
                    ? Character(s) : "_"
            })
        return dir + "/" + kind + "-" + safe + ".json"
    }

    /// The saved state, or nil (none yet, unreadable, or no state directory).
    static func load<T: Decodable>(_ type: T.Type, kind: String, _ context: TimelineContext) -> T? {
        guard let p = path(kind: kind, context), let data = try? AtomicFile.read(p, limit: 64 * 1024) else {
            return nil
        }
        return try? JSONDecoder.dash.decode(T.self, from: data)
    }

    static func save<T: Encodable>(_ value: T, kind: String, _ context: TimelineContext) throws {
        guard let p = path(kind: kind, context) else {
            throw AtomicFile.Failure(message: "nowhere to keep the state (no cache directory)")
        }
        let dir = URL(fileURLWithPath: p).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try AtomicFile.write(try JSONEncoder.dash.encode(value), to: p)
    }
}

/// Days and times in the user's zone, for widgets that think in days.
enum LocalDay {
    static func calendar(_ zone: TimeZone) -> Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = zone
        return c
    }

    /// `2026-11-23` for the day `date` falls on in `zone`.
    static func key(_ date: Date, _ zone: TimeZone) -> String {
        let c = calendar(zone).dateComponents([.year, .month, .day], from: date)
        return FixedFormat.zeroPadded(c.year ?? 0, width: 4) + "-" + FixedFormat.zeroPadded(c.month ?? 1) + "-"
            + FixedFormat.zeroPadded(c.day ?? 1)
    }

    /// The start of the day after the one `date` falls on.
    static func nextMidnight(after date: Date, _ zone: TimeZone) -> Date {
        let cal = calendar(zone)
        let start = cal.startOfDay(for: date)
        return cal.date(byAdding: .day, value: 1, to: start) ?? date.addingTimeInterval(86_400)
    }

    /// `YYYY-MM-DD` as a day number (days since 1970-01-01), for differences between days.
    static func number(_ key: String) -> Int? {
        let parts = key.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), d >= 1, d <= Civil.daysInMonth(y, m)
        else { return nil }
        return Civil.days(y, m, d)
    }

    /// `HH:MM` of `date` in `zone`.
    static func time(_ date: Date, _ zone: TimeZone) -> String {
        let c = calendar(zone).dateComponents([.hour, .minute], from: date)
        return FixedFormat.zeroPadded(c.hour ?? 0) + ":" + FixedFormat.zeroPadded(c.minute ?? 0)
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Mon 30 Nov` for a `YYYY-MM-DD` key (the key itself if it is not a date).
    static func label(_ key: String) -> String {
        guard let n = number(key) else { return key }
        let parts = key.split(separator: "-")
        let weekday = weekdays[((n % 7) + 11) % 7]  // 1970-01-01 was a Thursday
        let month = months[(Int(parts[1]) ?? 1) - 1]
        return "\(weekday) \(Int(parts[2]) ?? 1) \(month)"
    }
}
