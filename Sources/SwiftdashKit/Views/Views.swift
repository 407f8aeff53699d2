import Foundation
internal import DashWidgets

// MARK: - Colour

/// Something a view can be filled or tinted with; drawn as the nearest of swiftdash's semantic
/// colours (`primary`, `secondary`, `accent`, `positive`, `negative`, `warning`), which the theme maps
/// to what the terminal can show. Gradients take their first colour.
public protocol ShapeStyle {
    var _semantic: String? { get }
}

extension ShapeStyle {
    var semantic: String? { _semantic }
}

/// A colour. Named and system colours map to the theme's semantic colours: `.black`, `.white` and
/// `.primary` to the text colour (a terminal has its own background), greys to `secondary`,
/// greens to `positive`, reds to `negative`, oranges and yellows to `warning`, others to `accent`.
public struct Color: View, PrimitiveView, ShapeStyle, Hashable, Sendable {
    public let _semantic: String?
    init(semantic: String?) { _semantic = semantic }

    /// A colour from the asset catalog: no asset catalog here, so the text keeps its colour.
    public init(_ name: String, bundle: Bundle? = nil) { _semantic = nil }
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        _semantic = Color.nearest(red: red, green: green, blue: blue)
    }
    public init(white: Double, opacity: Double = 1) { _semantic = white > 0.3 && white < 0.7 ? "secondary" : "primary" }
    public init(hue: Double, saturation: Double, brightness: Double, opacity: Double = 1) {
        _semantic = saturation < 0.2 ? "secondary" : Color.byHue(hue * 360)
    }
    public enum RGBColorSpace: Sendable { case sRGB, sRGBLinear, displayP3 }
    public init(_ colorSpace: RGBColorSpace, red: Double, green: Double, blue: Double, opacity: Double = 1) {
        self.init(red: red, green: green, blue: blue, opacity: opacity)
    }

    static func nearest(red: Double, green: Double, blue: Double) -> String {
        let mx = max(red, green, blue), mn = min(red, green, blue)
        if mx - mn < 0.15 { return mx > 0.3 && mx < 0.75 ? "secondary" : "primary" }
        var h: Double
        if mx == red {
            h = (green - blue) / (mx - mn)
        } else if mx == green {
            h = 2 + (blue - red) / (mx - mn)
        } else {
            h = 4 + (red - green) / (mx - mn)
        }
        h *= 60
        if h < 0 { h += 360 }
        return byHue(h)
    }
    static func byHue(_ h: Double) -> String {
        switch h {
        case ..<20, 330...: return "negative"
        case 20..<70: return "warning"
        case 70..<170: return "positive"
        default: return "accent"
        }
    }

    public static let primary = Color(semantic: "primary")
    public static let secondary = Color(semantic: "secondary")
    public static let accentColor = Color(semantic: "accent")
    public static let clear = Color(semantic: nil)
    public static let black = Color(semantic: "primary")
    public static let white = Color(semantic: "primary")
    public static let gray = Color(semantic: "secondary")
    public static let red = Color(semantic: "negative")
    public static let pink = Color(semantic: "negative")
    public static let orange = Color(semantic: "warning")
    public static let yellow = Color(semantic: "warning")
    public static let brown = Color(semantic: "warning")
    public static let green = Color(semantic: "positive")
    public static let mint = Color(semantic: "positive")
    public static let teal = Color(semantic: "accent")
    public static let cyan = Color(semantic: "accent")
    public static let blue = Color(semantic: "accent")
    public static let indigo = Color(semantic: "accent")
    public static let purple = Color(semantic: "accent")

    /// A faint colour reads as secondary text.
    public func opacity(_ opacity: Double) -> Color { opacity < 0.6 && _semantic != nil ? .secondary : self }
    /// A gradient of the colour: a cell has one colour, so the colour itself.
    public var gradient: Color { self }

    /// A colour as a view fills its space: a terminal tile has the theme's background, so it draws nothing.
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { [] }
}

extension ShapeStyle where Self == Color {
    public static var red: Color { .red }
    public static var orange: Color { .orange }
    public static var yellow: Color { .yellow }
    public static var green: Color { .green }
    public static var mint: Color { .mint }
    public static var teal: Color { .teal }
    public static var cyan: Color { .cyan }
    public static var blue: Color { .blue }
    public static var indigo: Color { .indigo }
    public static var purple: Color { .purple }
    public static var pink: Color { .pink }
    public static var brown: Color { .brown }
    public static var white: Color { .white }
    public static var gray: Color { .gray }
    public static var black: Color { .black }
    public static var clear: Color { .clear }
    public static var accentColor: Color { .accentColor }
}

/// `.primary`, `.secondary`, `.tertiary`, `.quaternary` as styles.
public struct HierarchicalShapeStyle: ShapeStyle, Sendable {
    public let _semantic: String?
    /// A faint style reads as secondary text.
    public func opacity(_ opacity: Double) -> HierarchicalShapeStyle {
        opacity < 0.6 && _semantic != nil ? .secondary : self
    }
    public static let primary = HierarchicalShapeStyle(_semantic: "primary")
    public static let secondary = HierarchicalShapeStyle(_semantic: "secondary")
    public static let tertiary = HierarchicalShapeStyle(_semantic: "secondary")
    public static let quaternary = HierarchicalShapeStyle(_semantic: "secondary")
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var primary: HierarchicalShapeStyle { .primary }
    public static var secondary: HierarchicalShapeStyle { .secondary }
    public static var tertiary: HierarchicalShapeStyle { .tertiary }
    public static var quaternary: HierarchicalShapeStyle { .quaternary }
}

