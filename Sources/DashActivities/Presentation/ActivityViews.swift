import Foundation
import DashWidgets

// An activity whose kind a widget bundle declares (`ActivityConfiguration`) is drawn with the
// bundle's own views, as iOS draws the app's (issue 39.4, decision 68): the extension answers the
// `activity` request with each presentation as text, and the built-in face takes those texts in
// place of its own. How it ended (✓ ✗ and the duration) stays the built-in face's.

/// An `activity` answer: what the bundle's views show, each text clean (from outside: the answer
/// is read again by whoever receives it, `cleaned()`).
public struct ActivityPresentation: Codable, Equatable, Sendable {
    /// The Lock Screen view (the detail pane's).
    public var lockScreen: String
    public var compactLeading: String
    public var compactTrailing: String
    public var minimal: String
    /// The expanded regions that have content: `leading`, `trailing`, `center`, `bottom`.
    public var expanded: [String: String]
    /// The deep link (`widgetURL` on the Lock Screen view or on the island).
    public var url: String?

    public static let regions = ["leading", "trailing", "center", "bottom"]
    /// The most characters the Lock Screen text keeps, and a region's.
    public static let maxLockScreenCharacters = 1_000
    public static let maxRegionCharacters = 120

    public init(
        lockScreen: String, compactLeading: String, compactTrailing: String, minimal: String,
        expanded: [String: String] = [:], url: String? = nil
    ) {
        (self.lockScreen, self.compactLeading, self.compactTrailing, self.minimal) =
            (lockScreen, compactLeading, compactTrailing, minimal)
        self.expanded = expanded
        self.url = url
    }

    /// An `activity` answer, checked and cleaned.
    public static func parse(_ json: JSONValue) throws -> ActivityPresentation {
        guard let o = json.object else { throw ViewJSONError("activity: the answer is an object of presentations") }
        func text(_ key: String) throws -> String {
            guard let v = o[key], v != .null else { return "" }
            guard let s = v.string else { throw ViewJSONError("activity: `\(key)` must be a string") }
            return s
        }
        var expanded: [String: String] = [:]
        if let e = o["expanded"], e != .null {
            guard let eo = e.object else { throw ViewJSONError("activity: `expanded` is an object of region: text") }
            for r in regions { if let s = eo[r]?.string { expanded[r] = s } }
        }
        return ActivityPresentation(
            lockScreen: try text("lockScreen"), compactLeading: try text("compactLeading"),
            compactTrailing: try text("compactTrailing"), minimal: try text("minimal"), expanded: expanded,
            url: try text("url").isEmpty ? nil : try text("url")
        ).cleaned()
    }

    /// Every text through the sanitiser for extension text: one line each (the Lock Screen text
    /// keeps its lines), within its length; empty regions dropped; a link with no space in it.
    public func cleaned() -> ActivityPresentation {
        func line(_ s: String, _ max: Int = ActivityPresentation.maxRegionCharacters) -> String {
            TextSanitizer.singleLine(TextSanitizer.clean(s, keepNewlines: false, maxCharacters: max))
                .trimmingCharacters(in: .whitespaces)
        }
        var regions: [String: String] = [:]
        for r in Self.regions { if let s = expanded[r].map({ line($0) }), !s.isEmpty { regions[r] = s } }
        let link = url.map { line($0, 2_000) }.flatMap { $0.isEmpty || $0.contains(" ") ? nil : $0 }
        return ActivityPresentation(
            lockScreen: TextSanitizer.clean(lockScreen, keepNewlines: true, maxCharacters: Self.maxLockScreenCharacters)
                .trimmingCharacters(in: .whitespacesAndNewlines),
            compactLeading: line(compactLeading), compactTrailing: line(compactTrailing), minimal: line(minimal, 8),
            expanded: regions, url: link)
    }

    /// The `activity` request's params for `a` at `now`: its kind and id, the attributes and the
    /// state as the activities file holds them, and whether it is stale.
    public static func request(for a: Activity, at now: Date) -> [String: JSONValue] {
        [
            "kind": .string(a.kind), "id": .string(a.id), "attributes": a.attributes, "state": a.content.state,
            "isStale": .bool(a.phase(at: now) == .stale),
        ]
    }
}

/// What one answer was asked for: the content it drew (the activity's last change, whether it
/// was stale, whether it had ended). A new key asks again; the same key never does.
public struct ActivityViewKey: Hashable, Sendable {
    public var id: String
    public var updated: Date
    public var stale: Bool
    public var ended: Bool

    public init(_ a: Activity, at now: Date) {
        id = a.id
        updated = a.updated
        stale = a.phase(at: now) == .stale
        ended = a.isEnded
    }
}

/// The bundles' drawings of the activities shown, by activity id: the latest answer of each, or
/// why its views could not draw it (the built-in face shows, saying so in the detail pane).
public struct ActivityViews: Equatable, Sendable {
    public var drawn: [String: ActivityPresentation] = [:]
    public var problems: [String: String] = [:]

    public init(drawn: [String: ActivityPresentation] = [:], problems: [String: String] = [:]) {
        self.drawn = drawn
        self.problems = problems
    }

    public var isEmpty: Bool { drawn.isEmpty && problems.isEmpty }
}

extension ActivityKinds {
    /// The face of `a` at `now`, drawn with its bundle's views where `views` has them.
    public static func face(of a: Activity, at now: Date, views: ActivityViews) -> ActivityFace {
        var f = face(of: a, at: now)
        if let p = views.drawn[a.id] {
            f = f.drawn(by: p)
        } else if let why = views.problems[a.id] {
            f.viewProblem = why
        }
        return f
    }
}

extension ActivityFace {
    /// This face with a bundle's texts in its regions. An empty region keeps the built-in text
    /// (no blank pill); an ended activity keeps its outcome mark, its duration and its minimal ✓/✗.
    public func drawn(by p: ActivityPresentation) -> ActivityFace {
        var f = self
        f.views = p
        f.viewProblem = nil
        if !p.compactLeading.isEmpty {
            f.compactLeading = outcome == nil ? p.compactLeading : "\(symbol) \(p.compactLeading)"
        }
        if outcome == nil {
            if !p.compactTrailing.isEmpty { f.compactTrailing = p.compactTrailing }
            if !p.minimal.isEmpty { f.minimal = p.minimal }
        }
        if let url = p.url { f.url = url }
        // No `title` in its record: the pane and the history name it by its compact leading view.
        if title == kind, !p.compactLeading.isEmpty { f.title = p.compactLeading }
        return f
    }
}
