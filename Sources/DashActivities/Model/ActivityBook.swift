import Foundation
import DashWidgets

/// Why an operation on the activities was refused; the text is for the user.
public enum ActivityError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooManyActive(Int)
    case unknown(String)
    case alreadyEnded(String)
    case duplicate(String)
    case invalid(String)

    public var description: String {
        switch self {
        case .tooManyActive(let n):
            return "\(n) activities are active, the most there may be; end one first (swiftdash activity list)"
        case .unknown(let id): return "no activity \(ActivityInput.shown(id)) (swiftdash activity list)"
        case .alreadyEnded(let id): return "activity \(ActivityInput.shown(id)) has ended"
        case .duplicate(let id): return "an activity \(ActivityInput.shown(id)) exists already"
        case .invalid(let why): return why
        }
    }
}

/// Every activity the state folder keeps: those shown (active, and ended ones until dismissed) and a
/// bounded history of those dismissed. Every operation first `settle`s the book at `now`, so the
/// limits hold whoever looks: an activity active for 8 hours ends itself, a dismissed one moves
/// to the history.
public struct ActivityBook: Equatable, Sendable, Codable {
    /// At most this many active at once (ActivityKit: 5 per app).
    public static let maxActive = 5
    /// An active activity ends itself after 8 hours, as on iOS.
    public static let maxLifetime: TimeInterval = 8 * 3600
    /// An ended one is shown at most 4 hours.
    public static let maxLinger: TimeInterval = 4 * 3600
    /// The history keeps this many dismissed activities, newest first.
    public static let maxHistory = 50
    /// At most this many ended activities stay shown; an older one goes to the history at once
    /// (a `run` around every command would otherwise pile up four hours of them).
    public static let maxEndedShown = 5
    /// The version of the file's format.
    public static let currentVersion = 1

    public var version = ActivityBook.currentVersion
    /// Shown now or until dismissed, in start order.
    public var activities: [Activity] = []
    /// Dismissed, newest first.
    public var history: [Activity] = []

    public init(activities: [Activity] = [], history: [Activity] = []) {
        self.activities = activities
        self.history = history
    }

    public subscript(id: String) -> Activity? {
        activities.first { $0.id == id } ?? history.first { $0.id == id }
    }

    /// The active ones (stale included).
    public var active: [Activity] { activities.filter { !$0.isEnded } }

    /// Applies the limits at `now`: ends what ran 8 hours, moves what was dismissed to the history.
    /// Returns whether anything changed.
    @discardableResult
    public mutating func settle(at now: Date) -> Bool {
        var changed = false
        for i in activities.indices where !activities[i].isEnded {
            let limit = activities[i].started.addingTimeInterval(Self.maxLifetime)
            if now >= limit {
                activities[i].ended = limit
                activities[i].updated = limit
                activities[i].dismissal = .default
                activities[i].endedBySystem = true
                changed = true
            }
        }
        var goneIDs = Set(activities.filter { $0.phase(at: now) == .dismissed }.map(\.id))
        let lingering = activities.filter { $0.isEnded && !goneIDs.contains($0.id) }
        if lingering.count > Self.maxEndedShown {
            let newestFirst = lingering.sorted { ($0.ended ?? now, $0.id) > ($1.ended ?? now, $1.id) }
            goneIDs.formUnion(newestFirst.dropFirst(Self.maxEndedShown).map(\.id))
        }
        let gone = activities.filter { goneIDs.contains($0.id) }
        if !gone.isEmpty {
            activities.removeAll { goneIDs.contains($0.id) }
            history.insert(contentsOf: gone.sorted { ($0.ended ?? $0.started) > ($1.ended ?? $1.started) }, at: 0)
            changed = true
        }
        if history.count > Self.maxHistory {
            history.removeLast(history.count - Self.maxHistory)
            changed = true
        }
        return changed
    }

    /// Ends every active activity whose owner `isGone` says is gone (its `swiftdash run` or `watch`
    /// was killed, or the machine restarted): its last content stays, marked `outcome: lost`.
    /// Returns whether anything changed.
    @discardableResult
    public mutating func endOrphans(at now: Date, isGone: (ActivityOwner) -> Bool) -> Bool {
        var changed = false
        for i in activities.indices where !activities[i].isEnded {
            guard let owner = activities[i].owner, isGone(owner) else { continue }
            var state = activities[i].content.state.object ?? [:]
            state["outcome"] = .string("lost")
            activities[i].content.state = .object(state)
            activities[i].ended = now
            activities[i].updated = now
            activities[i].dismissal = .default
            changed = true
        }
        return changed
    }

