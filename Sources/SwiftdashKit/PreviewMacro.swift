import Foundation
internal import DashWidgets

// `#Preview`, as Xcode's canvas runs it: `swiftdash preview KIND` draws a widget's own previews,
// with the entries its author wrote (docs/widgetkit.md, "Previews"; decision 61). The macro (a
// compiler plugin built with swift-syntax, Sources/PreviewMacros) turns each `#Preview` into a
// function named `swiftdash_preview_…` that makes a `_SwiftdashPreview` from the macro's own
// arguments; `PreviewRegistry` finds those functions in the executable's symbol table.

#if Previews
    /// A view's preview: compiles; drawn by no command (a view has no kind to preview).
    @freestanding(declaration)
    public macro Preview<V: View>(_ name: String? = nil, @ViewBuilder body: @escaping () -> V) =
        #externalMacro(module: "SwiftdashPreviewMacros", type: "PreviewMacro")

    @freestanding(declaration)
    public macro Preview<V: View>(_ name: String? = nil, traits: _PreviewTrait..., @ViewBuilder body: @escaping () -> V) =
        #externalMacro(module: "SwiftdashPreviewMacros", type: "PreviewMacro")

    /// A widget's preview in `family` with the entries of `timeline`.
    @freestanding(declaration)
    public macro Preview<W: Widget, E: TimelineEntry>(
        _ name: String? = nil, as family: WidgetFamily, widget: @escaping () -> W,
        @_PreviewTimelineBuilder<E> timeline: @escaping () async -> [E]
    ) = #externalMacro(module: "SwiftdashPreviewMacros", type: "PreviewMacro")

    /// The same with the configuration intent the entries are drawn for.
    @freestanding(declaration)
    public macro Preview<W: Widget, E: TimelineEntry, I: WidgetConfigurationIntent>(
        _ name: String? = nil, as family: WidgetFamily, using intent: I, widget: @escaping () -> W,
        @_PreviewTimelineBuilder<E> timeline: @escaping () async -> [E]
    ) = #externalMacro(module: "SwiftdashPreviewMacros", type: "PreviewMacro")

    /// A widget's preview whose entries a provider's timeline gives.
    @freestanding(declaration)
    public macro Preview<W: Widget, P: TimelineProvider>(
        _ name: String? = nil, as family: WidgetFamily, widget: @escaping () -> W,
        timelineProvider: @escaping () -> P
    ) = #externalMacro(module: "SwiftdashPreviewMacros", type: "PreviewMacro")

    /// A Live Activity's preview: compiles; not drawn (Live Activities add no tile).
    @freestanding(declaration)
    public macro Preview<W: Widget, A: ActivityAttributes>(
        _ name: String? = nil, as kind: ActivityPreviewViewKind, using attributes: A, widget: @escaping () -> W,
        @_PreviewContentStatesBuilder<A.ContentState> contentStates: @escaping () async -> [A.ContentState]
    ) = #externalMacro(module: "SwiftdashPreviewMacros", type: "PreviewMacro")
#endif

/// Where a Live Activity's preview is shown (the lock screen's banner, the Dynamic Island).
public enum ActivityPreviewViewKind: Sendable, Hashable {
    case content
    case dynamicIsland(DynamicIslandPreviewKind)
    public enum DynamicIslandPreviewKind: Sendable, Hashable { case compact, expanded, minimal }
}

/// The content states of a Live Activity's `#Preview`, one statement each.
@resultBuilder
public enum _PreviewContentStatesBuilder<State> {
    public static func buildExpression(_ state: State) -> [State] { [state] }
    public static func buildBlock(_ parts: [State]...) -> [State] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [State]?) -> [State] { part ?? [] }
    public static func buildEither(first: [State]) -> [State] { first }
    public static func buildEither(second: [State]) -> [State] { second }
    public static func buildArray(_ parts: [[State]]) -> [State] { parts.flatMap { $0 } }
}

/// A preview's trait (`.sizeThatFitsLayout`, `.landscapeLeft`): a terminal draws a tile's size.
public struct _PreviewTrait: Sendable {
    public static let sizeThatFitsLayout = _PreviewTrait(), landscapeLeft = _PreviewTrait()
    public static let portrait = _PreviewTrait(), landscapeRight = _PreviewTrait()
    public static func fixedLayout(width: CGFloat, height: CGFloat) -> _PreviewTrait { _PreviewTrait() }
}

/// The entries of a `#Preview`'s `timeline:` closure, one statement each (`for` and `if` too).
@resultBuilder
public enum _PreviewTimelineBuilder<Entry: TimelineEntry> {
    public static func buildExpression(_ entry: Entry) -> [Entry] { [entry] }
    public static func buildExpression(_ entries: [Entry]) -> [Entry] { entries }
    public static func buildBlock(_ parts: [Entry]...) -> [Entry] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Entry]?) -> [Entry] { part ?? [] }
    public static func buildEither(first: [Entry]) -> [Entry] { first }
    public static func buildEither(second: [Entry]) -> [Entry] { second }
    public static func buildArray(_ parts: [[Entry]]) -> [Entry] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [Entry]) -> [Entry] { part }
}

/// One `#Preview`: what the macro's expansion makes, with the macro's arguments unchanged.
public final class _SwiftdashPreview {
    let name: String?
    /// The widget's family and descriptor; nil for a view's preview.
    let family: WidgetFamily?
    let widget: _WidgetDescriptor?
    let entries: () async -> [Any]
    var place = ""

