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
        guard let path = socketPath, !path.isEmpty else { return nil }
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
