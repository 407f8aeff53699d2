import Foundation

/// Where a widget's provider runs when it is not in this process: the provider host (the
/// built-in widgets on the home screen) or an extension. Every call blocks its caller and has
/// its own deadline: make it from a thread of its own, never from the main loop.
public struct RemoteProvider: Sendable {
    /// The timeline for a configuration (not yet resolved: the other side resolves it).
    public var timeline: @Sendable (WidgetConfig, TimelineContext) throws -> AnyTimeline
    /// Runs an interactive widget's action; nil: actions run in this process.
    public var perform: (@Sendable (ActionPayload, WidgetConfig, TimelineContext) throws -> ActionPayload?)?
    /// The options of a dynamic enum parameter (`key`); nil: loaded in this process.
    public var options: (@Sendable (String, WidgetConfig) throws -> [ParameterOption])?

    public init(
        timeline: @escaping @Sendable (WidgetConfig, TimelineContext) throws -> AnyTimeline,
        perform: (@Sendable (ActionPayload, WidgetConfig, TimelineContext) throws -> ActionPayload?)? = nil,
        options: (@Sendable (String, WidgetConfig) throws -> [ParameterOption])? = nil
    ) {
        self.timeline = timeline
        self.perform = perform
        self.options = options
    }
}

extension Widget {
    /// The widget with its provider run elsewhere (`remote`): the view, detail, placeholder and
    /// schema stay here, so drawing never waits for another process.
    public func running(_ remote: RemoteProvider) -> Widget {
        var w = self
        w.remote = remote
        return w
    }
}

/// What the home screen and the provider host (`swiftdash-fetch --serve`) say to each other,
/// inside the extension protocol's JSON lines (docs/extensions.md, "The provider host"): the
/// request's `params` and the answer's `result`, as `Codable` values. Entries travel in the
/// same JSON the timeline cache keeps, so the views read exactly what the provider made.
public enum ProviderWire {
    /// A `TimelineContext` as JSON.
    public struct Context: Codable, Sendable, Equatable {
        public var family: WidgetFamily
        public var width: Int
        public var height: Int
        public var now: Date
        public var isPreview: Bool
        public var colorScheme: ColorScheme
        public var timeZone: String
        public var environment: [String: String]
        public var instanceID: String?
        public var stateDirectory: String?

        public init(_ c: TimelineContext) {
            family = c.family
            width = c.size.width
            height = c.size.height
            now = c.now
            isPreview = c.isPreview
            colorScheme = c.colorScheme
            timeZone = c.timeZone.identifier
            environment = c.environment
            instanceID = c.instanceID
            stateDirectory = c.stateDirectory
        }

        /// The context back; an unknown zone is an error (the home screen sent one it knows).
        public func context() throws -> TimelineContext {
            guard let zone = TimeZone(identifier: timeZone) else {
                throw ProviderWireError("unknown time zone \(TextSanitizer.singleLine(timeZone).prefix(60))")
            }
            var c = TimelineContext(
                family: family, size: (width, height), now: now, isPreview: isPreview,
                colorScheme: colorScheme, timeZone: zone, environment: environment)
            c.instanceID = instanceID
            c.stateDirectory = stateDirectory
            return c
        }
    }

    /// `timeline`: one widget's timeline.
    public struct TimelineRequest: Codable, Sendable {
        public var kind: String
        public var configuration: WidgetConfig
        public var context: Context
        public init(kind: String, configuration: WidgetConfig, context: TimelineContext) {
            self.kind = kind
            self.configuration = configuration
            self.context = Context(context)
        }
    }

    /// `perform`: one action of an interactive widget.
    public struct PerformRequest: Codable, Sendable {
        public var kind: String
        public var action: ActionPayload
        public var configuration: WidgetConfig
        public var context: Context
        public init(kind: String, action: ActionPayload, configuration: WidgetConfig, context: TimelineContext) {
            self.kind = kind
            self.action = action
            self.configuration = configuration
            self.context = Context(context)
        }
    }

