import Foundation

/// A JSON value as read from outside (an extension, `swiftdash push`), kept as is so an entry
/// can be cached and decoded into a view when it is drawn.
public enum JSONValue: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var number: Double? { if case .number(let d) = self { return d } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var object: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }

    /// Reads a JSON document (at most `maxBytes`, nesting at most `maxDepth`).
    public static func parse(_ data: Data, maxBytes: Int = 1 << 20, maxDepth: Int = 64) throws -> JSONValue {
        try checkLimits(data, maxBytes: maxBytes, maxDepth: maxDepth)
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            // Valid by the grammar but not readable (1e400): said so, not "not valid".
            throw ViewJSONError(JSONProblem.scan(data) ?? ("not valid JSON" + Self.position(error)))
        }
    }

    /// Refuses a document over `maxBytes`, or nested deeper than `maxDepth` (JSONDecoder
    /// recurses once per level), before a decoder sees it.
    public static func checkLimits(_ data: Data, maxBytes: Int = 1 << 20, maxDepth: Int = 64) throws {
        guard data.count <= maxBytes else {
            throw ViewJSONError("the JSON is \(data.count) bytes; at most \(maxBytes)")
        }
        // JSONDecoder recurses once per level: refuse deep documents before it sees them.
        var depth = 0
        try JSONStructure.forEachByte(data) { b in
            switch b {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxDepth { throw ViewJSONError("the JSON is nested deeper than \(maxDepth) levels") }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
            return true
        }
    }

    static func position(_ error: Error) -> String {
        guard case DecodingError.dataCorrupted(let ctx)? = error as? DecodingError,
            let under = ctx.underlyingError as NSError?
        else { return "" }
        if let i = under.userInfo["NSJSONSerializationErrorIndex"] as? Int { return " (at byte \(i))" }
        return ""
    }
}

/// A view, an entry or a timeline from outside that cannot be used, and why.
public struct ViewJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = TextSanitizer.singleLine(message) }
    public var description: String { message }
}

/// The JSON form of the tile view tree (docs/extensions.md, "Views"), decoded into `TileView`
/// with limits: depth, node count, list lengths and numbers are capped, every text is sanitised
/// like feed text, and every link must be a `DeepLink` (swiftdash:// or http(s)://).
public struct ViewJSON: Sendable {
    /// The deepest a view may nest.
    public static let maxDepth = 24
    /// The most nodes a view may have.
    public static let maxNodes = 2_000
    /// The most children of one stack, and values of one sparkline.
    public static let maxChildren = 200
    public static let maxSeries = 1_000
    /// The most cells a padding, frame, spacer or line limit may ask for.
    public static let maxCells = 200
    /// The longest link.
    public static let maxURL = 2_000
    /// The longest action of a button or toggle, in bytes.
    public static let maxAction = 200

    /// An action as `perform` will send it back: short, and nothing a terminal or log would act on.
    public static func isValidAction(_ action: String) -> Bool {
        !action.isEmpty && action.utf8.count <= maxAction && TextSanitizer.clean(action) == action
    }

    /// The widget kind the view belongs to: `button` and `toggle` actions point at it.
    public var kind: String
    public init(kind: String) { self.kind = kind }

    /// Decodes one view; throws `ViewJSONError` naming the path of the first problem (`vstack[2].text`).
    public func decode(_ json: JSONValue) throws -> TileView {
        var nodes = 0
        return try node(json, path: "view", depth: 0, nodes: &nodes)
    }

    func fail(_ path: String, _ message: String) -> ViewJSONError { ViewJSONError("\(path): \(message)") }

    func node(_ json: JSONValue, path: String, depth: Int, nodes: inout Int) throws -> TileView {
        nodes += 1
        guard nodes <= Self.maxNodes else { throw fail(path, "more than \(Self.maxNodes) views") }
        guard depth <= Self.maxDepth else { throw fail(path, "nested deeper than \(Self.maxDepth) levels") }
        switch json {
        case .string(let s):
            return .text(clean(s), TextStyle())
        case .null:
            return .empty
        case .object(let o):
            let view = try base(o, path: path, depth: depth, nodes: &nodes)
            return try modifiers(o, on: view, path: path)
        default:
            throw fail(path, "a view is a string or an object")
        }
    }

    /// The keys that say what a node is; exactly one per object.
    static let kinds = [
        "text", "date", "vstack", "hstack", "spacer", "divider", "gauge", "sparkline", "link",
        "widgetURL", "button", "toggle", "view", "empty",
    ]
    static let modifierKeys: Set<String> = [
        "font", "color", "bold", "padding", "lineLimit", "width", "height",
        "fill", "redacted", "style", "alignment", "spacing", "view", "action",
        "isOn", "height", "url",
    ]

