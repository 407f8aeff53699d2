import Foundation
internal import DashWidgets

/// WidgetKit's sizes. The system sizes are swiftdash's (small 2x2, medium 4x2, large 4x4,
/// extraLarge 8x4 grid units); the accessory ones (lock screen, watch) are drawn as small.
public enum WidgetFamily: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case systemSmall, systemMedium, systemLarge, systemExtraLarge
    case accessoryCircular, accessoryRectangular, accessoryInline, accessoryCorner

    /// swiftdash's family.
    var dash: DashWidgets.WidgetFamily {
        switch self {
        case .systemMedium: return .medium
        case .systemLarge: return .large
        case .systemExtraLarge: return .extraLarge
        default: return .small
        }
    }
    public var description: String { rawValue }
    var isSystem: Bool { rawValue.hasPrefix("system") }

    /// The family a swiftdash family is drawn as, for a widget supporting `families`.
    static func from(_ name: String?, supported families: [WidgetFamily]) -> WidgetFamily {
        let wanted: WidgetFamily
        switch name {
        case "medium": wanted = .systemMedium
        case "large": wanted = .systemLarge
        case "extraLarge": wanted = .systemExtraLarge
        default: wanted = .systemSmall
        }
        if families.contains(wanted) { return wanted }
        return Render.drawn(families).first { $0.dash == wanted.dash } ?? wanted
    }
}

/// One moment of a widget's timeline.
public protocol TimelineEntry {
    var date: Date { get }
    var relevance: TimelineEntryRelevance? { get }
}

extension TimelineEntry {
    public var relevance: TimelineEntryRelevance? { nil }
}

/// How relevant an entry is (Smart Rotate brings the most relevant widget of a stack forward).
public struct TimelineEntryRelevance: Sendable, Hashable {
    public var score: Float
    public var duration: TimeInterval
    public init(score: Float, duration: TimeInterval = 0) { (self.score, self.duration) = (score, duration) }
}

/// When to ask for the next timeline.
public struct TimelineReloadPolicy: Sendable, Hashable {
    enum Kind: Hashable { case atEnd, never, after(Date) }
    let kind: Kind
    public static let atEnd = TimelineReloadPolicy(kind: .atEnd)
    public static let never = TimelineReloadPolicy(kind: .never)
    public static func after(_ date: Date) -> TimelineReloadPolicy { TimelineReloadPolicy(kind: .after(date)) }

    var json: JSONValue {
        switch kind {
        case .atEnd: return .string("atEnd")
        case .never: return .string("never")
        case .after(let d): return .object(["after": .number(d.timeIntervalSince1970)])
        }
    }
}

public struct Timeline<EntryType: TimelineEntry> {
    public let entries: [EntryType]
    public let policy: TimelineReloadPolicy
    public init(entries: [EntryType], policy: TimelineReloadPolicy) { (self.entries, self.policy) = (entries, policy) }
}

/// What a provider is told about the tile it provides for.
public struct TimelineProviderContext: Sendable {
    public let family: WidgetFamily
    /// The tile's size in points: a terminal cell counts as 8 by 16.
    public let displaySize: CGSize
    /// True in the gallery and `swiftdash preview`: sample data is fine, and fast.
    public let isPreview: Bool
    public var environmentVariants: EnvironmentVariants { EnvironmentVariants() }
    public struct EnvironmentVariants: Sendable {}

    public init(family: WidgetFamily, displaySize: CGSize, isPreview: Bool) {
        (self.family, self.displaySize, self.isPreview) = (family, displaySize, isPreview)
    }
}

// MARK: - Providers

/// WidgetKit's provider with completion handlers. `snapshot(with:completion:)` and
/// `timeline(with:completion:)` are the iOS 14 beta's names for the same methods (seeds/002); a
/// provider implements either spelling.
public protocol TimelineProvider {
    associatedtype Entry: TimelineEntry
    typealias Context = TimelineProviderContext
    func placeholder(in context: Context) -> Entry
    func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void)
    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void)
    func snapshot(with context: Context, completion: @escaping (Entry) -> Void)
    func timeline(with context: Context, completion: @escaping (Timeline<Entry>) -> Void)
}

