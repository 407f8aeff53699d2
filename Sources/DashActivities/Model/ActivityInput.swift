import Foundation
import DashWidgets

/// What a script hands an activity (a kind, JSON attributes and state, dates, an alert), checked and
/// cleaned before it is kept: every string sanitised (no escape sequences or control characters),
/// sizes bounded (ActivityKit: the dynamic data of an update at most 4 KB).
public enum ActivityInput {
    /// The most bytes of the attributes, and of a content state, as JSON.
    public static let maxJSONBytes = 4096
    /// The most characters a string in them keeps.
    public static let maxStringCharacters = 500
    /// The most characters of a key.
    public static let maxKeyCharacters = 64
    /// The deepest nesting.
    public static let maxDepth = 8
    /// The most characters of a kind or an id.
    public static let maxNameCharacters = 64

    /// An id or kind as an error message shows it.
    public static func shown(_ text: String) -> String {
        let clean = TextSanitizer.singleLine(TextSanitizer.clean(text, keepNewlines: false, maxCharacters: 64))
        return clean.isEmpty ? "''" : "'\(clean)'"
    }

    /// A kind or an id: letters, digits, `.`, `_`, `-`, starting with a letter or a digit.
    public static func checkName(_ name: String, what: String) throws(ActivityError) {
        let ok =
            !name.isEmpty && name.count <= maxNameCharacters
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
            && name.first.map { $0.isLetter || $0.isNumber } == true
        guard ok else {
            throw .invalid(
                "\(what) \(shown(name)) must be 1 to \(maxNameCharacters) letters, digits, '.', '_' or '-'")
        }
    }

    /// Parses JSON text that must be an object, and cleans it (`clean`).
    public static func object(_ text: String, what: String) throws(ActivityError) -> JSONValue {
        let data = Data(text.utf8)
        guard data.count <= maxJSONBytes else {
            throw .invalid("\(what) is \(data.count) bytes of JSON; at most \(maxJSONBytes)")
        }
        let value: JSONValue
        do { value = try JSONValue.parse(data, maxBytes: maxJSONBytes, maxDepth: maxDepth) } catch {
            throw .invalid("\(what): \(error)")
        }
        guard case .object = value else { throw .invalid("\(what) must be a JSON object ({…})") }
        return try clean(value, what: what)
    }

    /// `value` with every string and key sanitised and cut, refused when deeper than `maxDepth` or
    /// larger than `maxJSONBytes` once encoded.
    public static func clean(_ value: JSONValue, what: String) throws(ActivityError) -> JSONValue {
        func walk(_ v: JSONValue, depth: Int) throws(ActivityError) -> JSONValue {
            guard depth <= maxDepth else { throw .invalid("\(what) is nested deeper than \(maxDepth) levels") }
            switch v {
            case .string(let s): return .string(text(s))
            case .number(let n): return n.isFinite ? v : .null
            case .array(let items):
                var out: [JSONValue] = []
                for item in items { out.append(try walk(item, depth: depth + 1)) }
                return .array(out)
            case .object(let fields):
                var out: [String: JSONValue] = [:]
                for (k, item) in fields {
                    let key = TextSanitizer.singleLine(
                        TextSanitizer.clean(k, keepNewlines: false, maxCharacters: maxKeyCharacters))
                    out[key] = try walk(item, depth: depth + 1)
                }
                return .object(out)
            case .null, .bool: return v
            }
        }
        let cleaned = try walk(value, depth: 1)
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        let size = (try? e.encode(cleaned))?.count ?? 0
        guard size <= maxJSONBytes else { throw .invalid("\(what) is \(size) bytes of JSON; at most \(maxJSONBytes)") }
        return cleaned
    }

    /// Outside text as one clean line of at most `max` characters.
    public static func text(_ s: String, max: Int = maxStringCharacters) -> String {
        TextSanitizer.singleLine(TextSanitizer.clean(s, keepNewlines: false, maxCharacters: max))
            .trimmingCharacters(in: .whitespaces)
    }

    /// A date as a script writes it: ISO 8601 (`2026-12-06T09:00:00Z`), seconds since 1970, or a
    /// span from `now` (`+90`, `+10m`, `+2h`, `+1h30m`).
    public static func date(_ text: String, now: Date) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("+") { return span(String(t.dropFirst())).map { now.addingTimeInterval($0) } }
        if let seconds = Double(t), seconds.isFinite, seconds >= 0 { return Date(timeIntervalSince1970: seconds) }
        return try? Date(t, strategy: .iso8601)
    }

    /// `90`, `90s`, `10m`, `2h`, `1h30m`, `1d` as seconds.
    public static func span(_ text: String) -> TimeInterval? {
        if let n = Double(text), n.isFinite, n >= 0 { return n }
        var total: TimeInterval = 0
        var digits = ""
        var any = false
        for ch in text {
            if ch.isNumber {
                digits.append(ch)
                continue
            }
            guard let n = Double(digits) else { return nil }
            switch ch {
            case "s": total += n
            case "m": total += n * 60
            case "h": total += n * 3600
            case "d": total += n * 86400
            default: return nil
            }
            digits = ""
            any = true
        }
        guard digits.isEmpty, any, total.isFinite else { return nil }
        return total
    }

    /// `--dismiss`: `default`, `immediate`, or a date (`date(_:now:)`).
    public static func dismissal(_ text: String, now: Date) throws(ActivityError) -> ActivityDismissal {
        switch text {
        case "default": return .default
        case "immediate": return .immediate
        default:
            guard let d = date(text, now: now) else {
                throw .invalid(
                    "--dismiss \(shown(text)): use default (up to 4 hours), immediate, or a date"
                        + " (ISO 8601, seconds since 1970, or +10m)")
            }
            return .after(d)
        }
    }

    /// `--alert`: a JSON object `{"title": …, "body": …, "bell": false}` or plain text (the title).
    public static func alert(_ text: String, at now: Date) throws(ActivityError) -> ActivityAlert {
        if text.trimmingCharacters(in: .whitespaces).hasPrefix("{") {
            let o = try object(text, what: "--alert")
            let title = o["title"]?.string ?? ""
            let body = o["body"]?.string ?? ""
            guard !title.isEmpty || !body.isEmpty else { throw .invalid("--alert needs a \"title\" or a \"body\"") }
            return ActivityAlert(title: title, body: body, bell: o["bell"]?.bool ?? true, date: now)
        }
        let title = Self.text(text, max: 200)
        guard !title.isEmpty else { throw .invalid("--alert is empty") }
        return ActivityAlert(title: title, body: "", bell: true, date: now)
    }

    /// `--relevance`: a finite number.
    /// `--stale-date`'s text as a date (see `date(_:now:)`), or why it is not one.
    public static func staleDate(_ text: String, now: Date) throws(ActivityError) -> Date {
        guard let d = date(text, now: now) else {
            throw .invalid("--stale-date \(shown(text)) is not a date (ISO 8601, seconds, or +10m)")
        }
        return d
    }

    public static func relevance(_ text: String) throws(ActivityError) -> Double {
        guard let r = Double(text), r.isFinite else { throw .invalid("--relevance \(shown(text)) is not a number") }
        return r
    }
}
