import Foundation

/// The extension protocol's data (docs/extensions.md): entries, timelines and widget descriptions
/// read from JSON, validated and capped. Pure: the process side lives in DashApp.
public enum ExtensionProtocol {
    /// The protocol version this program speaks.
    public static let version = 1
    /// The most entries one timeline may have.
    public static let maxEntries = 500
    /// The most widgets one extension may describe, and parameters one widget may have.
    public static let maxWidgets = 32
    public static let maxParameters = 32
    /// The most detail views one entry may carry.
    public static let maxDetails = 64

    /// A timeline answer (`{"entries": [...], "policy": ...}`) for widget `kind`.
    public static func timeline(_ json: JSONValue, kind: String) throws -> AnyTimeline {
        guard let o = json.object else { throw ViewJSONError("a timeline is an object with `entries` and `policy`") }
        guard let list = o["entries"]?.array else { throw ViewJSONError("timeline: `entries` must be a list") }
        guard list.count <= maxEntries else { throw ViewJSONError("timeline: more than \(maxEntries) entries") }
        let entries = try list.enumerated().map { i, e in try entry(e, kind: kind, path: "entries[\(i)]") }
        return AnyTimeline(entries: entries.map(AnyEntry.init), policy: try policy(o["policy"]))
    }

    /// `"atEnd"`, `"never"`, or `{"after": DATE}`; missing means `atEnd`.
    public static func policy(_ json: JSONValue?) throws -> ReloadPolicy {
        guard let json, json != .null else { return .atEnd }
        switch json {
        case .string("atEnd"): return .atEnd
        case .string("never"): return .never
        default:
            if let after = json["after"] { return .after(try ViewJSON.date(after, path: "policy.after")) }
            throw ViewJSONError("policy: \"atEnd\", \"never\" or {\"after\": DATE}")
        }
    }

    /// The most `#Preview`s one `preview` answer may carry.
    public static let maxPreviews = 32

    /// A `preview` answer (`{"previews": [{"name", "family", "place", "entries": [ENTRY…]}]}`) for
    /// widget `kind`: the widget's own `#Preview`s for a family, their entries in the order their
    /// author wrote them (equal dates included). Text is cleaned like every other field.
    public static func previews(_ json: JSONValue, kind: String) throws -> [PreviewTimeline] {
        guard let list = json["previews"]?.array else { throw ViewJSONError("preview: `previews` must be a list") }
        guard list.count <= maxPreviews else { throw ViewJSONError("preview: more than \(maxPreviews) previews") }
        return try list.enumerated().map { i, p in
            let path = "previews[\(i)]"
            guard let entries = p["entries"]?.array else { throw ViewJSONError("\(path).entries: must be a list") }
            guard entries.count <= maxEntries else { throw ViewJSONError("\(path): more than \(maxEntries) entries") }
            func text(_ key: String, _ max: Int) -> String? {
                p[key]?.string.map {
                    TextSanitizer.singleLine(TextSanitizer.clean($0, keepNewlines: false, maxCharacters: max))
                }
                .flatMap { $0.isEmpty ? nil : $0 }
            }
            return PreviewTimeline(
                name: text("name", 60), family: p["family"]?.string.flatMap(WidgetFamily.init(rawValue:)),
                place: text("place", 120),
                entries: try entries.enumerated().map { j, e in
                    AnyEntry(try entry(e, kind: kind, path: "\(path).entries[\(j)]"))
                })
        }
    }

