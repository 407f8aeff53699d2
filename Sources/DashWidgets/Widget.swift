import Foundation

/// Supplies a widget's data, like WidgetKit's `TimelineProvider`.
public protocol TimelineProvider: Sendable {
    associatedtype Entry: TimelineEntry
    /// Generic sample data, synchronously; drawn redacted until real data arrives.
    func placeholder(in context: TimelineContext) -> Entry
    /// A quick entry; with `context.isPreview` sample data is fine (the gallery, `preview`).
    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> Entry
    /// Real data: entries and when to ask again.
    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<Entry>
}

/// How often a widget may reload on its own (see the scheduler's budget).
public enum ReloadCost: Sendable, Hashable {
    /// Network or otherwise costly: a daily budget of reloads.
    case budgeted
    /// Local and cheap (a clock, /proc): no daily cap, only a minimum interval.
    case local
}

/// A widget the program offers: what it is, what it can be configured with, where its
/// data comes from, and how it is drawn in each family and in its detail pane.
public struct Widget: Sendable {
    public let kind: String
    public let displayName: String
    public let description: String
    public let supportedFamilies: [WidgetFamily]
    public let schema: ConfigurationSchema
    public let cost: ReloadCost
    /// The cost of one configuration, when it depends on it (a calendar of local files is
    /// free, one of URLs is budgeted); nil: `cost` for every configuration.
    public var costFor: (@Sendable (WidgetConfig) -> ReloadCost)?

    /// What reloads of `configuration` cost.
    public func cost(for configuration: WidgetConfig) -> ReloadCost { costFor?(configuration) ?? cost }
    /// How long a timeline load may take before it counts as failed.
    public let timeout: TimeInterval
    /// When the widget's entries are relevant (Smart Rotate, attention), in words for `swiftdash widgets`.
    public var relevanceHelp: String?
    /// Decodes a timeline handed to the widget from outside (`swiftdash push`, the extension
    /// protocol's `timeline` answer); nil: the widget takes no pushes.
    public var pushDecoder: (@Sendable (JSONValue) throws -> AnyTimeline)?
    /// The content comes only by push (the note): once something was pushed, a load (a reload
    /// key, `swiftdash reload`, the policy) leaves it in place instead of the provider's hint.
    public var keepsPushedContent = false
    /// Settings taken from another widget of the home screen when a load starts (a chart of an
    /// `api` widget's field): given the configuration and a way to look another instance up by
    /// id (its kind and configuration), returns the configuration the load runs with. Pure.
    public var borrows:
        (@Sendable (WidgetConfig, _ lookup: (String) -> (kind: String, config: WidgetConfig)?) -> WidgetConfig)?
    /// Where the provider runs when not in this process (`running(_:)`): the home screen runs
    /// the built-in providers in the provider host. nil: here, as `async` functions.
    public var remote: RemoteProvider?
    /// The widget's own previews for a configuration and context (`swiftdash preview`, like
    /// Xcode's canvas): an extension's `#Preview`s. nil: the widget has none to offer.
    public var previews: (@Sendable (WidgetConfig, TimelineContext) throws -> [PreviewTimeline])?

    private let _placeholder: @Sendable (TimelineContext) -> AnyEntry
    private let _snapshot: @Sendable (WidgetConfig, TimelineContext) async -> AnyEntry
    private let _timeline: @Sendable (WidgetConfig, TimelineContext) async throws -> AnyTimeline
    private let _view: @Sendable (AnyEntry, TimelineContext) -> TileView
    private let _detail: @Sendable (DeepLink, AnyEntry?, TimelineContext) -> TileView
    private let _decode: @Sendable (Data) throws -> [AnyEntry]
    private let _encode: @Sendable ([AnyEntry]) throws -> Data
    private let _decodeTimelineLine: @Sendable (Data) throws -> ProviderWire.TimelineAnswer
    /// The widget's actions (interactive widgets, see `actions(_:timeout:perform:)`): the
    /// action and its inverse travel as JSON.
    var _perform: (@Sendable (ActionPayload, WidgetConfig, TimelineContext) async throws -> ActionPayload?)?
    /// How long an action may take before it counts as failed.
    public internal(set) var actionTimeout: TimeInterval = 10
    /// The files a timeline reads, watched so that an outside edit reloads it at once.
    var _watchedFiles: (@Sendable (WidgetConfig, TimelineContext) -> [String])?