extension TimelineProvider {
    public func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
        Missing.guarding("getSnapshot(in:completion:)") { snapshot(with: context, completion: completion) }
    }
    public func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
        Missing.guarding("getTimeline(in:completion:)") { timeline(with: context, completion: completion) }
    }
    public func snapshot(with context: Context, completion: @escaping (Entry) -> Void) { Missing.report() }
    public func timeline(with context: Context, completion: @escaping (Timeline<Entry>) -> Void) { Missing.report() }
    /// Without a placeholder of its own, a provider's placeholder is its snapshot for a preview.
    public func placeholder(in context: Context) -> Entry {
        Missing.previewSnapshot(Self.self, context, "getSnapshot(in:completion:)") {
            getSnapshot(in: $0, completion: $1)
        }
    }
}

/// The provider of an `IntentConfiguration`: WidgetKit's SiriKit spelling, here with an
/// `AppIntent` (`WidgetConfigurationIntent`) as the intent.
public protocol IntentTimelineProvider {
    associatedtype Entry: TimelineEntry
    associatedtype Intent: WidgetConfigurationIntent
    typealias Context = TimelineProviderContext
    func placeholder(in context: Context) -> Entry
    func getSnapshot(for configuration: Intent, in context: Context, completion: @escaping (Entry) -> Void)
    func getTimeline(for configuration: Intent, in context: Context, completion: @escaping (Timeline<Entry>) -> Void)
    func snapshot(for configuration: Intent, with context: Context, completion: @escaping (Entry) -> Void)
    func timeline(for configuration: Intent, with context: Context, completion: @escaping (Timeline<Entry>) -> Void)
    func recommendations() -> [IntentRecommendation<Intent>]
}

extension IntentTimelineProvider {
    public func recommendations() -> [IntentRecommendation<Intent>] { [] }
    public func getSnapshot(for configuration: Intent, in context: Context, completion: @escaping (Entry) -> Void) {
        Missing.guarding("getSnapshot(for:in:completion:)") {
            snapshot(for: configuration, with: context, completion: completion)
        }
    }
    public func getTimeline(
        for configuration: Intent, in context: Context, completion: @escaping (Timeline<Entry>) -> Void
    ) {
        Missing.guarding("getTimeline(for:in:completion:)") {
            timeline(for: configuration, with: context, completion: completion)
        }
    }
    public func snapshot(for configuration: Intent, with context: Context, completion: @escaping (Entry) -> Void) {
        Missing.report()
    }
    public func timeline(
        for configuration: Intent, with context: Context, completion: @escaping (Timeline<Entry>) -> Void
    ) {
        Missing.report()
    }
    public func placeholder(in context: Context) -> Entry {
        Missing.previewSnapshot(Self.self, context, "getSnapshot(for:in:completion:)") {
            getSnapshot(for: Intent(), in: $0, completion: $1)
        }
    }
}

/// The provider of an `AppIntentConfiguration`, with async methods.
public protocol AppIntentTimelineProvider {
    associatedtype Entry: TimelineEntry
    associatedtype Intent: WidgetConfigurationIntent
    typealias Context = TimelineProviderContext
    func placeholder(in context: Context) -> Entry
    func snapshot(for configuration: Intent, in context: Context) async -> Entry
    func timeline(for configuration: Intent, in context: Context) async -> Timeline<Entry>
    func recommendations() -> [AppIntentRecommendation<Intent>]
}

extension AppIntentTimelineProvider {
    public func recommendations() -> [AppIntentRecommendation<Intent>] { [] }
}

public struct AppIntentRecommendation<Intent: WidgetConfigurationIntent> {
    public let intent: Intent
    public let description: String
    public init(intent: Intent, description: LocalizedStringKey) {
        (self.intent, self.description) = (intent, description.text)
    }
}

