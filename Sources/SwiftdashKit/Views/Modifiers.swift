import Foundation
internal import DashWidgets

/// A view with something done to its view JSON.
struct Modified<Content: View>: View, PrimitiveView {
    let content: Content
    let change: ([JSONValue], EnvironmentValues) -> [JSONValue]
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { change(render(content, env), env) }
}

public struct Edge: Sendable, Hashable {
    public struct Set: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let top = Set(rawValue: 1), leading = Set(rawValue: 2)
        public static let bottom = Set(rawValue: 4), trailing = Set(rawValue: 8)
        public static let horizontal: Set = [.leading, .trailing], vertical: Set = [.top, .bottom]
        public static let all: Set = [.top, .leading, .bottom, .trailing]
    }
}

public struct EdgeInsets: Sendable, Hashable {
    public var top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat
    public init(top: CGFloat = 0, leading: CGFloat = 0, bottom: CGFloat = 0, trailing: CGFloat = 0) {
        (self.top, self.leading, self.bottom, self.trailing) = (top, leading, bottom, trailing)
    }
}

public enum TextAlignment: Sendable, Hashable { case leading, center, trailing }
public enum ContentMode: Sendable, Hashable { case fit, fill }
public enum SymbolRenderingMode: Sendable, Hashable { case monochrome, multicolor, hierarchical, palette }
public enum ContainerBackgroundPlacement: Sendable, Hashable { case widget }
public enum ControlSize: Sendable, Hashable { case mini, small, regular, large, extraLarge }

extension View {
    func modified(_ change: @escaping ([JSONValue], EnvironmentValues) -> [JSONValue]) -> some View {
        Modified(content: self, change: change)
    }
    func styled(_ key: String, _ value: JSONValue?) -> some View {
        modified { nodes, _ in value.map { setting(key, $0, on: nodes) } ?? nodes }
    }

    // MARK: Text style

    public func font(_ font: Font?) -> some View {
        modified { nodes, _ in
            var n = nodes
            if let name = font?.name { n = setting("font", .string(name), on: n) }
            if font?.boldWeight == true { n = setting("bold", .bool(true), on: n) }
            return n
        }
    }
    public func fontWeight(_ weight: Font.Weight?) -> some View {
        styled("bold", (weight?.isBold ?? false) ? .bool(true) : nil)
    }
    public func bold(_ isActive: Bool = true) -> some View { styled("bold", .bool(isActive)) }
    public func italic(_ isActive: Bool = true) -> some View { self }
    public func monospacedDigit() -> some View { styled("font", .string("monospacedDigit")) }
    public func foregroundColor(_ color: Color?) -> some View { styled("color", color?.semantic.map { .string($0) }) }
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View {
        styled("color", style.semantic.map { .string($0) })
    }
    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle>(_ primary: S1, _ secondary: S2) -> some View {
        foregroundStyle(primary)
    }
    public func tint(_ tint: Color?) -> some View { self }
    public func lineLimit(_ number: Int?) -> some View {
        styled("lineLimit", number.map { .number(Double(max(1, min(200, $0)))) })
    }
    public func lineLimit(_ limit: Int, reservesSpace: Bool) -> some View { lineLimit(limit) }
    /// Multi-line text is drawn from the leading edge of its lines.
    public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { self }
    public func minimumScaleFactor(_ factor: CGFloat) -> some View { self }
    public func truncationMode(_ mode: Text.TruncationMode) -> some View { self }
    public func textCase(_ textCase: Text.Case?) -> some View { self }
    public func kerning(_ kerning: CGFloat) -> some View { self }
    public func tracking(_ tracking: CGFloat) -> some View { self }
    /// No strike-through in the view protocol: struck text (a done to-do) is drawn as secondary text.
    public func strikethrough(_ isActive: Bool = true, pattern: Text.LineStyle.Pattern = .solid, color: Color? = nil)
        -> some View
    {
        styled("color", isActive ? .string("secondary") : nil)
    }
    public func underline(_ isActive: Bool = true, pattern: Text.LineStyle.Pattern = .solid, color: Color? = nil)
        -> some View
    { self }
    /// `.textScale(.secondary)`: smaller text, drawn as a caption.
    public func textScale(_ scale: Text.Scale, isEnabled: Bool = true) -> some View {
        styled("font", isEnabled && scale == .secondary ? .string("caption") : nil)
    }
    public func fontDesign(_ design: Font.Design?) -> some View { self }
    public func fontWidth(_ width: Font.Width?) -> some View { self }
    public func monospaced(_ isActive: Bool = true) -> some View { self }
    public func dynamicTypeSize<T>(_ size: T) -> some View { self }
    public func symbolRenderingMode(_ mode: SymbolRenderingMode?) -> some View { self }
    public func imageScale(_ scale: Image.Scale) -> some View { self }

