import Foundation
import DashWidgets

/// Glasses drunk, kept per instance in the state directory and written by the Drank button.
public struct WaterState: Codable, Hashable, Sendable {
    /// The day the count is for (`2026-11-23` in the user's zone); another day starts at 0.
    public var day = ""
    public var glasses = 0
    public var lastDrink: Date?
    public init() {}
}

/// One moment of the water reminder: waiting for the next reminder, due, or quiet at night.
public struct WaterEntry: TimelineEntry, Hashable {
    public enum Mode: String, Codable, Sendable { case waiting, due, night }
    public var date: Date
    public var mode: Mode
    public var glasses: Int
    public var goal: Int
    /// Minutes between reminders.
    public var interval: Int
    public var lastDrink: Date?
    /// Waiting: when the next reminder comes.
    public var nextDue: Date?
    /// Due: since when.
    public var dueSince: Date?
    /// Night: when reminders start again.
    public var quietUntil: Date?
    /// The waking hours, as configured (`08:00`, `22:00`).
    public var wake: String
    public var sleep: String
    /// The reminders of the current waking day, past ones included.
    public var reminders: [Date]
    /// The user's time zone, for the summary `swiftdash timeline` prints.
    public var zone: String

    public var relevance: Relevance? {
        mode == .due ? Relevance(score: 0.9, duration: Double(interval) * 60) : nil
    }

    public var summary: String {
        let count = "\(glasses)/\(goal) glasses"
        let tz = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!
        func local(_ d: Date?) -> String { d.map { LocalDay.time($0, tz) + " " + zone } ?? "—" }
        switch mode {
        case .waiting: return "\(count); next reminder \(local(nextDue))"
        case .due: return "\(count); a glass is due"
        case .night: return "\(count); quiet, no reloads until \(local(quietUntil))"
        }
    }
}

public enum WaterAction: Codable, Sendable, Hashable {
    /// A glass: the count goes up, the interval starts again.
    case drank
    /// Puts a saved state back (the undo of `drank`).
    case restore(WaterState)
}

/// Reminds to drink every `interval` minutes during the waking hours and keeps quiet at night
/// (seeds chapter 16: the timeline holds the day's reminders, and the only reload is at the
/// next waking time — none at night, which saves the budget).
public struct WaterProvider: TimelineProvider {
    public init() {}

    static let kind = "water"

    struct Settings {
        var interval: Int
        var goal: Int
        var wake: (Int, Int)
        var sleep: (Int, Int)
        var wakeText: String
        var sleepText: String
    }

    static func hhmm(_ s: String, _ fallback: (Int, Int)) -> (Int, Int) {
        let p = s.split(separator: ":")
        guard p.count == 2, let h = Int(p[0]), let m = Int(p[1]), (0...23).contains(h), (0...59).contains(m) else {
            return fallback
        }
        return (h, m)
    }

    static func settings(_ config: WidgetConfig) -> Settings {
        let wake = hhmm(config.string("wake"), (8, 0)), sleep = hhmm(config.string("sleep"), (22, 0))
        func text(_ t: (Int, Int)) -> String { FixedFormat.zeroPadded(t.0) + ":" + FixedFormat.zeroPadded(t.1) }
        return Settings(
            interval: min(480, max(15, config.int("interval") ?? 120)),
            goal: min(30, max(1, config.int("goal") ?? 8)),
            wake: wake, sleep: sleep, wakeText: text(wake), sleepText: text(sleep))
    }

    /// The waking hours of the day `day` falls on: from `wake` to `sleep` (the next day when
    /// `sleep` is not after `wake`), as instants in `zone` (DST-aware).
    static func window(day: Date, _ s: Settings, _ zone: TimeZone) -> (start: Date, end: Date) {
        let cal = LocalDay.calendar(zone)
        let midnight = cal.startOfDay(for: day)
        func at(_ t: (Int, Int), plusDays: Int) -> Date {
            let base = cal.date(byAdding: .day, value: plusDays, to: midnight) ?? midnight
            var c = cal.dateComponents([.year, .month, .day], from: base)
            c.hour = t.0
            c.minute = t.1
            return cal.date(from: c) ?? base
        }
        let start = at(s.wake, plusDays: 0)
        let overnight = s.sleep.0 * 60 + s.sleep.1 <= s.wake.0 * 60 + s.wake.1
        return (start, at(s.sleep, plusDays: overnight ? 1 : 0))
    }

    /// The waking hours under way at `now`, or the next ones.
    static func currentWindow(_ now: Date, _ s: Settings, _ zone: TimeZone) -> (start: Date, end: Date) {
        let cal = LocalDay.calendar(zone)
        let today = cal.startOfDay(for: now)
        for offset in -1...2 {
            let day = cal.date(byAdding: .day, value: offset, to: today) ?? today
            let w = window(day: day, s, zone)
            if w.end > now { return w }
        }
        return window(day: now.addingTimeInterval(86_400), s, zone)
    }

    static func state(_ context: TimelineContext) -> WaterState {
        WidgetStateStore.load(WaterState.self, kind: kind, context) ?? WaterState()
    }

    public func placeholder(in context: TimelineContext) -> WaterEntry {
        Self.entries(WaterState(), WidgetConfig(), now: context.now, zone: context.timeZone).entries[0]
    }

