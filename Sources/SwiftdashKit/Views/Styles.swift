import Foundation
internal import DashWidgets

// SwiftUI's styles as SwiftUI spells them: a protocol per control, a struct per style, and the
// leading-dot names (`.buttonStyle(.plain)`, `.gaugeStyle(.accessoryCircular)`) as static members
// of the protocol constrained to the struct, so the compiler can infer the type from the dot.
//
// What a style changes on a terminal: a label's style picks what a `Label` draws; a circular gauge
// or progress view (it has no ring to draw in cells) is drawn as its current-value label beside the
// bar; every other style draws the control as swiftdash draws it (docs/widgetkit.md, "Styles").
// A style of your own (a type with `makeBody(configuration:)`) compiles; swiftdash draws the
// control's own look, not the style's body.

// MARK: - Buttons

public protocol ButtonStyle {}
public protocol PrimitiveButtonStyle {}

/// What a button style of your own is given (`configuration.label`, `configuration.isPressed`).
public struct ButtonStyleConfiguration {
    public let label: AnyView
    public let isPressed: Bool
    public let role: ButtonRole?
}

public struct ButtonRole: Sendable, Hashable {
    let name: String
    public static let destructive = ButtonRole(name: "destructive")
    public static let cancel = ButtonRole(name: "cancel")
}

extension ButtonStyle {
    public typealias Configuration = ButtonStyleConfiguration
}

public struct DefaultButtonStyle: PrimitiveButtonStyle, ButtonStyle { public init() {} }
public struct PlainButtonStyle: PrimitiveButtonStyle, ButtonStyle { public init() {} }
public struct BorderedButtonStyle: PrimitiveButtonStyle, ButtonStyle { public init() {} }
public struct BorderlessButtonStyle: PrimitiveButtonStyle, ButtonStyle { public init() {} }
public struct BorderedProminentButtonStyle: PrimitiveButtonStyle, ButtonStyle { public init() {} }

extension PrimitiveButtonStyle where Self == DefaultButtonStyle {
    public static var automatic: DefaultButtonStyle { .init() }
}
extension PrimitiveButtonStyle where Self == PlainButtonStyle {
    public static var plain: PlainButtonStyle { .init() }
}
extension PrimitiveButtonStyle where Self == BorderedButtonStyle {
    public static var bordered: BorderedButtonStyle { .init() }
}
extension PrimitiveButtonStyle where Self == BorderlessButtonStyle {
    public static var borderless: BorderlessButtonStyle { .init() }
}
extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    public static var borderedProminent: BorderedProminentButtonStyle { .init() }
}

// MARK: - Gauges

public protocol GaugeStyle {
    /// How swiftdash draws a gauge of this style (`circular` adds the current-value label).
    var _shape: _ControlShape { get }
}

extension GaugeStyle {
    public var _shape: _ControlShape { .linear }
}

/// A control's shape as swiftdash draws it: a bar, or (no ring fits in cells) a bar with its value.
public enum _ControlShape: Sendable, Hashable { case linear, circular }

public struct DefaultGaugeStyle: GaugeStyle { public init() {} }
public struct LinearGaugeStyle: GaugeStyle { public init() {} }
public struct LinearCapacityGaugeStyle: GaugeStyle { public init() {} }
public struct AccessoryLinearGaugeStyle: GaugeStyle { public init() {} }
public struct AccessoryLinearCapacityGaugeStyle: GaugeStyle { public init() {} }
public struct CircularGaugeStyle: GaugeStyle {
    public init() {}
    public var _shape: _ControlShape { .circular }
}
public struct AccessoryCircularGaugeStyle: GaugeStyle {
    public init() {}
    public var _shape: _ControlShape { .circular }
}
public struct AccessoryCircularCapacityGaugeStyle: GaugeStyle {
    public init() {}
    public var _shape: _ControlShape { .circular }
}