    public init<V: View>(_ name: String? = nil, @ViewBuilder body: @escaping () -> V) {
        (self.name, family, widget, entries) = (name, nil, nil, { [] })
    }
    public convenience init<V: View>(
        _ name: String? = nil, traits: _PreviewTrait..., @ViewBuilder body: @escaping () -> V
    ) {
        self.init(name, body: body)
    }
    public init<W: Widget, E: TimelineEntry>(
        _ name: String? = nil, as family: WidgetFamily, widget: @escaping () -> W,
        @_PreviewTimelineBuilder<E> timeline: @escaping () async -> [E]
    ) {
        (self.name, self.family) = (name, family)
        self.widget = widget().body._widgets.first
        entries = { await timeline() }
    }
    public convenience init<W: Widget, E: TimelineEntry, I: WidgetConfigurationIntent>(
        _ name: String? = nil, as family: WidgetFamily, using intent: I, widget: @escaping () -> W,
        @_PreviewTimelineBuilder<E> timeline: @escaping () async -> [E]
    ) {
        self.init(name, as: family, widget: widget, timeline: timeline)
    }
    public init<W: Widget, P: TimelineProvider>(
        _ name: String? = nil, as family: WidgetFamily, widget: @escaping () -> W,
        timelineProvider: @escaping () -> P
    ) {
        (self.name, self.family) = (name, family)
        self.widget = widget().body._widgets.first
        entries = {
            let provider = timelineProvider()
            let context = TimelineProviderContext(family: family, displaySize: .zero, isPreview: true)
            let got = await withCheckedContinuation { (done: CheckedContinuation<Wait.Unchecked<[Any]>, Never>) in
                provider.getTimeline(in: context) { done.resume(returning: Wait.Unchecked(value: $0.entries)) }
            }
            return got.value
        }
    }

    public init<W: Widget, A: ActivityAttributes>(
        _ name: String? = nil, as kind: ActivityPreviewViewKind, using attributes: A, widget: @escaping () -> W,
        @_PreviewContentStatesBuilder<A.ContentState> contentStates: @escaping () async -> [A.ContentState]
    ) {
        (self.name, family, self.widget, entries) = (name, nil, nil, { [] })
    }

    /// The expansion's answer: the preview, kept alive for the caller (`PreviewRegistry`).
    public static func retained(_ preview: _SwiftdashPreview, fileID: String, line: Int) -> UnsafeMutableRawPointer {
        preview.place = "\(fileID):\(line)"
        return Unmanaged.passRetained(preview).toOpaque()
    }
}

extension ExtensionServer {
    /// The widget's own `#Preview`s for the asked family (else its first `#Preview`), as Xcode's
    /// canvas finds them.
    func ownPreviews(_ w: _WidgetDescriptor, _ env: EnvironmentValues) -> [_SwiftdashPreview] {
        let mine = PreviewRegistry.all.filter { $0.widget?.kind == w.kind }
        let forFamily = mine.filter { $0.family == env.widgetFamily }
        return forFamily.isEmpty ? Array(mine.prefix(1)) : forFamily
    }

    /// A preview's entries as its author wrote them (a `timelineProvider:`'s timeline entries).
    func entries(of preview: _SwiftdashPreview) throws -> [Any] {
        try Wait.async { await preview.entries().map(Wait.Unchecked.init) }.map(\.value)
    }

    /// A snapshot for `swiftdash preview` (a preview context) from the widget's own `#Preview`
    /// for the asked family (else its first `#Preview`), drawn as an entry of the widget: the
    /// entry current at `now` as a timeline's would be (`preview --at` steps through dated
    /// entries), else the first; nil when the widget has no `#Preview`. What a client that does
    /// not ask `preview` draws.
    func previewSnapshot(_ w: _WidgetDescriptor, _ env: EnvironmentValues, now: Date?) throws -> JSONValue? {
        guard let preview = ownPreviews(w, env).first else { return nil }
        let entries = try entries(of: preview)
        let current = now.flatMap { now in entries.last { ($0 as? any TimelineEntry).map { $0.date <= now } ?? false } }
        guard let entry = current ?? entries.first else {
            throw IntentError("the #Preview at \(preview.place) has an empty timeline")
        }
        return w.drawEntry(entry, env)
    }

    /// The `preview` answer: every entry of each of the widget's own `#Preview`s for the asked
    /// family, in the order written (equal dates included), each drawn as an entry of the widget;
    /// `{"previews": []}` when it has none.
    func previewTimelines(_ w: _WidgetDescriptor, _ env: EnvironmentValues) throws -> JSONValue {
        let previews = ownPreviews(w, env).prefix(ExtensionProtocol.maxPreviews)
        return .object([
            "previews": .array(
                try previews.map { preview in
                    let drawn = try entries(of: preview).prefix(ExtensionProtocol.maxEntries).map { entry in
                        guard let json = w.drawEntry(entry, env) else {
                            throw IntentError(
                                "the #Preview at \(preview.place) has entries of type \(type(of: entry)), "
                                    + "not the widget's entry type")
                        }
                        return json
                    }
                    var o: [String: JSONValue] = ["place": .string(preview.place), "entries": .array(drawn)]
                    if let name = preview.name { o["name"] = .string(name) }
                    if let family = preview.family { o["family"] = .string(family.dash.rawValue) }
                    return .object(o)
                })
        ])
    }
}