    /// Starts an activity (its id chosen by the caller, unique). Refused when 5 are active.
    /// `since`: when what it stands for began, if before now (a command that ran a moment before
    /// it was worth showing).
    public mutating func start(_ activity: Activity, at now: Date, since: Date? = nil) throws(ActivityError) {
        settle(at: now)
        guard self[activity.id] == nil else { throw .duplicate(activity.id) }
        guard active.count < Self.maxActive else { throw .tooManyActive(active.count) }
        var a = activity
        a.started = min(since ?? now, now)
        a.updated = now
        a.ended = nil
        a.dismissal = nil
        a.alert = nil
        activities.append(a)
    }

    /// A new content for an active activity, with an alert when given.
    public mutating func update(
        _ id: String, content: ActivityContent, alert: ActivityAlert? = nil, at now: Date
    ) throws(ActivityError) {
        settle(at: now)
        guard let i = activities.firstIndex(where: { $0.id == id }) else {
            throw history.contains { $0.id == id } ? .alreadyEnded(id) : .unknown(id)
        }
        guard !activities[i].isEnded else { throw .alreadyEnded(id) }
        activities[i].content = content
        activities[i].updated = now
        activities[i].alert = alert
    }

    /// Ends an activity, with its final content when given, and how long it stays shown.
    public mutating func end(
        _ id: String, content: ActivityContent? = nil, dismissal: ActivityDismissal = .default,
        alert: ActivityAlert? = nil, at now: Date
    ) throws(ActivityError) {
        settle(at: now)
        guard let i = activities.firstIndex(where: { $0.id == id }) else {
            throw history.contains { $0.id == id } ? .alreadyEnded(id) : .unknown(id)
        }
        guard !activities[i].isEnded else { throw .alreadyEnded(id) }
        if let content { activities[i].content = content }
        activities[i].ended = now
        activities[i].updated = now
        activities[i].dismissal = dismissal
        activities[i].alert = alert
        settle(at: now)
    }

    /// The activities shown at `now`, the most relevant first: the higher relevance score, then the
    /// latest change (an activity that just ended comes forward to say how it ended).
    public func shown(at now: Date) -> [Activity] {
        var book = self
        book.settle(at: now)
        return book.activities.sorted {
            if $0.content.relevanceScore != $1.content.relevanceScore {
                return $0.content.relevanceScore > $1.content.relevanceScore
            }
            if $0.updated != $1.updated { return $0.updated > $1.updated }
            return $0.id < $1.id
        }
    }

    /// The one the strip and the status line show compact.
    public func mostRelevant(at now: Date) -> Activity? { shown(at: now).first }

    /// What ended, newest first: those still shown and the history.
    public func endedList(at now: Date) -> [Activity] {
        var book = self
        book.settle(at: now)
        let shownEnded = book.activities.filter(\.isEnded).sorted { ($0.ended ?? now) > ($1.ended ?? now) }
        return shownEnded + book.history
    }

    /// The next moment something changes without an update (a stale date, the 8-hour end, a
    /// dismissal), after `now`; nil when nothing will. A home screen sleeps until then.
    public func nextChange(after now: Date) -> Date? {
        var dates: [Date] = []
        for a in activities {
            if let d = a.dismissAt {
                dates.append(d)
            } else {
                dates.append(a.started.addingTimeInterval(Self.maxLifetime))
                if let s = a.content.staleDate { dates.append(s) }
            }
        }
        return dates.filter { $0 > now }.min()
    }
}

extension ActivityBook {
    /// The book as the state folder keeps it: JSON, dates in seconds since 1970.
    public func encoded() -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .secondsSince1970
        return (try? e.encode(self)) ?? Data("{}".utf8)
    }

    /// The most bytes a book's file may have (5 active and 50 past activities of at most 8 KB each).
    public static let maxFileBytes = 1 << 20

    /// Reads a book; a file that is not one (or too large) is an error that says why.
    public static func decode(_ data: Data) throws(ActivityError) -> ActivityBook {
        guard data.count <= maxFileBytes else { throw .invalid("the activities file is over \(maxFileBytes) bytes") }
        if data.isEmpty { return ActivityBook() }
        do { try JSONValue.checkLimits(data, maxBytes: maxFileBytes, maxDepth: 32) } catch {
            throw .invalid("the activities file: \(error)")
        }
        let d = JSONDecoder()
        d.dateDecodingStrategy = .secondsSince1970
        guard let book = try? d.decode(ActivityBook.self, from: data) else {
            throw .invalid("the activities file is not a list of activities")
        }
        guard book.version <= currentVersion else {
            throw .invalid("the activities file is of a newer swiftdash (format \(book.version))")
        }
        return book
    }
}
