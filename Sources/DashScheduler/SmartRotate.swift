import Foundation
import DashWidgets

/// The rules of Smart Rotate for one stack; `home.yaml` sets `dwell` and `pause` per stack.
public struct SmartRotateSettings: Sendable, Hashable {
    /// The least time an item stays after any change (automatic or manual).
    public var dwell: TimeInterval
    /// How long a manual rotation (`<` `>`, the wheel) keeps Smart Rotate away from the stack.
    public var pause: TimeInterval
    /// How much more the best item must score than the shown one to replace it.
    public var margin: Double
    /// What use adds at most to an item's score (relevance is 0–1).
    public var useWeight: Double
    /// Use halves over this time.
    public var halfLife: TimeInterval
    /// Use decays in whole steps of this length (aligned to 1970), so it changes at step
    /// boundaries only and the loop never has to wake for a continuous decay.
    public var useStep: TimeInterval

    public init(
        dwell: TimeInterval = 15 * 60, pause: TimeInterval = 3600, margin: Double = 0.1,
        useWeight: Double = 0.3, halfLife: TimeInterval = 3 * 86_400, useStep: TimeInterval = 86_400
    ) {
        self.dwell = dwell
        self.pause = pause
        self.margin = margin
        self.useWeight = useWeight
        self.halfLife = halfLife
        self.useStep = useStep
    }

    public static let standard = SmartRotateSettings()

    /// The index of the decay step `date` falls in.
    public func step(of date: Date) -> Int {
        let x = (date.timeIntervalSince1970 / useStep).rounded(.down)
        return Int(clamping: x, to: -1_000_000_000_000_000...1_000_000_000_000_000)
    }

    /// When the step after the one `date` falls in begins.
    public func nextStep(after date: Date) -> Date {
        Date(timeIntervalSince1970: Double(step(of: date) + 1) * useStep)
    }
}

/// How often the user opened (tapped) or rotated to an item, decayed with a half-life. The
/// value is kept as of one decay step; reading it at a later step decays it.
public struct UseRecord: Codable, Sendable, Hashable {
    public var value: Double
    /// The decay step `value` is valid for (`SmartRotateSettings.step(of:)`).
    public var step: Int

    public init(value: Double = 0, step: Int = 0) {
        self.value = value
        self.step = step
    }

    /// The decayed count at `date`.
    public func value(at date: Date, _ settings: SmartRotateSettings = .standard) -> Double {
        guard value > 0, value.isFinite else { return 0 }
        let k = settings.step(of: date) - step
        guard k > 0 else { return value }
        return value * pow(0.5, Double(k) * settings.useStep / settings.halfLife)
    }

    /// Counts one more use at `date`.
    public mutating func add(_ amount: Double = 1, at date: Date, _ settings: SmartRotateSettings = .standard) {
        let now = settings.step(of: date)
        value = value(at: date, settings) + amount
        step = max(step, now)
    }

    /// What use adds to an item's score before the weight: 0 for none, towards 1 for much
    /// (2 uses give 0.5).
    public static func score(_ value: Double) -> Double { value > 0 ? value / (value + 2) : 0 }
}

/// One entry of a stack item's timeline, as Smart Rotate sees it.
public struct RotationEntry: Sendable, Hashable {
    public var date: Date
    public var relevance: Relevance?
    /// The user has already seen this entry's content: a relevance that holds only until seen is 0.
    public var seen: Bool

    public init(date: Date, relevance: Relevance?, seen: Bool = false) {
        self.date = date
        self.relevance = relevance
        self.seen = seen
    }
}

/// One item of a stack: its timeline (sorted by date, equal dates in list order) and use.
public struct SmartRotateItem: Sendable, Hashable {
    public var id: String
    public var entries: [RotationEntry]
    public var use: UseRecord

    public init(id: String, entries: [RotationEntry], use: UseRecord = UseRecord()) {
        self.id = id
        self.entries = entries
        self.use = use
    }
}

