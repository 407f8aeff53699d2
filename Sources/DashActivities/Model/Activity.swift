import Foundation
import DashWidgets

// A Live Activity as ActivityKit has it (issue 39): a kind, static attributes, a content state that
// changes, a stale date and a relevance score, an optional alert with an update, and a lifecycle:
// active → ended (a final content and a dismissal policy) or stale. Pure values: time is passed in.

/// How long an ended activity stays shown (ActivityKit's dismissal policy).
public enum ActivityDismissal: Equatable, Sendable, Codable {
    /// It lingers up to `ActivityBook.maxLinger` (4 hours, as on the Lock Screen).
    case `default`
    /// It is removed at once (it is still in the history).
    case immediate
    /// It is removed at this date, or 4 hours after it ended if that comes first.
    case after(Date)

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let seconds = try? c.decode(Double.self) {
            self = .after(Date(timeIntervalSince1970: seconds))
            return
        }
        switch try c.decode(String.self) {
        case "immediate": self = .immediate
        default: self = .default
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .default: try c.encode("default")
        case .immediate: try c.encode("immediate")
        case .after(let d): try c.encode(d.timeIntervalSince1970)
        }
    }
}

/// An update's alert: a title and a body shown as the strip expands, and the terminal bell where
/// the user allows it (ActivityKit's `AlertConfiguration`: title, body, sound).
public struct ActivityAlert: Equatable, Sendable, Codable {
    public var title: String
    public var body: String
    public var bell: Bool
    /// When the update that carried it was made.
    public var date: Date

    public init(title: String, body: String, bell: Bool = true, date: Date) {
        self.title = title
        self.body = body
        self.bell = bell
        self.date = date
    }
}

/// What changes as an activity goes (ActivityKit's `ActivityContent`): its state, the date after which
/// it is out of date unless updated, and how relevant it is among the others (higher first).
public struct ActivityContent: Equatable, Sendable, Codable {
    /// A JSON object; the kind decides what it means (`ActivityKinds`).
    public var state: JSONValue
    public var staleDate: Date?
    public var relevanceScore: Double

    public init(state: JSONValue, staleDate: Date? = nil, relevanceScore: Double = 0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

/// Where an activity is in its life at a given time (ActivityKit's `ActivityState`).
public enum ActivityPhase: String, Sendable, Codable, CaseIterable {
    /// Started and not ended; its content is current.
    case active
    /// Active, but its stale date has passed without an update.
    case stale
    /// Ended: shown with its final content until its dismissal policy removes it.
    case ended
    /// Ended and removed from view: only the history keeps it.
    case dismissed
}

/// A process on this boot, as /proc names it: its pid alone may be taken by another process once
/// it is gone, so its start time (clock ticks after boot) and the boot's id name it too.
public struct ActivityOwner: Equatable, Sendable, Codable {
    public var pid: Int32
    public var startTicks: UInt64
    public var boot: String

    public init(pid: Int32, startTicks: UInt64, boot: String) {
        self.pid = pid
        self.startTicks = startTicks
        self.boot = boot
    }
}

/// One activity. `ended` is nil while it runs.
public struct Activity: Equatable, Sendable, Codable, Identifiable {
    public var id: String
    public var kind: String
    /// A JSON object fixed at the start (ActivityKit's `ActivityAttributes`).
    public var attributes: JSONValue
    public var content: ActivityContent
    public var started: Date
    /// When the content last changed (the start, an update or the end).
    public var updated: Date
    public var ended: Date?
    /// Set when it ends.
    public var dismissal: ActivityDismissal?
    /// The last update's alert, if it had one.
    public var alert: ActivityAlert?
    /// Ended by the 8-hour limit, not by whoever started it.
    public var endedBySystem: Bool?
    /// The process that reports on it (`swiftdash run`, `activity watch`): when that process is
    /// gone without ending it (SIGKILL, a power cut), whoever reads the book next ends it.
    public var owner: ActivityOwner?

    public init(
        id: String, kind: String, attributes: JSONValue, content: ActivityContent, started: Date
    ) {
        self.id = id
        self.kind = kind
        self.attributes = attributes
        self.content = content
        self.started = started
        self.updated = started
    }

    public var isEnded: Bool { ended != nil }

    /// When an ended activity leaves the screen (nil while it runs).
    public var dismissAt: Date? {
        guard let ended else { return nil }
        let latest = ended.addingTimeInterval(ActivityBook.maxLinger)
        switch dismissal ?? .default {
        case .default: return latest
        case .immediate: return ended
        case .after(let d): return min(max(d, ended), latest)
        }
    }

    /// Its phase at `now`.
    public func phase(at now: Date) -> ActivityPhase {
        if let dismissAt { return now >= dismissAt ? .dismissed : .ended }
        if let stale = content.staleDate, now >= stale { return .stale }
        return .active
    }

    /// How long it ran (until now while it runs).
    public func duration(at now: Date) -> TimeInterval { max(0, (ended ?? now).timeIntervalSince(started)) }
}
