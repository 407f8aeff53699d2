import Foundation
internal import DashWidgets
internal import DashActivities
internal import DashActivityFiles

// ActivityKit as an app writes it (issue 39.4): `ActivityAttributes` with a `ContentState`,
// `Activity<Attributes>.request(attributes:content:)`, `update`, `end`. A request, an update and
// an end are the same changes `swiftdash activity start|update|end` makes: the activities file in
// the state folder (activities.json), so the home screen shows them however they were started.
// The kind is the attributes type's name as swiftdash writes kinds (`DeliveryAttributes` is
// `delivery-attributes`); the attributes and the state are stored as the JSON their Codable
// conformance writes, so the built-in faces read `title`, `status`, `progress`, `eta`, … from them.

/// The static data of an activity, and the type of what changes (`ContentState`).
public protocol ActivityAttributes: Codable {
    associatedtype ContentState: Codable & Hashable
}

/// A content state with its stale date and relevance.
public struct ActivityContent<State: Codable & Hashable>: Hashable {
    public var state: State
    public var staleDate: Date?
    public var relevanceScore: Double

    public init(state: State, staleDate: Date?, relevanceScore: Double = 0) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

/// Where an activity is in its life.
public enum ActivityState: Hashable, Sendable {
    case active, ended, dismissed, stale, pending
}

/// How long an ended activity stays shown.
public enum ActivityUIDismissalPolicy: Hashable, Sendable {
    case `default`, immediate
    case after(Date)
}

/// An update's alert: its title and body show as the strip expands; a sound rings the bell.
public struct AlertConfiguration: Sendable {
    public struct AlertSound: Sendable, Hashable {
        let rings: Bool
        public static let `default` = AlertSound(rings: true)
        public static func named(_ name: String) -> AlertSound { AlertSound(rings: true) }
    }
    public var title: String
    public var body: String
    public var sound: AlertSound

    public init(title: LocalizedStringResource, body: LocalizedStringResource, sound: AlertSound) {
        self.title = title.text
        self.body = body.text
        self.sound = sound
    }
}

/// Why a request was refused.
public enum ActivityAuthorizationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 5 activities are active already.
    case targetMaximumExceeded
    case attributesTooLarge
    case persistenceFailure(String)
    public var description: String {
        switch self {
        case .targetMaximumExceeded: return "5 activities are active, the most there may be"
        case .attributesTooLarge: return "the attributes or the state are over 4 KB as JSON"
        case .persistenceFailure(let why): return why
        }
    }
}

/// What `Activity.request` may be given for pushes: with `.token`, `pushToken` is the activity's id
/// as bytes (a push is `swiftdash activity update ID`); a broadcast channel is accepted and unused.
public enum PushType: Sendable, Hashable {
    case token
    case channel(String)
}

/// Whether activities may be started: always, in a terminal.
public struct ActivityAuthorizationInfo: Sendable {
    public init() {}
    public var areActivitiesEnabled: Bool { true }
    public var frequentPushesEnabled: Bool { false }
}

/// One activity an app started.
public final class Activity<Attributes: ActivityAttributes>: Identifiable, @unchecked Sendable {
    public let id: String
    public let attributes: Attributes
    public private(set) var content: ActivityContent<Attributes.ContentState>
    public private(set) var activityState: ActivityState = .active
    /// What `request` was given (nil for an activity read back from the file).
    let pushType: PushType?

    init(id: String, attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil) {
        self.id = id
        self.attributes = attributes
        self.content = content
        self.pushType = pushType
    }

    /// The kind an attributes type's activities have.
    public static var kind: String { dashKind(String(describing: Attributes.self)) }

    /// Starts an activity; refused when 5 are active.
    public static func request(
        attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        let id = ActivityStore.newID()
        let attrs = try ActivityCoding.json(attributes)
        let stored = try ActivityCoding.content(content)
        try ActivityCoding.change { (book, at) throws(ActivityError) in
            try book.start(
                DashActivities.Activity(id: id, kind: kind, attributes: attrs, content: stored, started: at), at: at)
        }
        return Activity(id: id, attributes: attributes, content: content, pushType: pushType)
    }

