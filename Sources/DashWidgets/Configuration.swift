import Foundation

/// A configuration value. Text from the command line, the form or the config file is
/// turned into a value by the parameter's schema (`ConfigurationSchema.parse`).
public enum ConfigValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case bool(Bool)
    case date(Date)
    case list([String])

    public var description: String {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .date(let d): return d.formatted(.iso8601)
        case .list(let l): return ListText.text(l)
        }
    }
}

/// A choice of an enum parameter.
public struct ParameterOption: Hashable, Sendable {
    public var value: String
    public var title: String
    public init(_ value: String, title: String? = nil) {
        self.value = value
        self.title = title ?? value
    }
}

/// The type of a parameter and what it allows.
public enum ParameterKind: Sendable {
    /// One of fixed options.
    case enumeration([ParameterOption])
    /// The fixed options plus options a provider loads (a coin list). Any value that
    /// matches `pattern` is accepted, since the loaded list is not known offline.
    case dynamicEnumeration(fixed: [ParameterOption], pattern: String)
    case string(pattern: String? = nil)
    case integer(ClosedRange<Int>)
    case bool
    case date
    case filePath
    /// A list of strings, written `[a, "b,c"]` (YAML flow syntax) or comma-separated; each item
    /// may have to match `itemPattern`.
    case list(itemPattern: String? = nil)

    public var typeName: String {
        switch self {
        case .enumeration, .dynamicEnumeration: return "choice"
        case .string: return "text"
        case .integer: return "integer"
        case .bool: return "bool"
        case .date: return "date"
        case .filePath: return "path"
        case .list: return "list"
        }
    }
}

/// One configurable parameter of a widget.
public struct Parameter: Sendable {
    public var key: String
    public var title: String
    public var help: String
    public var kind: ParameterKind
    public var defaultValue: ConfigValue
    /// A secret (API key, token): never shown, logged or printed.
    public var isSecret: Bool
    /// An environment variable that supplies the value when it is left empty.
    public var environmentVariable: String?
    /// Loads the dynamic options of a `.dynamicEnumeration` (may use the network).
    public var dynamicOptions: (@Sendable (WidgetConfig) async throws -> [ParameterOption])?
    /// A check beyond the kind's own (a time zone that exists): what is wrong, or nil.
    public var check: (@Sendable (ConfigValue) -> String?)?
    /// What the kind's pattern allows, in words a user reads ("a coin id such as bitcoin"; for a
    /// list, one item): shown in the form, `--help` and errors instead of the regular expression.
    public var patternWords: String?
    /// A list whose text (not in `[…]`) is one item, not split at commas: a command line.
    public var textIsOneItem = false

    /// The same parameter with a further check of its value (`check`).
    public func checked(_ check: @escaping @Sendable (ConfigValue) -> String?) -> Parameter {
        var p = self
        p.check = check
        return p
    }

    /// The same list parameter with a text that is not `[…]` read as one item (`textIsOneItem`).
    public func textAsOneItem() -> Parameter {
        var p = self
        p.textIsOneItem = true
        return p
    }

    /// The same parameter with its pattern said in words (`patternWords`).
    public func allowing(_ words: String) -> Parameter {
        var p = self
        p.patternWords = words
        return p
    }

    public init(
        key: String, title: String, help: String, kind: ParameterKind, default defaultValue: ConfigValue,
        isSecret: Bool = false, environmentVariable: String? = nil,
        dynamicOptions: (@Sendable (WidgetConfig) async throws -> [ParameterOption])? = nil
    ) {
        self.key = key
        self.title = title
        self.help = help
        self.kind = kind
        self.defaultValue = defaultValue
        self.isSecret = isSecret
        self.environmentVariable = environmentVariable
        self.dynamicOptions = dynamicOptions
    }

    /// What values are allowed, in words, for errors and `--help`: never the regular expression
    /// itself (a pattern without `patternWords` is said as text of the widget's own form).
    public var allowed: String {
        switch kind {
        case .enumeration(let opts): return "one of " + opts.map(\.value).joined(separator: ", ")
        case .dynamicEnumeration(let fixed, _):
            return "one of " + fixed.map(\.value).joined(separator: ", ") + " or "
                + (patternWords ?? "another symbol from the source's list")
        case .string(let pattern): return pattern == nil ? "any text" : patternWords ?? Self.unsaidPattern
        case .integer(let r): return "a whole number from \(r.lowerBound) to \(r.upperBound)"
        case .bool: return "true or false"
        case .date: return "a date like 2026-11-23 or 2026-11-23T09:30:00Z"
        case .filePath: return "a file path"
        case .list(let p):
            let form = textIsOneItem ? "one line or a list" : "a comma-separated list"
            return form + (p == nil ? "" : ", each " + itemAllowed)
        }
    }

