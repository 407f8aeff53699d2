import Foundation

// `import OSLog` on Linux: the unified log's `Logger`, written to standard error (swiftdash's log for
// an extension) as `subsystem[category] level: message`. Privacy options are accepted; every value
// is written (the log is the user's own). Offered on Linux only; on Apple's systems OSLog is Apple's.

public struct Logger: Sendable {
    let prefix: String
    public init(subsystem: String, category: String) { prefix = "\(subsystem)[\(category)]" }
    public init() { prefix = "log" }

    public func log(level: OSLogType = .default, _ message: OSLogMessage) { write(level.name, message) }
    public func log(_ message: OSLogMessage) { write("default", message) }
    public func trace(_ message: OSLogMessage) { write("trace", message) }
    public func debug(_ message: OSLogMessage) { write("debug", message) }
    public func info(_ message: OSLogMessage) { write("info", message) }
    public func notice(_ message: OSLogMessage) { write("notice", message) }
    public func warning(_ message: OSLogMessage) { write("warning", message) }
    public func error(_ message: OSLogMessage) { write("error", message) }
    public func critical(_ message: OSLogMessage) { write("critical", message) }
    public func fault(_ message: OSLogMessage) { write("fault", message) }

    func write(_ level: String, _ message: OSLogMessage) {
        // One line each: a message's own line breaks and control characters are not passed on.
        let text = String(message.text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : Character($0) })
        FileHandle.standardError.write(Data("\(prefix) \(level): \(text.prefix(2000))\n".utf8))
    }
}

public struct OSLogType: Sendable, Hashable {
    let name: String
    public static let `default` = OSLogType(name: "default"), info = OSLogType(name: "info")
    public static let debug = OSLogType(name: "debug"), error = OSLogType(name: "error")
    public static let fault = OSLogType(name: "fault")
}

public struct OSLogPrivacy: Sendable, Hashable {
    public static let `public` = OSLogPrivacy(), `private` = OSLogPrivacy(), sensitive = OSLogPrivacy()
    public static let auto = OSLogPrivacy()
    public static func `private`(mask: Mask) -> OSLogPrivacy { OSLogPrivacy() }
    public enum Mask: Sendable { case hash, none }
}

/// A log message: text and interpolated values (`\(value, privacy: .public)`).
public struct OSLogMessage: ExpressibleByStringInterpolation, Sendable {
    let text: String
    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }
    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) { text += literal }
        public mutating func appendInterpolation<T>(_ value: @autoclosure () -> T, privacy: OSLogPrivacy = .auto) {
            text += String(describing: value())
        }
        public mutating func appendInterpolation<T>(
            _ value: @autoclosure () -> T, align: Int = 0, privacy: OSLogPrivacy = .auto
        ) {
            text += String(describing: value())
        }
    }
}
