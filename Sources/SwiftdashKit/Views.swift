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
    public func gradient() -> Color { self }

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

extension Shape {
    public func fill<S: ShapeStyle>(_ content: S) -> some View { self }
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> some View { self }
}

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
    static func wide(_ points: CGFloat) -> Int { points <= 0 ? 0 : max(1, min(200, Int((points / 8).rounded()))) }
    static func high(_ points: CGFloat) -> Int { points <= 0 ? 0 : max(1, min(200, Int((points / 16).rounded()))) }
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

// MARK: - Images and labels

/// An image: SF Symbols are drawn as a terminal glyph from `SFSymbols.glyphs` (an unknown name as
/// `•`); a bitmap (`Image("name")`, `Image(uiImage:)`) cannot be drawn in cells and is left out.
public struct Image: View, PrimitiveView, Hashable, Sendable {
    let glyph: String?
    public init(systemName: String) { glyph = SFSymbols.glyph(systemName) }
    public init(systemName: String, variableValue: Double?) { self.init(systemName: systemName) }
    public init(_ name: String, bundle: Bundle? = nil) { glyph = nil }
    public init(decorative name: String, bundle: Bundle? = nil) { glyph = nil }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { glyph.map { [.string($0)] } ?? [] }

    public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: ResizingMode = .stretch) -> Image { self }
    public func renderingMode(_ mode: TemplateRenderingMode?) -> Image { self }
    public func interpolation(_ interpolation: Interpolation) -> Image { self }
    public func antialiased(_ isAntialiased: Bool) -> Image { self }
    public enum ResizingMode: Sendable { case tile, stretch }
    public enum TemplateRenderingMode: Sendable { case template, original }
    public enum Interpolation: Sendable { case none, low, medium, high }
}

public struct Label<Title: View, Icon: View>: View, PrimitiveView {
    let title: Title, icon: Icon
    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        (self.title, self.icon) = (title(), icon())
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        if env.labelStyle == .titleOnly { return render(title, env) }
        if env.labelStyle == .iconOnly { return render(icon, env) }
        return [.object(["hstack": .array(render(icon, env) + render(title, env)), "spacing": .number(1)])]
    }
}

extension Label where Title == Text, Icon == Image {
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(systemName: name) })
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.init(title: { Text(title) }, icon: { Image(systemName: name) })
    }
    public init(_ titleKey: LocalizedStringKey, image name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(name) })
    }
}

public enum LabelStyleKind: Sendable, Hashable { case automatic, titleOnly, iconOnly, titleAndIcon }

extension EnvironmentValues {
    var labelStyle: LabelStyleKind {
        get { labelStyleStorage }
        set { labelStyleStorage = newValue }
    }
}

// MARK: - Links and controls

/// A tap target. A link that swiftdash cannot open (an app's own scheme, a bare identifier)
/// becomes `swiftdash://KIND/…` with the URL as its path, which the widget's detail pane shows.
public struct Link<Label: View>: View, PrimitiveView {
    let destination: URL, label: Label
    public init(destination: URL, @ViewBuilder label: () -> Label) {
        (self.destination, self.label) = (destination, label())
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        [.object(["link": .string(Links.url(destination, kind: env.kind)), "view": single(render(label, env))])]
    }
}

extension Link where Label == Text {
    public init(_ titleKey: LocalizedStringKey, destination: URL) {
        self.init(destination: destination) { Text(titleKey) }
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, destination: URL) { self.init(destination: destination) { Text(title) } }
}

enum Links {
    static func url(_ url: URL, kind: String) -> String {
        let s = url.absoluteString
        let lower = s.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("swiftdash://") {
            if !s.contains(" "), s.utf8.count <= 2000 { return s }
        }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        let path = s.addingPercentEncoding(withAllowedCharacters: allowed) ?? "link"
        return "swiftdash://\(kind)/\(path.prefix(1900))"
    }
}

/// A button that runs an `AppIntent` in the extension (Button(intent:)), then the timeline reloads.
public struct Button<Label: View>: View, PrimitiveView {
    let action: String, label: Label
    public init<I: AppIntent>(intent: I, @ViewBuilder label: () -> Label) {
        action = IntentRegistry.action(for: intent)
        self.label = label()
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        [.object(["button": .string(plainText(render(label, env))), "action": .string(action)])]
    }
}

extension Button where Label == Text {
    public init<I: AppIntent>(_ titleKey: LocalizedStringKey, intent: I) {
        self.init(intent: intent) { Text(titleKey) }
    }
    @_disfavoredOverload
    public init<I: AppIntent, S: StringProtocol>(_ title: S, intent: I) { self.init(intent: intent) { Text(title) } }
}

extension Button {
    @available(*, unavailable, message: "a widget runs no closures: use Button(intent:) with an AppIntent, or Link")
    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) { fatalError() }
}