/// What keeps Smart Rotate from moving a stack right now.
public enum SmartRotateBlock: String, Sendable, Hashable {
    /// The user has the stack focused.
    case focused
    /// A pane (detail, help, a form) is open over the home screen.
    case pane
}

/// Everything one decision depends on.
public struct SmartRotateInput: Sendable, Hashable {
    public var items: [SmartRotateItem]
    /// The index of the item shown.
    public var current: Int
    /// When the shown item last changed (automatically or by hand); nil: not since the start.
    public var lastChange: Date?
    /// A manual rotation keeps Smart Rotate away until this date.
    public var pinnedUntil: Date?
    public var blocked: SmartRotateBlock?
    public var enabled: Bool
    public var now: Date
    public var settings: SmartRotateSettings

    public init(
        items: [SmartRotateItem], current: Int, lastChange: Date? = nil, pinnedUntil: Date? = nil,
        blocked: SmartRotateBlock? = nil, enabled: Bool = true, now: Date,
        settings: SmartRotateSettings = .standard
    ) {
        self.items = items
        self.current = current
        self.lastChange = lastChange
        self.pinnedUntil = pinnedUntil
        self.blocked = blocked
        self.enabled = enabled
        self.now = now
        self.settings = settings
    }
}

/// An item's scores at the decision's time.
public struct SmartRotateScore: Sendable, Hashable {
    /// The current entry's relevance score (0 when it has none, it expired, or it was seen).
    public var relevance: Double
    /// The relevance's reason, when it counts.
    public var reason: String?
    /// The current entry's relevance was one that holds until seen, and the user saw it.
    public var seen: Bool
    /// The decayed use count.
    public var use: Double
    /// relevance + useWeight × UseRecord.score(use): what the items are compared by.
    public var combined: Double
}

/// Why the decision is what it is.
public enum SmartRotateWhy: Sendable, Hashable {
    /// `smartRotate: false` for this stack.
    case off
    /// Nothing to rotate.
    case single
    case blocked(SmartRotateBlock)
    /// A manual rotation wins until this date.
    case pinned(until: Date)
    /// The shown item changed less than the dwell ago; it stays until this date.
    case dwell(until: Date)
    /// The shown item scores higher than the one shown before by more than the margin.
    case switched(from: Int)
    /// The shown item scores highest (a tie keeps it).
    case best
    /// Another item scores higher, but not by the margin.
    case withinMargin(best: Int)
}

/// What to show, why, and when to ask again.
public struct SmartRotateDecision: Sendable, Hashable {
    /// The index of the item to show.
    public var show: Int
    public var why: SmartRotateWhy
    /// Every item's scores, in the items' order.
    public var scores: [SmartRotateScore]
    /// The first date after `now` at which the answer can change without any event (an entry
    /// date, a relevance ending, the dwell or pause ending, a use decay step); nil: only an
    /// event (a key, a new timeline) can change it.
    public var nextDecision: Date?
}

/// Smart Rotate: which item of a stack to show. A pure function of the stack's timelines, use,
/// last change, manual pin, blocking and `now`. It changes its answer only at the dates it
/// returns as `nextDecision` (or when its input changes), so asking more often changes nothing.
public enum SmartRotate {
    /// A float slack for comparisons: equal scores computed two ways are a tie.
    static let epsilon = 1e-9

    public static func decide(_ input: SmartRotateInput) -> SmartRotateDecision {
        let now = input.now
        let s = input.settings
        let n = input.items.count
        let current = n == 0 ? 0 : min(max(0, input.current), n - 1)
        let scores = input.items.map { score($0, at: now, s) }
        func keep(_ why: SmartRotateWhy, _ next: Date?) -> SmartRotateDecision {
            SmartRotateDecision(show: current, why: why, scores: scores, nextDecision: next)
        }
        guard input.enabled else { return keep(.off, nil) }
        guard n > 1 else { return keep(.single, nil) }
        if let b = input.blocked { return keep(.blocked(b), nil) }
        if let p = input.pinnedUntil, now < p { return keep(.pinned(until: p), p) }
        if let last = input.lastChange {
            let end = last.addingTimeInterval(max(0, s.dwell))
            if now < end { return keep(.dwell(until: end), end) }
        }
        var best = current
        for i in scores.indices where scores[i].combined > scores[best].combined + epsilon { best = i }
        if best != current && scores[best].combined - scores[current].combined > s.margin + epsilon {
            let next = s.dwell > 0 ? now.addingTimeInterval(s.dwell) : nextChange(input.items, after: now, s)
            return SmartRotateDecision(show: best, why: .switched(from: current), scores: scores, nextDecision: next)
        }
        return keep(best == current ? .best : .withinMargin(best: best), nextChange(input.items, after: now, s))
    }

