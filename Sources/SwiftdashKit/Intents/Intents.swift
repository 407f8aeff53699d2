import Foundation
internal import DashWidgets

/// An action a widget runs (a button's, a toggle's) or the configuration of a widget
/// (`WidgetConfigurationIntent`). Its `@Parameter`s travel as the extension protocol's `config`
/// (configuration) or inside a control's `action` (buttons and toggles), and `perform()` runs in
/// the extension; the widget's timeline is reloaded after it.
public protocol AppIntent {
    associatedtype PerformResult: IntentResult
    static var title: LocalizedStringResource { get }
    static var description: IntentDescription? { get }
    associatedtype SummaryContent: ParameterSummary = _ParameterSummary
    /// How the parameters are summed up (accepted; swiftdash's Edit form lists every parameter).
    @ParameterSummaryBuilder<Self> static var parameterSummary: SummaryContent { get }
    init()
    func perform() async throws -> PerformResult
}

extension AppIntent {
    public static var description: IntentDescription? { nil }
}

extension AppIntent where SummaryContent == _ParameterSummary {
    public static var parameterSummary: _ParameterSummary { _ParameterSummary() }
}

/// The configuration of an `AppIntentConfiguration` (or `IntentConfiguration`) widget: each
/// `@Parameter` is a field of swiftdash's Edit form.
public protocol WidgetConfigurationIntent: AppIntent {}

extension WidgetConfigurationIntent {
    public func perform() async throws -> _IntentResult { .result() }
}

public typealias SetValueIntent = AppIntent

public struct IntentDescription: ExpressibleByStringLiteral, Sendable {
    public let text: String
    public init(stringLiteral value: String) { text = value }
    public init(_ text: LocalizedStringResource, categoryName: LocalizedStringResource? = nil) { self.text = text.text }
}

public protocol IntentResult {}
public struct _IntentResult: IntentResult, Sendable {}
public protocol ReturnsValue<Value>: IntentResult { associatedtype Value }
public protocol ProvidesDialog: IntentResult {}
public struct IntentDialog: ExpressibleByStringInterpolation, Sendable {
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: LocalizedStringKey.StringInterpolation) {}
}

extension IntentResult where Self == _IntentResult {
    public static func result() -> _IntentResult { _IntentResult() }
    public static func result(dialog: IntentDialog) -> _IntentResult { _IntentResult() }
}

/// A result that returns a value (`some IntentResult & ReturnsValue<String>`): a widget's control
/// shows no value, so it is kept and not drawn.
public struct _IntentValueResult<Value>: ReturnsValue, ProvidesDialog {
    public let value: Value
}

extension IntentResult {
    public static func result<V>(value: V) -> _IntentValueResult<V> where Self == _IntentValueResult<V> {
        _IntentValueResult(value: value)
    }
    public static func result<V>(value: V, dialog: IntentDialog) -> _IntentValueResult<V>
    where Self == _IntentValueResult<V> {
        _IntentValueResult(value: value)
    }
}

// MARK: - Parameters

/// A type a `@Parameter` can hold: text, whole numbers, numbers, truth values, dates, an
/// `AppEnum` (the form's fixed choices) or an `AppEntity` (choices its query gives), or an
/// optional of one of them.
public protocol _IntentValue {
    /// The extension protocol's parameter type.
    static var _parameterType: String { get }
    static var _choices: [_JSON] { get }
    /// The value of a parameter nobody set and without a default (`nil`: none, see `_resolve`).
    static var _fallback: Self? { get }
    /// A value for a parameter without one, found asynchronously (an entity query's default).
    static func _resolve() async -> Self?
    static func _decode(_ j: _JSON) async throws -> Self?
    static func _suggested() async throws -> [_JSON]
    var _json: _JSON { get }
}

extension _IntentValue {
    public static var _choices: [_JSON] { [] }
    public static func _resolve() async -> Self? { _fallback }
    public static func _suggested() async throws -> [_JSON] { [] }
}

extension String: _IntentValue {
    public static var _parameterType: String { "string" }
    public static var _fallback: String? { "" }
    public static func _decode(_ j: _JSON) async throws -> String? {
        let json = j.value
        return json.string ?? json.number.map { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int(clamping: $0)) : String($0) }
    }
    public var _json: _JSON { _JSON(.string(self)) }
}

extension Int: _IntentValue {
    public static var _parameterType: String { "integer" }
    public static var _fallback: Int? { 0 }
    public static func _decode(_ j: _JSON) async throws -> Int? {
        let json = j.value
        return json.number.map { Int(clamping: $0) } ?? json.string.flatMap { Int($0) }
    }
    public var _json: _JSON { _JSON(.number(Double(self))) }
}

