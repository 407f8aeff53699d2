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
    /// The regions that are one live timer alone (`Text(timerInterval:)`), by name: the compact
    /// ones, `minimal`, or an expanded one. Drawn counting at each second, from their dates.
    public var timers: [String: ActivityTimerText] = [:]

    public static let regions = ["leading", "trailing", "center", "bottom"]
    /// The regions a timer may stand for.
    public static let timerRegions = ["compactLeading", "compactTrailing", "minimal"] + regions
    /// The most characters the Lock Screen text keeps, and a region's.
    public static let maxLockScreenCharacters = 1_000
    public static let maxRegionCharacters = 120

    public init(
        lockScreen: String, compactLeading: String, compactTrailing: String, minimal: String,
        expanded: [String: String] = [:], url: String? = nil, timers: [String: ActivityTimerText] = [:]
    ) {
        (self.lockScreen, self.compactLeading, self.compactTrailing, self.minimal) =
            (lockScreen, compactLeading, compactTrailing, minimal)
        self.expanded = expanded
        self.url = url
        self.timers = timers
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
        var timers: [String: ActivityTimerText] = [:]
        if let t = o["timers"]?.object {
            for r in timerRegions {
                guard let d = t[r]?["date"]?.number, d.isFinite, abs(d) < 1e11 else { continue }
                timers[r] = ActivityTimerText(
                    date: Date(timeIntervalSince1970: d), countsDown: t[r]?["countsDown"]?.bool ?? true)
            }
        }
        return ActivityPresentation(
            lockScreen: try text("lockScreen"), compactLeading: try text("compactLeading"),
            compactTrailing: try text("compactTrailing"), minimal: try text("minimal"), expanded: expanded,
            url: try text("url").isEmpty ? nil : try text("url"), timers: timers
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
            expanded: regions, url: link,
            timers: timers.filter { Self.timerRegions.contains($0.key) && $0.value.date.timeIntervalSince1970.isFinite })
    }

    /// This drawing at `now`: each timer's region says its value now.
    public func resolved(at now: Date) -> ActivityPresentation {
        guard !timers.isEmpty else { return self }
        var p = self
        for (region, t) in timers {
            let value = t.text(at: now)
            switch region {
            case "compactLeading": p.compactLeading = value
            case "compactTrailing": p.compactTrailing = value
            case "minimal": p.minimal = value
            default: p.expanded[region] = value
            }
        }
        return p
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

/// A `Text(timerInterval:)` a bundle's view is made of: counting down to its date, or up from it.
public struct ActivityTimerText: Codable, Equatable, Sendable {
    public var date: Date
    public var countsDown: Bool

    public init(date: Date, countsDown: Bool) {
        self.date = date
        self.countsDown = countsDown
    }

    /// `m:ss` (`h:mm:ss` from an hour) at `now`; a countdown stops at `0:00`.
    public func text(at now: Date) -> String {
        ActivityTime.clock(countsDown ? max(0, date.timeIntervalSince(now).rounded(.up)) : now.timeIntervalSince(date))
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
            f = f.drawn(by: p.resolved(at: now))
            // A running timer counts each second.
            if f.outcome == nil, p.timers.contains(where: { !$0.value.countsDown || $0.value.date > now }) { f.ticks = true }
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
