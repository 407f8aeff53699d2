import Foundation
import DashApp
import DashHome
import DashHomeFiles
#if canImport(Glibc)
    import Glibc
#endif

/// Tells when `home.yaml` changes on disk, with inotify: a thread sleeps in `poll()` on the
/// inotify descriptor (no timer, no polling of the file) and, when the file was written,
/// renamed over, or removed, reads it and calls `onChange` with its text (nil: removed), or with
/// why it was not read (too large, not a regular file, unreadable, not UTF-8), so the app can
/// say so; `Msg.homeFileRead` turns either into a message.
///
/// The directory is watched, not the file, so an editor that writes a new file and renames it
/// over the old one (vim, most IDEs) is seen like one that writes in place; for a symbolic link
/// the target's directory is watched too. Events that come in a burst (a rename after a write)
/// are taken together: the file is read once they have stopped for 50 ms.
public final class HomeFileWatcher: @unchecked Sendable {
    private let wake: InotifyWake

    /// Starts watching `file`; `initial` is the text the caller has (not reported again).
    public init(
        file: URL, initial: String?, onChange: @escaping @Sendable (Result<String?, ConfigFileError>) -> Void
    ) throws {
        wake = try InotifyWake()
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var names: Set<String> = [file.lastPathComponent]
        var dirs = [file.deletingLastPathComponent().path]
        let resolved = HomeFile(url: file, bundle: .init([])).target
        if resolved.path != file.path {
            names.insert(resolved.lastPathComponent)
            dirs.append(resolved.deletingLastPathComponent().path)
        }
        for dir in Set(dirs) where inotify_add_watch(wake.fd, dir, mask) < 0 {
            let message = "cannot watch \(dir): \(String(cString: strerror(errno)))"
            wake.close()
            throw HomeFileError(message: message)
        }
        let (wake, watchedNames) = (wake, names)
        wake.start(name: "home.yaml watcher") {
            Self.loop(wake, names: watchedNames, file: file, last: .success(initial), onChange: onChange)
        }
    }

    /// Stops the thread and closes the descriptors (also on deinit).
    public func stop() { wake.finish() }

    deinit { stop() }

    private static func loop(
        _ wake: InotifyWake, names: Set<String>, file: URL, last: Result<String?, ConfigFileError>,
        onChange: @Sendable (Result<String?, ConfigFileError>) -> Void
    ) {
        var last = last
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            // Sleep until something happens in the directory (or we are stopped), and let the
            // burst finish (write, then rename) before reading: an event about a watched name.
            guard let relevant = wake.nextBurst(settle: 50, rounds: 20, drain: {
                wake.readEvents(&buffer).contains { names.contains($0.name) }
            })
            else { return }
            guard relevant else { continue }
            // A refusal is reported like a change (the app says why), and remembered, so the file
            // put back as it was before is reported again.
            let read = HomeFile.readText(file)
            if read != last {
                last = read
                onChange(read)
            }
        }
    }
}

extension HomeFile {
    /// The file's text for the watcher (nil: it is gone), or why it cannot be read.
    static func readText(_ url: URL) -> Result<String?, ConfigFileError> {
        do {
            return .success(try HomeFile(url: url, bundle: .init([])).read())
        } catch let e as ConfigFileError {
            return .failure(e)
        } catch {
            return .failure(ConfigFileError(file: url.path, line: nil, message: "cannot read the file: \(error)"))
        }
    }
}

extension Msg {
    /// What the watcher read of `home.yaml`: its new text (nil: removed), or why it was not read.
    public static func homeFileRead(_ read: Result<String?, ConfigFileError>) -> Msg {
        switch read {
        case .success(let text): return .homeFileChanged(text: text)
        case .failure(let problem): return .homeFileRefused(problem)
        }
    }
}

extension HomeFile {
    /// What a running home screen is told when the file changed (`text`; nil: removed): the text and
    /// the ids its widgets have for every swiftdash process, which it records (it has shown them).
    public func changeMessage(_ text: String?) -> Msg {
        guard let text, let parsed = try? HomeConfig.parse(yaml: text, file: path, bundle: bundle) else {
            return .homeFileChanged(text: text)
        }
        let home =
            (try? withLock { () -> HomeConfig in
                let home = withRecordedIDs(parsed)
                if (try? read()) == text { record(home) }
                return home
            }) ?? withRecordedIDs(parsed)
        return .homeFileChanged(text: text, ids: HomeIDs(home))
    }

    /// `changeMessage` for the file as it is now (nil when it cannot be read): the running home screen
    /// asks before it answers a request for an id it does not know (`Effect.catchUpHome`).
    public func currentMessage() -> Msg? {
        guard let text = try? read() else { return nil }
        return changeMessage(text)
    }
}