extension Double: _IntentValue {
    public static var _parameterType: String { "string" }
    public static var _fallback: Double? { 0 }
    public static func _decode(_ j: _JSON) async throws -> Double? {
        let json = j.value
        return json.number ?? json.string.flatMap { Double($0) }
    }
    public var _json: _JSON { _JSON(.string(String(self))) }
}

extension Bool: _IntentValue {
    public static var _parameterType: String { "bool" }
    public static var _fallback: Bool? { false }
    public static func _decode(_ j: _JSON) async throws -> Bool? {
        let json = j.value
        return json.bool ?? json.string.map { $0 == "true" }
    }
    public var _json: _JSON { _JSON(.bool(self)) }
}

extension Date: _IntentValue {
    public static var _parameterType: String { "date" }
    public static var _fallback: Date? { Date(timeIntervalSince1970: 0) }
    public static func _decode(_ j: _JSON) async throws -> Date? {
        let json = j.value
        return try? ViewJSON.date(json, path: "")
    }
    public var _json: _JSON { _JSON(.number(timeIntervalSince1970)) }
}

extension URL: _IntentValue {
    public static var _parameterType: String { "string" }
    public static var _fallback: URL? { URL(string: "https://example.com") }
    public static func _decode(_ j: _JSON) async throws -> URL? {
        let json = j.value
        return json.string.flatMap { URL(string: $0) }
    }
    public var _json: _JSON { _JSON(.string(absoluteString)) }
}

extension Optional: _IntentValue where Wrapped: _IntentValue {
    public static var _parameterType: String { Wrapped._parameterType }
    public static var _choices: [_JSON] { Wrapped._choices }
    public static var _fallback: Wrapped?? { .some(nil) }
    public static func _decode(_ j: _JSON) async throws -> Wrapped?? {
        let json = j.value
        if json == .null || json == .string("") { return .some(nil) }
        return try await Wrapped._decode(j).map { .some($0) }
    }
    public static func _suggested() async throws -> [_JSON] { try await Wrapped._suggested() }
    public var _json: _JSON { self?._json ?? _JSON(.null) }
}

extension Array: _IntentValue where Element == String {
    public static var _parameterType: String { "list" }
    public static var _fallback: [String]? { [] }
    public static func _decode(_ j: _JSON) async throws -> [String]? {
        let json = j.value
        return json.array?.compactMap(\.string) ?? json.string.map { $0.split(separator: ",").map(String.init) }
    }
    public var _json: _JSON { _JSON(.array(map { .string($0) })) }
}

/// A parameter's value as the protocol carries it.
public struct _JSON {
    let value: JSONValue
    init(_ value: JSONValue) { self.value = value }
}

/// One parameter of an intent; its key is the property's name.
@propertyWrapper
public struct Parameter<Value: _IntentValue> {
    let box: ParameterBox<Value>
    /// The parameter's value. An entity parameter that nobody set and that has no default takes
    /// its query's `defaultResult()` (or first suggestion); with neither, reading it stops the
    /// extension naming the parameter, which costs only its widget (docs/widgetkit.md, "Faults").
    public var wrappedValue: Value {
        get { box.current }
        nonmutating set { box.value = newValue }
    }
    public var projectedValue: Parameter<Value> { self }

    public init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default value: Value) {
        box = ParameterBox(title: title.text, help: description?.text, value: value, hasDefault: true)
    }
    public init(wrappedValue: Value, title: LocalizedStringResource, description: LocalizedStringResource? = nil) {
        box = ParameterBox(title: title.text, help: description?.text, value: wrappedValue, hasDefault: true)
    }
    public init(title: LocalizedStringResource, description: LocalizedStringResource? = nil) {
        box = ParameterBox(title: title.text, help: description?.text, value: Value._fallback, hasDefault: false)
    }
    public init(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default value: Value,
        inclusiveRange: (Int, Int)
    ) where Value == Int {
        box = ParameterBox(title: title.text, help: description?.text, value: value, hasDefault: true)
        box.range = inclusiveRange
    }
    public init(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default value: Value,
        requestValueDialog: IntentDialog? = nil
    ) {
        self.init(title: title, description: description, default: value)
    }
    public init(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil,
        requestValueDialog: IntentDialog?
    ) {
        self.init(title: title, description: description)
    }
    /// A parameter whose choices a `DynamicOptionsProvider` gives (the Edit form asks for them).
    public init<P: DynamicOptionsProvider>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default value: Value,
        optionsProvider: P
    ) {
        self.init(title: title, description: description, default: value)
        box.options = { try Options.json(try await optionsProvider.results()) }
    }
    public init<P: DynamicOptionsProvider>(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, optionsProvider: P
    ) {
        self.init(title: title, description: description)
        box.options = { try Options.json(try await optionsProvider.results()) }
    }
}