    public init<P: TimelineProvider>(
        kind: String, displayName: String, description: String,
        supportedFamilies: [WidgetFamily] = [.small, .medium, .large],
        schema: ConfigurationSchema = ConfigurationSchema(),
        cost: ReloadCost = .budgeted, timeout: TimeInterval = 10,
        provider: P,
        view: @escaping @Sendable (P.Entry, TimelineContext) -> TileView,
        detail: (@Sendable (DeepLink, P.Entry?, TimelineContext) -> TileView)? = nil
    ) {
        self.kind = kind
        self.displayName = displayName
        self.description = description
        self.supportedFamilies = supportedFamilies
        self.schema = schema
        self.cost = cost
        self.timeout = timeout
        _placeholder = { AnyEntry(provider.placeholder(in: $0)) }
        _snapshot = { AnyEntry(await provider.snapshot(for: $0, in: $1)) }
        _timeline = { config, ctx in
            let t = try await provider.timeline(for: config, in: ctx)
            return AnyTimeline(entries: t.entries.map(AnyEntry.init), policy: t.policy)
        }
        _view = { entry, ctx in
            guard let e = entry.base as? P.Entry else { return Text("wrong entry type").foregroundStyle(.negative) }
            return view(e, ctx)
        }
        let displayName = displayName
        _detail = { link, entry, ctx in
            let e = entry?.base as? P.Entry
            if let detail { return detail(link, e, ctx) }
            return VStack {
                Text(displayName).font(.title)
                Text(link.url).foregroundStyle(.secondary)
            }
        }
        _decode = { data in try JSONDecoder.dash.decode([P.Entry].self, from: data).map(AnyEntry.init) }
        _encode = { entries in try JSONEncoder.dash.encode(entries.compactMap { $0.base as? P.Entry }) }
        _decodeTimelineLine = { data in
            let r = try JSONDecoder.dash.decode(ProviderWire.TimelineLine<P.Entry>.self, from: data).result
            return ProviderWire.TimelineAnswer(
                entries: r?.entries?.map(AnyEntry.init), policy: r?.policy, failure: r?.failure,
                timedOutAfter: r?.timedOutAfter)
        }
    }

    public func supports(_ family: WidgetFamily) -> Bool { supportedFamilies.contains(family) }

    /// The widget with `relevanceHelp` set.
    public func relevance(_ help: String) -> Widget {
        var w = self
        w.relevanceHelp = help
        return w
    }

    /// The widget, accepting timelines pushed from outside (decoded and validated by `decode`).
    public func acceptingPush(
        keepingPushedContent: Bool = false, _ decode: @escaping @Sendable (JSONValue) throws -> AnyTimeline
    ) -> Widget {
        var w = self
        w.pushDecoder = decode
        w.keepsPushedContent = keepingPushedContent
        return w
    }

    public func placeholder(in context: TimelineContext) -> AnyEntry { _placeholder(context) }
    public func snapshot(for config: WidgetConfig, in context: TimelineContext) async -> AnyEntry {
        await _snapshot(schema.resolve(config, environment: context.environment), context)
    }
    public func timeline(for config: WidgetConfig, in context: TimelineContext) async throws -> AnyTimeline {
        try await _timeline(schema.resolve(config, environment: context.environment), context)
    }
    public func view(for entry: AnyEntry, in context: TimelineContext) -> TileView { _view(entry, context) }
    public func detail(for link: DeepLink, entry: AnyEntry?, in context: TimelineContext) -> TileView {
        _detail(link, entry, context)
    }
    /// Entries to JSON and back, for the timeline cache.
    public func encodeEntries(_ entries: [AnyEntry]) throws -> Data { try _encode(entries) }
    public func decodeEntries(_ data: Data) throws -> [AnyEntry] { try _decode(data) }
    /// The provider host's answer line to a `timeline` request, read once into this widget's
    /// entries (`ProviderWire.TimelineLine`).
    public func decodeTimelineLine(_ data: Data) throws -> ProviderWire.TimelineAnswer { try _decodeTimelineLine(data) }
}

/// Every widget the program offers, like `WidgetBundle`.
public struct WidgetBundle: Sendable {
    public let widgets: [Widget]
    public init(_ widgets: [Widget]) { self.widgets = widgets }
    public subscript(kind: String) -> Widget? { widgets.first { $0.kind == kind } }
    public var kinds: [String] { widgets.map(\.kind) }
}

extension JSONEncoder {
    /// Stable JSON for caches: sorted keys, dates as seconds since 1970 (a number, exact to the
    /// sub-second, and cheaper to read back than ISO 8601 text).
    public static var dash: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        e.dateEncodingStrategy = .secondsSince1970
        return e
    }
}

extension JSONDecoder {
    public static var dash: JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .secondsSince1970
        return d
    }
}