    // MARK: Layout

    /// Padding in cells: any padding on an edge is one cell there (16 points and less are a cell on
    /// a terminal, where a widget has room for a few).
    public func padding(_ length: CGFloat? = nil) -> some View { padding(.all, length) }
    public func padding(_ edges: Edge.Set, _ length: CGFloat? = nil) -> some View {
        let n = length.map { $0 > 0 ? 1 : 0 } ?? 1
        return padding(
            EdgeInsets(
                top: edges.contains(.top) ? CGFloat(n) : 0, leading: edges.contains(.leading) ? CGFloat(n) : 0,
                bottom: edges.contains(.bottom) ? CGFloat(n) : 0, trailing: edges.contains(.trailing) ? CGFloat(n) : 0),
            cells: true)
    }
    public func padding(_ insets: EdgeInsets) -> some View {
        padding(
            EdgeInsets(
                top: insets.top > 0 ? 1 : 0, leading: insets.leading > 0 ? 1 : 0,
                bottom: insets.bottom > 0 ? 1 : 0, trailing: insets.trailing > 0 ? 1 : 0),
            cells: true)
    }
    func padding(_ cells: EdgeInsets, cells _: Bool) -> some View {
        modified { nodes, _ in
            let pad: JSONValue = .object([
                "top": .number(Double(cells.top)), "leading": .number(Double(cells.leading)),
                "bottom": .number(Double(cells.bottom)), "trailing": .number(Double(cells.trailing)),
            ])
            return [wrapped(nodes, "padding", pad)]
        }
    }

    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View {
        modified { nodes, _ in
            var o = object(nodes)
            if let width, width.isFinite, width > 0 { o["width"] = .number(Double(Cells.wide(width))) }
            if let height, height.isFinite, height > 0 { o["height"] = .number(Double(Cells.high(height))) }
            return [.object(o)]
        }
    }
    /// `maxWidth: .infinity` fills the width (and `maxHeight: .infinity` the height too); finite
    /// bounds are left to the layout, which never draws past the tile.
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil,
        minHeight: CGFloat? = nil, idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil,
        alignment: Alignment = .center
    ) -> some View {
        modified { nodes, _ in
            let wide = maxWidth == .infinity, high = maxHeight == .infinity
            guard wide || high else { return nodes }
            var o = object(nodes)
            o["fill"] = .string(high ? "both" : "width")
            return [.object(o)]
        }
    }
    public func fixedSize() -> some View { self }
    public func fixedSize(horizontal: Bool, vertical: Bool) -> some View { self }
    public func layoutPriority(_ value: Double) -> some View { self }
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> some View { self }
    public func offset(_ offset: CGSize) -> some View { self }
    public func position(x: CGFloat = 0, y: CGFloat = 0) -> some View { self }
    public func aspectRatio(_ ratio: CGFloat? = nil, contentMode: ContentMode) -> some View { self }
    public func scaledToFit() -> some View { self }
    public func scaledToFill() -> some View { self }
    public func clipped(antialiased: Bool = false) -> some View { self }
    public func clipShape<S: Shape>(_ shape: S) -> some View { self }
    public func cornerRadius(_ radius: CGFloat, antialiased: Bool = true) -> some View { self }
    public func mask<M: View>(_ mask: M) -> some View { self }
    public func shadow(color: Color = .black, radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> some View { self }
    public func opacity(_ opacity: Double) -> some View {
        opacity < 0.6 ? AnyView(foregroundStyle(.secondary)) : AnyView(self)
    }
    public func blur(radius: CGFloat, opaque: Bool = false) -> some View { self }
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> some View { self }
    public func scaleEffect(_ s: CGFloat, anchor: UnitPoint = .center) -> some View { self }
    public func scaleEffect(x: CGFloat = 1, y: CGFloat = 1, anchor: UnitPoint = .center) -> some View { self }
    public func scaleEffect(_ size: CGSize, anchor: UnitPoint = .center) -> some View { self }
    public func contentTransition(_ transition: ContentTransition) -> some View { self }
    public func transition(_ t: ContentTransition) -> some View { self }
    public func accessibilityLabel(_ label: LocalizedStringKey) -> some View { self }
    public func accessibilityHidden(_ hidden: Bool) -> some View { self }
    public func controlSize(_ size: ControlSize) -> some View { self }

    /// A background cannot be drawn behind text in a cell grid: only the content is drawn.
    public func background<B: View>(_ background: B, alignment: Alignment = .center) -> some View { self }
    public func background<B: View>(alignment: Alignment = .center, @ViewBuilder content: () -> B) -> some View { self }
    @_disfavoredOverload
    public func background<S: ShapeStyle>(_ style: S) -> some View { self }
    /// An overlay is drawn after the content (a gradient or colour overlay draws nothing).
    public func overlay<O: View>(_ overlay: O, alignment: Alignment = .center) -> some View {
        modified { nodes, env in nodes + render(overlay, env) }
    }
    public func overlay<O: View>(alignment: Alignment = .center, @ViewBuilder content: () -> O) -> some View {
        overlay(content(), alignment: alignment)
    }

    // MARK: Widgets

    /// The whole tile's tap target (a small widget has only this one).
    public func widgetURL(_ url: URL?) -> some View {
        modified { nodes, env in
            guard let url else { return nodes }
            var o = object(nodes)
            o["widgetURL"] = .string(Links.url(url, kind: env.kind))
            return [.object(o)]
        }
    }
    /// The tile's background is the theme's: the content is drawn as it is.
    public func containerBackground<S: ShapeStyle>(_ style: S, for placement: ContainerBackgroundPlacement) -> some View
    { self }
    public func containerBackground<B: View>(for placement: ContainerBackgroundPlacement, @ViewBuilder content: () -> B)
        -> some View
    {
        self
    }
    public func redacted(reason: RedactionReasons) -> some View {
        EnvironmentModified(content: self) { $0.redactionReasons.formUnion(reason) }
            .modified { nodes, _ in reason.isEmpty ? nodes : setting("redacted", .bool(true), on: nodes) }
    }
    public func unredacted() -> some View { EnvironmentModified(content: self) { $0.redactionReasons = [] } }
    /// Drawn redacted when the environment asks for privacy.
    public func privacySensitive(_ sensitive: Bool = true) -> some View {
        modified { nodes, env in
            sensitive && env.redactionReasons.contains(.privacy) ? setting("redacted", .bool(true), on: nodes) : nodes
        }
    }
    /// swiftdash marks a control's tile while its intent runs (`⋯`): nothing more to draw.
    public func invalidatableContent(_ invalidatable: Bool = true) -> some View { self }
    public func id<ID: Hashable>(_ id: ID) -> some View { self }
    public func widgetAccentable(_ accentable: Bool = true) -> some View { self }
    public func widgetLabel<L: View>(@ViewBuilder label: () -> L) -> some View { self }
    public func widgetLabel(_ key: LocalizedStringKey) -> some View { self }
    /// watchOS's curved corner complications: drawn straight.
    public func widgetCurvesContent(_ curvesContent: Bool = true) -> some View { self }
}