public struct Gradient: Sendable, Hashable {
    public var colors: [Color]
    public init(colors: [Color]) { self.colors = colors }
}

public struct UnitPoint: Sendable, Hashable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }
    public static let top = UnitPoint(x: 0.5, y: 0), bottom = UnitPoint(x: 0.5, y: 1)
    public static let leading = UnitPoint(x: 0, y: 0.5), trailing = UnitPoint(x: 1, y: 0.5)
    public static let center = UnitPoint(x: 0.5, y: 0.5), zero = UnitPoint(x: 0, y: 0)
    public static let topLeading = UnitPoint(x: 0, y: 0), topTrailing = UnitPoint(x: 1, y: 0)
    public static let bottomLeading = UnitPoint(x: 0, y: 1), bottomTrailing = UnitPoint(x: 1, y: 1)
}

/// A gradient: a terminal cell has one colour, so it is drawn as its first colour (as a view:
/// nothing, like a colour).
public struct LinearGradient: View, PrimitiveView, ShapeStyle {
    let gradient: Gradient
    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) { self.gradient = gradient }
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) { gradient = Gradient(colors: colors) }
    public var _semantic: String? { gradient.colors.first?._semantic }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { [] }
}

public typealias RadialGradient = LinearGradient
public typealias AngularGradient = LinearGradient

// MARK: - Shapes (drawn as nothing: a terminal has no vector paths)

public protocol Shape: View {}

public struct Rectangle: Shape, PrimitiveView {
    public init() {}
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { [] }
}
public struct RoundedRectangle: Shape, PrimitiveView {
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .circular) {}
    public init(cornerSize: CGSize, style: RoundedCornerStyle = .circular) {}
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { [] }
}
public enum RoundedCornerStyle: Sendable { case circular, continuous }
public struct Circle: Shape, PrimitiveView {
    public init() {}
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { [] }
}
public struct Capsule: Shape, PrimitiveView {
    public init(style: RoundedCornerStyle = .circular) {}
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { [] }
}
public typealias Ellipse = Circle
public typealias ContainerRelativeShape = Rectangle

// MARK: - Layout

public enum HorizontalAlignment: Sendable, Hashable {
    case leading, center, trailing
    public static let listRowSeparatorLeading = HorizontalAlignment.leading
    var name: String {
        switch self {
        case .leading: return "leading"
        case .center: return "center"
        case .trailing: return "trailing"
        }
    }
}

public enum VerticalAlignment: Sendable, Hashable {
    case top, center, bottom, firstTextBaseline, lastTextBaseline
    var name: String {
        switch self {
        case .top, .firstTextBaseline: return "top"
        case .center: return "center"
        case .bottom, .lastTextBaseline: return "bottom"
        }
    }
}

public struct Alignment: Sendable, Hashable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        (self.horizontal, self.vertical) = (horizontal, vertical)
    }
    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)
}

/// Points to terminal cells: a cell is about 8 points wide and 16 high.
enum Cells {
    static func wide(_ points: CGFloat) -> Int { points <= 0 ? 0 : Int(clamping: (Double(points) / 8).rounded(), to: 1...200, nan: 1) }
    static func high(_ points: CGFloat) -> Int { points <= 0 ? 0 : Int(clamping: (Double(points) / 16).rounded(), to: 1...200, nan: 1) }
}

public struct VStack<Content: View>: View, PrimitiveView {
    let alignment: HorizontalAlignment, spacing: CGFloat?, content: Content
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content)
    {
        (self.alignment, self.spacing, self.content) = (alignment, spacing, content())
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        var o: [String: JSONValue] = ["vstack": .array(render(content, env)), "alignment": .string(alignment.name)]
        // SwiftUI's default spacing (about 8 points) is less than a terminal line.
        if let spacing, spacing >= 12 { o["spacing"] = .number(Double(Cells.high(spacing))) }
        return [.object(o)]
    }
}

public struct HStack<Content: View>: View, PrimitiveView {
    let alignment: VerticalAlignment, spacing: CGFloat?, content: Content
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        (self.alignment, self.spacing, self.content) = (alignment, spacing, content())
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        var o: [String: JSONValue] = ["hstack": .array(render(content, env)), "alignment": .string(alignment.name)]
        if let spacing { o["spacing"] = .number(Double(spacing < 4 ? 0 : Cells.wide(spacing))) }
        return [.object(o)]
    }
}

/// Layers: a terminal cell shows one character, so the layers are drawn one below the other, the
/// front-most last (a background image or colour layer draws nothing and so takes no room).
public struct ZStack<Content: View>: View, PrimitiveView {
    let alignment: Alignment, content: Content
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        (self.alignment, self.content) = (alignment, content())
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        [single(render(content, env), alignment: alignment.horizontal.name)]
    }
}

public typealias LazyVStack = VStack
public typealias LazyHStack = HStack

/// Chooses the first of its views that fits the tile.
public struct ViewThatFits<Content: View>: View, PrimitiveView {
    let content: Content
    public init(in axes: Axis.Set = [.horizontal, .vertical], @ViewBuilder content: () -> Content) {
        self.content = content()
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { Array(render(content, env).prefix(1)) }
}

public enum Axis: Sendable, Hashable {
    case horizontal, vertical
    public struct Set: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1), vertical = Set(rawValue: 2)
    }
}

public struct Spacer: View, PrimitiveView {
    let minLength: CGFloat?
    public init(minLength: CGFloat? = nil) { self.minLength = minLength }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        [.object(["spacer": .number(Double(minLength.map { Cells.high($0) } ?? 0))])]
    }
}

public struct Divider: View, PrimitiveView {
    public init() {}
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { [.object(["divider": .bool(true)])] }
}