    func base(_ o: [String: JSONValue], path: String, depth: Int, nodes: inout Int) throws -> TileView {
        var present = Self.kinds.filter { o[$0] != nil && $0 != "view" }
        // `widgetURL` beside another kind is a modifier on it (see `modifiers`).
        if present.count > 1 { present.removeAll { $0 == "widgetURL" } }
        let unknown = o.keys.filter { !Self.kinds.contains($0) && !Self.modifierKeys.contains($0) }.sorted()
        if let u = unknown.first { throw fail(path, "unknown key `\(String(clean(u).prefix(40)))`") }
        guard present.count <= 1 else { throw fail(path, "one of \(present.joined(separator: ", ")), not several") }
        let kind = present.first ?? (o["view"] != nil ? "view" : "empty")
        let p = "\(path).\(kind)"
        func child(_ v: JSONValue, _ sub: String) throws -> TileView {
            try node(v, path: sub, depth: depth + 1, nodes: &nodes)
        }
        switch kind {
        case "text":
            guard let s = o["text"]?.string else { throw fail(p, "must be a string") }
            return .text(clean(s), try style(o, path: path))
        case "date":
            guard let v = o["date"] else { throw fail(p, "missing") }
            let date = try ViewJSON.date(v, path: p)
            return .liveDate(date, try dateStyle(o["style"], path: "\(path).style"), try style(o, path: path))
        case "vstack", "hstack":
            guard let items = o[kind]?.array else { throw fail(p, "must be a list of views") }
            guard items.count <= Self.maxChildren else { throw fail(p, "more than \(Self.maxChildren) views") }
            let children = try items.enumerated().map { try child($1, "\(p)[\($0)]") }
            let vertical = kind == "vstack"
            let spacing = try int(o["spacing"], path: "\(path).spacing", range: 0...Self.maxCells) ?? (vertical ? 0 : 1)
            var align = TileView.StackAlignment(.leading, .top)
            if let a = o["alignment"] {
                guard let s = a.string else { throw fail("\(path).alignment", "must be a string") }
                if vertical {
                    guard let h = Self.horizontal[s] else {
                        throw fail("\(path).alignment", "leading, center or trailing")
                    }
                    align.horizontal = h
                } else {
                    guard let v = Self.vertical[s] else { throw fail("\(path).alignment", "top, center or bottom") }
                    align.vertical = v
                }
            }
            return .stack(vertical ? .vertical : .horizontal, alignment: align, spacing: spacing, children)
        case "spacer":
            let n = try int(o["spacer"], path: p, range: 0...Self.maxCells, allowBool: true) ?? 0
            return .spacer(minLength: n)
        case "divider":
            return .divider
        case "gauge":
            guard let v = o["gauge"]?.number, v.isFinite else { throw fail(p, "must be a number from 0 to 1") }
            return .gauge(min(1, max(0, v)), try color(o["color"], path: "\(path).color") ?? .accent)
        case "sparkline":
            guard let items = o["sparkline"]?.array else { throw fail(p, "must be a list of numbers") }
            guard items.count <= Self.maxSeries else { throw fail(p, "more than \(Self.maxSeries) values") }
            let values = try items.enumerated().map { i, v -> Double in
                guard let d = v.number, d.isFinite else { throw fail("\(p)[\(i)]", "must be a number") }
                return d
            }
            let h = try int(o["height"], path: "\(path).height", range: 1...20) ?? 1
            return .sparkline(values, try color(o["color"], path: "\(path).color") ?? .accent, height: h)
        case "link", "widgetURL":
            let url = try link(o[kind], path: p)
            let inner = try o["view"].map { try child($0, "\(path).view") } ?? .text(url, TextStyle())
            return kind == "link" ? .link(url, inner) : .widgetURL(url, inner)
        case "button", "toggle":
            // A control like a built-in widget's: activating it sends `perform` with the action.
            guard let title = o[kind]?.string else { throw fail(p, "must be the title, a string") }
            guard let action = o["action"]?.string, Self.isValidAction(action) else {
                throw fail(
                    "\(path).action",
                    "a button or toggle needs an `action`: 1 to \(Self.maxAction) bytes, no control characters")
            }
            var control: TileControl.Kind = .button
            if kind == "toggle" {
                guard let on = o["isOn"]?.bool else {
                    throw fail("\(path).isOn", "a toggle needs `isOn`: true or false")
                }
                control = .toggle(isOn: on)
            }
            let label = TextSanitizer.singleLine(title)
            return .control(TileControl(kind: control, title: label, action: ActionPayload(action)))
        case "view":
            return try child(o["view"]!, "\(path).view")
        default:
            return .empty
        }
    }

