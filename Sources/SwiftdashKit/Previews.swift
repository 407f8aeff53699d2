import Foundation

// Xcode's canvas has no terminal counterpart: `swiftdash preview KIND` draws a widget in every
// family. These are here so that a file with previews compiles unchanged; they draw nothing.

/// Xcode's previews (the pre-`#Preview` spelling). Not run: use `swiftdash preview KIND`.
public protocol PreviewProvider {
    associatedtype Previews: View
    @ViewBuilder static var previews: Previews { get }
}

public struct WidgetPreviewContext: Sendable {
    public let family: WidgetFamily
    public init(family: WidgetFamily) { self.family = family }
}

extension View {
    public func previewContext(_ context: WidgetPreviewContext) -> some View {
        environment(\.widgetFamily, context.family)
    }
    public func previewDisplayName(_ name: String?) -> some View { self }
    public func previewLayout<L>(_ layout: L) -> some View { self }
    public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View { self }
}

// MARK: - Observation

/// An object whose changes SwiftUI would watch: a widget draws an entry, never a live object, so
/// nothing is watched; the types exist so that code sharing an app's model compiles.
public protocol ObservableObject: AnyObject {}

@propertyWrapper
public struct Published<Value> {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    public var projectedValue: Published<Value> { self }
}

@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject> {
    public var wrappedValue: ObjectType
    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
}

@propertyWrapper
public struct StateObject<ObjectType: ObservableObject> {
    public var wrappedValue: ObjectType
    public init(wrappedValue: @autoclosure () -> ObjectType) { self.wrappedValue = wrappedValue() }
}

@propertyWrapper
public struct State<Value> {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    /// `$value`: a binding, which a widget has none of; the control it is handed to says what to use.
    public var projectedValue: Binding<Value> { Binding() }
}

/// A value kept in user defaults (the standard ones, or an app group's `store:`): read when the
/// view is drawn. The extension's user defaults are kept between runs (WidgetState).
@propertyWrapper
public struct AppStorage<Value> {
    let key: String, fallback: Value
    let store: UserDefaults
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) {
        (self.key, fallback, self.store) = (key, wrappedValue, store ?? .standard)
    }
    public var wrappedValue: Value {
        get { store.object(forKey: key) as? Value ?? fallback }
        nonmutating set { store.set(newValue, forKey: key) }
    }
}

// MARK: - Not offered

extension View {
    @available(
        *, unavailable,
        message: "a widget is not interactive beyond its controls: use Button(intent:), Toggle(isOn:intent:) or Link"
    )
    public func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> some View { self }
    @available(
        *, unavailable,
        message: "a widget draws once per entry and runs no view code later: compute in the TimelineProvider"
    )
    public func onAppear(perform action: (() -> Void)? = nil) -> some View { self }
    @available(*, unavailable, message: "a widget draws once per entry: compute in the TimelineProvider")
    public func task(priority: TaskPriority = .userInitiated, _ action: @escaping () async -> Void) -> some View {
        self
    }
    @available(
        *, unavailable, message: "a widget's view is drawn once per entry: compute what changes in the TimelineProvider"
    )
    public func onChange<V: Equatable>(of value: V, perform action: @escaping (V) -> Void) -> some View { self }
    @available(
        *, unavailable, message: "a widget's view is drawn once per entry: compute what changes in the TimelineProvider"
    )
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void)
        -> some View
    { self }
    @available(
        *, unavailable, message: "a widget has no navigation: show the title as Text, link to a detail pane with Link"
    )
    public func navigationTitle(_ title: LocalizedStringKey) -> some View { self }
    @available(*, unavailable, message: "a widget shows no lists: use VStack with ForEach")
    public func listRowBackground<V: View>(_ view: V?) -> some View { self }
    @available(*, unavailable, message: "widgets do not animate: an entry's view is drawn as it is")
    public func animation<V: Equatable>(_ animation: Any?, value: V) -> some View { self }
    @available(
        *, unavailable, message: "a widget has no sheets or navigation: link to a detail pane with Link or widgetURL"
    )
    public func sheet<Content: View>(isPresented: Binding<Bool>, @ViewBuilder content: @escaping () -> Content)
        -> some View
    { self }
}

@available(
    *, unavailable,
    message: "a widget shows no lists that scroll: use VStack with ForEach and a prefix that fits the family"
)
public struct List<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) { fatalError() }
    public var body: Never { return fatalError() }
}

@available(*, unavailable, message: "a widget does not scroll: show what fits the family (ViewThatFits, or fewer rows)")
public struct ScrollView<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) { fatalError() }
    public var body: Never { return fatalError() }
}

@available(*, unavailable, message: "a widget has no text input: take text as an AppIntent @Parameter (the Edit form)")
public struct TextField: View {
    public init(_ title: String, text: Binding<String>) { fatalError() }
    public var body: Never { return fatalError() }
}

@available(*, unavailable, message: "a widget draws no maps: show the place as Text or Label, with a Link")
public struct Map: View {
    public init() { fatalError() }
    public var body: Never { return fatalError() }
}

@available(*, unavailable, message: "a widget has no navigation: link to a detail pane with Link or widgetURL")
public struct NavigationView<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) { fatalError() }
    public var body: Never { return fatalError() }
}

@available(*, unavailable, message: "a widget has no navigation: link to a detail pane with Link or widgetURL")
public struct NavigationStack<Content: View>: View {
    public init(@ViewBuilder root: () -> Content) { fatalError() }
    public var body: Never { return fatalError() }
}

@available(*, unavailable, message: "a widget has no navigation: link to a detail pane with Link or widgetURL")
public struct NavigationLink<Label: View, Destination: View>: View {
    public init(destination: Destination, @ViewBuilder label: () -> Label) { fatalError() }
    public init(_ title: String, destination: Destination) where Label == Text { fatalError() }
    public init<P: Hashable>(value: P?, @ViewBuilder label: () -> Label) where Destination == EmptyView { fatalError() }
    public var body: Never { return fatalError() }
}

