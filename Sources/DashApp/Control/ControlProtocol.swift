import DashWidgets
import DashScheduler
import DashHome

/// The control socket's protocol: one line in, one line out. `ping` answers `pong`;
/// `reload [KIND|ID]` asks the running home screen to reload (all, one kind, or one widget); `push TARGET JSON`
/// hands it a timeline (ExtensionPush.swift); `snapshot` asks what every tile shows, answered by the
/// loop (ControlSnapshot.swift). Answers are `ok`, `pong`, a snapshot's one line of JSON or
/// `error: …` (sanitised: they are printed by the client).
public enum ControlProtocol {
    /// The longest line a client may send.
    public static let maxLine = 512
    /// The longest answer a client reads.
    public static let maxAnswer = 4 << 20

    /// What to answer `line` with, and the request for the running app, if any.
    public static func handle(_ line: String, kinds: Set<String>) -> (answer: String, request: WidgetCenterRequest?) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch words.first {
        case "ping" where words.count == 1:
            return ("pong", nil)
        case "reload" where words.count <= 2:
            let kind = words.count > 1 ? words[1] : nil
            if let kind, !kinds.contains(kind) {
                return ("error: unknown widget \(String(TextSanitizer.singleLine(kind).prefix(64)))", nil)
            }
            return ("ok", kind.map { .reloadTimelines(kind: $0) } ?? .reloadAllTimelines)
        default:
            return ("error: unknown command (try: ping, reload [KIND|ID], push TARGET JSON, snapshot)", nil)
        }
    }

    /// The line `swiftdash reload [KIND]` sends.
    public static func reloadLine(kind: String?) -> String { "reload" + (kind.map { " \($0)" } ?? "") }

    /// What the server makes of one client's bytes.
    public enum Framed: Equatable, Sendable {
        /// The text before the first line break (or before the end), trimmed; invalid UTF-8 repaired.
        case line(String)
        /// No line break within `maxLine` bytes (`maxPushLine` for a `push`).
        case tooLong
    }

    /// The server's reading of a client's bytes so far (`ended`: the client closed its side or
    /// the read failed): nil while it must wait for more.
    public static func frame(_ buffer: [UInt8], ended: Bool) -> Framed? {
        let newline = buffer.firstIndex(of: 0x0A)
        // A `push` carries a timeline on its line: it may be longer than a command.
        let cap = buffer.starts(with: Array("push ".utf8)) ? maxPushLine : maxLine
        guard ended || newline != nil || buffer.count >= cap else { return nil }
        let end = newline ?? buffer.count
        if end >= cap { return .tooLong }
        return .line(String(decoding: buffer[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The running home screen's answer to one line, and the message to post to it, if any:
    /// `push` through `handlePush`, anything else through `handle`.
    public static func respond(
        to line: String, home: HomeConfig, bundle: WidgetBundle, kinds: Set<String>
    ) -> (answer: String, msg: Msg?) {
        if line.hasPrefix("push ") { return handlePush(line, home: home, bundle: bundle) }
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        if words.count == 2, words[0] == "reload", !kinds.contains(String(words[1])) {
            return handleReload(id: String(words[1]), home: home)
        }
        let (answer, request) = handle(line, kinds: kinds)
        return (answer, request.map { .widgetCenter($0) })
    }
}
