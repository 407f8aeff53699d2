import Foundation
internal import DashWidgets

// AppIntents' configuration extras: choices a provider gives, parameter summaries, recommended
// configurations, SiriKit intents migrated to App Intents, and Siri's shortcuts.

// MARK: - Dynamic options

/// Choices for a parameter computed when the Edit form asks (`@Parameter(…, optionsProvider: P())`).
public protocol DynamicOptionsProvider {
    associatedtype Result
    func results() async throws -> Result
}

/// Choices as the extension protocol's options: `{"value", "title"}` each.
enum Options {
    static func json(_ results: Any) throws -> [JSONValue] {
        guard let list = results as? [Any] else { return [] }
        return list.prefix(200).map { item in
            let value = (item as? any _IntentValue)?._json.value ?? .string(String(describing: item))
            let title: String
            if let entity = item as? any AppEntity {
                title = entity.displayRepresentation.title
            } else if let s = value.string {
                title = s
            } else {
                title = String(describing: item)
            }
            return .object([
                "value": value.string.map(JSONValue.string) ?? .string(String(describing: item)),
                "title": .string(title),
            ])
        }
    }
}

// MARK: - Parameter summaries

/// How Shortcuts and the widget's Edit sheet sum up an intent's parameters. swiftdash's Edit form
/// lists every parameter with its title, so a summary is accepted and not drawn.
public protocol ParameterSummary {}

public struct _ParameterSummary: ParameterSummary {}

/// `Summary("Show \(\.$city)") { \.$units }`.
public struct Summary<Intent: AppIntent>: ParameterSummary {
    public init(_ summary: ParameterSummaryString<Intent>) {}
    public init(
        _ summary: ParameterSummaryString<Intent>,
        @ParameterSummaryTableBuilder<Intent> table: () -> _ParameterSummaryTable
    ) {}
    public init() {}
}

/// `When(\.$showsDate, .equalTo, true) { Summary(…) } otherwise: { Summary(…) }`.
public struct When<Intent: AppIntent>: ParameterSummary {
    public init<Value>(
        _ parameter: KeyPath<Intent, Parameter<Value>>, _ comparison: ParameterSummaryComparison, _ value: Value,
        @ParameterSummaryBuilder<Intent> _ then: () -> _ParameterSummary,
        @ParameterSummaryBuilder<Intent> otherwise: () -> _ParameterSummary
    ) {}
    public init<Value>(
        _ parameter: KeyPath<Intent, Parameter<Value>>, _ comparison: ParameterSummaryComparison, _ value: Value,
        @ParameterSummaryBuilder<Intent> _ then: () -> _ParameterSummary
    ) {}
    public init<Value>(
        _ parameter: KeyPath<Intent, Parameter<Value>>, _ comparison: ParameterSummaryComparison,
        @ParameterSummaryBuilder<Intent> _ then: () -> _ParameterSummary,
        @ParameterSummaryBuilder<Intent> otherwise: () -> _ParameterSummary
    ) {}
    public init(
        widgetFamily comparison: ParameterSummaryComparison, _ families: [WidgetFamily],
        @ParameterSummaryBuilder<Intent> _ then: () -> _ParameterSummary,
        @ParameterSummaryBuilder<Intent> otherwise: () -> _ParameterSummary
    ) {}
}

public enum ParameterSummaryComparison: Sendable {
    case equalTo, notEqualTo, greaterThan, greaterThanOrEqualTo, lessThan, lessThanOrEqualTo
    case contains, hasAnyValue, hasNoValue, oneOf, noneOf
}

/// A summary's text: literal text and parameters (`\(\.$name)`).
public struct ParameterSummaryString<Intent: AppIntent>: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: StringInterpolation) {}
    public struct StringInterpolation: StringInterpolationProtocol {
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) {}
        public mutating func appendInterpolation<Value>(_ parameter: KeyPath<Intent, Parameter<Value>>) {}
    }
}

@resultBuilder
public enum ParameterSummaryBuilder<Intent: AppIntent> {
    public static func buildExpression(_ summary: Summary<Intent>) -> _ParameterSummary { _ParameterSummary() }
    public static func buildExpression(_ summary: When<Intent>) -> _ParameterSummary { _ParameterSummary() }
    public static func buildBlock(_ summary: _ParameterSummary) -> _ParameterSummary { summary }
    public static func buildEither(first: _ParameterSummary) -> _ParameterSummary { first }
    public static func buildEither(second: _ParameterSummary) -> _ParameterSummary { second }
}

public struct _ParameterSummaryTable {}

@resultBuilder
public enum ParameterSummaryTableBuilder<Intent: AppIntent> {
    public static func buildExpression<Value>(_ parameter: KeyPath<Intent, Parameter<Value>>) -> _ParameterSummaryTable
    {
        _ParameterSummaryTable()
    }
    public static func buildBlock(_ parts: _ParameterSummaryTable...) -> _ParameterSummaryTable {
        _ParameterSummaryTable()
    }
}

// MARK: - Recommendations and migrated intents

/// A preconfigured widget for the SiriKit spelling (`IntentTimelineProvider.recommendations()`):
/// swiftdash's gallery offers the intent's defaults, so recommendations are accepted and not listed.
public struct IntentRecommendation<Intent: WidgetConfigurationIntent> {
    public let intent: Intent
    public let description: String
    public init(intent: Intent, description: LocalizedStringKey) {
        (self.intent, self.description) = (intent, description.text)
    }
    @_disfavoredOverload
    public init<S: StringProtocol>(intent: Intent, description: S) {
        (self.intent, self.description) = (intent, String(description))
    }
}

/// An App Intent that replaces a SiriKit custom intent (`static let intentClassName = "…"`): a
/// widget configured by the old intent keeps its configuration on Apple's systems; on swiftdash
/// configurations are kept by parameter name, so nothing needs migrating.
public protocol CustomIntentMigratedAppIntent: AppIntent {
    static var intentClassName: String { get }
}

// MARK: - Siri shortcuts (compile; Siri is not here)

/// App Shortcuts are offered to Siri and Spotlight: there is neither here, so they are accepted
/// and never run; swiftdash logs that once (`ServiceNotice`).
public protocol AppShortcutsProvider {
    @AppShortcutsBuilder static var appShortcuts: [AppShortcut] { get }
}

public struct AppShortcut: Sendable {
    public init<I: AppIntent>(
        intent: I, phrases: [AppShortcutPhrase<I>], shortTitle: LocalizedStringResource = "",
        systemImageName: String = ""
    ) {}
}

public struct AppShortcutPhrase<Intent: AppIntent>: ExpressibleByStringInterpolation, Sendable {
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: StringInterpolation) {}
    public struct StringInterpolation: StringInterpolationProtocol {
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) {}
        public mutating func appendInterpolation(_ token: AppShortcutPhraseToken) {}
        public mutating func appendInterpolation<Value>(_ parameter: KeyPath<Intent, Parameter<Value>>) {}
    }
}

public enum AppShortcutPhraseToken: Sendable { case applicationName }

@resultBuilder
public enum AppShortcutsBuilder {
    public static func buildBlock(_ shortcuts: AppShortcut...) -> [AppShortcut] { shortcuts }
    public static func buildExpression(_ shortcut: AppShortcut) -> AppShortcut { shortcut }
}
