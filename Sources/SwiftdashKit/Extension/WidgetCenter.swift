import Foundation
internal import DashUnixSocket

/// Asks the running home screen to reload timelines, through its control socket (the line
/// `swiftdash reload [KIND]` sends). swiftdash gives its extensions the socket's path in
/// `SWIFTDASH_CONTROL`; without it (run by hand, or no home screen running) nothing happens.
public final class WidgetCenter: Sendable {
    public static let shared = WidgetCenter()
    let socketPath: String?

    init(socketPath: String? = ProcessInfo.processInfo.environment["SWIFTDASH_CONTROL"]) {
        self.socketPath = socketPath
    }

    public func reloadTimelines(ofKind kind: String) { _ = send("reload \(dashKind(kind))") }
    public func reloadAllTimelines() { _ = send("reload") }
    public func getCurrentConfigurations(_ completion: @escaping (Result<[WidgetInfo], Error>) -> Void) {
        completion(.success([]))
    }
    public struct WidgetInfo: Sendable {}

    /// Sends one line and reads the answer (`ok` or `error: …`); nil when no home screen answers.
    func send(_ line: String) -> String? {
        guard let path = socketPath, !path.isEmpty, SocketTrust.problem(socketAt: path) == nil else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard UnixSocketAddress.connect(fd, path) == 0 else { return nil }
        let out = Array((line + "\n").utf8)
        guard out.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == out.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = read(fd, &buffer, buffer.count)
        return n > 0
            ? String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }
}

/// The extension's own folder for files that must outlive the process (swiftdash may start it
/// again at any time): `SWIFTDASH_STATE`, which swiftdash sets to a folder per extension under
/// its cache; created on first use. Run by hand, a folder in the temporary directory.
public enum WidgetState {
    public static var directory: URL {
        let env = ProcessInfo.processInfo.environment
        let url =
            env["SWIFTDASH_STATE"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "swiftdash-state-"
                    + (CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "widget"))
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension WidgetState {
    /// `UserDefaults(suiteName:)` outlives the process, in the extension's own state folder:
    /// Foundation on Linux keeps a suite in `$XDG_CONFIG_HOME/<suite>.plist` (shared by every
    /// program of the user under ~/.config) and writes it only on `synchronize()`, never at exit.
    /// So with `SWIFTDASH_STATE` set, the suites live in its `UserDefaults` folder (the process starts
    /// itself again once with `XDG_CONFIG_HOME` pointing there), and every
    /// changed suite is written after each answer (swiftdash may end the process at any time).
    static func keepUserDefaults() {
        guard let state = ProcessInfo.processInfo.environment["SWIFTDASH_STATE"] else { return }
        let folder = URL(fileURLWithPath: state).appendingPathComponent("UserDefaults")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] != folder.path else { return }
        // CoreFoundation reads the environment as it was when the process started: start again
        // with it set (once; if that fails, the suites stay where Foundation puts them).
        setenv("XDG_CONFIG_HOME", folder.path, 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
    }

    /// Writes every changed `UserDefaults` suite (CoreFoundation's `CFPreferencesFlushCaches`
    /// synchronizes each domain it has cached; Foundation has no Swift API for all suites).
    static func saveUserDefaults() {
        _ = flushCaches?()
    }

    private static let flushCaches: (@convention(c) () -> Void)? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "CFPreferencesFlushCaches"
    ).map { unsafeBitCast($0, to: (@convention(c) () -> Void).self) }
}
