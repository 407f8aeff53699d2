import Foundation
import DashWidgets
import DashApp
import DashHome
import DashHomeFiles
import DashActivities
#if canImport(Glibc)
    import Glibc
#endif

/// The widgets folder (and home.yaml's `extensions:`) as the running program knows it: each
/// executable described once, kept with its process while the file stays the same (same inode,
/// size, modification time and mode), described again when it is replaced or made executable,
/// and its process retired when it goes. `scan` blocks (describing takes up to the describe
/// timeout): the home screen calls it off the loop (`Effect.scanExtensions`), commands at start.
public final class ExtensionFolder: @unchecked Sendable {
    let paths: AppPaths
    let builtin: Set<String>
    let environment: [String: String]
    let limits: ExtensionLimits
    let log: @Sendable (String) -> Void

    private let lock = NSLock()
    private var known: [String: Described] = [:]
    private var nextVersion: UInt64 = 1
    private var last = ExtensionCatalog()
    /// `last`, for other threads while a scan runs (it holds `lock` for seconds).
    private let lastLock = NSLock()
    private var published = ExtensionCatalog()

    /// One executable as last described.
    struct Described {
        var fingerprint: Fingerprint?
        var version: UInt64
        var result: Result<(ExtensionProcess, [Widget]), ExtensionError>
    }

    /// What tells that a file changed without reading it.
    struct Fingerprint: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int, mode: UInt32

        init?(_ path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
            size = Int64(st.st_size)
            seconds = Int(st.st_mtim.tv_sec)
            nanoseconds = Int(st.st_mtim.tv_nsec)
            mode = UInt32(st.st_mode)
        }
    }

    public init(
        paths: AppPaths, builtin: Set<String>, environment: [String: String],
        limits: ExtensionLimits = ExtensionLimits(), log: @escaping @Sendable (String) -> Void
    ) {
        self.paths = paths
        self.builtin = builtin
        self.environment = environment
        self.limits = limits
        self.log = log
    }

    /// The folder being watched: `$XDG_CONFIG_HOME/swiftdash/widgets/`.
    public var directory: URL { Extensions.directory(paths) }

    /// Looks at the folder now: describes the executables that are new or changed (in parallel),
    /// retires the processes of those gone or replaced, and returns the whole catalog.
    public func scan() -> ExtensionCatalog {
        lock.lock()
        defer { lock.unlock() }
        let listed = HomeConfig.extensionPaths(in: paths.homeFile)
        let executables = Extensions.candidates(paths: paths, listed: listed, environment: environment)
        var fresh: [String] = []
        var prints: [String: Fingerprint?] = [:]
        for p in executables {
            let print = Fingerprint(p)
            prints[p] = print
            if let k = known[p], k.fingerprint == print { continue }
            fresh.append(p)
        }
        for (p, k) in known where prints[p] == nil || fresh.contains(p) {
            if case .success(let (process, _)) = k.result { process.retire() }
            known[p] = nil
        }
        let described = Extensions.describeAll(fresh, environment: environment, limits: limits, log: log)
        for (p, result) in zip(fresh, described) {
            known[p] = Described(fingerprint: prints[p] ?? nil, version: nextVersion, result: result)
            nextVersion += 1
            if case .success(let (process, _)) = result { ExtensionProcess.registerForExit([process]) }
        }
        var out = ExtensionCatalog()
        var taken = builtin
        var takenActivities = Set(ActivityKinds.builtin)
        for p in executables {
            guard let k = known[p] else { continue }
            let name = URL(fileURLWithPath: p).lastPathComponent
            switch k.result {
            case .success(let (process, widgets)):
                for a in Extensions.presenters(process, taken: &takenActivities) {
                    out.activities[a.kind] = a
                    out.activityVersions[a.kind] = k.version
                }
                let (kept, refused) = Extensions.claim(widgets, taken: &taken)
                for kind in refused {
                    let reason = Extensions.kindTaken(kind)
                    out.problems.append(.init(name: name, path: p, reason: reason))
                    if fresh.contains(p) { log("extension: \(p): \(reason); skipped") }
                }
                for w in kept {
                    out.widgets.append(w)
                    out.versions[w.kind] = k.version
                }
            case .failure(let e):
                out.problems.append(.init(name: name, path: p, reason: Self.reason(e, name: name)))
                if fresh.contains(p) { log("extension: \(p): \(e)") }
            }
        }
        for path in Extensions.notExecutable(paths: paths) {
            let p = ExtensionCatalog.Problem(
                name: URL(fileURLWithPath: path).lastPathComponent, path: path,
                reason: "not executable (chmod +x to use it)")
            out.problems.append(p)
            if !last.problems.contains(p) { log("extension: \(path): \(p.reason)") }
        }
        last = out
        lastLock.withLock { published = out }
        return out
    }

    /// What the last scan found.
    public var current: ExtensionCatalog { lastLock.withLock { published } }

    /// Scans and posts, one at a time, so catalogs are posted in the order they were taken.
    private let posting = NSLock()

    /// `RuntimeServices.scanExtensions`: scans on a thread of its own (describing waits for the
    /// extensions' answers) and posts what it found.
    public func scan(posting inbox: Inbox) {
        OffLoopThread.start("widgets folder scan") { [self] in posting.withLock { inbox.post(.extensionsScanned(scan())) } }
    }

    /// An extension's error without its name said twice ("broken: broken: exited …").
    static func reason(_ e: ExtensionError, name: String) -> String {
        let text = "\(e)"
        return text.hasPrefix(name + ": ") ? String(text.dropFirst(name.count + 2)) : text
    }
}

extension Extensions {
    /// Regular files in the widgets folder that are not executable (hidden ones aside): the
    /// gallery says so, since a file copied there without `chmod +x` is a likely mistake.
    static func notExecutable(paths: AppPaths) -> [String] {
        let dir = directory(paths).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { dir + "/" + $0 }.filter { p in
            var st = stat()
            return stat(p, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && access(p, X_OK) != 0
        }
    }
}
