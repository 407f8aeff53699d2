import Foundation

/// How relevant an entry is, for Smart Rotate: a score (higher wins) and optionally how
/// long, from the entry's date, the score holds.
public struct Relevance: Codable, Hashable, Sendable {
    public var score: Double
    public var duration: TimeInterval?
    /// Why the entry matters, in words ("BTC moved +6.1% in 24 h"): Smart Rotate's explanation.
    public var reason: String?
    /// The score counts only until the user has seen this entry's content (`TimelineEntry.contentID`):
    /// "a top story not seen before".
    public var untilSeen: Bool
    public init(score: Double, duration: TimeInterval? = nil, reason: String? = nil, untilSeen: Bool = false) {
        self.score = score
        self.duration = duration
        self.reason = reason
        self.untilSeen = untilSeen
    }

    enum CodingKeys: String, CodingKey { case score, duration, reason, untilSeen }

    /// Reads relevance written before `reason` and `untilSeen` existed.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        score = try c.decode(Double.self, forKey: .score)
        duration = try c.decodeIfPresent(TimeInterval.self, forKey: .duration)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        untilSeen = try c.decodeIfPresent(Bool.self, forKey: .untilSeen) ?? false
    }
}

/// One moment of a widget's timeline: the data a view draws from, valid from `date` on.
public protocol TimelineEntry: Codable, Sendable {
    var date: Date { get }
    var relevance: Relevance? { get }
    /// One line that says what the entry shows, for `swiftdash timeline`.
    var summary: String { get }
    /// What the entry shows that the user would call new when it changes (the top story's id, the
    /// newest commit's hash), without what changes on every load (a price). Attention marks a tile
    /// whose content differs from what it showed when the user last focused it. Nil: never "new".
    var contentID: String? { get }
    /// Ring the terminal bell when this entry comes on screen (a timer's step change).
    var ringsBell: Bool { get }
}

extension TimelineEntry {
    public var ringsBell: Bool { false }
    public var relevance: Relevance? { nil }
    public var summary: String { "" }
    public var contentID: String? { nil }
}

/// When the scheduler should ask the provider for a new timeline.
public enum ReloadPolicy: Hashable, Sendable, Codable, CustomStringConvertible {
    /// When the last entry becomes current.
    case atEnd
    /// At this date.
    case after(Date)
    /// Only when asked (edit, manual reload, WidgetCenter).
    case never

    public var description: String {
        switch self {
        case .atEnd: return "atEnd"
        case .after(let d): return "after(\(d.formatted(.iso8601)))"
        case .never: return "never"
        }
    }
}

/// Entries and a reload policy, as a provider returns them.
public struct Timeline<Entry: TimelineEntry>: Sendable {
    public var entries: [Entry]
    public var policy: ReloadPolicy
    public init(entries: [Entry], policy: ReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}

/// A type-erased entry, so one scheduler can hold every kind's timelines.
public struct AnyEntry: Sendable {
    public let base: any TimelineEntry
    public init(_ base: any TimelineEntry) { self.base = base }
    public var date: Date { base.date }
    public var relevance: Relevance? { base.relevance }
    public var summary: String { base.summary }
    public var contentID: String? { base.contentID }
}

/// A type-erased timeline.
public struct AnyTimeline: Sendable {
    public var entries: [AnyEntry]
    public var policy: ReloadPolicy
    public init(entries: [AnyEntry], policy: ReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }

    /// The entry to show at `now`: the latest whose date is not in the future. With
    /// equal dates the later one in the list wins. Nil when every entry is in the future.
    public func entry(at now: Date) -> AnyEntry? {
        var best: AnyEntry? = nil
        for e in entries where e.date <= now {
            if best == nil || e.date >= best!.date { best = e }
        }
        return best
    }
}

/// The light or dark appearance a view is drawn for.
public enum ColorScheme: String, Codable, Sendable { case dark, light }

/// What a provider and a view know about where they are drawn.
public struct TimelineContext: Sendable {
    public var family: WidgetFamily
    /// Room for the content, in terminal cells.
    public var size: (width: Int, height: Int)
    /// True in the gallery and `swiftdash preview`: return sample data at once.
    public var isPreview: Bool
    public var colorScheme: ColorScheme
    /// The time the provider or view is asked at (the scheduler's clock, never the system's).
    public var now: Date
    /// The user's time zone (passed in: providers never read the system's).
    public var timeZone: TimeZone
    /// Environment variables a provider may read for secrets (API keys), passed in.
    public var environment: [String: String]
    /// The instance asked for ("w3"), so a widget with state of its own (a running timer)
    /// keeps one per instance; nil in previews and one-off renders.
    public var instanceID: String? = nil
    /// A directory where a widget may keep that state between runs (in the cache directory);
    /// nil when there is none (tests, previews): such a widget then keeps no state.
    public var stateDirectory: String? = nil

    public init(
        family: WidgetFamily, size: (width: Int, height: Int) = (0, 0), now: Date, isPreview: Bool = false,
        colorScheme: ColorScheme = .dark,
        timeZone: TimeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!,
        environment: [String: String] = [:]
    ) {
        self.family = family
        self.size = size
        self.now = now
        self.isPreview = isPreview
        self.colorScheme = colorScheme
        self.timeZone = timeZone
        self.environment = environment
    }
}
