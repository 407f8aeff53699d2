import Foundation
internal import DashWidgets

/// A SwiftUI-shaped view: a value whose `body` is built from the primitive views of this file and
/// Views.swift, which swiftdash's renderer draws (docs/extensions.md, VIEW). Rendering turns the tree
/// into the extension protocol's view JSON, evaluating each `body` with the environment of its place.
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public var body: Never { return fatalError("Never has no body") }
}

/// A view drawn by swiftdash itself: its `body` is never asked for.
public protocol _DrawnView: View where Body == Never {}

extension _DrawnView {
    public var body: Never { return fatalError("\(Self.self) is drawn by swiftdash, it has no body") }
}

/// How a view drawn by swiftdash becomes view JSON.
protocol PrimitiveView: _DrawnView {
    func nodes(_ env: EnvironmentValues) -> [JSONValue]
}

/// The view JSON of `view` at a place with environment `env`: a list, since a group, a `ForEach` or
/// a builder block stand for several views in their parent's stack.
func render<V: View>(_ view: V, _ env: EnvironmentValues) -> [JSONValue] {
    if let p = view as? any PrimitiveView { return p.nodes(env) }
    return EnvironmentValues.$current.withValue(env) { render(view.body, env) }
}

/// Several views as one: a `vstack` unless there is exactly one.
func single(_ nodes: [JSONValue], alignment: String? = nil) -> JSONValue {
    if nodes.count == 1 { return nodes[0] }
    var o: [String: JSONValue] = ["vstack": .array(nodes)]
    if let alignment { o["alignment"] = .string(alignment) }
    return .object(o)
}

/// Sets `key` on every node that does not say it already (the innermost modifier wins, as in SwiftUI).
func setting(_ key: String, _ value: JSONValue, on nodes: [JSONValue]) -> [JSONValue] {
    nodes.map { node in
        switch node {
        case .string(let s): return .object(["text": .string(s), key: value])
        case .object(var o):
            if o[key] == nil { o[key] = value }
            return .object(o)
        default: return node
        }
    }
}

// MARK: - Building

/// Builds a view from the statements of a closure or a `body`: `if`, `if let`, `switch`,
/// `for`-less lists of views, `#available`.
@resultBuilder
public enum ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<V: View>(_ view: V) -> V { view }
    public static func buildBlock<V0: View, V1: View, each V: View>(_ v0: V0, _ v1: V1, _ views: repeat each V)
        -> ViewList
    {
        var parts: [(EnvironmentValues) -> [JSONValue]] = [{ render(v0, $0) }, { render(v1, $0) }]
        for view in repeat each views { parts.append { render(view, $0) } }
        return ViewList { env in parts.flatMap { $0(env) } }
    }
    public static func buildOptional(_ view: (any View)?) -> ViewList {
        ViewList { env in
            guard let view else { return [] }
            return render(view, env)
        }
    }
    public static func buildEither<T: View, F: View>(first: T) -> ConditionalContent<T, F> {
        ConditionalContent(first: first)
    }
    public static func buildEither<T: View, F: View>(second: F) -> ConditionalContent<T, F> {
        ConditionalContent(second: second)
    }
    public static func buildLimitedAvailability<V: View>(_ view: V) -> AnyView { AnyView(view) }
    public static func buildArray<V: View>(_ views: [V]) -> ViewList {
        ViewList { env in views.flatMap { render($0, env) } }
    }
}

/// One of two views (an `if`/`else` or a `switch` in a view builder).
public struct ConditionalContent<TrueContent: View, FalseContent: View>: View, PrimitiveView {
    enum Storage {
        case first(TrueContent)
        case second(FalseContent)
    }
    let storage: Storage
    init(first: TrueContent) { storage = .first(first) }
    init(second: FalseContent) { storage = .second(second) }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        switch storage {
        case .first(let v): return render(v, env)
        case .second(let v): return render(v, env)
        }
    }
}