/// A provider that implements neither spelling of a method: its answer says which to write.
enum Missing {
    struct Method: Error, CustomStringConvertible {
        let name: String
        var description: String { "the provider implements no \(name)" }
    }
    private static let key = "SwiftdashKit.missing"
    static func report() { Thread.current.threadDictionary[key] = true }
    static func guarding(_ name: String, _ body: () -> Void) {
        Thread.current.threadDictionary[key] = false
        body()
        if Thread.current.threadDictionary[key] as? Bool == true {
            Thread.current.threadDictionary[key] = name
        }
    }
    /// A provider's snapshot for a preview, as the placeholder of a provider without one. A
    /// provider with neither cannot answer at all: the extension stops, naming what to write.
    static func previewSnapshot<Entry>(
        _ provider: Any.Type, _ context: TimelineProviderContext, _ method: String,
        _ snapshot: (TimelineProviderContext, @escaping (Entry) -> Void) -> Void
    ) -> Entry {
        let preview = TimelineProviderContext(family: context.family, displaySize: context.displaySize, isPreview: true)
        do { return try Wait.value { snapshot(preview, $0) } } catch {
            fatalError("\(provider): \(error); write placeholder(in:) or \(method)")
        }
    }

    /// The method a provider was found to lack on this thread, once.
    static func take() -> String? {
        defer { Thread.current.threadDictionary[key] = nil }
        return Thread.current.threadDictionary[key] as? String
    }
}

// MARK: - Widgets and configurations

/// A widget: its kind, names, families, provider and view.
public protocol Widget {
    associatedtype Body: WidgetConfiguration
    init()
    var body: Body { get }
}

/// The widgets an extension offers. Mark it `@main`, or a single `Widget`.
public protocol WidgetBundle {
    associatedtype Body: Widget
    init()
    @WidgetBundleBuilder var body: Body { get }
}

public protocol WidgetConfiguration {
    var _widgets: [_WidgetDescriptor] { get }
    /// The Live Activities it declares (`ActivityConfiguration`): none for a widget.
    var _activities: [_ActivityDescriptor] { get }
}

extension WidgetConfiguration {
    public var _activities: [_ActivityDescriptor] { [] }
}

@resultBuilder
public enum WidgetBundleBuilder {
    public static func buildExpression<W: Widget>(_ widget: W) -> _WidgetList {
        _WidgetList(widget.body._widgets, activities: widget.body._activities)
    }
    public static func buildBlock(_ parts: _WidgetList...) -> _WidgetList {
        _WidgetList(parts.flatMap { $0.widgets }, activities: parts.flatMap { $0.activities })
    }
    public static func buildOptional(_ part: _WidgetList?) -> _WidgetList { part ?? _WidgetList([]) }
    public static func buildEither(first: _WidgetList) -> _WidgetList { first }
    public static func buildEither(second: _WidgetList) -> _WidgetList { second }
    public static func buildLimitedAvailability(_ part: _WidgetList) -> _WidgetList { part }
}

/// Several widgets (a bundle's body).
public struct _WidgetList: Widget, WidgetConfiguration {
    let widgets: [_WidgetDescriptor]
    let activities: [_ActivityDescriptor]
    init(_ widgets: [_WidgetDescriptor], activities: [_ActivityDescriptor] = []) {
        self.widgets = widgets
        self.activities = activities
    }
    public init() { (widgets, activities) = ([], []) }
    public var body: _WidgetList { self }
    public var _widgets: [_WidgetDescriptor] { widgets }
    public var _activities: [_ActivityDescriptor] { activities }
}

/// One widget as the extension serves it: names and families, and its provider and views behind
/// closures that take the protocol's JSON and give it back.
public struct _WidgetDescriptor {
    var kind: String
    var displayName: String
    var description = ""
    var families: [WidgetFamily] = [.systemSmall, .systemMedium, .systemLarge]
    var contentMarginsDisabled = false
    var parameters: () -> [Parameters.Description] = { [] }
    var placeholder: (TimelineProviderContext, EnvironmentValues) throws -> JSONValue
    var snapshot: ([String: JSONValue], TimelineProviderContext, EnvironmentValues) throws -> JSONValue
    var timeline: ([String: JSONValue], TimelineProviderContext, EnvironmentValues) throws -> JSONValue
    var options: (String, [String: JSONValue]) throws -> [JSONValue] = { _, _ in [] }
    /// Where the widget's configuration is written (`Module/File.swift:LINE`): its errors name it.
    var source = ""
    /// An entry of the widget's own type drawn as the protocol's entry (a `#Preview`'s timeline);
    /// nil for a value of another type.
    var drawEntry: (Any, EnvironmentValues) -> JSONValue? = { _, _ in nil }

