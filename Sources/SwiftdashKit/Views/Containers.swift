import Foundation
internal import DashWidgets

// Containers and view composition beyond the stacks: group boxes, sections, view modifiers of
// your own, environment keys of your own.

/// A box with a label: the label, then the content (a terminal draws no box around it).
public struct GroupBox<Label: View, Content: View>: View, PrimitiveView {
    let label: Label?, content: Content
    public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        (self.label, self.content) = (label(), content())
    }
    public init(label: Label, @ViewBuilder content: () -> Content) { (self.label, self.content) = (label, content()) }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        let head = label.map { setting("bold", .bool(true), on: render($0, env)) } ?? []
        return [.object(["vstack": .array(head + render(content, env)), "alignment": .string("leading")])]
    }
}

extension GroupBox where Label == EmptyView {
    public init(@ViewBuilder content: () -> Content) { (self.label, self.content) = (nil, content()) }
}

extension GroupBox where Label == Text {
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {
        (self.label, self.content) = (Text(titleKey), content())
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        (self.label, self.content) = (Text(title), content())
    }
}

/// A section: its header, its content, its footer, one below the other.
public struct Section<Parent: View, Content: View, Footer: View>: View, PrimitiveView {
    let header: Parent?, content: Content, footer: Footer?
    public init(
        @ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent, @ViewBuilder footer: () -> Footer
    ) {
        (self.header, self.content, self.footer) = (header(), content(), footer())
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        let h = header.map { setting("color", .string("secondary"), on: render($0, env)) } ?? []
        let f = footer.map { setting("color", .string("secondary"), on: render($0, env)) } ?? []
        return h + render(content, env) + f
    }
}

extension Section where Parent == EmptyView, Footer == EmptyView {
    public init(@ViewBuilder content: () -> Content) { (header, self.content, footer) = (nil, content(), nil) }
}

extension Section where Footer == EmptyView {
    public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent) {
        (self.header, self.content, footer) = (header(), content(), nil)
    }
    public init(header: Parent, @ViewBuilder content: () -> Content) {
        (self.header, self.content, footer) = (header, content(), nil)
    }
}

extension Section where Parent == Text, Footer == EmptyView {
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {
        (header, self.content, footer) = (Text(titleKey), content(), nil)
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        (header, self.content, footer) = (Text(title), content(), nil)
    }
}

// MARK: - View modifiers of your own

/// A modifier of your own: `body(content:)` is drawn with the modified view as `content`.
public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifierContent
    @ViewBuilder func body(content: Content) -> Body
}

/// The view a `ViewModifier` modifies.
public struct _ViewModifierContent: View, PrimitiveView {
    let view: AnyView
    func nodes(_ env: EnvironmentValues) -> [JSONValue] { render(view, env) }
}

/// A view with a modifier of your own applied.
public struct ModifiedContent<Content: View, Modifier: ViewModifier>: View, PrimitiveView {
    public let content: Content, modifier: Modifier
    public init(content: Content, modifier: Modifier) { (self.content, self.modifier) = (content, modifier) }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        EnvironmentValues.$current.withValue(env) {
            render(modifier.body(content: _ViewModifierContent(view: AnyView(content))), env)
        }
    }
}

extension View {
    public func modifier<M: ViewModifier>(_ modifier: M) -> ModifiedContent<Self, M> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

// MARK: - Environment keys of your own

/// A value of the environment of your own: `extension EnvironmentValues { var x: T { get { self[K.self] } … } }`.
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

/// Values of environment keys of your own, by key type.
struct CustomEnvironment: @unchecked Sendable {
    var values: [ObjectIdentifier: Any] = [:]
}

extension EnvironmentValues {
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { custom.values[ObjectIdentifier(key)] as? K.Value ?? K.defaultValue }
        set { custom.values[ObjectIdentifier(key)] = newValue }
    }
    /// Whether the widget draws its container background (`containerBackground`): it does.
    public var widgetContentMargins: EdgeInsets { EdgeInsets(top: 1, leading: 1, bottom: 1, trailing: 1) }
    /// Whether a watch face complication shows its label.
    public var showsWidgetLabel: Bool { false }
    /// A Live Activity's size: Live Activities are not drawn here (AppleServices.swift).
    public var activityFamily: ActivityFamily { .medium }
}

// MARK: - Grids

/// A grid: its rows one below the other, each row's cells side by side.
public struct Grid<Content: View>: View, PrimitiveView {
    let alignment: Alignment, content: Content
    public init(
        alignment: Alignment = .center, horizontalSpacing: CGFloat? = nil, verticalSpacing: CGFloat? = nil,
        @ViewBuilder content: () -> Content
    ) {
        (self.alignment, self.content) = (alignment, content())
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        [.object(["vstack": .array(render(content, env)), "alignment": .string(alignment.horizontal.name)])]
    }
}

/// A row of a grid.
public struct GridRow<Content: View>: View, PrimitiveView {
    let content: Content
    public init(alignment: VerticalAlignment? = nil, @ViewBuilder content: () -> Content) { self.content = content() }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        [.object(["hstack": .array(render(content, env)), "spacing": .number(1)])]
    }
}

// MARK: - Geometry

public enum CoordinateSpace: Sendable, Hashable {
    case global, local
    case named(String)
}

extension GeometryProxy {
    /// The tile's frame (a terminal has one layout: the tile's size, at the origin).
    public func frame(in coordinateSpace: CoordinateSpace) -> CGRect { CGRect(origin: .zero, size: size) }
}

extension View {
    public func coordinateSpace(name: String) -> some View { self }
}
