import Foundation
import DashCore
import DashWidgets

/// Something in a calendar file that could not be used, with where it was: shown in the
/// widget's problems pane instead of failing the whole file.
public struct CalendarProblem: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The file or host the text came from.
    public var source: String
    public var line: Int?
    public var message: String

    public init(source: String, line: Int?, message: String) {
        self.source = TextSanitizer.singleLine(source)
        self.line = line
        self.message = TextSanitizer.singleLine(message)
    }
    public var description: String { "\(source)\(line.map { ":\($0)" } ?? ""): \(message)" }
}

/// One content line: `NAME;PARAM=VALUE:value`, unfolded.
struct ICSProperty: Sendable {
    var name: String
    var params: [String: [String]]
    var value: String
    var line: Int

    func param(_ key: String) -> String? { params[key]?.first }
}

/// A `BEGIN:X` … `END:X` block.
struct ICSComponent: Sendable {
    var name: String
    var line: Int
    var properties: [ICSProperty] = []
    var children: [ICSComponent] = []

    func first(_ name: String) -> ICSProperty? { properties.first { $0.name == name } }
    func all(_ name: String) -> [ICSProperty] { properties.filter { $0.name == name } }
}

/// The RFC 5545 lexer: unfolding, content lines, parameters and the component tree.
/// It never throws on bad input: a line it cannot read is skipped and reported.
enum ICSReader {
    /// Calendar files larger than this are refused (a Google export of years is ~5 MB).
    static let maxBytes = 10 * 1024 * 1024
    /// An unfolded line longer than this is skipped (a 2,000-character text fits easily).
    static let maxLineLength = 64 * 1024
    static let maxDepth = 8
    static let maxComponents = 100_000
    static let maxProblems = 50

    struct Result {
        var calendars: [ICSComponent]
        var problems: [CalendarProblem]
    }

    static func parse(_ data: Data, source: String) -> Result {
        var problems: [CalendarProblem] = []
        func problem(_ line: Int?, _ message: String) {
            if problems.count < maxProblems {
                problems.append(CalendarProblem(source: source, line: line, message: message))
            }
        }
        guard data.count <= maxBytes else {
            problem(nil, "file is larger than \(maxBytes / 1_048_576) MB: refused")
            return Result(calendars: [], problems: problems)
        }
        // Unfolded as bytes, then decoded (RFC 5545 §3.1): a fold may split a UTF-8 character.
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }

        var roots: [ICSComponent] = []
        var stack: [ICSComponent] = []
        var components = 0
        var sawBegin = false

