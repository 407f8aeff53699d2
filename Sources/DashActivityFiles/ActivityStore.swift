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

    /// Whether an activity's owner is gone (`ProcessIdentity.isGone`; tests give their own).
    let isGone: @Sendable (ActivityOwner) -> Bool

    public init(directory: URL, isGone: @escaping @Sendable (ActivityOwner) -> Bool = ProcessIdentity.isGone) {
        self.directory = directory
        self.isGone = isGone
    }

    /// The book as the file holds it, settled at `now`; an empty book when there is no file. An
    /// activity whose owner is gone shows as ended here; the next change writes that down.
    public func load(at now: Date) throws(ActivityError) -> ActivityBook {
        var book = try read()
        book.settle(at: now)
        book.endOrphans(at: now, isGone: isGone)
        return book
    }

    func read() throws(ActivityError) -> ActivityBook {
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
        let result = try body(&book, at)
        if book != before {
            do { try AtomicFile.write(book.encoded(), to: file.path, mode: 0o600, durable: durable) } catch {
                throw .invalid("cannot write \(file.path): \(error)")
            }
        }
        return result
    }

    /// A new activity id: 8 hexadecimal digits, random.
    public static func newID() -> String {
        var g = SystemRandomNumberGenerator()
        let n = UInt32.random(in: 0...UInt32.max, using: &g)
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
