import Foundation

/// Text roles, like SwiftUI's fonts, drawn with terminal attributes.
public enum Font: String, Sendable, Hashable {
    case largeTitle, title, headline, body, caption, monospacedDigit
}

/// Colours by meaning; the theme decides the actual colour.
public enum SemanticColor: String, Sendable, Hashable {
    case primary, secondary, accent, positive, negative, warning
}

/// How a live date is written. It is formatted from the clock at draw time, so it
/// stays current without asking the provider.
public enum LiveDateStyle: Sendable, Hashable {
    /// `14:05` (with `seconds`, `14:05:09`).
    case time(seconds: Bool)
    /// `Mon 23 Nov`.
    case date
    /// `5 min ago`, `in 2 h`.
    case relative
    /// A counter toward or since the date: `12:34`, `1:02:03`.
    case timer
    /// Signed offset from now: `+5 min`, `-2 h`.
    case offset
}

public enum HorizontalAlignment: Sendable, Hashable { case leading, center, trailing }
public enum VerticalAlignment: Sendable, Hashable { case top, center, bottom }
public enum Axis: Sendable, Hashable { case horizontal, vertical }

public struct EdgeInsets: Sendable, Hashable {
    public var top, leading, bottom, trailing: Int
    public init(top: Int = 0, leading: Int = 0, bottom: Int = 0, trailing: Int = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
    public init(_ all: Int) { self.init(top: all, leading: all, bottom: all, trailing: all) }
}

/// Text appearance; nil fields inherit from the surrounding `.font` / `.foregroundStyle`.
public struct TextStyle: Sendable, Hashable {
    public var font: Font?
    public var color: SemanticColor?
    public var bold: Bool?
    public init(font: Font? = nil, color: SemanticColor? = nil, bold: Bool? = nil) {
        self.font = font
        self.color = color
        self.bold = bold
    }
    /// Fields of `self` win; missing ones come from `outer`.
    public func inheriting(_ outer: TextStyle) -> TextStyle {
        TextStyle(font: font ?? outer.font, color: color ?? outer.color, bold: bold ?? outer.bold)
    }
}

/// A widget's view: a small tree the renderer lays out into a tile, like SwiftUI's body.
public indirect enum TileView: Sendable {
    case empty
    case text(String, TextStyle)
    case liveDate(Date, LiveDateStyle, TextStyle)
    case stack(Axis, alignment: StackAlignment, spacing: Int, [TileView])
    case spacer(minLength: Int)
    case divider
    case padding(EdgeInsets, TileView)
    case lineLimit(Int, TileView)
    /// Fixed width/height (nil: as the content wants), content aligned inside.
    case frame(width: Int?, height: Int?, alignment: StackAlignment, TileView)
    /// Fills all offered width (and height when `height`), content aligned inside.
    case expand(horizontal: Bool, vertical: Bool, alignment: StackAlignment, TileView)
    case gauge(Double, SemanticColor)
    case sparkline([Double], SemanticColor, height: Int)
    case styled(TextStyle, TileView)
    case link(String, TileView)
    case widgetURL(String, TileView)
    case redacted(TileView)
    /// The first of these that fits the room whole (SwiftUI's `ViewThatFits`): a number can
    /// give a shorter form (`1.23e-6`) instead of being cut; if none fits, the last is drawn.
    case firstFitting([TileView])
    /// A button or a toggle (`Button`, `Toggle`): activating it runs the widget's action.
    case control(TileControl)
    /// Content an action makes stale (`.invalidatable()`); `pending` while an action of the
    /// tile is on its way, and then drawn as such.
    case invalidatable(pending: Bool, TileView)

    public struct StackAlignment: Sendable, Hashable {
        public var horizontal: HorizontalAlignment
        public var vertical: VerticalAlignment
        public init(_ horizontal: HorizontalAlignment = .leading, _ vertical: VerticalAlignment = .top) {
            self.horizontal = horizontal
            self.vertical = vertical
        }
        public static let leading = StackAlignment(.leading, .top)
        public static let center = StackAlignment(.center, .center)
        public static let trailing = StackAlignment(.trailing, .top)
        public static let top = StackAlignment(.leading, .top)
        public static let bottom = StackAlignment(.leading, .bottom)
    }
}

/// Two views are equal when every node and value is: the renderer's tile cache reuses a tile's
/// cells while its view stays equal (a NaN in a sparkline never does, so it is drawn afresh).
extension TileView: Equatable {}

// MARK: - Building views, SwiftUI style

@resultBuilder
public enum TileBuilder {
    public static func buildBlock(_ parts: [TileView]...) -> [TileView] { parts.flatMap { $0 } }
    public static func buildExpression(_ view: TileView) -> [TileView] { [view] }
    public static func buildExpression(_ views: [TileView]) -> [TileView] { views }
    public static func buildOptional(_ part: [TileView]?) -> [TileView] { part ?? [] }
    public static func buildEither(first: [TileView]) -> [TileView] { first }
    public static func buildEither(second: [TileView]) -> [TileView] { second }
    public static func buildArray(_ parts: [[TileView]]) -> [TileView] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [TileView]) -> [TileView] { part }
}