    func located(_ fileID: String, _ line: Int) -> _WidgetDescriptor {
        var d = self
        d.source = "\(fileID):\(line)"
        return d
    }
}

/// A configuration with its names and families changed.
public struct _ModifiedConfiguration: WidgetConfiguration {
    public let _widgets: [_WidgetDescriptor]
    public var _activities: [_ActivityDescriptor] = []
}

extension WidgetConfiguration {
    func changing(_ f: (inout _WidgetDescriptor) -> Void) -> _ModifiedConfiguration {
        _ModifiedConfiguration(
            _widgets: _widgets.map {
                var d = $0
                f(&d)
                return d
            }, _activities: _activities)
    }
    public func configurationDisplayName(_ name: LocalizedStringKey) -> some WidgetConfiguration {
        changing { $0.displayName = name.text }
    }
    @_disfavoredOverload
    public func configurationDisplayName<S: StringProtocol>(_ name: S) -> some WidgetConfiguration {
        changing { $0.displayName = String(name) }
    }
    public func description(_ description: LocalizedStringKey) -> some WidgetConfiguration {
        changing { $0.description = description.text }
    }
    @_disfavoredOverload
    public func description<S: StringProtocol>(_ description: S) -> some WidgetConfiguration {
        changing { $0.description = String(description) }
    }
    public func supportedFamilies(_ families: [WidgetFamily]) -> some WidgetConfiguration {
        changing { $0.families = families.isEmpty ? [.systemSmall] : families }
    }
    /// swiftdash draws a tile's content inside its border either way; recorded for `describe`.
    public func contentMarginsDisabled() -> some WidgetConfiguration { changing { $0.contentMarginsDisabled = true } }
    public func disfavoredLocations<L>(_ locations: [L], for families: [WidgetFamily]) -> some WidgetConfiguration {
        self
    }
    public func promptsForUserConfiguration() -> some WidgetConfiguration { self }
    public func pushHandler<H>(_ handler: H.Type) -> some WidgetConfiguration { self }
}

/// WidgetKit's `kind` as swiftdash's: lower-case letters, digits and `-`, at most 32 characters
/// (`CryptoWidgetExtension` is `crypto-widget-extension`).
func dashKind(_ kind: String) -> String {
    var out = ""
    var previousLower = false
    for ch in kind {
        if ch.isUppercase, previousLower, !out.hasSuffix("-") { out += "-" }
        if ch.isLetter || ch.isNumber, ch.isASCII {
            out += ch.lowercased()
        } else if !out.isEmpty, !out.hasSuffix("-") {
            out += "-"
        }
        previousLower = ch.isLowercase || ch.isNumber
    }
    while out.hasSuffix("-") { out.removeLast() }
    let cut = String(out.prefix(32))
    return cut.isEmpty ? "widget" : (cut.hasSuffix("-") ? String(cut.dropLast()) : cut)
}

/// A widget without configuration.
public struct StaticConfiguration<Content: View>: WidgetConfiguration {
    public let _widgets: [_WidgetDescriptor]

    public init<Provider: TimelineProvider>(
        kind: String, provider: Provider, @ViewBuilder content: @escaping (Provider.Entry) -> Content,
        fileID: String = #fileID, line: Int = #line
    ) {
        _widgets = [
            Render.descriptor(
                kind: kind, intent: NoIntent.self,
                placeholder: { ctx, env in Render.entry(provider.placeholder(in: ctx), content, env) },
                snapshot: { _, ctx in try Wait.value { provider.getSnapshot(in: ctx, completion: $0) } },
                timeline: { _, ctx in try Wait.value { provider.getTimeline(in: ctx, completion: $0) } },
                content: content
            ).located(fileID, line)
        ]
    }