    /// An item's scores at `date`.
    public static func score(_ item: SmartRotateItem, at date: Date, _ s: SmartRotateSettings) -> SmartRotateScore {
        let (rel, reason, seen) = relevance(item.entries, at: date)
        let use = item.use.value(at: date, s)
        let combined = rel + max(0, s.useWeight) * UseRecord.score(use)
        return SmartRotateScore(relevance: rel, reason: reason, seen: seen, use: use, combined: combined)
    }

    /// The index of the entry current at `date`: the last whose date is not after it (equal
    /// dates: the later in the list), -1 if none.
    static func currentIndex(_ entries: [RotationEntry], at date: Date) -> Int {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].date <= date { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    /// The current entry's relevance at `date`: its score (clamped to 0–1) while `date` is
    /// before `entry.date + duration` (no duration: until the next entry), else 0.
    public static func relevance(_ entries: [RotationEntry], at date: Date) -> (Double, String?, Bool) {
        let i = currentIndex(entries, at: date)
        guard i >= 0, let r = entries[i].relevance else { return (0, nil, false) }
        if let d = r.duration, date >= entries[i].date.addingTimeInterval(d) { return (0, nil, false) }
        if r.untilSeen && entries[i].seen { return (0, nil, true) }
        guard r.score.isFinite, r.score > 0 else { return (0, nil, false) }
        return (min(1, r.score), r.reason, false)
    }

    /// Whether an entry's relevance can count at all (a positive score, not already seen).
    static func mayCount(_ e: RotationEntry) -> Bool {
        guard let r = e.relevance, r.score.isFinite, r.score > 0 else { return false }
        return !(r.untilSeen && e.seen) && (r.duration ?? 1) > 0
    }

    /// The first date after `now` at which any item's relevance or use can change.
    static func nextChange(_ items: [SmartRotateItem], after now: Date, _ s: SmartRotateSettings) -> Date? {
        var next: Date? = nil
        func note(_ d: Date) { if d > now, next == nil || d < next! { next = d } }
        for item in items {
            let entries = item.entries
            let i = currentIndex(entries, at: now)
            let counts = relevance(entries, at: now).0 > 0
            if counts, let d = entries[i].relevance?.duration { note(entries[i].date.addingTimeInterval(d)) }
            // The next entry that can change the score: any while this one counts, else the next
            // that brings a relevance (a clock's minute entries wake nothing).
            var j = i + 1
            while j < entries.count && !counts && !mayCount(entries[j]) { j += 1 }
            if j < entries.count { note(entries[j].date) }
        }
        // Use decays alike for every item: it can reorder them only when their uses differ.
        let uses = items.map { $0.use.value(at: now, s) }
        if let lo = uses.min(), let hi = uses.max(), hi > lo + epsilon { note(s.nextStep(after: now)) }
        return next
    }
}

extension Scheduler {
    /// An instance's timeline entries, sorted by date (equal dates in the provider's order);
    /// empty before its first timeline.
    public func timelineEntries(_ id: InstanceID) -> [AnyEntry] {
        slotOf[id].map { slots[$0].entries } ?? []
    }

    /// The entry an instance shows at `now`; nil while it shows its placeholder (cheaper than
    /// `currentEntry`, which makes the placeholder).
    public func shownEntry(_ id: InstanceID, at now: Date) -> AnyEntry? {
        slotOf[id].flatMap { slots[$0].visible(now: now)?.entry }
    }
}
