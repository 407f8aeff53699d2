import Foundation
import DashWidgets
import Logging
import DashApp
import DashHome

/// A swift-log handler that appends lines to a file: the screen belongs to the UI.
public struct FileLogHandler: LogHandler {
    /// Past this size the log is rotated: `swiftdash.log` becomes `swiftdash.log.1` (replacing
    /// the one before) and a new file is started, so the log never takes more than twice this.
    public static let maxBytes = 1 << 20

    final class Sink: @unchecked Sendable {
        let lock = NSLock()
        let url: URL
        let maxBytes: Int
        var handle: FileHandle?
        var size = 0
        init(url: URL, maxBytes: Int = FileLogHandler.maxBytes) {
            self.url = url
            self.maxBytes = maxBytes
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            open()
        }
        private func open() {
            if !FileManager.default.fileExists(atPath: url.path) {
                _ = FileManager.default.createFile(
                    atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            handle = try? FileHandle(forWritingTo: url)
            size = Int((try? handle?.seekToEnd()) ?? 0)
        }
        func write(_ line: String) {
            lock.lock()
            defer { lock.unlock() }
            let data = Data(line.utf8)
            if size > 0, size + data.count > maxBytes {
                try? handle?.close()
                _ = rename(url.path, url.path + ".1")
                open()
            }
            handle?.write(data)
            size += data.count
        }
    }

    let sink: Sink
    let label: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public init(label: String, file: URL, maxBytes: Int = FileLogHandler.maxBytes) {
        self.label = label
        self.sink = Sink(url: file, maxBytes: maxBytes)
    }
    init(label: String, sink: Sink) {
        self.label = label
        self.sink = sink
    }

    /// Bootstraps swift-log so every logger writes to `file` what is at least as important as `level`.
    public static func bootstrap(file: URL, level: Logger.Level = .info) {
        let sink = Sink(url: file)
        LoggingSystem.bootstrap {
            var handler = FileLogHandler(label: $0, sink: sink)
            handler.logLevel = level
            return handler
        }
    }

    /// The level `--log-level` names, else `SWIFTDASH_LOG`, else info; a word that names no level
    /// is an error that lists the levels.
    public static func level(option: String?, environment: [String: String]) -> Result<Logger.Level, LogLevelError> {
        guard let word = option ?? environment["SWIFTDASH_LOG"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return .success(.info)
        }
        if let level = Logger.Level(rawValue: word.lowercased()) { return .success(level) }
        return .failure(LogLevelError(word: word, fromOption: option != nil))
    }

    public struct LogLevelError: Error, CustomStringConvertible {
        public var word: String
        public var fromOption: Bool
        public var description: String {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            let source = fromOption ? "--log-level" : "SWIFTDASH_LOG"
            return "\(source) '\(TextSanitizer.singleLine(word))' is not a log level; use one of \(levels)"
        }
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
        var t = time_t(clamping: date.timeIntervalSince1970.rounded(.down), to: .unixSeconds)
        var parts = tm()
        guard gmtime_r(&t, &parts) != nil else { return date.formatted(.iso8601) }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