    /// One entry, validated: its views must decode (so a bad view fails the load, not the draw).
    public static func entry(_ json: JSONValue, kind: String, path: String = "entry") throws -> ExternalEntry {
        guard let o = json.object else { throw ViewJSONError("\(path): an entry is an object") }
        let date = try o["date"].map { try ViewJSON.date($0, path: "\(path).date") } ?? Date(timeIntervalSince1970: 0)
        var relevance: Relevance? = nil
        if let r = o["relevance"], r != .null {
            guard let score = r["score"]?.number, score.isFinite else {
                throw ViewJSONError("\(path).relevance: needs `score`, a number")
            }
            let duration = r["duration"]?.number.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            relevance = Relevance(
                score: max(-1e6, min(1e6, score)), duration: duration,
                reason: r["reason"]?.string.map { TextSanitizer.singleLine($0) },
                untilSeen: r["untilSeen"]?.bool ?? false)
        }
        let checker = ViewJSON(kind: kind)
        var views: [String: JSONValue] = [:]
        if let v = o["views"] {
            guard let vo = v.object else { throw ViewJSONError("\(path).views: an object of family: view") }
            for (family, view) in vo {
                guard family == "default" || WidgetFamily(rawValue: family) != nil else {
                    throw ViewJSONError(
                        "\(path).views: unknown family `\(String(TextSanitizer.singleLine(family).prefix(40)))`")
                }
                do { _ = try checker.decode(view) } catch let e as ViewJSONError {
                    throw ViewJSONError("\(path).views.\(family): \(e.message)")
                }
                views[family] = view
            }
        }
        if let v = o["view"] {
            do { _ = try checker.decode(v) } catch let e as ViewJSONError {
                throw ViewJSONError("\(path).view: \(e.message)")
            }
            views["default"] = v
        }
        var details: [String: JSONValue] = [:]
        if let d = o["details"] {
            guard let dobj = d.object, dobj.count <= maxDetails else {
                throw ViewJSONError("\(path).details: an object of path: view (at most \(maxDetails))")
            }
            for (p, view) in dobj {
                do { _ = try checker.decode(view) } catch let e as ViewJSONError {
                    throw ViewJSONError("\(path).details: \(e.message)")
                }
                details[TextSanitizer.singleLine(p)] = view
            }
        }
        func text(_ key: String) throws -> String? {
            guard let v = o[key], v != .null else { return nil }
            guard let s = v.string else { throw ViewJSONError("\(path).\(key): must be a string") }
            return TextSanitizer.clean(s, keepNewlines: key == "text")
        }
        return ExternalEntry(
            date: date, relevance: relevance, title: try text("title"), text: try text("text"),
            summaryText: try text("summary"), contentID: try text("contentID"),
            kind: kind, views: views, details: details)
    }
}

/// An entry of a widget whose views come as JSON (an extension, a pushed note). The views stay
/// JSON (so the cache keeps them) and are decoded, with every check, when drawn.
public struct ExternalEntry: TimelineEntry, Hashable {
    public var date: Date
    public var relevance: Relevance?
    /// Plain content for widgets without views (a note): a title and a text.
    public var title: String?
    public var text: String?
    public var summaryText: String?
    public var contentID: String?
    public var kind: String
    /// Views by family name (`small`, `medium`, `large`, `extraLarge`, `default`).
    public var views: [String: JSONValue]
    /// Detail views by deep-link path (`""` for the widget's own pane).
    public var details: [String: JSONValue]

    public init(
        date: Date, relevance: Relevance? = nil, title: String? = nil, text: String? = nil,
        summaryText: String? = nil, contentID: String? = nil, kind: String,
        views: [String: JSONValue] = [:], details: [String: JSONValue] = [:]
    ) {
        self.date = date
        self.relevance = relevance
        self.title = title
        self.text = text
        self.summaryText = summaryText
        self.contentID = contentID
        self.kind = kind
        self.views = views
        self.details = details
    }

    public var summary: String { summaryText ?? title ?? text.map { TextSanitizer.singleLine($0) } ?? "" }

    /// The view for `family`: its own, else the next smaller family's, else `default`, else the
    /// title and text.
    public func view(for family: WidgetFamily) -> TileView {
        let order: [WidgetFamily] = [.extraLarge, .large, .medium, .small]
        let start = order.firstIndex(of: family) ?? 0
        let names = order[start...].map(\.rawValue) + order[..<start].reversed().map(\.rawValue) + ["default"]
        for name in names {
            guard let json = views[name] else { continue }
            do { return try ViewJSON(kind: kind).decode(json) } catch {
                return VStack {
                    Text("Bad view").font(.headline).foregroundStyle(.negative)
                    Text("\(error)").font(.caption)
                }
            }
        }
        return VStack {
            if let title { Text(title).font(.headline) }
            if let text { Text(text) }
        }
    }

    /// The detail view for `link`'s path, if the entry has one.
    public func detail(for link: DeepLink) -> TileView? {
        let key = link.path.joined(separator: "/")
        guard let json = details[key] else { return nil }
        return try? ViewJSON(kind: kind).decode(json)
    }
}

/// One `#Preview` of a widget as the `preview` request answers it: its name, the family its author
/// wrote it for, where it is written, and its entries drawn in the asked family.
public struct PreviewTimeline: Sendable {
    public var name: String?
    public var family: WidgetFamily?
    public var place: String?
    public var entries: [AnyEntry]
    public init(name: String?, family: WidgetFamily?, place: String?, entries: [AnyEntry]) {
        (self.name, self.family, self.place, self.entries) = (name, family, place, entries)
    }
}
