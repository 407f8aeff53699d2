import Foundation
import DashWidgets
#if canImport(Glibc)
    import Glibc
#endif

/// Files the interactive widgets write: written whole to a temp file beside the target,
/// fsync'd, then renamed over it (and the directory fsync'd), so a reader sees the old file or
/// the new one, never half of one.
enum AtomicFile {
    struct Failure: Error, CustomStringConvertible, LocalizedError {
        var message: String
        var description: String { message }
        var errorDescription: String? { message }
    }

    /// Replaces `path` with `data`. A symbolic link is followed (the file it points to is
    /// replaced, the link stays); an existing file keeps its permission bits.
    static func write(_ data: Data, to path: String) throws {
        let target = resolved(path)
        let url = URL(fileURLWithPath: target)
        let dir = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var mode: mode_t = 0o644
        var st = stat()
        if stat(target, &st) == 0 { mode = st.st_mode & 0o7777 }
        let tmp = dir + "/." + name + ".swiftdash-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(message: "cannot write in \(dir): \(errorText(errno))") }
        var done = false
        defer { if !done { unlink(tmp) } }
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
        let code = errno
        _ = fchmod(fd, mode)
        guard written == data.count, fsync(fd) == 0 else {
            close(fd)
            throw Failure(message: "cannot write \(tmp): \(errorText(code))")
        }
        guard close(fd) == 0 else { throw Failure(message: "cannot write \(tmp): \(errorText(errno))") }
        guard rename(tmp, target) == 0 else { throw Failure(message: "cannot replace \(target): \(errorText(errno))") }
        done = true
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
    }

    /// Reads at most `limit` bytes of `path`; a larger file is an error, not a gigabyte.
    static func read(_ path: String, limit: Int) throws -> Data {
        guard let h = FileHandle(forReadingAtPath: path) else {
            let exists = access(path, F_OK) == 0
            throw Failure(message: exists ? "cannot read \(path): \(errorText(errno))" : "no file at \(path)")
        }
        defer { try? h.close() }
        let data = (try? h.read(upToCount: limit + 1)) ?? Data()
        if data.count > limit { throw Failure(message: "\(path) is larger than \(limit / 1024) KB; not read") }
        return data
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
            (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y)
        else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysIn(month m: Int, year y: Int) -> Int {
        switch m {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
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
