import Foundation
internal import DashWidgets

// A Live Activity's presentations as WidgetKit declares them (issue 39.4): the Lock Screen view and
// the Dynamic Island's expanded regions, compact leading and trailing, and minimal, in an
// `ActivityConfiguration` a widget bundle holds beside its widgets (it adds no tile).
// `text(attributes:content:)` draws every presentation as plain text, as the strip shows it.

/// What an activity's views are given.
public struct ActivityViewContext<Attributes: ActivityAttributes> {
    public let attributes: Attributes
    public let state: Attributes.ContentState
    public let activityID: String
    public let isStale: Bool
}

/// Where an expanded region sits.
public struct DynamicIslandExpandedRegionPosition: Hashable, Sendable {
    let name: String
    public static let leading = DynamicIslandExpandedRegionPosition(name: "leading")
    public static let trailing = DynamicIslandExpandedRegionPosition(name: "trailing")
    public static let center = DynamicIslandExpandedRegionPosition(name: "center")
    public static let bottom = DynamicIslandExpandedRegionPosition(name: "bottom")
}

/// One expanded region.
public struct DynamicIslandExpandedRegion<Content: View> {
    let position: DynamicIslandExpandedRegionPosition
    let priority: Double
    let content: Content
    public init(
        _ position: DynamicIslandExpandedRegionPosition, priority: Double = 0, @ViewBuilder content: () -> Content
    ) {
        self.position = position
        self.priority = priority
        self.content = content()
    }
}

/// The expanded regions, their types forgotten.
public struct DynamicIslandExpandedContent {
    let regions: [(position: DynamicIslandExpandedRegionPosition, priority: Double, view: AnyView)]
}

@resultBuilder
public enum DynamicIslandExpandedContentBuilder {
    public static func buildExpression<C: View>(_ region: DynamicIslandExpandedRegion<C>) -> DynamicIslandExpandedContent {
        DynamicIslandExpandedContent(regions: [(region.position, region.priority, AnyView(region.content))])
    }
    public static func buildBlock(_ parts: DynamicIslandExpandedContent...) -> DynamicIslandExpandedContent {
        DynamicIslandExpandedContent(regions: parts.flatMap(\.regions))
    }
    public static func buildOptional(_ part: DynamicIslandExpandedContent?) -> DynamicIslandExpandedContent {
        part ?? DynamicIslandExpandedContent(regions: [])
    }
    public static func buildEither(first: DynamicIslandExpandedContent) -> DynamicIslandExpandedContent { first }
    public static func buildEither(second: DynamicIslandExpandedContent) -> DynamicIslandExpandedContent { second }
}

/// The Dynamic Island's presentations of an activity.
public struct DynamicIsland {
    let expanded: DynamicIslandExpandedContent
    let compactLeading: AnyView
    let compactTrailing: AnyView
    let minimal: AnyView
    var keyline: Color?
    var url: URL?

    public init<CompactLeading: View, CompactTrailing: View, Minimal: View>(
        @DynamicIslandExpandedContentBuilder expanded: () -> DynamicIslandExpandedContent,
        @ViewBuilder compactLeading: () -> CompactLeading,
        @ViewBuilder compactTrailing: () -> CompactTrailing,
        @ViewBuilder minimal: () -> Minimal
    ) {
        self.expanded = expanded()
        self.compactLeading = AnyView(compactLeading())
        self.compactTrailing = AnyView(compactTrailing())
        self.minimal = AnyView(minimal())
    }

    /// The colour of the island's outline (the strip's focus colour).
    public func keylineTint(_ color: Color?) -> DynamicIsland {
        var d = self
        d.keyline = color
        return d
    }

    /// Where a tap on the island goes.
    public func widgetURL(_ url: URL?) -> DynamicIsland {
        var d = self
        d.url = url
        return d
    }

    public func contentMargins(_ edges: Edge.Set = .all, _ length: CGFloat?, for mode: DynamicIslandMode) -> DynamicIsland {
        self
    }
}

/// Which presentation a margin is for.
public enum DynamicIslandMode: Sendable { case compact, expanded, minimal }

/// A Live Activity's presentations: `content` is its Lock Screen view (swiftdash's detail pane),
/// `dynamicIsland` the strip's.
public struct ActivityConfiguration<Attributes: ActivityAttributes>: WidgetConfiguration {
    let content: (ActivityViewContext<Attributes>) -> AnyView
    let dynamicIsland: (ActivityViewContext<Attributes>) -> DynamicIsland

