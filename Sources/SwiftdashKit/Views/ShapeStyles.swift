import Foundation
internal import DashWidgets

// The rest of SwiftUI's shape styles and shapes as widgets use them. A terminal cell has one
// foreground colour and the theme's background: fills, materials and backgrounds draw nothing (the
// tile keeps the theme's background), a style's colour becomes the nearest semantic colour, and a
// shape is drawn as nothing (no vector paths in cells). docs/widgetkit.md lists each.

// MARK: - Styles

/// `.fill`, `.fill.secondary`, `.fill.tertiary`, …: the system's fill colours, behind content. A
/// fill as a background draws nothing; as a foreground it reads as secondary.
public struct FillShapeStyle: ShapeStyle, Sendable {
    public init() {}
    public var _semantic: String? { "secondary" }
    public var primary: FillShapeStyle { self }
    public var secondary: FillShapeStyle { self }
    public var tertiary: FillShapeStyle { self }
    public var quaternary: FillShapeStyle { self }
    public func opacity(_ opacity: Double) -> FillShapeStyle { self }
}

extension ShapeStyle where Self == FillShapeStyle {
    public static var fill: FillShapeStyle { .init() }
}

/// `.tint`: the accent colour.
public struct TintShapeStyle: ShapeStyle, Sendable {
    public init() {}
    public var _semantic: String? { "accent" }
}

extension ShapeStyle where Self == TintShapeStyle {
    public static var tint: TintShapeStyle { .init() }
}

/// `.background` and `.foreground`: the tile's background (nothing to draw) and the text colour.
public struct BackgroundStyle: ShapeStyle, Sendable {
    public init() {}
    public var _semantic: String? { nil }
    public var secondary: BackgroundStyle { self }
    public var tertiary: BackgroundStyle { self }
}

public struct ForegroundStyle: ShapeStyle, Sendable {
    public init() {}
    public var _semantic: String? { "primary" }
}

extension ShapeStyle where Self == BackgroundStyle {
    public static var background: BackgroundStyle { .init() }
}

extension ShapeStyle where Self == ForegroundStyle {
    public static var foreground: ForegroundStyle { .init() }
}

/// A material (a blur of what is behind): the tile's own background.
public struct Material: ShapeStyle, Sendable {
    public var _semantic: String? { nil }
    public static let ultraThin = Material(), thin = Material(), regular = Material()
    public static let thick = Material(), ultraThick = Material(), bar = Material()
}

extension ShapeStyle where Self == Material {
    public static var ultraThinMaterial: Material { .ultraThin }
    public static var thinMaterial: Material { .thin }
    public static var regularMaterial: Material { .regular }
    public static var thickMaterial: Material { .thick }
    public static var ultraThickMaterial: Material { .ultraThick }
    public static var bar: Material { .bar }
}

/// Any shape style, its type forgotten (what `opacity(_:)` gives for a style of your own).
public struct AnyShapeStyle: ShapeStyle, Sendable {
    public let _semantic: String?
    public init<S: ShapeStyle>(_ style: S) { _semantic = style._semantic }
}

extension ShapeStyle {
    /// A faint style reads as secondary text.
    public func opacity(_ opacity: Double) -> AnyShapeStyle {
        let s = AnyShapeStyle(self)
        return opacity < 0.6 && s._semantic != nil ? AnyShapeStyle(HierarchicalShapeStyle.secondary) : s
    }
}

extension View {
    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle, S3: ShapeStyle>(
        _ primary: S1, _ secondary: S2, _ tertiary: S3
    ) -> some View {
        foregroundStyle(primary)
    }
    /// The tile's background is the theme's: a background style draws nothing.
    public func background(ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View { self }
    @_disfavoredOverload
    public func background<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set) -> some View { self }
    public func background<S: ShapeStyle, T: Shape>(_ style: S, in shape: T) -> some View { self }
    public func backgroundStyle<S: ShapeStyle>(_ style: S) -> some View { self }
    /// A tint colours controls in SwiftUI; swiftdash draws controls in the theme's colours.
    public func tint<S: ShapeStyle>(_ tint: S?) -> some View { self }
}

