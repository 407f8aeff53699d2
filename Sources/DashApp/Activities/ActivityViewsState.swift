import Foundation
import DashCore
import DashWidgets
import DashActivities

// The activities whose kinds an installed widget bundle declares are drawn with the bundle's own
// views (issue 39.4, decision 68): the home screen asks the extension (`Effect.drawActivity`, off
// the loop), keeps the latest answer per activity with the content it drew, and asks again only
// when that content changes (an update, the end, the stale date passing) or the extension does.
// Until an answer comes the built-in face shows; a failed answer costs that activity's drawing
// alone, and the detail pane says why.

/// An extension that draws a Live Activity kind (`activity` request), blocking its caller.
public struct ActivityPresenter: Sendable {
    public var kind: String
    /// The extension's name (the log says it).
    public var source: String
    public var present: @Sendable ([String: JSONValue]) throws -> JSONValue

    public init(kind: String, source: String, present: @escaping @Sendable ([String: JSONValue]) throws -> JSONValue) {
        self.kind = kind
        self.source = source
        self.present = present
    }
}

/// Why an extension's views could not draw an activity (clean, one line).
public struct ActivityViewFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) {
        self.message = TextSanitizer.singleLine(TextSanitizer.clean(message, keepNewlines: false, maxCharacters: 300))
    }
    public var description: String { message }
}

/// One `activity` request to run off the loop: its answer comes back as `Msg.activityDrawn`.
public struct ActivityViewJob: Sendable {
    public var key: ActivityViewKey
    public var params: [String: JSONValue]
    public var presenter: ActivityPresenter

    /// Asks the extension (blocking) and reads its answer.
    public func run() -> Result<ActivityPresentation, ActivityViewFailure> {
        do { return .success(try ActivityPresentation.parse(presenter.present(params))) } catch {
            return .failure(ActivityViewFailure("\(error)"))
        }
    }
}

/// The bundles' drawings the home screen holds, and the requests out.
public struct ActivityViewsState: Sendable, Equatable {
    public var views = ActivityViews()
    /// The content each answer held was drawn from.
    var drawnKeys: [String: ActivityViewKey] = [:]
    /// The content each request out draws.
    var asking: [String: ActivityViewKey] = [:]

    public init() {}

    /// Forgets what the extensions drew (a bundle was replaced or removed): they are asked again.
    mutating func reset() { self = ActivityViewsState() }
}

extension App {
    /// Asks the extensions for the activities shown whose kinds they declare and whose content
    /// they have not drawn (nor are drawing); forgets the drawings of activities gone.
    static func askActivityViews(_ s: inout AppState) -> [Effect] {
        let shown = s.activities.book.shown(at: s.now)
        let ids = Set(shown.map(\.id))
        var v = s.activities.drawings
        if v.views.drawn.keys.contains(where: { !ids.contains($0) }) || v.views.problems.keys.contains(where: { !ids.contains($0) }) {
            v.views.drawn = v.views.drawn.filter { ids.contains($0.key) }
            v.views.problems = v.views.problems.filter { ids.contains($0.key) }
            v.drawnKeys = v.drawnKeys.filter { ids.contains($0.key) }
        }
        var fx: [Effect] = []
        for a in shown where !ActivityKinds.builtin.contains(a.kind) {
            guard let presenter = s.extensions.activities[a.kind] else { continue }
            let key = ActivityViewKey(a, at: s.now)
            guard v.drawnKeys[a.id] != key, v.asking[a.id] != key else { continue }
            v.asking[a.id] = key
            fx.append(
                .drawActivity(
                    ActivityViewJob(key: key, params: ActivityPresentation.request(for: a, at: s.now), presenter: presenter)))
        }
        if v != s.activities.drawings { s.activities.drawings = v }
        return fx
    }

    /// An extension answered for an activity: its drawing replaces the one held unless a newer
    /// content's answer came first; a failure shows the built-in face and says why.
    static func activityDrawn(
        _ s: inout AppState, _ key: ActivityViewKey, _ result: Result<ActivityPresentation, ActivityViewFailure>
    ) -> [Effect] {
        var v = s.activities.drawings
        if v.asking[key.id] == key { v.asking[key.id] = nil }
        let shown = s.activities.book.shown(at: s.now).contains { $0.id == key.id }
        guard shown, (v.drawnKeys[key.id]?.updated).map({ $0 <= key.updated }) ?? true else {
            s.activities.drawings = v
            return []
        }
        v.drawnKeys[key.id] = key
        var fx: [Effect] = [.redraw(full: false)]
        switch result {
        case .success(let p):
            v.views.drawn[key.id] = p
            v.views.problems[key.id] = nil
        case .failure(let why):
            if v.views.problems[key.id] != why.message {
                fx.append(.log("activity \(key.id): its widget bundle's views failed: \(why.message)"))
            }
            v.views.drawn[key.id] = nil
            v.views.problems[key.id] = why.message
        }
        s.activities.drawings = v
        return fx
    }
}