    /// `options`: the options of a dynamic enum parameter.
    public struct OptionsRequest: Codable, Sendable {
        public var kind: String
        public var key: String
        public var configuration: WidgetConfig
        public init(kind: String, key: String, configuration: WidgetConfig) {
            self.kind = kind
            self.key = key
            self.configuration = configuration
        }
    }

    /// Every answer: what was asked for, or why not. A provider's own failure is an answer
    /// (`failure`, `timedOutAfter`), not a protocol error: the process is fine and stays.
    public struct Answer: Codable, Sendable {
        /// `timeline`: the entries, in the widget's entry JSON (as the cache keeps them).
        public var entries: JSONValue?
        public var policy: ReloadPolicy?
        /// `perform`: the action that undoes it, if any.
        public var inverse: ActionPayload?
        /// `options`.
        public var options: [Option]?
        /// The provider failed: its message, for the tile.
        public var failure: String?
        /// The provider ran out of time (seconds it had).
        public var timedOutAfter: Double?

        public init() {}

        /// An answer as the host sent it, read field by field: the entries stay the JSON they
        /// came as (issue 25.3: going through Codable encoded and decoded every entry once more,
        /// on the load's thread, beside the loop). A field of the wrong type is refused as
        /// `Codable` would refuse it; `null` is no value.
        public init(_ value: JSONValue) throws {
            guard case .object(let o) = value else { throw ProviderWireError("the answer is not an object") }
            func field(_ key: String) -> JSONValue? {
                if case .null? = o[key] { return nil }
                return o[key]
            }
            func small<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
                try field(key).map { try ProviderWire.decode(T.self, from: $0) }
            }
            entries = field("entries")
            policy = try small(ReloadPolicy.self, "policy")
            inverse = try small(ActionPayload.self, "inverse")
            options = try small([Option].self, "options")
            if let f = field("failure") {
                guard let s = f.string else { throw ProviderWireError("failure is not text") }
                failure = s
            }
            if let t = field("timedOutAfter") {
                guard let n = t.number else { throw ProviderWireError("timedOutAfter is not a number") }
                timedOutAfter = n
            }
        }
    }

    /// A `timeline` answer line as the host writes it (`{"id": …, "result": Answer}`), its entries
    /// in the widget's own type: decoded once, from the line's bytes (issue 25.3).
    struct TimelineLine<Entry: Decodable>: Decodable {
        struct Result: Decodable {
            var entries: [Entry]?
            var policy: ReloadPolicy?
            var failure: String?
            var timedOutAfter: Double?
        }
        var result: Result?
    }

    /// What a `timeline` answer says (`Widget.decodeTimelineLine`).
    public struct TimelineAnswer: Sendable {
        public var entries: [AnyEntry]?
        public var policy: ReloadPolicy?
        public var failure: String?
        public var timedOutAfter: Double?
    }

    public struct Option: Codable, Sendable {
        public var value: String
        public var title: String
        public init(_ o: ParameterOption) {
            value = o.value
            title = o.title
        }
        public var option: ParameterOption { ParameterOption(value, title: title) }
    }

    /// A Codable value as a protocol JSON value.
    public static func json<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONDecoder.dash.decode(JSONValue.self, from: JSONEncoder.dash.encode(value))
    }

    /// A protocol JSON value as a Codable value.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONDecoder.dash.decode(T.self, from: JSONEncoder.dash.encode(value))
    }
}

/// The provider host or the home screen got something it cannot read.
public struct ProviderWireError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A provider's failure reported from another process: its message, shown as it was.
public struct RemoteFailure: LocalizedError, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = TextSanitizer.singleLine(message) }
    public var errorDescription: String? { message }
    public var description: String { message }

    /// The message an error is shown with on a tile (as the scheduler words it).
    public static func message(_ error: any Error) -> String {
        if let e = error as? LocalizedError, let d = e.errorDescription { return d }
        return String(describing: error)
    }
}