    public init<Content: View>(
        for attributesType: Attributes.Type,
        @ViewBuilder content: @escaping (ActivityViewContext<Attributes>) -> Content,
        dynamicIsland: @escaping (ActivityViewContext<Attributes>) -> DynamicIsland
    ) {
        self.content = { AnyView(content($0)) }
        self.dynamicIsland = dynamicIsland
    }

    /// An activity configuration adds no tile: the bundle's widgets are its other members.
    public var _widgets: [_WidgetDescriptor] { [] }

    /// The kind its activities have (`Activity<Attributes>.kind`).
    public var kind: String { Activity<Attributes>.kind }

    /// Every presentation of `attributes` and `content` as plain text: what each region shows.
    public func text(
        attributes: Attributes, content c: ActivityContent<Attributes.ContentState>, id: String = "preview",
        now: Date = Date()
    ) -> ActivityPresentationText {
        text(
            ActivityViewContext(
                attributes: attributes, state: c.state, activityID: id, isStale: c.staleDate.map { $0 <= now } ?? false),
            now: now)
    }

    /// Every presentation of one context as plain text; a `Text(timerInterval:)` or a date's
    /// text as of `now`, and a region that is one timer alone also in `timers` (it counts live).
    func text(_ context: ActivityViewContext<Attributes>, now: Date = Date()) -> ActivityPresentationText {
        let env = EnvironmentValues()
        var timers: [String: ActivityPresentationText.LiveTimer] = [:]
        func plain(_ v: AnyView, _ region: String) -> String {
            let nodes = render(v, env)
            let text = ActivityText.plain(nodes, now: now)
            if let t = ActivityText.onlyTimer(nodes, now: now) { timers[region] = t }
            return text
        }
        let island = dynamicIsland(context)
        var expanded: [String: String] = [:]
        for r in island.expanded.regions.sorted(by: { $0.priority > $1.priority }) where expanded[r.position.name] == nil {
            expanded[r.position.name] = plain(r.view, r.position.name)
        }
        let lockScreen = render(content(context), env)
        return ActivityPresentationText(
            lockScreen: ActivityText.lines(lockScreen, now: now), compactLeading: plain(island.compactLeading, "compactLeading"),
            compactTrailing: plain(island.compactTrailing, "compactTrailing"), minimal: plain(island.minimal, "minimal"),
            expanded: expanded, url: Self.widgetURL(in: lockScreen) ?? island.url?.absoluteString, timers: timers)
    }

    /// The first `widgetURL` a rendered view carries (the Lock Screen view's own deep link).
    static func widgetURL(in nodes: [JSONValue]) -> String? {
        for n in nodes {
            switch n {
            case .object(let o):
                if let url = o["widgetURL"]?.string { return url }
                if let found = widgetURL(in: Array(o.values)) { return found }
            case .array(let a):
                if let found = widgetURL(in: a) { return found }
            default: continue
            }
        }
        return nil
    }

    /// Its presentations, served by the extension's `activity` request.
    public var _activities: [_ActivityDescriptor] {
        [_ActivityDescriptor(kind: kind, present: { try self.present($0) })]
    }
}

/// An activity's presentations as text (`ActivityConfiguration.text`).
public struct ActivityPresentationText: Equatable, Sendable {
    public var lockScreen: String
    public var compactLeading: String
    public var compactTrailing: String
    public var minimal: String
    /// `leading`, `trailing`, `center`, `bottom`.
    public var expanded: [String: String]
    public var url: String?
    /// The regions that are one live timer alone (`compactTrailing`, `minimal`, `leading`, …).
    public var timers: [String: LiveTimer] = [:]

    /// A `Text(timerInterval:)`: the date it counts to (down) or from (up).
    public struct LiveTimer: Equatable, Sendable {
        public var date: Date
        public var countsDown: Bool
    }
}

extension View {
    /// The Lock Screen view's background (the detail pane draws on the theme's own).
    public func activityBackgroundTint(_ color: Color?) -> some View { self }
    /// The colour of the system's buttons beside it.
    public func activitySystemActionForegroundColor(_ color: Color?) -> some View { self }
}