/// A toggle that runs an `AppIntent` in the extension (Toggle(isOn:intent:)), then the timeline reloads.
public struct Toggle<Label: View>: View, PrimitiveView {
    let isOn: Bool, action: String, label: Label
    public init<I: AppIntent>(isOn: Bool, intent: I, @ViewBuilder label: () -> Label) {
        self.isOn = isOn
        action = IntentRegistry.action(for: intent)
        self.label = label()
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        [.object(["toggle": .string(plainText(render(label, env))), "isOn": .bool(isOn), "action": .string(action)])]
    }
}

extension Toggle where Label == Text {
    public init<I: AppIntent>(_ titleKey: LocalizedStringKey, isOn: Bool, intent: I) {
        self.init(isOn: isOn, intent: intent) { Text(titleKey) }
    }
    @_disfavoredOverload
    public init<I: AppIntent, S: StringProtocol>(_ title: S, isOn: Bool, intent: I) {
        self.init(isOn: isOn, intent: intent) { Text(title) }
    }
}

extension Toggle {
    @available(*, unavailable, message: "a widget has no bindings: use Toggle(isOn: Bool, intent:) with an AppIntent")
    public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) { fatalError() }
}

/// The texts of view JSON, joined (a control's title, an entry's summary).
func plainText(_ nodes: [JSONValue]) -> String {
    var parts: [String] = []
    func walk(_ n: JSONValue) {
        switch n {
        case .string(let s): parts.append(s)
        case .array(let a): a.forEach(walk)
        case .object(let o):
            if let t = o["text"]?.string { parts.append(t) }
            for k in ["vstack", "hstack", "view"] { if let v = o[k] { walk(v) } }
            if let t = o["button"]?.string { parts.append(t) }
            if let t = o["toggle"]?.string { parts.append(t) }
        default: break
        }
    }
    nodes.forEach(walk)
    return parts.filter { !$0.isEmpty }.joined(separator: " ")
}

// MARK: - Progress and gauges

/// Progress: a value is drawn as a bar, a timer interval as a live countdown, no value as `…`.
public struct ProgressView<Label: View>: View, PrimitiveView {
    enum Kind { case value(Double), timer(ClosedRange<Date>, Bool), indeterminate }
    let kind: Kind, label: Label?
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        let l = label.map { render($0, env) } ?? []
        switch kind {
        case .value(let v): return l + [.object(["gauge": .number(v.isFinite ? min(1, max(0, v)) : 0)])]
        case .timer(let r, let down):
            return l + [
                .object([
                    "date": .number((down ? r.upperBound : r.lowerBound).timeIntervalSince1970),
                    "style": .string("timer"),
                ])
            ]
        case .indeterminate: return l + [.string("…")]
        }
    }
}

extension ProgressView where Label == EmptyView {
    public init() { (kind, label) = (.indeterminate, nil) }
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {
        kind = .value(value.map { Double($0) / Double(total == 0 ? 1 : total) } ?? 0)
        label = nil
    }
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true) {
        (kind, label) = (.timer(timerInterval, countsDown), nil)
    }
}

extension ProgressView {
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label) {
        kind = .value(value.map { Double($0) / Double(total == 0 ? 1 : total) } ?? 0)
        self.label = label()
    }
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true, @ViewBuilder label: () -> Label) {
        (kind, self.label) = (.timer(timerInterval, countsDown), label())
    }
}

extension ProgressView where Label == Text {
    public init<V: BinaryFloatingPoint>(_ titleKey: LocalizedStringKey, value: V?, total: V = 1.0) {
        kind = .value(value.map { Double($0) / Double(total == 0 ? 1 : total) } ?? 0)
        label = Text(titleKey)
    }
}

/// A gauge: its label, then a bar filled to the value's place in its range.
public struct Gauge<Label: View>: View, PrimitiveView {
    let fraction: Double, label: Label
    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label) {
        let span = Double(bounds.upperBound - bounds.lowerBound)
        fraction = span > 0 ? Double(value - bounds.lowerBound) / span : 0
        self.label = label()
    }
    public init<V: BinaryFloatingPoint, C: View, Mn: View, Mx: View>(
        value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
        @ViewBuilder currentValueLabel: () -> C, @ViewBuilder minimumValueLabel: () -> Mn,
        @ViewBuilder maximumValueLabel: () -> Mx
    ) {
        self.init(value: value, in: bounds, label: label)
    }
    public init<V: BinaryFloatingPoint, C: View>(
        value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
        @ViewBuilder currentValueLabel: () -> C
    ) {
        self.init(value: value, in: bounds, label: label)
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        let bar: JSONValue = .object(["gauge": .number(fraction.isFinite ? min(1, max(0, fraction)) : 0)])
        return render(label, env) + [bar]
    }
}

/// A binding: widgets have none (their state lives in the provider), offered only so that
/// the unavailable controls above can say what to use instead.
public struct Binding<Value> {
    @available(
        *, unavailable, message: "a widget has no bindings: keep the value in the entry, change it with an AppIntent"
    )
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { fatalError() }
}
