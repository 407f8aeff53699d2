import Foundation
import DashWidgets

/// How a field's value is written.
enum APIFormat: Sendable, Hashable {
    /// As the JSON has it (numbers without a trailing ".0").
    case text
    /// A number with this many digits after the point, thousands grouped.
    case number(digits: Int)
    /// A fraction (0.42) or a percentage (42) written "42 %": `percent` takes the value as
    /// already in percent, `ratio` multiplies by 100.
    case percent(digits: Int, ratio: Bool)
    /// An amount of money: "$1,234.50", "€12.00", "12.00 CHF".
    case currency(String)
    /// A byte count: "1.5 MB".
    case bytes
    /// A Unix time (seconds, or milliseconds when huge) or an ISO 8601 text, as a date and time.
    case date
    /// The same, as "5m ago" / "in 2h".
    case relative

    struct SyntaxError: Error, Hashable { var message: String }

    /// `text`, `number`, `number:2`, `percent`, `percent:1`, `ratio`, `currency:USD`, `bytes`,
    /// `date`, `relative`.
    init(_ spec: String) throws {
        let parts = spec.trimmingCharacters(in: .whitespaces).lowercased().split(
            separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts.first.map(String.init) ?? ""
        let arg = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : nil
        func digits(_ d: Int) throws -> Int {
            guard let arg else { return d }
            guard let n = Int(arg), (0...8).contains(n) else {
                throw SyntaxError(message: "'\(spec)': the digits are 0 to 8")
            }
            return n
        }
        switch name {
        case "", "text": self = .text
        case "number": self = .number(digits: try digits(0))
        case "percent": self = .percent(digits: try digits(0), ratio: false)
        case "ratio": self = .percent(digits: try digits(0), ratio: true)
        case "currency":
            let code = (arg ?? "usd").uppercased()
            guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw SyntaxError(message: "'\(spec)': a currency is a three-letter code such as USD")
            }
            self = .currency(code)
        case "bytes": self = .bytes
        case "date": self = .date
        case "relative": self = .relative
        default:
            throw SyntaxError(
                message: "'\(spec)' is not a format: use text, number[:digits], percent[:digits], ratio[:digits], "
                    + "currency:USD, bytes, date or relative")
        }
    }

    static func plainNumber(_ d: Double) -> String {
        guard d.isFinite else { return "—" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(clamping: d)) }
        var s = String(format: "%.6f", d)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    static func grouped(_ d: Double, digits: Int) -> String {
        guard d.isFinite else { return "—" }
        guard abs(d) < 1e15 else { return String(format: "%.3g", d) }
        let fixed = FixedFormat.decimal(abs(d), places: digits)
        let parts = fixed.split(separator: ".", maxSplits: 1)
        var whole = String(parts.first ?? "0")
        var out = ""
        while whole.count > 3 {
            out = "," + whole.suffix(3) + out
            whole.removeLast(3)
        }
        out = whole + out
        if parts.count > 1 { out += "." + parts[1] }
        return (d < 0 && fixed.contains(where: { $0 != "0" && $0 != "." }) ? "-" : "") + out
    }