    /// A new content, with an alert when given.
    public func update(_ content: ActivityContent<Attributes.ContentState>, alertConfiguration: AlertConfiguration? = nil)
        async
    {
        guard let stored = try? ActivityCoding.content(content) else { return }
        let id = self.id
        try? ActivityCoding.change { (book, at) throws(ActivityError) in
            let alert = alertConfiguration.map {
                ActivityAlert(title: ActivityInput.text($0.title), body: ActivityInput.text($0.body), bell: $0.sound.rings, date: at)
            }
            try book.update(id, content: stored, alert: alert, at: at)
        }
        self.content = content
    }

    /// Ends it, with a final content when given.
    public func end(
        _ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default
    ) async {
        let stored = content.flatMap { try? ActivityCoding.content($0) }
        let id = self.id
        try? ActivityCoding.change { (book, at) throws(ActivityError) in
            let policy: ActivityDismissal
            switch dismissalPolicy {
            case .default: policy = .default
            case .immediate: policy = .immediate
            case .after(let d): policy = .after(d)
            }
            try book.end(id, content: stored, dismissal: policy, at: at)
        }
        if let content { self.content = content }
        activityState = dismissalPolicy == .immediate ? .dismissed : .ended
    }

    /// The activities of this kind shown now, as the state folder holds them.
    public static var activities: [Activity<Attributes>] {
        let now = Date()
        guard let book = try? ActivityCoding.store().load(at: now) else { return [] }
        return book.shown(at: now).filter { $0.kind == kind }.compactMap { a in
            guard let attrs = try? ActivityCoding.decode(Attributes.self, a.attributes),
                let state = try? ActivityCoding.decode(Attributes.ContentState.self, a.content.state)
            else { return nil }
            let activity = Activity(
                id: a.id, attributes: attrs,
                content: ActivityContent(state: state, staleDate: a.content.staleDate, relevanceScore: a.content.relevanceScore))
            switch a.phase(at: now) {
            case .active: activity.activityState = .active
            case .stale: activity.activityState = .stale
            case .ended: activity.activityState = .ended
            case .dismissed: activity.activityState = .dismissed
            }
            return activity
        }
    }
}

/// Between the SDK's Codable values and the store's JSON.
enum ActivityCoding {
    /// The state folder the home screen uses: `$SWIFTDASH_ACTIVITIES` when set (a folder), else
    /// `$XDG_STATE_HOME/swiftdash` (`~/.local/state/swiftdash`), `homes/NAME` in it for a named home.
    static func store(environment env: [String: String] = ProcessInfo.processInfo.environment) -> ActivityStore {
        if let dir = env["SWIFTDASH_ACTIVITIES"], dir.hasPrefix("/") { return ActivityStore(directory: URL(fileURLWithPath: dir)) }
        let home = URL(fileURLWithPath: env["HOME"] ?? NSHomeDirectory())
        var state =
            (env["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? home.appendingPathComponent(".local/state")).appendingPathComponent("swiftdash")
        if let name = env["SWIFTDASH_HOME"], !name.isEmpty, name != "default", !name.contains("/") {
            state = state.appendingPathComponent("homes").appendingPathComponent(name)
        }
        return ActivityStore(directory: state)
    }

    static func change(_ body: (inout ActivityBook, Date) throws(ActivityError) -> Void) throws(ActivityAuthorizationError) {
        do { try store().modify(now: { Date() }, body) } catch {
            switch error {
            case .tooManyActive: throw .targetMaximumExceeded
            default: throw .persistenceFailure(error.description)
            }
        }
    }

    static func json<T: Encodable>(_ value: T) throws(ActivityAuthorizationError) -> JSONValue {
        guard let data = try? JSONEncoder().encode(value), data.count <= ActivityInput.maxJSONBytes,
            let v = try? JSONValue.parse(data, maxBytes: ActivityInput.maxJSONBytes)
        else { throw .attributesTooLarge }
        guard case .object = v, let clean = try? ActivityInput.clean(v, what: "") else { return .object(["value": v]) }
        return clean
    }

    static func content<S: Codable & Hashable>(_ c: ActivityContent<S>) throws(ActivityAuthorizationError) -> DashActivities.ActivityContent {
        DashActivities.ActivityContent(state: try json(c.state), staleDate: c.staleDate, relevanceScore: c.relevanceScore)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }
}