    /// What one item of a list with a pattern must be, in words.
    var itemAllowed: String { patternWords ?? Self.unsaidPattern }

    /// A pattern nobody put into words.
    static let unsaidPattern = "text in the form the widget expects"

    /// How the value is shown: secrets are masked.
    public func display(_ value: ConfigValue) -> String {
        if isSecret { return value.description.isEmpty ? "(not set)" : "••••••" }
        return value.description
    }
}

/// A problem with one parameter's value.
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    public var key: String
    public var message: String
    /// The parameter's own `check` said it, in its words (the form shows them as they are).
    public var byCheck: Bool
    public init(key: String, message: String, byCheck: Bool = false) {
        self.key = key
        self.message = message
        self.byCheck = byCheck
    }
    public var description: String { "\(key): \(message)" }
}

/// The values of one widget instance's configuration, by parameter key.
public struct WidgetConfig: Hashable, Sendable, Codable {
    public var values: [String: ConfigValue]
    /// Secret settings whose value a command prints (`SecretCommand`): their `values` entry stays
    /// empty here; the load the runtime runs gets the command's answer.
    public var secretCommands: [String: SecretCommand] = [:]
    public init(_ values: [String: ConfigValue] = [:]) { self.values = values }

    enum CodingKeys: String, CodingKey { case values, secretCommands }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        values = try c.decode([String: ConfigValue].self, forKey: .values)
        secretCommands = try c.decodeIfPresent([String: SecretCommand].self, forKey: .secretCommands) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(values, forKey: .values)
        if !secretCommands.isEmpty { try c.encode(secretCommands, forKey: .secretCommands) }
    }

    public subscript(key: String) -> ConfigValue? {
        get { values[key] }
        set { values[key] = newValue }
    }
    public func string(_ key: String) -> String {
        switch values[key] {
        case .string(let s)?: return s
        case let v?: return v.description
        case nil: return ""
        }
    }
    public func int(_ key: String) -> Int? {
        if case .int(let i)? = values[key] { return i }
        return Int(string(key))
    }
    public func bool(_ key: String) -> Bool {
        if case .bool(let b)? = values[key] { return b }
        return string(key) == "true"
    }
    public func date(_ key: String) -> Date? {
        if case .date(let d)? = values[key] { return d }
        return nil
    }
    public func list(_ key: String) -> [String] {
        if case .list(let l)? = values[key] { return l }
        let s = string(key)
        return s.isEmpty ? [] : s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
}

/// The parameters a widget can be configured with.
public struct ConfigurationSchema: Sendable {
    public var parameters: [Parameter]
    public init(_ parameters: [Parameter] = []) { self.parameters = parameters }

    public func parameter(_ key: String) -> Parameter? { parameters.first { $0.key == key } }

    public var defaults: WidgetConfig {
        WidgetConfig(Dictionary(uniqueKeysWithValues: parameters.map { ($0.key, $0.defaultValue) }))
    }

    /// The configuration a provider receives: defaults filled in, empty secrets taken
    /// from their environment variables, unknown keys dropped.
    public func resolve(_ config: WidgetConfig, environment: [String: String] = [:]) -> WidgetConfig {
        var out = WidgetConfig()
        for p in parameters {
            var v = config[p.key] ?? p.defaultValue
            if let env = p.environmentVariable, v.description.isEmpty, let fromEnv = environment[env], !fromEnv.isEmpty
            {
                v = .string(fromEnv)
            }
            out[p.key] = v
        }
        return out
    }

