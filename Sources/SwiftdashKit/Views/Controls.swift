import Foundation
internal import DashWidgets

// Control Center controls (iOS 18's `ControlWidget`): a widget bundle may hold them beside its
// widgets. They compile and add no tile (swiftdash has no Control Center); the first one says so
// once in the log. A control's intent is an `AppIntent` like a button's, so a widget can offer the
// same action with `Button(intent:)`.

public protocol ControlWidget {
    associatedtype Body: ControlWidgetConfiguration
    init()
    @ControlWidgetConfigurationBuilder var body: Body { get }
}

public protocol ControlWidgetConfiguration {}

extension ControlWidgetConfiguration {
    public func displayName(_ name: LocalizedStringResource) -> Self { self }
    public func description(_ description: LocalizedStringResource) -> Self { self }
    public func promptsForUserConfiguration() -> Self { self }
}

@resultBuilder
public enum ControlWidgetConfigurationBuilder {
    public static func buildBlock<C: ControlWidgetConfiguration>(_ configuration: C) -> C { configuration }
    public static func buildLimitedAvailability<C: ControlWidgetConfiguration>(_ configuration: C) -> C {
        configuration
    }
}

/// What a control shows: a button or a toggle.
public protocol ControlWidgetTemplate {}

extension ControlWidgetTemplate {
    public func tint(_ color: Color?) -> Self { self }
}

@resultBuilder
public enum ControlWidgetTemplateBuilder {
    public static func buildBlock<T: ControlWidgetTemplate>(_ template: T) -> T { template }
    public static func buildEither<T: ControlWidgetTemplate>(first: T) -> _ControlTemplate { _ControlTemplate() }
    public static func buildEither<F: ControlWidgetTemplate>(second: F) -> _ControlTemplate { _ControlTemplate() }
    public static func buildLimitedAvailability<T: ControlWidgetTemplate>(_ template: T) -> _ControlTemplate {
        _ControlTemplate()
    }
}

public struct _ControlTemplate: ControlWidgetTemplate {}

public protocol ControlConfigurationIntent: AppIntent {}

extension ControlConfigurationIntent {
    public func perform() async throws -> _IntentResult { .result() }
}

/// A control's live value (is the timer running?).
public protocol ControlValueProvider {
    associatedtype Value
    var previewValue: Value { get }
    func currentValue() async throws -> Value
}

public protocol AppIntentControlValueProvider {
    associatedtype Value
    associatedtype Intent: ControlConfigurationIntent
    func previewValue(configuration: Intent) -> Value
    func currentValue(configuration: Intent) async throws -> Value
}

public struct StaticControlConfiguration<Content: ControlWidgetTemplate>: ControlWidgetConfiguration {
    public init(kind: String, @ControlWidgetTemplateBuilder content: () -> Content) {}
    public init<P: ControlValueProvider>(
        kind: String, provider: P, @ControlWidgetTemplateBuilder content: @escaping (P.Value) -> Content
    ) {}
}

public struct AppIntentControlConfiguration<Intent: ControlConfigurationIntent, Content: ControlWidgetTemplate>:
    ControlWidgetConfiguration
{
    public init(
        kind: String, intent: Intent.Type = Intent.self,
        @ControlWidgetTemplateBuilder content: @escaping (Intent) -> Content
    ) {}
    public init<P: AppIntentControlValueProvider>(
        kind: String, intent: Intent.Type = Intent.self, provider: P,
        @ControlWidgetTemplateBuilder content: @escaping (P.Value) -> Content
    ) where P.Intent == Intent {}
}

public struct ControlWidgetButton<Label: View>: ControlWidgetTemplate {
    public init<A: AppIntent>(action: A, @ViewBuilder label: () -> Label) {}
    public init<A: AppIntent, V: View>(
        action: A, @ViewBuilder label: () -> Label, @ViewBuilder actionLabel: (Bool) -> V
    ) {}
}

extension ControlWidgetButton where Label == Text {
    public init<A: AppIntent>(_ titleKey: LocalizedStringKey, action: A) {}
}

public struct ControlWidgetToggle<Label: View>: ControlWidgetTemplate {
    public init<A: AppIntent>(isOn: Bool, action: A, @ViewBuilder label: () -> Label) {}
    public init<A: AppIntent, V: View>(
        isOn: Bool, action: A, @ViewBuilder label: () -> Label, @ViewBuilder valueLabel: (Bool) -> V
    ) {}
}

extension ControlWidgetToggle where Label == Text {
    public init<A: AppIntent, V: View>(
        _ titleKey: LocalizedStringKey, isOn: Bool, action: A, @ViewBuilder valueLabel: (Bool) -> V
    ) {}
    @_disfavoredOverload
    public init<A: AppIntent, S: StringProtocol, V: View>(
        _ title: S, isOn: Bool, action: A, @ViewBuilder valueLabel: (Bool) -> V
    ) {}
}

extension WidgetBundleBuilder {
    /// A Control Center control in a bundle: no tile (said once in the log).
    public static func buildExpression<C: ControlWidget>(_ control: C) -> _WidgetList {
        ServiceNotice.once("ControlWidget \(C.self)", "controls are shown by iOS's Control Center")
        return _WidgetList([])
    }
}
