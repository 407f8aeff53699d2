import Foundation
import DashWidgets
import DashScheduler
import DashHome

extension App {
    /// The instances a push for `target` reaches: the instance with that id, else every instance
    /// of that kind; only widgets that accept pushes.
    public static func pushTargets(_ target: String, home: HomeConfig, bundle: WidgetBundle) -> [WidgetInstance] {
        let all = home.allInstances.filter { bundle[$0.kind]?.pushDecoder != nil }
        if let one = all.first(where: { $0.id == target }) { return [one] }
        return all.filter { $0.kind == target }
    }

    /// Applies a pushed timeline through the scheduler (not charged) and says so.
    static func pushed(_ s: inout AppState, target: String, timeline: AnyTimeline) -> [Effect] {
        let targets = pushTargets(target, home: s.home, bundle: s.bundle)
        guard !targets.isEmpty else { return [.log("push for \(TextSanitizer.singleLine(target)): no such widget")] }
        for inst in targets { s.scheduler.push(inst.id, timeline: timeline, at: s.now) }
        s.say("\(targets[0].kind) updated by push")
        return [.redraw(full: false), .log("push: \(targets.map(\.id).joined(separator: ", "))")] + pump(&s)
    }
}

extension ControlProtocol {
    /// The longest `push` line a client may send (the JSON timeline on one line).
    public static let maxPushLine = 256 * 1024

    /// The line `swiftdash push TARGET` sends: the command, the target and the timeline as one line of JSON.
    public static func pushLine(target: String, timeline: JSONValue) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return "push \(target) " + String(decoding: try e.encode(timeline), as: UTF8.self)
    }

    /// Checks a pushed timeline for `target` against the widgets on the home screen and decodes it.
    /// The answer is `ok N` or `error: …`; the message is what the running app applies.
    public static func handlePush(_ line: String, home: HomeConfig, bundle: WidgetBundle) -> (answer: String, msg: Msg?)
    {
        let rest = line.dropFirst("push ".count)
        guard let space = rest.firstIndex(of: " ") else {
            return ("error: push needs a widget kind or id and a timeline", nil)
        }
        let target = String(rest[..<space])
        let shownTarget = String(TextSanitizer.singleLine(target).prefix(64))
        let targets = App.pushTargets(target, home: home, bundle: bundle)
        guard let first = targets.first, let decode = bundle[first.kind]?.pushDecoder else {
            // The widgets that do, by id: the id this one gave may be gone (removed, or never there).
            let takers = home.allInstances.filter { bundle[$0.kind]?.pushDecoder != nil }
            let what =
                bundle[target] != nil || home.allInstances.contains { $0.id == target }
                ? "no widget on the home screen takes pushes as \(shownTarget)"
                : "no widget kind or id \(shownTarget) on the home screen"
            return (
                "error: \(what)" + (takers.isEmpty ? " (add a note widget)" : "; these do: \(home.idList(takers))"), nil
            )
        }
        do {
            let json = try JSONValue.parse(Data(rest[rest.index(after: space)...].utf8), maxBytes: maxPushLine)
            let timeline = try decode(json)
            return ("ok \(targets.count)", .pushed(target: target, timeline: timeline))
        } catch {
            return ("error: \(TextSanitizer.singleLine("\(error)").prefix(300))", nil)
        }
    }
}