public func Text(_ string: String) -> TileView { .text(string, TextStyle()) }
public func Text(_ date: Date, style: LiveDateStyle) -> TileView { .liveDate(date, style, TextStyle()) }

public func VStack(
    alignment: HorizontalAlignment = .leading, spacing: Int = 0,
    @TileBuilder _ content: () -> [TileView]
) -> TileView {
    .stack(.vertical, alignment: .init(alignment, .top), spacing: spacing, content())
}
public func HStack(
    alignment: VerticalAlignment = .top, spacing: Int = 1,
    @TileBuilder _ content: () -> [TileView]
) -> TileView {
    .stack(.horizontal, alignment: .init(.leading, alignment), spacing: spacing, content())
}
public func Spacer(minLength: Int = 0) -> TileView { .spacer(minLength: minLength) }
/// Draws the first view that fits whole in the room it gets, else the last one.
public func ViewThatFits(@TileBuilder _ content: () -> [TileView]) -> TileView { .firstFitting(content()) }
public func Divider() -> TileView { .divider }
/// A horizontal bar filled to `value` (0...1).
public func Gauge(value: Double, color: SemanticColor = .accent) -> TileView { .gauge(value, color) }
/// A series drawn with ▁▂▃▄▅▆▇█, resampled to the width it gets.
public func Sparkline(_ values: [Double], color: SemanticColor = .accent, height: Int = 1) -> TileView {
    .sparkline(values, color, height: max(1, height))
}

extension TileView {
    public func font(_ font: Font) -> TileView { restyle(TextStyle(font: font)) }
    public func foregroundStyle(_ color: SemanticColor) -> TileView { restyle(TextStyle(color: color)) }
    public func bold(_ on: Bool = true) -> TileView { restyle(TextStyle(bold: on)) }

    private func restyle(_ s: TextStyle) -> TileView {
        switch self {
        case .text(let t, let style): return .text(t, s.inheriting(style))
        case .liveDate(let d, let ls, let style): return .liveDate(d, ls, s.inheriting(style))
        case .styled(let outer, let v): return .styled(s.inheriting(outer), v)
        default: return .styled(s, self)
        }
    }

    public func padding(_ n: Int = 1) -> TileView {
        .padding(EdgeInsets(top: 0, leading: n, bottom: 0, trailing: n), self)
    }
    public func padding(_ insets: EdgeInsets) -> TileView { .padding(insets, self) }
    public func lineLimit(_ n: Int) -> TileView { .lineLimit(max(1, n), self) }
    public func frame(width: Int? = nil, height: Int? = nil, alignment: StackAlignment = .leading) -> TileView {
        .frame(width: width, height: height, alignment: alignment, self)
    }
    /// Takes all the width offered (like `.frame(maxWidth: .infinity)`).
    public func fillWidth(alignment: HorizontalAlignment = .leading) -> TileView {
        .expand(horizontal: true, vertical: false, alignment: .init(alignment, .top), self)
    }
    /// Takes all the room offered, content aligned inside.
    public func fill(alignment: StackAlignment = .center) -> TileView {
        .expand(horizontal: true, vertical: true, alignment: alignment, self)
    }
    /// Makes this subtree a tap target (medium and large tiles may have several).
    public func link(_ url: String) -> TileView { .link(url, self) }
    /// The tap target of the whole tile (the only one of a small tile).
    public func widgetURL(_ url: String) -> TileView { .widgetURL(url, self) }
    /// Draws text as blocks of the same width: the placeholder look.
    public func redacted() -> TileView { .redacted(self) }

    /// Every link URL in the tree, in reading order.
    public var links: [String] {
        switch self {
        case .link(let u, let v): return [u] + v.links
        case .stack(_, _, _, let children): return children.flatMap(\.links)
        case .padding(_, let v), .lineLimit(_, let v), .frame(_, _, _, let v), .expand(_, _, _, let v),
            .styled(_, let v), .widgetURL(_, let v), .redacted(let v), .invalidatable(_, let v):
            return v.links
        case .firstFitting(let options): return options.first?.links ?? []
        default: return []
        }
    }

    /// The `widgetURL` of the tree, if any.
    public var widgetURL: String? {
        switch self {
        case .widgetURL(let u, _): return u
        case .stack(_, _, _, let children): return children.lazy.compactMap(\.widgetURL).first
        case .padding(_, let v), .lineLimit(_, let v), .frame(_, _, _, let v), .expand(_, _, _, let v),
            .styled(_, let v), .redacted(let v), .link(_, let v), .invalidatable(_, let v):
            return v.widgetURL
        case .firstFitting(let options): return options.lazy.compactMap(\.widgetURL).first
        default: return nil
        }
    }
}