/// What a view builder makes: any number of views, drawn in their parent's stack.
public struct ViewList: View, PrimitiveView {
    let make: (EnvironmentValues) -> [JSONValue]
    init(_ make: @escaping (EnvironmentValues) -> [JSONValue]) { self.make = make }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { make(env) }
}

/// Nothing.
public struct EmptyView: View, PrimitiveView {
    public init() {}
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { [] }
}

/// Any view, its type forgotten.
public struct AnyView: View, PrimitiveView {
    let make: (EnvironmentValues) -> [JSONValue]
    public init<V: View>(_ view: V) { make = { render(view, $0) } }
    public init<V: View>(erasing view: V) { self.init(view) }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { make(env) }
}

/// Views that share modifiers, drawn in their parent's stack.
public struct Group<Content: View>: View, PrimitiveView {
    let content: Content
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { render(content, env) }
}

/// One view per element of a collection.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View, PrimitiveView {
    let data: Data
    let content: (Data.Element) -> Content
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)
    {
        self.data = data
        self.content = content
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { data.flatMap { render(content($0), env) } }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

extension ForEach where Data == Range<Int>, ID == Int {
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.data = data
        self.content = content
    }
}

// MARK: - Environment

/// What a view can read about the place it is drawn in.
public struct EnvironmentValues: Sendable {
    public var widgetFamily: WidgetFamily = .systemSmall
    public var colorScheme: ColorScheme = .dark
    public var redactionReasons: RedactionReasons = []
    /// The tile's size in points (a terminal cell is 8 by 16).
    public var displaySize = CGSize(width: 170, height: 170)
    public var showsWidgetContainerBackground = true
    public var isLuminanceReduced = false
    public var widgetRenderingMode: WidgetRenderingMode = .fullColor
    public var locale = Locale.current
    public var timeZone = TimeZone.current
    public var calendar = Calendar.current
    /// The widget's kind on swiftdash (for links that become `swiftdash://KIND/…`).
    var kind = "widget"
    var labelStyleStorage: LabelStyleKind = .automatic
    var controlShapes = ControlShapes()
    var custom = CustomEnvironment()
    /// The families the widget supports (an entry carries a view for each).
    var families: [WidgetFamily] = [.systemSmall]
    public init() {}

    @TaskLocal static var current = EnvironmentValues()
}

/// Reads a value of the environment: `@Environment(\.widgetFamily) var family`.
@propertyWrapper
public struct Environment<Value>: @unchecked Sendable {
    let keyPath: KeyPath<EnvironmentValues, Value>
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }
    public var wrappedValue: Value { EnvironmentValues.current[keyPath: keyPath] }
}

public enum ColorScheme: Sendable, Hashable, CaseIterable { case light, dark }

public enum WidgetRenderingMode: Sendable, Hashable { case fullColor, accented, vibrant }

public struct RedactionReasons: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let placeholder = RedactionReasons(rawValue: 1)
    public static let privacy = RedactionReasons(rawValue: 2)
    public static let invalidated = RedactionReasons(rawValue: 4)
}

/// A view whose environment is changed for its content.
struct EnvironmentModified<Content: View>: View, PrimitiveView {
    let content: Content
    let change: (inout EnvironmentValues) -> Void
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        var e = env
        change(&e)
        return render(content, e)
    }
}

extension View {
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        EnvironmentModified(content: self) { $0[keyPath: keyPath] = value }
    }
}

/// The size a `GeometryReader` offers its content: the tile's.
public struct GeometryProxy {
    public let size: CGSize
    public var safeAreaInsets: EdgeInsets { EdgeInsets() }
}

/// Offers its content the tile's size (a terminal has no finer layout pass to ask).
public struct GeometryReader<Content: View>: View, PrimitiveView {
    let content: (GeometryProxy) -> Content
    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) { self.content = content }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        EnvironmentValues.$current.withValue(env) { render(content(GeometryProxy(size: env.displaySize)), env) }
    }
}
