import Foundation
import DashScheduler
import DashApp
import DashHome
import DashFiles
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The timeline cache on disk: one JSON file per widget instance (its last timeline,
/// stale mark, error and budget ledger, an `InstanceRecord`) under
/// `$XDG_CACHE_HOME/swiftdash/timelines/` (default `~/.cache/swiftdash/timelines/`).
///
/// Files are written atomically (a temp file in the same directory, flushed, then
/// renamed over the old one), so a crash leaves the old or the new file, never half of
/// one. Loading skips a corrupt or foreign file with one log line and never throws.
public struct TimelineCacheStore: Sendable {
    /// `…/swiftdash`.
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// The store at the XDG cache location for `environment` (pass the process's).
    public init(environment: [String: String]) throws {
        self.init(directory: try Self.cacheDirectory(environment: environment))
    }

    /// `$XDG_CACHE_HOME/swiftdash` if that is set to an absolute path, else
    /// `$HOME/.cache/swiftdash` (the XDG base directory rules).
    public static func cacheDirectory(environment: [String: String]) throws -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("swiftdash", isDirectory: true)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { throw TimelineCacheError.noCacheDirectory }
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".cache", isDirectory: true)
            .appendingPathComponent("swiftdash", isDirectory: true)
    }

    public var timelinesDirectory: URL { directory.appendingPathComponent("timelines", isDirectory: true) }

    /// The file of one instance.
    public func fileURL(for id: InstanceID) -> URL {
        timelinesDirectory.appendingPathComponent(Self.fileName(for: id), isDirectory: false)
    }

    /// A file name for any id: letters, digits, `-` and `_` stay, every other byte is `%XX`.
    public static func fileName(for id: InstanceID) -> String {
        var out = ""
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)  // no String(format:): see FixedFormat
                out += (hex.count < 2 ? "%0" : "%") + hex
            }
        }
        return (out.isEmpty ? "%" : out) + ".json"
    }

    // MARK: - Saving

    /// Writes one instance's record atomically.
    public func save(_ record: InstanceRecord) throws {
        try Self.makeDirectory(timelinesDirectory)
        try Self.writeAtomically(record.encoded(), to: fileURL(for: record.id))
    }

    /// Writes every record; with `removingOthers`, deletes the files of instances that
    /// are no longer in the snapshot (removed tiles).
    public func save(_ snapshot: SchedulerSnapshot, removingOthers: Bool = true) throws {
        try Self.makeDirectory(timelinesDirectory)
        for id in snapshot.records.keys.sorted() { try save(snapshot.records[id]!) }
        guard removingOthers else { return }
        let keep = Set(snapshot.records.keys.map(Self.fileName(for:)))
        for name in (try? FileManager.default.contentsOfDirectory(atPath: timelinesDirectory.path)) ?? []
        where name.hasSuffix(".json") && !name.hasPrefix(".") && !keep.contains(name) {
            try? FileManager.default.removeItem(at: timelinesDirectory.appendingPathComponent(name))
        }
    }

    /// Saves the records of the instances whose cached state changed since the last call
    /// (`Scheduler.takeCacheChanges()`); returns how many were written. Warnings about
    /// entries that cannot be encoded stay in the scheduler (`takeWarnings()`).
    @discardableResult
    public func saveChanges(of scheduler: inout Scheduler, at now: Date) throws -> Int {
        var n = 0
        for id in scheduler.takeCacheChanges() {
            guard let record = scheduler.record(id, at: now) else { continue }
            try save(record)
            n += 1
        }
        return n
    }

    /// Deletes an instance's file (a removed tile). No error if there is none.
    public func remove(_ id: InstanceID) {
        try? FileManager.default.removeItem(at: fileURL(for: id))
    }

    // MARK: - Loading

    /// Reads every record. A file that cannot be read, is not JSON, or is not a
    /// swiftdash timeline cache of this version is skipped with one line to `log`.
    /// A missing directory is an empty cache. Temp files that a killed writer left
    /// behind are removed first (`removeStaleTempFiles`).
    public func load(log: (String) -> Void) -> SchedulerSnapshot {
        var snapshot = SchedulerSnapshot()
        let dir = timelinesDirectory
        let removed = removeStaleTempFiles()
        if removed > 0 {
            log("timeline cache: removed \(removed) temp file\(removed == 1 ? "" : "s") left by an interrupted save")
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return snapshot }
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let url = dir.appendingPathComponent(name)
            let record: InstanceRecord
            do {
                let data = try Data(contentsOf: url)
                record = try InstanceRecord.decode(data)
            } catch let error as CacheRecordError {
                log("timeline cache: skipping \(url.path): \(error)")
                continue
            } catch is DecodingError {
                log("timeline cache: skipping \(url.path): not valid cache JSON")
                continue
            } catch {
                log("timeline cache: skipping \(url.path): \(error.localizedDescription)")
                continue
            }
            if let other = snapshot.records[record.id], other.savedAt > record.savedAt { continue }
            snapshot.records[record.id] = record
        }
        return snapshot
    }

    /// `load(log:)` with the log lines returned.
    public func load() -> (snapshot: SchedulerSnapshot, warnings: [String]) {
        var warnings: [String] = []
        let s = load { warnings.append($0) }
        return (s, warnings)
    }

    /// Deletes the temp files of saves that never reached their rename (the process was
    /// killed with `kill -9`, or the machine stopped): those whose writer process no longer
    /// exists, and any older than `maxAge` seconds (a reused process id). A save in
    /// progress in a live process is left alone. Returns how many were removed.
    @discardableResult
    public func removeStaleTempFiles(
        now: Date = Date(), maxAge: TimeInterval = 3600,
        processExists: (Int32) -> Bool = TimelineCacheStore.processExists
    ) -> Int {
        let dir = timelinesDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return 0 }
        var removed = 0
        for name in names {
            guard let pid = Self.tempFileWriter(name) else { continue }
            let url = dir.appendingPathComponent(name)
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            let modified = attributes?[.modificationDate] as? Date
            let old = modified.map { now.timeIntervalSince($0) > maxAge } ?? true
            guard old || !processExists(pid) else { continue }
            if (try? FileManager.default.removeItem(at: url)) != nil { removed += 1 }
        }
        return removed
    }

    /// The temp file `writeAtomically` uses for `url` in process `pid`.
    static func tempName(for url: URL, pid: Int32, nonce: UInt32) -> String {
        AtomicFile.tempName(for: url.lastPathComponent, pid: pid, nonce: nonce)
    }

    /// The writer's process id if `name` is one of our temp files (`.NAME.tmp-PID-NONCE`).
    static func tempFileWriter(_ name: String) -> Int32? { AtomicFile.tempFileWriter(name) }

    /// Whether a process with this id exists (signal 0 checks without sending anything).
    public static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    // MARK: - Files

    static func makeDirectory(_ url: URL) throws {
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
    }

    /// Replaces `url` through the one atomic writer (`AtomicFile`), 0600 for a new file; not
    /// flushed to the disk (`durable: false`): a record lost to a power cut is loaded again, and
    /// Smart Stacks start over from the last history saved.
    static func writeAtomically(_ data: Data, to url: URL) throws {
        do { try AtomicFile.write(data, to: url.path, mode: 0o600, durable: false) } catch let f as AtomicFile.Failure {
            throw TimelineCacheError.io("cannot write \(url.path)", f.code)
        }
    }
}

public enum TimelineCacheError: Error, Sendable, CustomStringConvertible {
    case noCacheDirectory
    case io(String, Int32)

    public var description: String {
        switch self {
        case .noCacheDirectory: return "no cache directory: neither XDG_CACHE_HOME nor HOME is set to an absolute path"
        case .io(let what, let code): return "\(what): \(String(cString: strerror(code)))"
        }
    }
}
