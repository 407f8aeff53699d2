import Foundation
import DashWidgets
import DashFiles
import DashHome
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `home.yaml` on disk: read, written with minimal edits (`HomeText`), atomically (a temporary
/// file in the same directory, fsync, rename, fsync of the directory) with its permissions
/// kept, the previous version kept as `home.yaml.bak`, under a lock (`.home.yaml.lock`, flock)
/// so two swiftdash processes never interleave; a broken file is never overwritten.
public struct HomeFile: Sendable {
    public let url: URL
    public let bundle: WidgetBundle
    /// Larger than any home screen; a bigger file is refused rather than read.
    public static let maxSize = ConfigLimits.maxHomeBytes

    public init(url: URL, bundle: WidgetBundle) {
        self.url = url
        self.bundle = bundle
    }

    public var path: String { url.path }
    var directory: URL { url.deletingLastPathComponent() }
    var lockURL: URL { directory.appendingPathComponent("." + url.lastPathComponent + ".lock") }

    /// The file a write replaces: the target of a symbolic link (a dotfiles repository), so the
    /// link stays a link.
    /// A link whose target does not exist yet is followed too (the write creates the target).
    package var target: URL {
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &buf) != nil else { return danglingTarget(path) }
        return URL(
            fileURLWithPath: String(
                decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                as: UTF8.self))
    }

    /// Where a chain of symbolic links ends when its last target does not exist (`path` itself
    /// when it is not a link).
    func danglingTarget(_ path: String) -> URL {
        URL(fileURLWithPath: AtomicFile.resolved(path)).standardizedFileURL
    }

    /// The text of the file; nil when there is none. Every reason it cannot be had (unreadable,
    /// not a regular file, over the size limit, not UTF-8) is a `ConfigFileError` naming the file
    /// and, for a bad byte, its line.
    public func read() throws -> String? {
        func refused(_ message: String) -> ConfigFileError { ConfigFileError(file: path, line: nil, message: message) }
        // Non-blocking: opening a FIFO put where the file was would otherwise wait for a writer.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw refused("cannot read the file: \(Self.errorText())")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw refused("cannot read the file: \(Self.errorText())") }
        guard st.st_mode & S_IFMT == S_IFREG else { throw refused("not a regular file") }
        if Int(st.st_size) > Self.maxSize {
            throw refused(YAMLGuard.sizeRefusal(Int(st.st_size), most: Self.maxSize, what: "home.yaml"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw refused("cannot read the file: \(Self.errorText())")
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > Self.maxSize {
                let most = YAMLGuard.sizeText(Self.maxSize)
                throw refused("the file is larger than \(most); home.yaml may be at most \(most)")
            }
        }
        // The same checks as every config read: size, UTF-8 with the bad byte's line and column.
        return try YAMLGuard.text(Data(bytes), file: path, maxBytes: ConfigLimits.maxHomeBytes, what: "home.yaml")
    }

    /// The home screen in the file (the default one when there is no file) and what the app
    /// keeps of it, with the ids the file's widgets were last given (`HomeIDs`). Throws
    /// `ConfigFileError` for a broken file, `HomeFileError` when unreadable.
    public func load() throws -> (home: HomeConfig, state: HomeFileState) {
        try whileNotWritten {
            guard let text = try read() else {
                let home = HomeConfig.defaultHome(bundle: bundle)
                return (home, HomeFileState(path: path, text: nil, home: home))
            }
            let home = withRecordedIDs(try HomeConfig.parse(yaml: text, file: path, bundle: bundle))
            return (home, HomeFileState(path: path, text: text, home: home))
        }
    }

    // MARK: - Writing

    /// Writes `home` over the file the app believes holds `base` (the runtime's service for
    /// `Effect.writeHome`). Under the lock the file is read again: a broken file is refused with
    /// its `file:line: message`; a file another program changed (other tiles) is refused and
    /// returned, so the app shows it; a file that differs only in comments is edited as it is
    /// now. Returns the text written.
    /// `waiting` hears who holds the lock when the wait lasts (the status line says so).
    public func write(
        _ home: HomeConfig, over base: HomeFileState?, waiting: (@Sendable (String) -> Void)? = nil
    ) -> Result<String, HomeWriteFailure> {
        guard let base else {
            return .failure(
                HomeWriteFailure(.noFile, "not saved: this home screen is the built-in default (--default-home)"))
        }
        // An editor that wrote between the read and the rename (it takes no lock): read again
        // and make the change again on what it wrote.
        for _ in 0..<3 {
            do { return try writeOnce(home, over: base, waiting: waiting) } catch is Changed { continue } catch {
                return .failure(HomeWriteFailure(.notSaved, "not saved: \(error)"))
            }
        }
        return .failure(
            HomeWriteFailure(.notSaved, "not saved: \(url.lastPathComponent) kept changing while it was written"))
    }

    /// The file was not what was read when the new text was about to replace it.
    struct Changed: Error {}

    func writeOnce(
        _ home: HomeConfig, over base: HomeFileState, waiting: (@Sendable (String) -> Void)?
    ) throws -> Result<String, HomeWriteFailure> {
        do {
            return try withLock(waiting: waiting) { () throws -> Result<String, HomeWriteFailure> in
                let disk: String?
                do { disk = try read() } catch let e as ConfigFileError {
                    return .failure(HomeWriteFailure(.broken, "not saved: \(e.description)"))
                }
                var baseText = base.text
                if disk != base.text || base.problem != nil, let disk {
                    let now: HomeConfig
                    do { now = try HomeConfig.parse(yaml: disk, file: path, bundle: bundle) } catch {
                        return .failure(
                            HomeWriteFailure(.broken, "not saved: \(error); fix the file first", current: disk))
                    }
                    if !now.sameContent(as: base.home), let merged = merge(home, over: base, into: disk, now: now) {
                        try replace(with: merged, over: disk)
                        record(
                            (try? HomeConfig.parse(yaml: merged, file: path, bundle: bundle))?.adoptingIDs(
                                from: HomeIDs(withRecordedIDs(now))) ?? home)
                        return .success(merged)
                    }
                    guard now.sameContent(as: base.home) else {
                        var failure = HomeWriteFailure(
                            .changedElsewhere,
                            "not saved: \(url.lastPathComponent) was changed by another program; showing it now",
                            current: disk)
                        failure.currentIDs = HomeIDs(withRecordedIDs(now))
                        return .failure(failure)
                    }
                    baseText = disk
                } else if disk == nil {
                    baseText = nil  // removed meanwhile: written anew
                }
                let text: String
                do {
                    text = try HomeText.edit(baseText, holding: base.home, to: home, bundle: bundle, file: path)
                } catch let r as HomeEditRefusal {
                    return .failure(HomeWriteFailure(.refused, "not saved: \(r.message)", current: disk))
                }
                if text != disk { try replace(with: text, over: disk) }
                record(home)
                return .success(text)
            }
        }
    }

    /// The app's change (`base` to `home`) made on the file as another program left it
    /// (`disk`, holding `now`), when the two changed different lines: a three-way merge of the
    /// texts, as `git` would, kept only if the result reads as a home screen. Nil: a conflict.
    func merge(_ home: HomeConfig, over base: HomeFileState, into disk: String, now: HomeConfig) -> String? {
        guard let baseText = base.text, base.problem == nil,
            let ours = try? HomeText.edit(baseText, holding: base.home, to: home, bundle: bundle, file: path),
            let merged = LineMerge.merge(base: baseText, ours: ours, theirs: disk),
            (try? HomeConfig.parse(yaml: merged, file: path, bundle: bundle)) != nil
        else { return nil }
        return merged
    }

    /// What a script's change did.
    public struct Change: Sendable {
        /// The home before and after, with the ids every swiftdash process gives them (`HomeIDs`).
        public var before: HomeConfig
        public var after: HomeConfig
        public var text: String
        public var wrote: Bool
        /// Values written once under a YAML anchor that changed for the other widgets sharing them.
        public var shared: [HomeSharedValue] = []
    }

    /// Reads the file (the default home when there is none), applies `change` and writes the
    /// result, all under the lock (for `swiftdash add`, `remove`, `config set`). Errors thrown
    /// by `change` come through as they are.
    /// - Parameter whenMissing: the home a missing file starts from (nil: the default home, which
    ///   is what a home screen without home.yaml shows).
    public func modify(whenMissing: HomeConfig? = nil, _ change: (inout HomeConfig) throws -> Void) throws -> Change {
        do { return try modifyOnce(whenMissing: whenMissing, change) } catch is Changed {
            throw HomeFileError(
                message: "\(url.lastPathComponent) was changed by another program while it was written; "
                    + "nothing written: run the command again")
        }
    }

    func modifyOnce(whenMissing: HomeConfig? = nil, _ change: (inout HomeConfig) throws -> Void) throws -> Change {
        try withLock {
            let disk = try read()
            let before =
                try disk.map { withRecordedIDs(try HomeConfig.parse(yaml: $0, file: path, bundle: bundle)) }
                ?? whenMissing ?? HomeConfig.defaultHome(bundle: bundle)
            var after = before
            try change(&after)
            let sharing = HomeText.sharing(disk, holding: before, to: after)
            let text = try HomeText.edit(disk, holding: before, to: after, shared: sharing, bundle: bundle, file: path)
            if text != disk { try replace(with: text, over: disk) }
            // The ids the change chose (`swiftdash add` prints them) are recorded for every process.
            let written = try HomeConfig.parse(yaml: text, file: path, bundle: bundle).adoptingIDs(from: HomeIDs(after))
            record(written)
            return Change(before: before, after: written, text: text, wrote: text != disk, shared: sharing.shared)
        }
    }

    /// Runs `body` holding the lock on `.home.yaml.lock` (waits up to 5 s for another process).
    /// Tests: runs just before the compare of a write (another writer gets in there).
    nonisolated(unsafe) static var beforeSwapHook: (@Sendable (String) -> Void)?
    var beforeSwap: (@Sendable (String) -> Void)? { Self.beforeSwapHook }

    /// Whether the file at `path` is still `text` (nil: still absent), on the inode it was.
    func still(_ text: String?, at path: String, inode: ino_t?) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return text == nil }
        guard let text, inode == nil || st.st_ino == inode, Int(st.st_size) == text.utf8.count else { return false }
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return data.elementsEqual(text.utf8)
    }

    /// Temporary files a killed writer left are removed first, whatever `body` then does.
    /// The holder writes its pid into the lock file; one that waits tells `waiting` who it is.
    public func withLock<T>(waiting: (@Sendable (String) -> Void)? = nil, _ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fd = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            throw HomeFileError(
                message: "cannot open \(lockURL.path): \(String(cString: strerror(code)).lowercased())")
        }
        defer { close(fd) }
        var tries = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, tries < 500 else {
                throw HomeFileError(message: "\(path) is locked by \(LockHolder.describe(fd)); try again")
            }
            // Said after 100 ms: the home screen's own watcher reads under the lock for a moment,
            // and a wait that short is not news (it replaced "u undoes" on a busy machine).
            if tries == 10 { waiting?(LockHolder.describe(fd)) }
            tries += 1
            usleep(10_000)
        }
        defer { flock(fd, LOCK_UN) }
        LockHolder.sign(fd)
        removeLeftovers(in: directory, name: url.lastPathComponent)
        return try body()
    }

    /// Replaces the file's contents with `text` through the one atomic writer (`AtomicFile`: temp
    /// file, fsync, rename, fsync of the folder; permissions and owner kept, 0600 for a new file);
    /// the old file becomes `home.yaml.bak`. Call holding the lock. A compare-and-swap: just before
    /// the rename the file must still be `current` (what was read; nil: no file), byte for byte,
    /// on the same inode, else nothing is written and `Changed` is thrown (an editor takes no lock).
    func replace(with text: String, over current: String?) throws {
        let file = target
        let dir = file.deletingLastPathComponent()
        let name = file.lastPathComponent
        removeLeftovers(in: dir, name: name)
        var st = stat()
        let exists = stat(file.path, &st) == 0
        // A file the user made read-only is respected, as an editor warns, even for root.
        if exists, st.st_mode & 0o222 == 0 {
            throw HomeFileError(
                message: "\(url.lastPathComponent) is read-only (mode \(String(st.st_mode & 0o7777, radix: 8))); "
                    + "not saved: make it writable (chmod u+w \(file.path)) to save changes")
        }
        let inode = exists ? st.st_ino : nil
        do {
            try AtomicFile.write(
                Data(text.utf8), to: file.path, mode: 0o600,
                backup: dir.appendingPathComponent(name + ".bak").path
            ) {
                beforeSwap?(file.path)
                guard still(current, at: file.path, inode: inode) else { throw Changed() }
            }
        } catch let f as AtomicFile.Failure {
            throw HomeFileError(message: f.message)
        }
    }

    /// Temporary files a killed writer left (only a lock holder writes, so any there is stale).
    func removeLeftovers(in dir: URL, name: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return }
        for n in names
        where n.hasPrefix(".\(name).tmp-") || n.hasPrefix(".\(name).bak.tmp-") || n.hasPrefix(".\(name).ids.tmp-") {
            unlink(dir.appendingPathComponent(n).path)
        }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