    /// Turns text (from `--set key=value`, the form, or a config file) into a value.
    public func parse(key: String, text: String) throws(ConfigError) -> ConfigValue {
        guard let p = parameter(key) else {
            let known = parameters.map(\.key).joined(separator: ", ")
            throw ConfigError(
                key: key, message: "no such parameter; this widget has: \(known.isEmpty ? "none" : known)")
        }
        let t = text.trimmingCharacters(in: .whitespaces)
        let value: ConfigValue
        switch p.kind {
        case .integer:
            guard let i = Int(t) else { throw ConfigError(key: key, message: "'\(t)' is not \(p.allowed)") }
            value = .int(i)
        case .bool:
            switch t.lowercased() {
            case "true", "yes", "on", "1": value = .bool(true)
            case "false", "no", "off", "0": value = .bool(false)
            default: throw ConfigError(key: key, message: "'\(t)' is not \(p.allowed)")
            }
        case .date:
            guard let d = ConfigurationSchema.parseDate(t) else {
                throw ConfigError(key: key, message: "'\(t)' is not \(p.allowed)")
            }
            value = .date(d)
        case .list:
            let items: [String]?
            do { items = try ListText.flowItems(t) } catch {
                throw ConfigError(key: key, message: "'\(t)' is not \(p.allowed): \(error.description)")
            }
            if let items {
                value = .list(items)
            } else if p.textIsOneItem {
                value = .list(t.isEmpty ? [] : [t])
            } else {
                value = .list(t.isEmpty ? [] : t.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            }
        default:
            value = .string(t)
        }
        if let error = validate(p, value) { throw error }
        return value
    }

    /// Turns the items of a YAML sequence into a value: for a list parameter the items as they
    /// are, byte for byte; for any other the items joined with commas, read as text.
    public func parse(key: String, items: [String]) throws(ConfigError) -> ConfigValue {
        guard let p = parameter(key), case .list = p.kind else {
            return try parse(key: key, text: items.joined(separator: ","))
        }
        let value = ConfigValue.list(items)
        if let error = validate(p, value) { throw error }
        return value
    }

    /// Every problem with a configuration; each names the parameter and what is allowed.
    public func validate(_ config: WidgetConfig) -> [ConfigError] {
        var errors: [ConfigError] = []
        for key in config.values.keys.sorted() where parameter(key) == nil {
            errors.append(
                ConfigError(
                    key: key,
                    message: "no such parameter; this widget has: \(parameters.map(\.key).joined(separator: ", "))"))
        }
        for p in parameters {
            if let v = config[p.key], let e = validate(p, v) { errors.append(e) }
        }
        return errors
    }

    func validate(_ p: Parameter, _ value: ConfigValue) -> ConfigError? {
        if let e = validateKind(p, value) { return e }
        guard let check = p.check, let problem = check(value) else { return nil }
        return ConfigError(key: p.key, message: problem, byCheck: true)
    }

    func validateKind(_ p: Parameter, _ value: ConfigValue) -> ConfigError? {
        let shown = p.isSecret ? "the value" : "'\(value.description)'"
        func fail() -> ConfigError { ConfigError(key: p.key, message: "\(shown) is not \(p.allowed)") }
        switch (p.kind, value) {
        case (.enumeration(let opts), .string(let s)):
            return opts.contains { $0.value.caseInsensitiveCompare(s) == .orderedSame } ? nil : fail()
        case (.dynamicEnumeration(let fixed, let pattern), .string(let s)):
            if fixed.contains(where: { $0.value.caseInsensitiveCompare(s) == .orderedSame }) { return nil }
            return matches(s, pattern) ? nil : fail()
        case (.string(let pattern), .string(let s)):
            guard let pattern else { return nil }
            return matches(s, pattern) ? nil : fail()
        case (.integer(let r), .int(let i)):
            return r.contains(i) ? nil : ConfigError(key: p.key, message: "\(i) is out of range; allowed: \(p.allowed)")
        case (.bool, .bool), (.date, .date), (.filePath, .string):
            return nil
        case (.list(let pattern), .list(let items)):
            guard let pattern else { return nil }
            if let bad = items.first(where: { !matches($0, pattern) }) {
                return ConfigError(key: p.key, message: "item '\(bad)' is not \(p.itemAllowed)")
            }
            return nil
        default:
            return ConfigError(key: p.key, message: "expected \(p.kind.typeName): \(p.allowed)")
        }
    }

    /// Whether all of `s` matches `pattern`: the small matcher when it can answer exactly, else `Regex`.
    func matches(_ s: String, _ pattern: String) -> Bool {
        if let simple = SimplePattern(pattern), let answer = simple.wholeMatch(s) { return answer }
        guard let regex = try? Regex(pattern) else { return false }
        return (try? regex.wholeMatch(in: s)) != nil
    }

    static func parseDate(_ t: String) -> Date? {
        if let d = try? Date(t, strategy: .iso8601) { return d }
        let day = Date.ISO8601FormatStyle().year().month().day()
        return try? Date(t, strategy: day)
    }
}