final class ParameterBox<Value: _IntentValue>: @unchecked Sendable {
    let title: String, help: String?, defaultValue: Value?, hasDefault: Bool
    var value: Value?
    var range: (Int, Int)?
    var options: (() async throws -> [JSONValue])?
    init(title: String, help: String?, value: Value?, hasDefault: Bool) {
        (self.title, self.help, self.value, self.defaultValue, self.hasDefault) = (
            title, help, value, value, hasDefault
        )
    }
    /// The value, resolved once if nobody set it (an entity's query default).
    var current: Value {
        if let value { return value }
        // The type travels boxed and the value comes back untyped: a metatype of a generic
        // parameter is not Sendable, so the task's closure must not name `Value`.
        let type = Wait.Unchecked(value: Value.self)
        let found = try? Wait.async { await type.value._resolve().map { Wait.Unchecked(value: $0 as Any) } }
        let resolved = found?.value as? Value
        guard let resolved else {
            fatalError(
                "@Parameter \"\(title)\" (\(Value.self)) has no value: give it a default, make it optional, or have its query's defaultResult() return one"
            )
        }
        value = resolved
        return resolved
    }
    /// Resolves a missing value before the provider runs; false when there is none.
    func resolve() async -> Bool {
        if value != nil { return true }
        value = await Value._resolve()
        return value != nil
    }
}

protocol AnyParameter {
    func describe(key: String) -> JSONValue
    func resolve() async -> Bool
    var title: String { get }
    func set(_ json: JSONValue) async throws
    var json: JSONValue { get }
    func suggested() async throws -> [JSONValue]
}

extension Parameter: AnyParameter {
    func describe(key: String) -> JSONValue {
        var o: [String: JSONValue] = [
            "key": .string(key), "type": .string(Value._parameterType), "title": .string(box.title),
        ]
        if let help = box.help { o["help"] = .string(help) }
        let choices = Value._choices.map(\.value)
        if !choices.isEmpty { o["options"] = .array(choices) }
        if box.hasDefault, let d = box.defaultValue?._json.value, d != .null { o["default"] = d }
        if box.options != nil { o["type"] = .string("dynamicEnum") }
        if let r = box.range { (o["min"], o["max"]) = (.number(Double(r.0)), .number(Double(r.1))) }
        if Value._parameterType == "dynamicEnum" || box.options != nil {
            // An entity's id as its query gives it (a name may have spaces); empty: none chosen.
            o["pattern"] = .string("[A-Za-z0-9 ._:@+-]{0,64}")
            o["allowed"] = .string("letters, digits, spaces and . _ : @ + -")
        }
        return .object(o)
    }
    func set(_ json: JSONValue) async throws {
        guard let v = try await Value._decode(_JSON(json)) else {
            throw IntentError("`\(json)` is not a \(Value.self)")
        }
        box.value = v
    }
    var json: JSONValue { box.value?._json.value ?? .null }
    var title: String { box.title }
    func resolve() async -> Bool { await box.resolve() }
    func suggested() async throws -> [JSONValue] {
        if let options = box.options { return try await options() }
        return try await Value._suggested().map(\.value)
    }
}

struct IntentError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// An intent's parameters by key, found by reflection as AppIntents does.
enum Parameters {
    typealias Description = JSONValue

    static func all(_ intent: some AppIntent) -> [(key: String, parameter: AnyParameter)] {
        Mirror(reflecting: intent).children.compactMap { child in
            guard let label = child.label, label.hasPrefix("_"), let p = child.value as? AnyParameter else {
                return nil
            }
            return (String(label.dropFirst()), p)
        }
    }

    static func describe<I: AppIntent>(_ type: I.Type) -> [JSONValue] {
        all(I()).map { $0.parameter.describe(key: $0.key) }
    }

    /// An intent with the values of `config` (the keys it names; the rest keep their defaults).
    static func decode<I: AppIntent>(_ type: I.Type, _ config: [String: JSONValue]) async throws -> I {
        let intent = I()
        for (key, p) in all(intent) {
            guard let v = config[key] else { continue }
            do { try await p.set(v) } catch { throw IntentError("\(key): \(error)") }
        }
        for (key, p) in all(intent) {
            if await p.resolve() { continue }
            throw IntentError(
                "@Parameter \(key) (\"\(p.title)\") has no value: give it a default, make it optional, or have its query's defaultResult() return one"
            )
        }
        return intent
    }

    static func encode(_ intent: some AppIntent) -> [String: JSONValue] {
        Dictionary(all(intent).map { ($0.key, $0.parameter.json) }, uniquingKeysWith: { a, _ in a })
    }
}

// MARK: - Enums and entities

public struct TypeDisplayRepresentation: ExpressibleByStringLiteral, Sendable {
    public let name: String
    public init(stringLiteral value: String) { name = value }
    public init(name: LocalizedStringResource, numericFormat: LocalizedStringResource? = nil) { self.name = name.text }
}

