import Foundation
internal import DashWidgets

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

extension Button where Label == Text {
    @available(*, unavailable, message: "a widget runs no closures: use Button(_:intent:) with an AppIntent, or Link")
    public init(_ titleKey: LocalizedStringKey, action: @escaping () -> Void) { fatalError() }
    @available(*, unavailable, message: "a widget runs no closures: use Button(_:intent:) with an AppIntent, or Link")
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, action: @escaping () -> Void) { fatalError() }
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

extension Toggle where Label == Text {
    @available(*, unavailable, message: "a widget has no bindings: use Toggle(_:isOn:intent:) with an AppIntent")
    public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) { fatalError() }
    @available(*, unavailable, message: "a widget has no bindings: use Toggle(_:isOn:intent:) with an AppIntent")
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) { fatalError() }
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
/// A circular style draws its current-value label (or the percentage) before the bar.
public struct ProgressView<Label: View>: View, PrimitiveView {
    enum Kind { case value(Double), timer(ClosedRange<Date>, Bool), indeterminate }
    let kind: Kind, label: Label?
    var currentValue: AnyView? = nil
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        let l = label.map { render($0, env) } ?? []
        let current = currentValue.map { render($0, env) } ?? []
        switch kind {
        case .value(let v):
            let f = v.isFinite ? min(1, max(0, v)) : 0
            var lead = current
            if lead.isEmpty, env.progressShape == .circular { lead = [.string("\(Int((f * 100).rounded()))%")] }
            return l + lead + [.object(["gauge": .number(f)])]
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
    public init<V: BinaryFloatingPoint, C: View>(
        value: V?, total: V = 1.0, @ViewBuilder label: () -> Label, @ViewBuilder currentValueLabel: () -> C
    ) {
        self.init(value: value, total: total, label: label)
        currentValue = AnyView(currentValueLabel())
    }
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true, @ViewBuilder label: () -> Label) {
        (kind, self.label) = (.timer(timerInterval, countsDown), label())
    }
    /// The label, then the live countdown (the current-value label is the countdown's text here).
    public init<C: View>(
        timerInterval: ClosedRange<Date>, countsDown: Bool = true, @ViewBuilder label: () -> Label,
        @ViewBuilder currentValueLabel: () -> C
    ) {
        (kind, self.label) = (.timer(timerInterval, countsDown), label())
    }
}

extension ProgressView where Label == Text {
    public init<V: BinaryFloatingPoint>(_ titleKey: LocalizedStringKey, value: V?, total: V = 1.0) {
        kind = .value(value.map { Double($0) / Double(total == 0 ? 1 : total) } ?? 0)
        label = Text(titleKey)
    }
    @_disfavoredOverload
    public init<S: StringProtocol, V: BinaryFloatingPoint>(_ title: S, value: V?, total: V = 1.0) {
        kind = .value(value.map { Double($0) / Double(total == 0 ? 1 : total) } ?? 0)
        label = Text(title)
    }
}

/// A gauge: its label, then a bar filled to the value's place in its range. A circular style
/// (`.accessoryCircular`, `.accessoryCircularCapacity`) has no ring in cells: it draws its
/// current-value label, then the bar.
public struct Gauge<Label: View>: View, PrimitiveView {
    let fraction: Double, label: Label
    var currentValue: AnyView?, minimum: AnyView?, maximum: AnyView?
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
        (currentValue, minimum, maximum) = (
            AnyView(currentValueLabel()), AnyView(minimumValueLabel()), AnyView(maximumValueLabel())
        )
    }
    public init<V: BinaryFloatingPoint, C: View>(
        value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
        @ViewBuilder currentValueLabel: () -> C
    ) {
        self.init(value: value, in: bounds, label: label)
        currentValue = AnyView(currentValueLabel())
    }
    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        let bar: JSONValue = .object(["gauge": .number(fraction.isFinite ? min(1, max(0, fraction)) : 0)])
        let current = currentValue.map { render($0, env) } ?? []
        if env.gaugeShape == .circular {
            return (current.isEmpty ? render(label, env) : current) + [bar]
        }
        let ends = (minimum.map { render($0, env) } ?? []) + (maximum.map { render($0, env) } ?? [])
        let row: [JSONValue] =
            ends.count == 2 ? [.object(["hstack": .array([ends[0], bar, ends[1]]), "spacing": .number(1)])] : [bar]
        return render(label, env) + current + row
    }
}

extension Gauge where Label == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1) {
        self.init(value: value, in: bounds) { EmptyView() }
    }
}

/// A binding: widgets have none (their state lives in the provider), offered only so that
/// the unavailable controls above can say what to use instead.
public struct Binding<Value> {
    @available(
        *, unavailable, message: "a widget has no bindings: keep the value in the entry, change it with an AppIntent"
    )
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { fatalError() }
    /// `$value` of a `@State`, or `.constant(_:)`: compiles so that the control it is handed to
    /// can say what to use.
    init() {}
    public static func constant(_ value: Value) -> Binding<Value> { Binding() }
}