    /// The iOS 14 beta's form (seeds/002): a placeholder view instead of `placeholder(in:)`.
    public init<Provider: TimelineProvider, Placeholder: View>(
        kind: String, provider: Provider, placeholder: Placeholder,
        @ViewBuilder content: @escaping (Provider.Entry) -> Content, fileID: String = #fileID, line: Int = #line
    ) {
        _widgets = [
            Render.descriptor(
                kind: kind, intent: NoIntent.self,
                placeholder: { _, env in Render.view(placeholder, date: Date(timeIntervalSince1970: 0), env) },
                snapshot: { _, ctx in try Wait.value { provider.getSnapshot(in: ctx, completion: $0) } },
                timeline: { _, ctx in try Wait.value { provider.getTimeline(in: ctx, completion: $0) } },
                content: content
            ).located(fileID, line)
        ]
    }
}

/// A widget configured with an intent, WidgetKit's SiriKit spelling: here the intent is a
/// `WidgetConfigurationIntent` whose `@Parameter`s are the Edit form's fields.
public struct IntentConfiguration<Intent: WidgetConfigurationIntent, Content: View>: WidgetConfiguration {
    public let _widgets: [_WidgetDescriptor]

    public init<Provider: IntentTimelineProvider>(
        kind: String, intent: Intent.Type, provider: Provider,
        @ViewBuilder content: @escaping (Provider.Entry) -> Content, fileID: String = #fileID, line: Int = #line
    ) where Provider.Intent == Intent {
        _widgets = [
            Render.descriptor(
                kind: kind, intent: Intent.self,
                placeholder: { ctx, env in Render.entry(provider.placeholder(in: ctx), content, env) },
                snapshot: { intent, ctx in try Wait.value { provider.getSnapshot(for: intent, in: ctx, completion: $0) }
                },
                timeline: { intent, ctx in try Wait.value { provider.getTimeline(for: intent, in: ctx, completion: $0) }
                },
                content: content
            ).located(fileID, line)
        ]
    }

    public init<Provider: IntentTimelineProvider, Placeholder: View>(
        kind: String, intent: Intent.Type, provider: Provider, placeholder: Placeholder,
        @ViewBuilder content: @escaping (Provider.Entry) -> Content, fileID: String = #fileID, line: Int = #line
    ) where Provider.Intent == Intent {
        _widgets = [
            Render.descriptor(
                kind: kind, intent: Intent.self,
                placeholder: { _, env in Render.view(placeholder, date: Date(timeIntervalSince1970: 0), env) },
                snapshot: { intent, ctx in try Wait.value { provider.getSnapshot(for: intent, in: ctx, completion: $0) }
                },
                timeline: { intent, ctx in try Wait.value { provider.getTimeline(for: intent, in: ctx, completion: $0) }
                },
                content: content
            ).located(fileID, line)
        ]
    }
}

/// A widget configured with an `AppIntent`, its provider async.
public struct AppIntentConfiguration<Intent: WidgetConfigurationIntent, Content: View>: WidgetConfiguration {
    public let _widgets: [_WidgetDescriptor]

    public init<Provider: AppIntentTimelineProvider>(
        kind: String, intent: Intent.Type = Intent.self, provider: Provider,
        @ViewBuilder content: @escaping (Provider.Entry) -> Content, fileID: String = #fileID, line: Int = #line
    ) where Provider.Intent == Intent {
        _widgets = [
            Render.descriptor(
                kind: kind, intent: Intent.self,
                placeholder: { ctx, env in Render.entry(provider.placeholder(in: ctx), content, env) },
                snapshot: { intent, ctx in try Wait.async { await provider.snapshot(for: intent, in: ctx) } },
                timeline: { intent, ctx in try Wait.async { await provider.timeline(for: intent, in: ctx) } },
                content: content
            ).located(fileID, line)
        ]
    }
}

/// The intent of a widget without configuration: no parameters.
struct NoIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Configuration"
    init() {}
}