public struct DisplayRepresentation: ExpressibleByStringInterpolation, Sendable {
    public let title: String
    public let subtitle: String?
    public init(stringLiteral value: String) { (title, subtitle) = (value, nil) }
    public init(stringInterpolation: LocalizedStringKey.StringInterpolation) {
        (title, subtitle) = (stringInterpolation.text, nil)
    }
    public init(
        title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil,
        image: DisplayRepresentation.Image? = nil
    ) {
        (self.title, self.subtitle) = (title.text, subtitle?.text)
    }
    public struct Image: Sendable {
        public init(systemName: String) {}
        public init(named: String) {}
    }
}

/// Fixed choices: `enum Coin: String, AppEnum { case btc, eth }` with display names.
public protocol AppEnum: _IntentValue, CaseIterable, RawRepresentable, Hashable where RawValue == String {
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
    public static var _parameterType: String { "enum" }
    public static var _choices: [_JSON] {
        allCases.map { c in
            _JSON(
                .object([
                    "value": .string(c.rawValue), "title": .string(caseDisplayRepresentations[c]?.title ?? c.rawValue),
                ]))
        }
    }
    public static var _fallback: Self? { allCases.first }
    public static func _decode(_ json: _JSON) async throws -> Self? { json.value.string.flatMap { Self(rawValue: $0) } }
    public var _json: _JSON { _JSON(.string(rawValue)) }
}

/// Choices a query gives (the Edit form asks the extension for them: `options`).
public protocol AppEntity: _IntentValue, Identifiable where ID: LosslessStringConvertible {
    associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    static var defaultQuery: DefaultQuery { get }
    var displayRepresentation: DisplayRepresentation { get }
}

extension AppEntity {
    public static var _parameterType: String { "dynamicEnum" }
    /// No value without asking the query: `_resolve()` asks it for its default.
    public static var _fallback: Self? { nil }
    public static func _resolve() async -> Self? {
        if let d = await defaultQuery.defaultResult() { return d }
        return try? await defaultQuery.suggestedEntities().first
    }
    public static func _decode(_ json: _JSON) async throws -> Self? {
        guard let s = json.value.string, let id = ID(s) else { return nil }
        return try await defaultQuery.entities(for: [id]).first
    }
    public static func _suggested() async throws -> [_JSON] {
        try await defaultQuery.suggestedEntities().map { e in
            _JSON(
                .object(["value": .string(String(describing: e.id)), "title": .string(e.displayRepresentation.title)]))
        }
    }
    public var _json: _JSON { _JSON(.string(String(describing: id))) }
}

public protocol EntityQuery {
    associatedtype Entity: AppEntity
    init()
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
    func suggestedEntities() async throws -> [Entity]
    func defaultResult() async -> Entity?
}

extension EntityQuery {
    public func suggestedEntities() async throws -> [Entity] { [] }
    public func defaultResult() async -> Entity? { nil }
}

public protocol EntityStringQuery: EntityQuery {
    func entities(matching string: String) async throws -> [Entity]
}

// MARK: - Controls' intents

/// Which intent a control's `action` names: its type's name and its parameters as JSON
/// (`Wave {"name":"Ada"}`), at most 200 bytes. The extension learns the types from the views it
/// draws; a `perform` for a type it has not drawn yet (the process was started again) first draws
/// the widget's timeline to learn it.
enum IntentRegistry {
    nonisolated(unsafe) private static var types: [String: any AppIntent.Type] = [:]
    private static let lock = NSLock()

    static func action<I: AppIntent>(for intent: I) -> String {
        let name = String(describing: I.self)
        lock.withLock { types[name] = I.self }
        let params = Parameters.encode(intent)
        guard !params.isEmpty, let data = try? JSONEncoder().encode(JSONValue.object(params)) else { return name }
        return name + " " + String(decoding: data, as: UTF8.self)
    }

    static func type(named name: String) -> (any AppIntent.Type)? { lock.withLock { types[name] } }

    /// Runs the intent an action names; false when its type is not known (yet).
    static func perform(_ action: String) async throws -> Bool {
        let name = String(action.prefix { $0 != " " })
        guard let type = type(named: name) else { return false }
        var params: [String: JSONValue] = [:]
        if let space = action.firstIndex(of: " ") {
            let text = action[action.index(after: space)...]
            guard let o = try JSONValue.parse(Data(text.utf8)).object else {
                throw IntentError("bad action parameters")
            }
            params = o
        }
        try await run(type, params)
        return true
    }

    private static func run<I: AppIntent>(_ type: I.Type, _ params: [String: JSONValue]) async throws {
        let intent = try await Parameters.decode(I.self, params)
        _ = try await intent.perform()
    }
}
