import Foundation
import DashActivities
import DashFiles
#if canImport(Glibc)
    import Glibc
#endif

/// The activities on disk: `activities.json` in the state folder (`$XDG_STATE_HOME/swiftdash`), so
/// they outlast a restart of the home screen and a script can start one while none runs. Every
/// change reads, changes and writes the file under a lock (`.activities.lock`, flock), through the
/// one atomic writer; a reader (the home screen, `snapshot`) takes no lock and sees the old file
/// or the new one. A running home screen watches the file (inotify) and learns of a change at once.
public struct ActivityStore: Sendable {
    public let directory: URL
    public var file: URL { directory.appendingPathComponent(Self.fileName) }
    var lockFile: URL { directory.appendingPathComponent(".activities.lock") }

    public static let fileName = "activities.json"
    /// What was dismissed, newest first (`activity list --ended`): a file of its own, so the file
    /// every change reads and writes holds only what is shown (at most 5 active and 5 ended).
    public static let historyFileName = "activity-history.json"
    public var historyFile: URL { directory.appendingPathComponent(Self.historyFileName) }

    /// Whether an activity's owner is gone (`ProcessIdentity.isGone`; tests give their own).
    let isGone: @Sendable (ActivityOwner) -> Bool

    public init(directory: URL, isGone: @escaping @Sendable (ActivityOwner) -> Bool = ProcessIdentity.isGone) {
        self.directory = directory
        self.isGone = isGone
    }

    /// The book as the file holds it, settled at `now`; an empty book when there is no file. An
    /// activity whose owner is gone shows as ended here; the next change writes that down.
    /// `history: true` reads the history too (`activity list --ended`).
    public func load(at now: Date, history: Bool = false) throws(ActivityError) -> ActivityBook {
        var book = try read()
        if history {
            let past = try readHistory()
            book.history = Self.history(book.history, before: past)
        }
        book.settle(at: now)
        book.endOrphans(at: now, isGone: isGone)
        return book
    }

    func read() throws(ActivityError) -> ActivityBook { try read(file) }

    /// The history file's activities; none when there is no file.
    func readHistory() throws(ActivityError) -> [Activity] { try read(historyFile).history }

    func read(_ file: URL) throws(ActivityError) -> ActivityBook {
        guard let h = FileHandle(forReadingAtPath: file.path) else {
            if errno == ENOENT { return ActivityBook() }
            throw .invalid("cannot read \(file.path): \(String(cString: strerror(errno)))")
        }
        defer { try? h.close() }
        let data = (try? h.read(upToCount: ActivityBook.maxFileBytes + 1)) ?? Data()
        do { return try ActivityBook.decode(data) } catch {
            throw .invalid("\(error) (\(file.path); remove it to start afresh)")
        }
    }

    /// Reads the book under the lock, lets `body` change it at `now()` (read after the lock is
    /// taken), and writes it back when it changed. `durable: false` skips the fsyncs (a running
    /// command's frequent updates: a power cut loses at most its last line).
    public func modify<T>(
        durable: Bool = true, now: () -> Date, _ body: (inout ActivityBook, Date) throws(ActivityError) -> T
    ) throws(ActivityError) -> T {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .invalid("cannot create \(directory.path): \(error.localizedDescription)")
        }
        let fd = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .invalid("cannot open \(lockFile.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .invalid("cannot lock \(lockFile.path): \(String(cString: strerror(errno)))") }
        }
        defer { flock(fd, LOCK_UN) }
        let before = try read()
        let at = now()
        var book = before
        book.settle(at: at)
        book.endOrphans(at: at, isGone: isGone)
        let result: T
        do { result = try body(&book, at) } catch {
            // An id that went to the history file ended, it is not unknown.
            if case .unknown(let id) = error, (try? readHistory())?.contains(where: { $0.id == id }) == true {
                throw .alreadyEnded(id)
            }
            throw error
        }
        if !book.history.isEmpty, let past = try? readHistory() {
            // What was dismissed moves to the history file (a broken one is left alone, and what
            // was dismissed stays in this file until it is mended or removed).
            let merged = ActivityBook(history: Array(Self.history(book.history, before: past).prefix(ActivityBook.maxHistory)))
            do {
                try AtomicFile.write(merged.encoded(), to: historyFile.path, mode: 0o600, durable: false)
                book.history = []
            } catch {}
        }
        if book != before {
            do { try AtomicFile.write(book.encoded(), to: file.path, mode: 0o600, durable: durable) } catch {
                throw .invalid("cannot write \(file.path): \(error)")
            }
        }
        return result
    }

    /// The newer history first, then the older without what the newer holds (an earlier file's
    /// history may have reached the history file already).
    static func history(_ newer: [Activity], before older: [Activity]) -> [Activity] {
        let known = Set(newer.map(\.id))
        return newer + older.filter { !known.contains($0.id) }
    }

    /// A new activity id: 8 hexadecimal digits, random.
    public static func newID() -> String {
        var g = SystemRandomNumberGenerator()
        let n = UInt32.random(in: 0...UInt32.max, using: &g)
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