    func modifiers(_ o: [String: JSONValue], on view: TileView, path: String) throws -> TileView {
        var v = view
        let isText: Bool
        switch view {
        case .text, .liveDate: isText = true
        default: isText = false
        }
        if !isText {
            let s = try style(o, path: path)
            if s != TextStyle() { v = .styled(s, v) }
        }
        if let n = try int(o["lineLimit"], path: "\(path).lineLimit", range: 1...Self.maxCells) { v = .lineLimit(n, v) }
        if let pad = o["padding"] {
            if pad.number != nil, let n = try int(pad, path: "\(path).padding", range: 0...Self.maxCells) {
                v = .padding(EdgeInsets(top: 0, leading: n, bottom: 0, trailing: n), v)
            } else if let p = pad.object {
                func side(_ k: String) throws -> Int {
                    try int(p[k], path: "\(path).padding.\(k)", range: 0...Self.maxCells) ?? 0
                }
                v = .padding(
                    EdgeInsets(
                        top: try side("top"), leading: try side("leading"),
                        bottom: try side("bottom"), trailing: try side("trailing")), v)
            } else {
                throw fail("\(path).padding", "a number of cells or {top, leading, bottom, trailing}")
            }
        }
        let w = try int(o["width"], path: "\(path).width", range: 1...Self.maxCells)
        let isSparkline: Bool
        if case .sparkline = view { isSparkline = true } else { isSparkline = false }
        let h = isSparkline ? nil : try int(o["height"], path: "\(path).height", range: 1...Self.maxCells)
        if w != nil || h != nil { v = .frame(width: w, height: h, alignment: .leading, v) }
        if let fill = o["fill"] {
            guard let s = fill.string, ["width", "both"].contains(s) else {
                throw fail("\(path).fill", "\"width\" or \"both\"")
            }
            v =
                s == "width"
                ? .expand(horizontal: true, vertical: false, alignment: .leading, v)
                : .expand(horizontal: true, vertical: true, alignment: .center, v)
        }
        if o["redacted"]?.bool == true { v = .redacted(v) }
        if o["widgetURL"] != nil, !isWidgetURL(view) {
            v = .widgetURL(try link(o["widgetURL"], path: "\(path).widgetURL"), v)
        }
        return v
    }

    func isWidgetURL(_ v: TileView) -> Bool {
        if case .widgetURL = v { return true }
        return false
    }

    func style(_ o: [String: JSONValue], path: String) throws -> TextStyle {
        var s = TextStyle()
        if let f = o["font"] {
            guard let name = f.string, let font = Font(rawValue: name) else {
                throw fail("\(path).font", "one of largeTitle, title, headline, body, caption, monospacedDigit")
            }
            s.font = font
        }
        s.color = try color(o["color"], path: "\(path).color")
        if let b = o["bold"] {
            guard let on = b.bool else { throw fail("\(path).bold", "true or false") }
            s.bold = on
        }
        return s
    }

    func color(_ json: JSONValue?, path: String) throws -> SemanticColor? {
        guard let json else { return nil }
        guard let name = json.string, let c = SemanticColor(rawValue: name) else {
            throw fail(path, "one of primary, secondary, accent, positive, negative, warning")
        }
        return c
    }

    func dateStyle(_ json: JSONValue?, path: String) throws -> LiveDateStyle {
        guard let json else { return .time(seconds: false) }
        switch json.string {
        case "time": return .time(seconds: false)
        case "timeSeconds": return .time(seconds: true)
        case "date": return .date
        case "relative": return .relative
        case "timer": return .timer
        case "offset": return .offset
        default: throw fail(path, "one of time, timeSeconds, date, relative, timer, offset")
        }
    }

    func link(_ json: JSONValue?, path: String) throws -> String {
        guard let url = json?.string else { throw fail(path, "must be a URL string") }
        guard url.utf8.count <= Self.maxURL else { throw fail(path, "a URL longer than \(Self.maxURL) bytes") }
        // A URL with control characters, spaces or bidi marks is refused, not cleaned into another URL.
        guard TextSanitizer.clean(url) == url, !url.contains(" "), let link = DeepLink(url) else {
            throw fail(
                path, "not a swiftdash:// or http(s):// link: \(String(TextSanitizer.singleLine(url).prefix(80)))")
        }
        return link.url
    }

    func int(_ json: JSONValue?, path: String, range: ClosedRange<Int>, allowBool: Bool = false) throws -> Int? {
        guard let json else { return nil }
        if allowBool, json.bool != nil { return range.lowerBound }
        guard let d = json.number, d.isFinite, d == d.rounded() else { throw fail(path, "must be a whole number") }
        guard d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
            throw fail(path, "must be from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(clamping: d)
    }

    func clean(_ s: String) -> String { TextSanitizer.clean(s) }

    static let horizontal: [String: HorizontalAlignment] = [
        "leading": .leading, "center": .center, "trailing": .trailing,
    ]
    static let vertical: [String: VerticalAlignment] = ["top": .top, "center": .center, "bottom": .bottom]

    /// A date: seconds since 1970 (a number) or ISO 8601 text.
    public static func date(_ json: JSONValue, path: String) throws -> Date {
        if let d = json.number, d.isFinite, abs(d) < 1e11 { return Date(timeIntervalSince1970: d) }
        if let s = json.string, s.utf8.count <= 40, let d = try? Date(s, strategy: .iso8601) { return d }
        throw ViewJSONError("\(path): a date is seconds since 1970 or ISO 8601 text like 2026-11-23T09:30:00Z")
    }
}