    public func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> WaterEntry {
        var state = context.isPreview ? WaterState() : Self.state(context)
        if context.isPreview {
            // Sample: three glasses, the last one 40 minutes ago.
            state.day = LocalDay.key(context.now, context.timeZone)
            state.glasses = 3
            state.lastDrink = context.now.addingTimeInterval(-40 * 60)
        }
        let t = Self.entries(state, configuration, now: context.now, zone: context.timeZone)
        return t.entries.last { $0.date <= context.now } ?? t.entries[0]
    }

    public func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws
        -> Timeline<WaterEntry>
    {
        let t = Self.entries(Self.state(context), configuration, now: context.now, zone: context.timeZone)
        return Timeline(entries: t.entries, policy: .after(t.reload))
    }

    /// The entries from `now` to the next waking time, and that time (the one reload).
    static func entries(_ state: WaterState, _ config: WidgetConfig, now: Date, zone: TimeZone)
        -> (entries: [WaterEntry], reload: Date)
    {
        let s = settings(config)
        let step = Double(s.interval) * 60
        let w = currentWindow(now, s, zone)
        func glasses(at d: Date) -> Int { state.day == LocalDay.key(d, zone) ? state.glasses : 0 }
        func entry(_ d: Date, _ mode: WaterEntry.Mode) -> WaterEntry {
            WaterEntry(
                date: d, mode: mode, glasses: glasses(at: d), goal: s.goal, interval: s.interval,
                lastDrink: state.lastDrink, nextDue: nil, dueSince: nil, quietUntil: nil, wake: s.wakeText,
                sleep: s.sleepText, reminders: [], zone: zone.identifier)
        }
        /// Night from `from` until `until`: one entry, and one more at each midnight (the count
        /// of glasses starts again), no reload.
        func night(from: Date, until: Date, reminders: [Date]) -> [WaterEntry] {
            var out: [WaterEntry] = []
            var d = from
            while d < until {
                var e = entry(d, .night)
                e.quietUntil = until
                e.reminders = reminders
                out.append(e)
                d = LocalDay.nextMidnight(after: d, zone)
            }
            return out
        }
        guard now >= w.start else {
            // Before the waking hours: quiet until they begin, then reload once.
            return (night(from: now, until: w.start, reminders: []), w.start)
        }
        // The reminders of this waking day: every interval from the last glass drunk in it,
        // else from the start of the day (a glass is due on waking).
        let anchor = state.lastDrink.flatMap { $0 >= w.start && $0 <= now ? $0 : nil }
        var reminders: [Date] = []
        var d = anchor.map { $0.addingTimeInterval(step) } ?? w.start
        while d < w.end {
            reminders.append(d)
            d = d.addingTimeInterval(step)
        }
        var out: [WaterEntry] = []
        let past = reminders.last { $0 <= now }
        var first = entry(now, past == nil ? .waiting : .due)
        first.dueSince = past
        first.nextDue = reminders.first { $0 > now }
        first.reminders = reminders
        out.append(first)
        for r in reminders where r > now {
            var e = entry(r, .due)
            e.dueSince = r
            e.nextDue = reminders.first { $0 > r }
            e.reminders = reminders
            out.append(e)
        }
        let next = currentWindow(w.end, s, zone)
        out += night(from: w.end, until: next.start, reminders: reminders)
        return (out, next.start)
    }

    static func perform(_ action: WaterAction, _ context: TimelineContext) throws -> WaterAction? {
        let old = state(context)
        switch action {
        case .drank:
            let today = LocalDay.key(context.now, context.timeZone)
            var s = WaterState()
            s.day = today
            s.glasses = (old.day == today ? old.glasses : 0) + 1
            s.lastDrink = context.now
            try WidgetStateStore.save(s, kind: kind, context)
            return .restore(old)
        case .restore(let saved):
            try WidgetStateStore.save(saved, kind: kind, context)
            return .restore(old)
        }
    }
}

public enum WaterWidget {
    public static let schema = ConfigurationSchema([
        Parameter(
            key: "interval", title: "Every (minutes)", help: "Minutes between reminders.",
            kind: .integer(15...480), default: .int(120)),
        Parameter(
            key: "wake", title: "From", help: "When the waking hours begin (HH:MM, your time zone).",
            kind: .string(pattern: #"([01][0-9]|2[0-3]):[0-5][0-9]"#), default: .string("08:00")
        ).allowing("a time of day as HH:MM, such as 08:00"),
        Parameter(
            key: "sleep", title: "Until", help: "When they end; no reminders and no reloads until the next day.",
            kind: .string(pattern: #"([01][0-9]|2[0-3]):[0-5][0-9]"#), default: .string("22:00")
        ).allowing("a time of day as HH:MM, such as 22:00"),
        Parameter(
            key: "goal", title: "Glasses a day", help: "How many glasses make the day's goal.",
            kind: .integer(1...30), default: .int(8)),
    ])

    public static let widget = Widget(
        kind: "water", displayName: "Water",
        description: "Reminds you to drink a glass of water every 2 hours, and keeps quiet at night.",
        supportedFamilies: [.small, .medium, .large],
        schema: schema, cost: .local, timeout: 5,
        provider: WaterProvider(),
        view: { entry, context in WaterViews.view(entry, context) },
        detail: { _, entry, context in WaterViews.detail(entry, context) }
    )
    .actions(WaterAction.self, timeout: 5) { action, _, context in
        try WaterProvider.perform(action, context)
    }
}
