import Foundation
import DashFiles
import DashHome
#if canImport(Glibc)
    import Glibc
#endif

extension HomeFile {
    /// Where the ids of the file's tiles and widgets are kept: beside it, like its lock.
    public var idsURL: URL { directory.appendingPathComponent("." + url.lastPathComponent + ".ids") }

    /// The ids last recorded for the file; nil when there are none (or the record is not one we wrote).
    public func recordedIDs() -> HomeIDs? {
        guard let h = FileHandle(forReadingAtPath: idsURL.path) else { return nil }
        defer { try? h.close() }
        guard let data = try? h.read(upToCount: HomeIDs.maxBytes + 1) else { return nil }
        return HomeIDs.decode(data)
    }

    /// `home`, read from the file with ids by position, with the ids the file's widgets were last given.
    public func withRecordedIDs(_ home: HomeConfig) -> HomeConfig {
        recordedIDs().map { home.adoptingIDs(from: $0) } ?? home
    }

    /// Records `home`'s ids for the file (temp file, rename). Call holding the lock, after writing the
    /// file. A record that cannot be written is removed, so no process reads a stale one.
    package func record(_ home: HomeConfig) {
        let ids = HomeIDs(home)
        let name = idsURL.lastPathComponent
        // Only a lock holder writes: a temporary file left is a killed writer's (the one writer's
        // names, and the `NAME.tmp-PID` of swiftdash before it).
        for n in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where n.hasPrefix("\(name).tmp-") || n.hasPrefix(".\(name).tmp-") {
            unlink(directory.appendingPathComponent(n).path)
        }
        guard recordedIDs() != ids else { return }
        do {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            // 0600, like home.yaml: the record names the widgets of a file only its owner reads.
            try AtomicFile.write(e.encode(ids), to: idsURL.path, mode: 0o600)
        } catch {
            unlink(idsURL.path)
        }
    }

    /// Runs `body` while no swiftdash writes the file: a shared hold on its lock when there is one (a
    /// reader must not see a new file with the old ids); without the lock file, or if it stays taken,
    /// `body` runs anyway.
    public func whileNotWritten<T>(_ body: () throws -> T) rethrows -> T {
        let fd = open(lockURL.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return try body() }
        defer { close(fd) }
        var tries = 0
        while flock(fd, LOCK_SH | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, tries < 500 else { return try body() }
            tries += 1
            usleep(10_000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// A running home screen shows `state` (as `load()` gave it): its ids are recorded, unless the file
    /// changed meanwhile (the watcher's report records those).
    public func showing(_ state: HomeFileState) {
        guard let text = state.text else { return }
        _ = try? withLock { if (try? read()) == text { record(state.home) } }
    }
}