        for (lineNo, raw) in unfold(bytes) {
            if raw.utf8.count > maxLineLength {
                problem(lineNo, "line longer than \(maxLineLength / 1024) KB skipped")
                continue
            }
            if raw.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            guard let prop = contentLine(raw, line: lineNo) else {
                problem(lineNo, "not a 'NAME:value' line, skipped: \(preview(raw))")
                continue
            }
            switch prop.name {
            case "BEGIN":
                let name = prop.value.trimmingCharacters(in: .whitespaces).uppercased()
                guard !name.isEmpty else {
                    problem(lineNo, "BEGIN without a component name skipped")
                    continue
                }
                components += 1
                guard stack.count < maxDepth, components <= maxComponents else {
                    problem(
                        lineNo,
                        components > maxComponents
                            ? "more than \(maxComponents) components: the rest is ignored"
                            : "components nested deeper than \(maxDepth): ignored")
                    return Result(calendars: roots + closeAll(&stack), problems: problems)
                }
                sawBegin = true
                stack.append(ICSComponent(name: name, line: lineNo))
            case "END":
                let name = prop.value.trimmingCharacters(in: .whitespaces).uppercased()
                guard let idx = stack.lastIndex(where: { $0.name == name }) else {
                    problem(lineNo, "END:\(preview(name)) without a matching BEGIN skipped")
                    continue
                }
                while stack.count > idx + 1 {
                    let open = stack.removeLast()
                    problem(open.line, "BEGIN:\(preview(open.name)) is never closed; closed at line \(lineNo)")
                    stack[stack.count - 1].children.append(open)
                }
                let done = stack.removeLast()
                if stack.isEmpty { roots.append(done) } else { stack[stack.count - 1].children.append(done) }
            default:
                if stack.isEmpty {
                    problem(lineNo, "property \(preview(prop.name)) outside any component skipped")
                } else {
                    stack[stack.count - 1].properties.append(prop)
                }
            }
        }
        if !stack.isEmpty {
            problem(stack.last?.line, "BEGIN:\(preview(stack.last?.name ?? "")) is never closed (file cut short?)")
            roots += closeAll(&stack)
        }
        if !sawBegin { problem(nil, "no BEGIN:VCALENDAR: not an iCalendar file") }
        return Result(calendars: roots, problems: problems)
    }

    private static func closeAll(_ stack: inout [ICSComponent]) -> [ICSComponent] {
        while stack.count > 1 {
            let open = stack.removeLast()
            stack[stack.count - 1].children.append(open)
        }
        defer { stack = [] }
        return stack
    }

    /// A short, clean excerpt of outside text for a message.
    static func preview(_ s: String) -> String {
        let clean = TextSanitizer.singleLine(s)
        return clean.count > 40 ? String(clean.prefix(40)) + "…" : clean
    }

    /// Logical lines with the number of their first physical line: CRLF, LF or CR line
    /// ends; a line starting with a space or tab continues the one before.
    static func unfold(_ text: [UInt8]) -> [(Int, String)] {
        var out: [(Int, String)] = []
        var current: [UInt8] = []
        var currentLine = 0
        var lineNo = 0
        var hasCurrent = false
        var bytes = text
        bytes.append(0x0A)
        var start = 0
        var i = 0
        func flush() {
            if hasCurrent { out.append((currentLine, String(decoding: current, as: UTF8.self))) }
            current.removeAll(keepingCapacity: true)
            hasCurrent = false
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                lineNo += 1
                let line = bytes[start..<i]
                if let first = line.first, first == 0x20 || first == 0x09, hasCurrent {
                    if current.count <= maxLineLength { current.append(contentsOf: line.dropFirst()) }
                } else {
                    flush()
                    if !line.isEmpty {
                        current.append(contentsOf: line)
                        currentLine = lineNo
                        hasCurrent = true
                    }
                }
                if b == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        flush()
        return out
    }

    /// Splits `NAME;P=V;Q="a,b":value`. Nil when there is no name or no colon.
    static func contentLine(_ line: String, line lineNo: Int) -> ICSProperty? {
        // Names, parameters and delimiters are ASCII: work on the UTF-8 bytes and cut
        // strings only at ASCII delimiters (four times faster than scalars).
        let b = Array(line.utf8)
        var i = 0
        func isNameByte(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F
        }
        func text(_ r: Range<Int>) -> String { String(decoding: b[r], as: UTF8.self) }
        let semicolon: UInt8 = 0x3B, colon: UInt8 = 0x3A, comma: UInt8 = 0x2C, quote: UInt8 = 0x22
        while i < b.count, isNameByte(b[i]) { i += 1 }
        guard i > 0, i < b.count else { return nil }
        let name = text(0..<i).uppercased()
        var params: [String: [String]] = [:]
        while i < b.count, b[i] == semicolon {
            i += 1
            let ps = i
            while i < b.count, isNameByte(b[i]) { i += 1 }
            guard i > ps, i < b.count, b[i] == 0x3D else { return nil }
            let pname = text(ps..<i).uppercased()
            i += 1
            var values: [String] = []
            while true {
                if i < b.count, b[i] == quote {
                    let vs = i + 1
                    i = vs
                    while i < b.count, b[i] != quote { i += 1 }
                    guard i < b.count else { return nil }
                    values.append(text(vs..<i))
                    i += 1
                } else {
                    let vs = i
                    while i < b.count, b[i] != semicolon, b[i] != colon, b[i] != comma { i += 1 }
                    values.append(text(vs..<i))
                }
                if i < b.count, b[i] == comma {
                    i += 1
                    continue
                }
                break
            }
            params[pname, default: []] += values
        }
        guard i < b.count, b[i] == colon else { return nil }
        let value = text((i + 1)..<b.count)
        return ICSProperty(name: name, params: params, value: value, line: lineNo)
    }

    // MARK: values

    /// Longest text kept from a calendar (summary, location, description).
    static let maxText = 2000

    /// TEXT: `\n` `\,` `\;` `\\` unescaped, then cleaned of control characters and
    /// escape sequences (`TextSanitizer`), white space tidied (one line: runs of spaces
    /// collapsed; several lines: no runs of blank lines), cut to `maxText` characters.
    /// Works on UTF-8 bytes; text with no control byte at all skips the sanitizer.
    static func text(_ raw: String, multiline: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(min(raw.utf8.count, maxText * 8))
        var escape = false
        var safe = true
        for c in raw.utf8 {
            if out.count > maxText * 8 { break }
            if escape {
                out.append(c == 0x6E || c == 0x4E ? 0x0A : c)
                escape = false
            } else if c == 0x5C {
                escape = true
                continue
            } else {
                out.append(c)
            }
            // Control bytes, DEL, C1 controls (C2 80-9F) and bidi marks (E2 80/81 …) need the sanitizer.
            let last = out[out.count - 1]
            if (last < 0x20 && last != 0x0A) || last == 0x7F || last == 0xC2 || last == 0xE2 { safe = false }
        }
        var bytes = out
        if !safe {
            bytes = Array(TextSanitizer.clean(String(decoding: out, as: UTF8.self), keepNewlines: multiline).utf8)
        }
        var tidy: [UInt8] = []
        tidy.reserveCapacity(bytes.count)
        if multiline {
            // Lines that are only spaces are empty; no empty line first, last, or twice in a row.
            var line: [UInt8] = []
            var lastWasEmpty = true
            func flush() {
                let empty = line.allSatisfy { $0 == 0x20 }
                if !(empty && lastWasEmpty) {
                    if !tidy.isEmpty { tidy.append(0x0A) }
                    if !empty { tidy += line }
                }
                lastWasEmpty = empty
                line.removeAll(keepingCapacity: true)
            }
            for c in bytes {
                if c == 0x0A { flush() } else { line.append(c) }
            }
            flush()
            while tidy.last == 0x0A { tidy.removeLast() }
        } else {
            var pendingSpace = false
            for c in bytes {
                if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
                    pendingSpace = !tidy.isEmpty
                } else {
                    if pendingSpace { tidy.append(0x20) }
                    pendingSpace = false
                    tidy.append(c)
                }
            }
        }
        var clean = String(decoding: tidy, as: UTF8.self)
        if tidy.count > maxText && clean.count > maxText { clean = String(clean.prefix(maxText - 1)) + "…" }
        return clean
    }

    /// `YYYYMMDD` → wall seconds at midnight.
    static func date(_ s: Substring) -> Int64? {
        var d = Array(s.utf8)
        while d.last == 0x20 || d.last == 0x09 { d.removeLast() }
        while d.first == 0x20 || d.first == 0x09 { d.removeFirst() }
        return date(bytes: d[...])
    }

    private static func digits(_ d: ArraySlice<UInt8>) -> Int? {
        var n = 0
        for c in d {
            guard c >= 0x30 && c <= 0x39 else { return nil }
            n = n * 10 + Int(c - 0x30)
        }
        return n
    }

    private static func date(bytes d: ArraySlice<UInt8>) -> Int64? {
        guard d.count == 8, let y = digits(d.prefix(4)), let m = digits(d.dropFirst(4).prefix(2)),
            let day = digits(d.suffix(2))
        else { return nil }
        guard y >= 1, (1...12).contains(m), day >= 1, day <= Civil.daysInMonth(y, m) else { return nil }
        return Civil.wall(y, m, day)
    }

    /// `YYYYMMDDTHHMMSS[Z]` → wall seconds and whether it is UTC.
    static func dateTime(_ s: Substring) -> (wall: Int64, utc: Bool)? {
        var b = Array(s.utf8)
        while b.last == 0x20 || b.last == 0x09 { b.removeLast() }
        while b.first == 0x20 || b.first == 0x09 { b.removeFirst() }
        var utc = false
        if b.last == 0x5A || b.last == 0x7A {
            utc = true
            b.removeLast()
        }
        guard b.count == 15 || b.count == 13, b[8] == 0x54 || b[8] == 0x74, let day = date(bytes: b[0..<8]) else {
            return nil
        }
        let t = b[9...]
        guard let hh = digits(t.prefix(2)), let mm = digits(t.dropFirst(2).prefix(2)) else { return nil }
        let ss = t.count == 6 ? (digits(t.suffix(2)) ?? 99) : 0
        guard hh <= 23, mm <= 59, ss <= 60 else { return nil }
        return (day + Int64(hh * 3600 + mm * 60 + min(ss, 59)), utc)
    }

    /// `[+-]P[nW][nD][T[nH][nM][nS]]` → seconds, and whether it had a time part.
    static func duration(_ raw: String) -> (seconds: Int64, hasTime: Bool)? {
        var s = Substring(raw.trimmingCharacters(in: .whitespaces).uppercased())
        var sign: Int64 = 1
        if s.hasPrefix("-") {
            sign = -1
            s = s.dropFirst()
        } else if s.hasPrefix("+") {
            s = s.dropFirst()
        }
        guard s.hasPrefix("P") else { return nil }
        s = s.dropFirst()
        var total: Int64 = 0
        var inTime = false
        var hasTime = false
        var number: Int64? = nil
        var any = false
        for c in s {
            if let d = c.wholeNumberValue, c.isASCII {
                let n = (number ?? 0) * 10 + Int64(d)
                guard n < 100_000_000 else { return nil }
                number = n
                continue
            }
            if c == "T" {
                guard number == nil, !inTime else { return nil }
                inTime = true
                continue
            }
            guard let n = number else { return nil }
            switch (c, inTime) {
            case ("W", false): total += n * 7 * 86_400
            case ("D", false): total += n * 86_400
            case ("H", true):
                total += n * 3600
                hasTime = true
            case ("M", true):
                total += n * 60
                hasTime = true
            case ("S", true):
                total += n
                hasTime = true
            default: return nil
            }
            number = nil
            any = true
        }
        guard any, number == nil else { return nil }
        return (sign * total, hasTime)
    }
}
