import Foundation
import DashWidgets
import DashApp
#if canImport(Glibc)
    import Glibc
#endif

/// glibc's pipe2 (hidden behind _GNU_SOURCE in the Swift overlay): both ends close-on-exec at
/// once, so a process spawned by another thread at the same moment cannot inherit them.
@_silgen_name("pipe2")
func systemPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// Why a request to an extension failed, in words for its tile.
public struct ExtensionError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = TextSanitizer.singleLine(message) }
    public var description: String { message }
}

/// Limits an extension runs under (docs/extensions.md, "Isolation").
public struct ExtensionLimits: Sendable {
    /// Seconds `describe` and `placeholder` may take at start.
    public var describeTimeout: TimeInterval = 3
    /// The longest answer line, in bytes.
    public var maxAnswerBytes = 1 << 20
    /// Lines that answer nothing asked (wrong id, notifications) tolerated per request.
    public var maxStrayLines = 64
    /// Lines of stderr logged per minute; the rest are counted and dropped.
    public var stderrLinesPerMinute = 20
    /// The longest stderr line logged, in characters.
    public var stderrLineCharacters = 200
    /// Back-off after a crash: `restartBase` seconds, doubling, at most `restartMax`.
    public var restartBase: TimeInterval = 1
    public var restartMax: TimeInterval = 60
    /// Log an exit with status 0 between requests (the provider host exits when idle: not news).
    public var logsCleanExit = true
    public init() {}
}

extension ExtensionProcess {
    enum Answered {
        case value(JSONValue)
        case line(Data)
    }

    /// What an answer line must hold for `requestLine` to find it: its id, and an error if any.
    struct Head: Decodable {
        var id: Double?
        var error: JSONValue?

        enum Key: String, CodingKey { case id, error }

        /// Any object is a head: an id that is not a number answers nothing (a stray line), as
        /// for `request`; an `error` of any value, `null` too, is an error.
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            id = try? c.decode(Double.self, forKey: .id)
            if c.contains(.error) { error = try c.decode(JSONValue.self, forKey: .error) }
        }
    }
}
