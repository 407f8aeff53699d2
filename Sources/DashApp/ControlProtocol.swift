import DashWidgets
import DashScheduler

/// The control socket's protocol: one line in, one line out. `ping` answers `pong`;
/// `reload [KIND]` asks the running home screen to reload (all, or one kind); `push TARGET JSON`
/// hands it a timeline (ExtensionPush.swift); `snapshot` asks what every tile shows, answered by the
/// loop (ControlSnapshot.swift). Answers are `ok`, `pong`, a snapshot's one line of JSON or
/// `error: …` (sanitised: they are printed by the client).
public enum ControlProtocol {
    /// The longest line a client may send.
    public static let maxLine = 512

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
            return ("error: unknown command (try: ping, reload [KIND], push TARGET JSON, snapshot)", nil)
        }
    }

    /// The line `swiftdash reload [KIND]` sends.
    public static func reloadLine(kind: String?) -> String { "reload" + (kind.map { " \($0)" } ?? "") }
}