extension Text {
    public enum TruncationMode: Sendable, Hashable { case head, tail, middle }
}

extension Image {
    public enum Scale: Sendable, Hashable { case small, medium, large }
}

public struct Angle: Sendable, Hashable {
    public var degrees: Double
    public init(degrees: Double) { self.degrees = degrees }
    public static func degrees(_ d: Double) -> Angle { Angle(degrees: d) }
    public static func radians(_ r: Double) -> Angle { Angle(degrees: r * 180 / .pi) }
}

public struct ContentTransition: Sendable {
    public static let identity = ContentTransition(), opacity = ContentTransition()
    public static let numericText = ContentTransition()
    public static func numericText(countsDown: Bool = false) -> ContentTransition { ContentTransition() }
    public static func numericText(value: Double) -> ContentTransition { ContentTransition() }
}

/// Nodes as one object to put modifier keys on.
func object(_ nodes: [JSONValue]) -> [String: JSONValue] {
    switch single(nodes) {
    case .object(let o): return o
    case .string(let s): return ["text": .string(s)]
    default: return ["vstack": .array([])]
    }
}

/// Nodes wrapped in a stack carrying `key` (padding applies around the whole view, even if the
/// view carries padding of its own).
func wrapped(_ nodes: [JSONValue], _ key: String, _ value: JSONValue) -> JSONValue {
    var o = object(nodes)
    if o[key] != nil { o = ["vstack": .array([.object(o)])] }
    o[key] = value
    return .object(o)
}