extension GaugeStyle where Self == DefaultGaugeStyle {
    public static var automatic: DefaultGaugeStyle { .init() }
}
extension GaugeStyle where Self == LinearGaugeStyle {
    public static var linear: LinearGaugeStyle { .init() }
}
extension GaugeStyle where Self == LinearCapacityGaugeStyle {
    public static var linearCapacity: LinearCapacityGaugeStyle { .init() }
}
extension GaugeStyle where Self == AccessoryLinearGaugeStyle {
    public static var accessoryLinear: AccessoryLinearGaugeStyle { .init() }
}
extension GaugeStyle where Self == AccessoryLinearCapacityGaugeStyle {
    public static var accessoryLinearCapacity: AccessoryLinearCapacityGaugeStyle { .init() }
}
extension GaugeStyle where Self == CircularGaugeStyle {
    public static var circular: CircularGaugeStyle { .init() }
}
extension GaugeStyle where Self == AccessoryCircularGaugeStyle {
    public static var accessoryCircular: AccessoryCircularGaugeStyle { .init() }
}
extension GaugeStyle where Self == AccessoryCircularCapacityGaugeStyle {
    public static var accessoryCircularCapacity: AccessoryCircularCapacityGaugeStyle { .init() }
}

// MARK: - Progress views

public protocol ProgressViewStyle {
    var _shape: _ControlShape { get }
}

extension ProgressViewStyle {
    public var _shape: _ControlShape { .linear }
}

public struct DefaultProgressViewStyle: ProgressViewStyle { public init() {} }
public struct LinearProgressViewStyle: ProgressViewStyle {
    public init() {}
    public init(tint: Color) {}
}
public struct CircularProgressViewStyle: ProgressViewStyle {
    public init() {}
    public init(tint: Color) {}
    public var _shape: _ControlShape { .circular }
}

extension ProgressViewStyle where Self == DefaultProgressViewStyle {
    public static var automatic: DefaultProgressViewStyle { .init() }
}
extension ProgressViewStyle where Self == LinearProgressViewStyle {
    public static var linear: LinearProgressViewStyle { .init() }
}
extension ProgressViewStyle where Self == CircularProgressViewStyle {
    public static var circular: CircularProgressViewStyle { .init() }
}

// MARK: - Labels

public protocol LabelStyle {
    /// What a `Label` of this style draws: its title, its icon or both.
    var _kind: LabelStyleKind { get }
}

extension LabelStyle {
    public var _kind: LabelStyleKind { .automatic }
    public typealias Configuration = LabelStyleConfiguration
}

/// What a label style of your own is given.
public struct LabelStyleConfiguration {
    public let title: AnyView
    public let icon: AnyView
}

public struct DefaultLabelStyle: LabelStyle { public init() {} }
public struct TitleOnlyLabelStyle: LabelStyle {
    public init() {}
    public var _kind: LabelStyleKind { .titleOnly }
}
public struct IconOnlyLabelStyle: LabelStyle {
    public init() {}
    public var _kind: LabelStyleKind { .iconOnly }
}
public struct TitleAndIconLabelStyle: LabelStyle {
    public init() {}
    public var _kind: LabelStyleKind { .titleAndIcon }
}

extension LabelStyle where Self == DefaultLabelStyle {
    public static var automatic: DefaultLabelStyle { .init() }
}
extension LabelStyle where Self == TitleOnlyLabelStyle {
    public static var titleOnly: TitleOnlyLabelStyle { .init() }
}
extension LabelStyle where Self == IconOnlyLabelStyle {
    public static var iconOnly: IconOnlyLabelStyle { .init() }
}
extension LabelStyle where Self == TitleAndIconLabelStyle {
    public static var titleAndIcon: TitleAndIconLabelStyle { .init() }
}

// MARK: - Toggles, pickers, lists, text fields, group boxes

public protocol ToggleStyle {}
public struct DefaultToggleStyle: ToggleStyle { public init() {} }
public struct SwitchToggleStyle: ToggleStyle {
    public init() {}
    public init(tint: Color) {}
}
public struct ButtonToggleStyle: ToggleStyle { public init() {} }
extension ToggleStyle where Self == DefaultToggleStyle {
    public static var automatic: DefaultToggleStyle { .init() }
}
extension ToggleStyle where Self == SwitchToggleStyle {
    public static var `switch`: SwitchToggleStyle { .init() }
}
extension ToggleStyle where Self == ButtonToggleStyle {
    public static var button: ButtonToggleStyle { .init() }
}

