import Foundation

/// One widget as an extension's `describe` answer states it (docs/extensions.md), validated.
public struct ExtensionWidgetDescription: Sendable {
    public var kind: String
    public var displayName: String
    public var description: String
    public var families: [WidgetFamily]
    /// Parameters; a `dynamicEnum` one gets its options from the `options` request.
    public var parameters: [Parameter]
    /// Keys of the `dynamicEnum` parameters.
    public var dynamicKeys: [String]
    /// Uses the network: reloads are budgeted like built-in network widgets.
    public var network: Bool
    /// Takes timelines from `swiftdash push`.
    public var push: Bool
    /// Seconds a `timeline` request may take (1–60, default 10).
    public var timeout: TimeInterval
    /// Answers `preview` (the entries of the widget's own `#Preview`s); an extension that does not
    /// say so is asked for a preview `snapshot` alone.
    public var previews = false

    /// A widget kind: a lower-case letter, then letters, digits and `-`, at most 32.
    public static func isValidKind(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, ("a"..."z").contains(first), s.utf8.count <= 32 else { return false }
        return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// An `integer` parameter's `min` and `max` are held within these: a form adds to them.
    static let integerLimits = -1_000_000_000_000_000...1_000_000_000_000_000

    /// The widgets of a `describe` answer.
    public static func parse(_ json: JSONValue) throws -> [ExtensionWidgetDescription] {
        guard let o = json.object else { throw ViewJSONError("describe: expected an object with `widgets`") }
        if let v = o["protocol"]?.number, Int(clamping: v) != ExtensionProtocol.version {
            throw ViewJSONError(
                "describe: protocol \(Int(clamping: v)) is not supported; this swiftdash speaks "
                    + "\(ExtensionProtocol.version)")
        }
        // A bundle may hold Live Activities alone (`activities`): then it has no widget.
        let activities = try activityKinds(json)
        guard let list = o["widgets"]?.array, !list.isEmpty || !activities.isEmpty else {
            throw ViewJSONError("describe: `widgets` must be a non-empty list")
        }
        guard list.count <= ExtensionProtocol.maxWidgets else {
            throw ViewJSONError("describe: more than \(ExtensionProtocol.maxWidgets) widgets")
        }
        return try list.enumerated().map { try widget($1, path: "widgets[\($0)]") }
    }

    /// The most Live Activity kinds one extension may declare.
    public static let maxActivities = 32

    /// The Live Activity kinds a `describe` answer declares (`"activities": [{"kind"}]`): the
    /// extension answers `activity` for them (decision 68). None when the field is missing, as an
    /// older extension answers.
    public static func activityKinds(_ json: JSONValue) throws -> [String] {
        guard let field = json["activities"], field != .null else { return [] }
        guard let list = field.array, list.count <= maxActivities else {
            throw ViewJSONError("describe: `activities` must be a list of at most \(maxActivities)")
        }
        var kinds: [String] = []
        for (i, a) in list.enumerated() {
            guard let kind = a["kind"]?.string, isValidActivityKind(kind) else {
                throw ViewJSONError("describe: activities[\(i)].kind: letters, digits, '.', '_' or '-', at most 64")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return kinds
    }

    /// An activity kind as the activities file takes one: letters, digits, `.`, `_`, `-`, first a
    /// letter or a digit, at most 64.
    static func isValidActivityKind(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, s.utf8.count <= 64 else { return false }
        func ok(_ c: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
        }
        return ok(first) && s.unicodeScalars.allSatisfy { ok($0) || $0 == "." || $0 == "_" || $0 == "-" }
    }

    static func widget(_ json: JSONValue, path: String) throws -> ExtensionWidgetDescription {
        guard let o = json.object else { throw ViewJSONError("\(path): a widget is an object") }
        guard let kind = o["kind"]?.string, isValidKind(kind) else {
            throw ViewJSONError("\(path).kind: a lower-case name (letters, digits, -), at most 32 characters")
        }
        func text(_ key: String, _ fallback: String, max: Int = 200) -> String {
            let s = o[key]?.string.map { TextSanitizer.clean($0, keepNewlines: false, maxCharacters: max) } ?? fallback
            return TextSanitizer.singleLine(s)
        }
        var families: [WidgetFamily] = [.small, .medium, .large]
        if let f = o["families"] {
            guard let names = f.array?.compactMap(\.string), !names.isEmpty else {
                throw ViewJSONError("\(path).families: a list of small, medium, large, extraLarge")
            }
            families = try names.map { n in
                guard let fam = WidgetFamily(rawValue: n) else {
                    throw ViewJSONError(
                        "\(path).families: unknown family `\(String(TextSanitizer.singleLine(n).prefix(20)))`")
                }
                return fam
            }
        }
        var params: [Parameter] = []
        var dynamic: [String] = []
        if let ps = o["parameters"] {
            guard let list = ps.array, list.count <= ExtensionProtocol.maxParameters else {
                throw ViewJSONError("\(path).parameters: a list of at most \(ExtensionProtocol.maxParameters)")
            }
            for (i, p) in list.enumerated() {
                let param = try parameter(p, path: "\(path).parameters[\(i)]")
                if case .dynamicEnumeration = param.kind { dynamic.append(param.key) }
                guard !params.contains(where: { $0.key == param.key }) else {
                    throw ViewJSONError("\(path).parameters[\(i)]: `\(param.key)` twice")
                }
                params.append(param)
            }
        }
        let timeout = o["timeout"]?.number.map { min(60, max(1, $0)) } ?? 10
        return ExtensionWidgetDescription(
            kind: kind, displayName: text("displayName", kind, max: 60), description: text("description", ""),
            families: families, parameters: params, dynamicKeys: dynamic, network: o["network"]?.bool ?? false,
            push: o["push"]?.bool ?? false, timeout: timeout, previews: o["previews"]?.bool ?? false)
    }

    static func parameter(_ json: JSONValue, path: String) throws -> Parameter {
        guard let o = json.object, let key = o["key"]?.string, isValidKey(key) else {
            throw ViewJSONError("\(path): needs `key` (letters, digits, _ and -)")
        }
        func options() throws -> [ParameterOption] {
            guard let list = o["options"]?.array ?? (o["type"]?.string == "dynamicEnum" ? [] : nil),
                list.count <= 200
            else {
                throw ViewJSONError("\(path).options: a list of at most 200 options")
            }
            return try list.map { v in
                if let s = v.string { return ParameterOption(TextSanitizer.singleLine(s)) }
                guard let value = v["value"]?.string else { throw ViewJSONError("\(path).options: {value, title}") }
                return ParameterOption(
                    TextSanitizer.singleLine(value),
                    title: v["title"]?.string.map { TextSanitizer.singleLine($0) })
            }
        }
        func pattern() throws -> String? {
            guard let p = o["pattern"]?.string else { return nil }
            guard p.utf8.count <= 200, (try? Regex(p)) != nil else {
                throw ViewJSONError("\(path).pattern: not a regular expression of at most 200 bytes")
            }
            return p
        }
        let kind: ParameterKind
        switch o["type"]?.string ?? "string" {
        case "enum": kind = .enumeration(try options())
        case "dynamicEnum":
            kind = .dynamicEnumeration(fixed: try options(), pattern: try pattern() ?? "[A-Za-z0-9._-]{1,64}")
        case "string": kind = .string(pattern: try pattern())
        case "integer":
            let lo = Int(clamping: o["min"]?.number ?? 0, to: Self.integerLimits)
            let hi = Int(clamping: o["max"]?.number ?? 1_000_000, to: Self.integerLimits)
            guard lo <= hi else { throw ViewJSONError("\(path): `min` is above `max`") }
            kind = .integer(lo...hi)
        case "bool": kind = .bool
        case "date": kind = .date
        case "path": kind = .filePath
        case "list": kind = .list(itemPattern: try pattern())
        default:
            throw ViewJSONError("\(path).type: one of enum, dynamicEnum, string, integer, bool, date, path, list")
        }
        var param = Parameter(
            key: key, title: TextSanitizer.singleLine(o["title"]?.string ?? key),
            help: TextSanitizer.singleLine(o["help"]?.string ?? ""), kind: kind,
            default: .string(""), isSecret: o["secret"]?.bool ?? false,
            environmentVariable: o["env"]?.string.flatMap { isValidKey($0) ? $0 : nil })
        // What `pattern` allows, in the author's words: users never see the expression itself.
        param.patternWords = o["allowed"]?.string.map { TextSanitizer.singleLine(String($0.prefix(120))) }
        // The default goes through the same parser as home.yaml and `--set`.
        let schema = ConfigurationSchema([param])
        let defaultText: String
        switch o["default"] {
        case .string(let s)?: defaultText = s
        case .number(let d)?: defaultText = d == d.rounded() && abs(d) < 1e15 ? String(Int(clamping: d)) : String(d)
        case .bool(let b)?: defaultText = b ? "true" : "false"
        case .array(let a)?: defaultText = a.compactMap(\.string).joined(separator: ",")
        default:
            switch kind {
            case .enumeration(let opts): defaultText = opts.first?.value ?? ""
            case .dynamicEnumeration(let fixed, _): defaultText = fixed.first?.value ?? ""
            case .integer(let r): defaultText = String(r.lowerBound)
            case .bool: defaultText = "false"
            default: defaultText = ""
            }
        }
        if case .date = kind, defaultText.isEmpty {
            param.defaultValue = .date(Date(timeIntervalSince1970: 0))
        } else if case .list = kind, defaultText.isEmpty {
            param.defaultValue = .list([])
        } else if defaultText.isEmpty, case .string = kind {
            param.defaultValue = .string("")
        } else if defaultText.isEmpty, case .filePath = kind {
            param.defaultValue = .string("")
        } else {
            do { param.defaultValue = try schema.parse(key: key, text: defaultText) } catch {
                throw ViewJSONError("\(path).default: \(error.description)")
            }
        }
        return param
    }

    static func isValidKey(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64
            && s.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                    || $0 == "-"
            }
    }
}

extension ConfigValue {
    /// The value as the extension protocol sends it.
    public var json: JSONValue {
        switch self {
        case .string(let s): return .string(s)
        case .int(let i): return .number(Double(i))
        case .bool(let b): return .bool(b)
        case .date(let d): return .number(d.timeIntervalSince1970)
        case .list(let l): return .array(l.map { .string($0) })
        }
    }
}

extension TimelineContext {
    /// The context as the extension protocol sends it.
    public var json: JSONValue {
        .object([
            "family": .string(family.rawValue), "width": .number(Double(size.width)),
            "height": .number(Double(size.height)), "now": .number(now.timeIntervalSince1970),
            "isPreview": .bool(isPreview), "colorScheme": .string(colorScheme.rawValue),
            "timeZone": .string(timeZone.identifier),
        ])
    }
}
