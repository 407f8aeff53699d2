import Foundation
import DashWidgets
import Logging
import DashApp
import DashHome

/// A swift-log handler that appends lines to a file: the screen belongs to the UI.
public struct FileLogHandler: LogHandler {
    final class Sink: @unchecked Sendable {
        let lock = NSLock()
        let handle: FileHandle?
        init(url: URL) {
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: url.path) {
                FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            handle = try? FileHandle(forWritingTo: url)
            _ = try? handle?.seekToEnd()
        }
        func write(_ line: String) {
            lock.lock()
            defer { lock.unlock() }
            handle?.write(Data(line.utf8))
        }
    }

    let sink: Sink
    let label: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public init(label: String, file: URL) {
        self.label = label
        self.sink = Sink(url: file)
    }
    init(label: String, sink: Sink) {
        self.label = label
        self.sink = sink
    }

    /// Bootstraps swift-log so every logger writes to `file`.
    public static func bootstrap(file: URL) {
        let sink = Sink(url: file)
        LoggingSystem.bootstrap { FileLogHandler(label: $0, sink: sink) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let ts = FileLogHandler.timestamp(Date())
        sink.write("\(ts) \(event.level) \(label): \(TextSanitizer.singleLine("\(event.message)"))\n")
    }

    /// `2026-11-23T16:25:00Z`, what `.iso8601` prints, from the C library: Foundation's ISO 8601
    /// style builds a regular expression the first time it is used (1.6 M instructions at startup).
    static func timestamp(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&t, &parts) != nil else { return date.formatted(.iso8601) }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