public protocol PickerStyle {}
public struct DefaultPickerStyle: PickerStyle { public init() {} }
public struct SegmentedPickerStyle: PickerStyle { public init() {} }
public struct MenuPickerStyle: PickerStyle { public init() {} }
public struct InlinePickerStyle: PickerStyle { public init() {} }
public struct WheelPickerStyle: PickerStyle { public init() {} }
extension PickerStyle where Self == DefaultPickerStyle {
    public static var automatic: DefaultPickerStyle { .init() }
}
extension PickerStyle where Self == SegmentedPickerStyle {
    public static var segmented: SegmentedPickerStyle { .init() }
}
extension PickerStyle where Self == MenuPickerStyle {
    public static var menu: MenuPickerStyle { .init() }
}
extension PickerStyle where Self == InlinePickerStyle {
    public static var inline: InlinePickerStyle { .init() }
}
extension PickerStyle where Self == WheelPickerStyle {
    public static var wheel: WheelPickerStyle { .init() }
}

public protocol ListStyle {}
public struct DefaultListStyle: ListStyle { public init() {} }
public struct PlainListStyle: ListStyle { public init() {} }
public struct InsetListStyle: ListStyle { public init() {} }
public struct GroupedListStyle: ListStyle { public init() {} }
public struct InsetGroupedListStyle: ListStyle { public init() {} }
public struct SidebarListStyle: ListStyle { public init() {} }
extension ListStyle where Self == DefaultListStyle {
    public static var automatic: DefaultListStyle { .init() }
}
extension ListStyle where Self == PlainListStyle {
    public static var plain: PlainListStyle { .init() }
}
extension ListStyle where Self == InsetListStyle {
    public static var inset: InsetListStyle { .init() }
}
extension ListStyle where Self == GroupedListStyle {
    public static var grouped: GroupedListStyle { .init() }
}
extension ListStyle where Self == InsetGroupedListStyle {
    public static var insetGrouped: InsetGroupedListStyle { .init() }
}
extension ListStyle where Self == SidebarListStyle {
    public static var sidebar: SidebarListStyle { .init() }
}

public protocol TextFieldStyle {}
public struct DefaultTextFieldStyle: TextFieldStyle { public init() {} }
public struct PlainTextFieldStyle: TextFieldStyle { public init() {} }
public struct RoundedBorderTextFieldStyle: TextFieldStyle { public init() {} }
extension TextFieldStyle where Self == DefaultTextFieldStyle {
    public static var automatic: DefaultTextFieldStyle { .init() }
}
extension TextFieldStyle where Self == PlainTextFieldStyle {
    public static var plain: PlainTextFieldStyle { .init() }
}
extension TextFieldStyle where Self == RoundedBorderTextFieldStyle {
    public static var roundedBorder: RoundedBorderTextFieldStyle { .init() }
}

public protocol GroupBoxStyle {}
public struct DefaultGroupBoxStyle: GroupBoxStyle { public init() {} }
extension GroupBoxStyle where Self == DefaultGroupBoxStyle {
    public static var automatic: DefaultGroupBoxStyle { .init() }
}

// MARK: - Modifiers

extension EnvironmentValues {
    var gaugeShape: _ControlShape {
        get { controlShapes.gauge }
        set { controlShapes.gauge = newValue }
    }
    var progressShape: _ControlShape {
        get { controlShapes.progress }
        set { controlShapes.progress = newValue }
    }
}

struct ControlShapes: Sendable, Hashable {
    var gauge: _ControlShape = .linear
    var progress: _ControlShape = .linear
}

extension View {
    /// A button is drawn as swiftdash's control (`[title]`) whatever its style.
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { self }
    @_disfavoredOverload
    public func buttonStyle<S: ButtonStyle>(_ style: S) -> some View { self }
    public func gaugeStyle<S: GaugeStyle>(_ style: S) -> some View {
        EnvironmentModified(content: self) { $0.gaugeShape = style._shape }
    }
    public func progressViewStyle<S: ProgressViewStyle>(_ style: S) -> some View {
        EnvironmentModified(content: self) { $0.progressShape = style._shape }
    }
    public func labelStyle<S: LabelStyle>(_ style: S) -> some View {
        EnvironmentModified(content: self) { $0.labelStyle = style._kind }
    }
    public func toggleStyle<S: ToggleStyle>(_ style: S) -> some View { self }
    public func pickerStyle<S: PickerStyle>(_ style: S) -> some View { self }
    public func listStyle<S: ListStyle>(_ style: S) -> some View { self }
    public func textFieldStyle<S: TextFieldStyle>(_ style: S) -> some View { self }
    public func groupBoxStyle<S: GroupBoxStyle>(_ style: S) -> some View { self }
}