    static let symbols: [String: String] = ["USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "KRW": "₩"]

    /// A date from JSON: Unix seconds, Unix milliseconds (past the year 5138 in seconds), or text.
    static func date(_ v: APIJSON) -> Date? {
        if case .number(let d) = v {
            let s = abs(d) > 1e11 ? d / 1000 : d
            return abs(s) < 1e11 ? Date(timeIntervalSince1970: s) : nil
        }
        if case .string(let s) = v {
            if let d = Double(s), d.isFinite { return date(.number(d)) }
            return NewsDates.parse(s)
        }
        return nil
    }

    /// "5m ago", "in 2h", "3d ago".
    static func relative(_ d: Date, now: Date) -> String {
        let dt = d.timeIntervalSince(now)
        let a = abs(dt)
        let amount: String
        if a < 60 {
            return "now"
        } else if a < 3600 {
            amount = "\(Int(clamping: a / 60))m"
        } else if a < 86_400 {
            amount = "\(Int(clamping: a / 3600))h"
        } else {
            amount = "\(Int(clamping: a / 86_400))d"
        }
        return dt < 0 ? "\(amount) ago" : "in \(amount)"
    }

    /// The number thresholds compare: the one shown (`ratio` shows 0.031 as 3.1 %, so
    /// `warn>2` means 2 %).
    func shown(_ d: Double?) -> Double? {
        guard let d else { return nil }
        if case .percent(_, true) = self { return d * 100 }
        return d
    }

    /// The value written in this format; nil when the value does not fit the format (the tile
    /// then says so instead of guessing).
    func write(_ v: APIJSON, now: Date, timeZone: TimeZone) -> String? {
        switch self {
        case .text: return v.text
        case .number(let n): return v.number.map { Self.grouped($0, digits: n) }
        case .percent(let n, let ratio):
            return v.number.map { Self.grouped(ratio ? $0 * 100 : $0, digits: n) + " %" }
        case .currency(let code):
            guard let d = v.number else { return nil }
            let digits = code == "JPY" || code == "KRW" ? 0 : 2
            let amount = Self.grouped(abs(d), digits: digits)
            let sign = d < 0 ? "-" : ""
            if let sym = Self.symbols[code] { return sign + sym + amount }
            return "\(sign)\(amount) \(code)"
        case .bytes:
            guard let d = v.number, d >= 0 else { return nil }
            let units = ["B", "KB", "MB", "GB", "TB", "PB", "EB"]
            var x = d
            var i = 0
            while x >= 1024, i < units.count - 1 {
                x /= 1024
                i += 1
            }
            return i == 0 ? "\(Int(clamping: x)) B" : FixedFormat.decimal(x, places: x < 10 ? 1 : 0) + " " + units[i]
        case .date:
            guard let d = Self.date(v) else { return nil }
            var cal = Calendar(identifier: .gregorian)
            cal.timeZone = timeZone
            let c = cal.dateComponents([.year, .month, .day, .hour, .minute], from: d)
            return String(
                format: "%04d-%02d-%02d %02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
        case .relative:
            return Self.date(v).map { Self.relative($0, now: now) }
        }
    }
}

/// A threshold: a value above (or below) `limit` is a warning or an alert.
struct APIThreshold: Sendable, Hashable, Codable {
    enum Level: Int, Sendable, Hashable, Codable, Comparable {
        case normal = 0, warning = 1, alert = 2
        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }
    var level: Level
    var above: Bool
    var limit: Double

    /// `warn>80`, `alert>=95`, `warn<10`, `alert<2`.
    init(_ spec: String) throws {
        let s = spec.trimmingCharacters(in: .whitespaces).lowercased()
        let names: [(String, Level)] = [("warning", .warning), ("warn", .warning), ("alert", .alert)]
        guard let (name, level) = names.first(where: { s.hasPrefix($0.0) }) else {
            throw APIFormat.SyntaxError(message: "'\(spec)' is not a threshold: write warn>80 or alert<10")
        }
        var rest = s.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        guard let op = rest.first, op == ">" || op == "<" else {
            throw APIFormat.SyntaxError(message: "'\(spec)': a threshold needs > or < (warn>80)")
        }
        rest.removeFirst()
        if rest.hasPrefix("=") { rest.removeFirst() }
        guard let n = Double(rest.trimmingCharacters(in: .whitespaces)), n.isFinite else {
            throw APIFormat.SyntaxError(message: "'\(spec)': the limit is a number (warn>80)")
        }
        self.level = level
        self.above = op == ">"
        self.limit = n
    }

    init(level: Level, above: Bool, limit: Double) {
        self.level = level
        self.above = above
        self.limit = limit
    }

    func crossed(by v: Double) -> Bool { above ? v > limit : v < limit }

    /// The highest level `v` reaches among `list`.
    static func level(_ v: Double?, _ list: [APIThreshold]) -> Level {
        guard let v else { return .normal }
        return list.filter { $0.crossed(by: v) }.map(\.level).max() ?? .normal
    }

    var text: String {
        "\(level == .alert ? "alert" : "warn")\(above ? ">" : "<")\(APIFormat.plainNumber(limit))"
    }
}

/// One field of the api widget: `Label = path | format | warn>80 | alert>95`.
struct APIField: Sendable, Hashable {
    var label: String
    var path: JSONPath
    var format: APIFormat
    var thresholds: [APIThreshold]

    static func parse(_ spec: String) throws -> APIField {
        let parts = spec.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let head = parts[0]
        let label: String
        let pathText: String
        if let eq = head.firstIndex(of: "=") {
            label = head[..<eq].trimmingCharacters(in: .whitespaces)
            pathText = head[head.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        } else {
            pathText = head
            label = head.split(separator: ".").last.map(String.init) ?? head
        }
        guard !pathText.isEmpty else {
            throw APIFormat.SyntaxError(message: "'\(spec)' has no path: write Label = data.value")
        }
        let path: JSONPath
        do { path = try JSONPath(pathText) } catch let e as JSONPath.SyntaxError {
            throw APIFormat.SyntaxError(message: e.message)
        }
        var format = APIFormat.text
        var thresholds: [APIThreshold] = []
        for p in parts.dropFirst() where !p.isEmpty {
            let lower = p.lowercased()
            if lower.hasPrefix("warn") || lower.hasPrefix("alert") {
                thresholds.append(try APIThreshold(p))
            } else {
                format = try APIFormat(p)
            }
        }
        return APIField(
            label: String(TextSanitizer.singleLine(label).prefix(40)), path: path, format: format,
            thresholds: thresholds)
    }
}