// MARK: - Shapes

/// How a shape is outlined: drawn as nothing, like the shape.
public struct StrokeStyle: Sendable, Hashable {
    public var lineWidth: CGFloat
    public var lineCap: CGLineCap
    public var lineJoin: CGLineJoin
    public var miterLimit: CGFloat
    public var dash: [CGFloat]
    public var dashPhase: CGFloat
    public init(
        lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter, miterLimit: CGFloat = 10,
        dash: [CGFloat] = [], dashPhase: CGFloat = 0
    ) {
        (self.lineWidth, self.lineCap, self.lineJoin, self.miterLimit, self.dash, self.dashPhase) = (
            lineWidth, lineCap, lineJoin, miterLimit, dash, dashPhase
        )
    }
}

public enum CGLineCap: Int32, Sendable, Hashable { case butt, round, square }
public enum CGLineJoin: Int32, Sendable, Hashable { case miter, round, bevel }

public struct FillStyle: Sendable, Hashable {
    public var isEOFilled: Bool, isAntialiased: Bool
    public init(eoFill: Bool = false, antialiased: Bool = true) { (isEOFilled, isAntialiased) = (eoFill, antialiased) }
}

/// A shape, filled or outlined: nothing to draw in cells, so it takes no room (a shape behind text
/// in a `ZStack` leaves the text).
public struct _StyledShape: Shape, PrimitiveView {
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { [] }
}

extension Shape {
    public func fill<S: ShapeStyle>(_ content: S, style: FillStyle = FillStyle()) -> _StyledShape { _StyledShape() }
    public func fill(style: FillStyle = FillStyle()) -> _StyledShape { _StyledShape() }
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> _StyledShape { _StyledShape() }
    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle, antialiased: Bool = true) -> _StyledShape {
        _StyledShape()
    }
    public func stroke(lineWidth: CGFloat = 1) -> _StyledShape { _StyledShape() }
    public func stroke(style: StrokeStyle) -> _StyledShape { _StyledShape() }
    public func strokeBorder<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1, antialiased: Bool = true)
        -> _StyledShape
    { _StyledShape() }
    public func strokeBorder<S: ShapeStyle>(_ content: S, style: StrokeStyle, antialiased: Bool = true)
        -> _StyledShape
    { _StyledShape() }
    public func strokeBorder(lineWidth: CGFloat = 1, antialiased: Bool = true) -> _StyledShape { _StyledShape() }
    public func trim(from start: CGFloat = 0, to end: CGFloat = 1) -> _StyledShape { _StyledShape() }
    public func inset(by amount: CGFloat) -> _StyledShape { _StyledShape() }
    public func rotation(_ angle: Angle, anchor: UnitPoint = .center) -> _StyledShape { _StyledShape() }
}

/// The lock screen's backdrop behind an accessory widget: the tile's own background.
public struct AccessoryWidgetBackground: View, PrimitiveView {
    public init() {}
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { [] }
}

/// A shape from a path: drawn as nothing.
public struct Path: Shape, PrimitiveView {
    public init() {}
    public init(_ build: (inout Path) -> Void) {}
    public init(_ rect: CGRect) {}
    public mutating func move(to point: CGPoint) {}
    public mutating func addLine(to point: CGPoint) {}
    public mutating func addLines(_ points: [CGPoint]) {}
    public mutating func addRect(_ rect: CGRect) {}
    public mutating func addArc(
        center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle, clockwise: Bool
    ) {}
    public mutating func addQuadCurve(to point: CGPoint, control: CGPoint) {}
    public mutating func addCurve(to point: CGPoint, control1: CGPoint, control2: CGPoint) {}
    public mutating func closeSubpath() {}
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { [] }
}
