import Foundation
import DashWidgets
import DashScheduler
import DashHome

// Requests that name widgets (`push TARGET`, `reload TARGET`) are answered by the loop, with the ids on
// screen now: answered on the socket's thread they were checked against the home screen as it was at
// start, so a widget added since could not be reached and a removed one was still accepted.

extension ControlProtocol {
    /// The widget kind or id a `push` or `reload` line names; nil for other lines.
    public static func target(of line: String) -> String? {
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard words.count >= 2, words[0] == "push" || words[0] == "reload" else { return nil }
        return String(words[1])
    }

    /// `reload ID`: one widget of the home screen (a manual reload, not charged); an id the home screen
    /// does not have is an error that lists those it has.
    static func handleReload(id: String, home: HomeConfig) -> (answer: String, msg: Msg?) {
        guard home.allInstances.contains(where: { $0.id == id }) else {
            let shown = String(TextSanitizer.singleLine(id).prefix(64))
            return ("error: no widget kind or id \(shown) on the home screen; its widgets: \(home.idList())", nil)
        }
        return ("ok", .widgetCenter(.reloadInstance(id)))
    }
}

extension App {
    /// Answers a control-socket line with the home screen as it is now. A line that names a widget the
    /// home screen does not have reads home.yaml first (`Effect.catchUpHome`): `swiftdash add` may have
    /// written it a moment ago, before the file watcher's report came in.
    static func controlRequested(_ s: inout AppState, _ line: String, _ reply: any ControlAnswer, caughtUp: Bool)
        -> [Effect]
    {
        if !caughtUp, s.homeFile != nil, let target = ControlProtocol.target(of: line),
            !s.home.allInstances.contains(where: { $0.id == target || $0.kind == target })
        {
            return [.catchUpHome(then: .controlRequested(line, reply, caughtUp: true))]
        }
        let (answer, msg) = ControlProtocol.respond(
            to: line, home: s.home, bundle: s.bundle, kinds: Set(s.bundle.kinds))
        return [.reply(reply, answer)] + (msg.map { step(&s, $0) } ?? [])
    }
}
