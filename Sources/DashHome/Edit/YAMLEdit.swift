import Foundation
import Yams

// The block structure of a YAML file with line positions, for changing a file by editing only
// the lines a change touches (HomeEdit.swift). Yams gives each node the mark (line, column)
// where it starts; where a node ends is worked out from the lines: an element of a block
// collection runs until the next element starts, less the blank lines and shallow comments
// before it. Columns count Unicode scalars, as libyaml's marks do.

/// A file's lines, and what each looks like.
final class YAMLLines {
    var lines: [String]
    let newline: String
    let endsWithNewline: Bool

    init(_ text: String) {
        // By scalars: "\r\n" is one Character to String, so `hasSuffix("\n")` would miss it.
        var all = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        endsWithNewline = text.unicodeScalars.last == "\n"
        if endsWithNewline { all.removeLast() }
        newline = all.first?.last == "\r" ? "\r\n" : "\n"
        if newline == "\r\n" { all = all.map { $0.last == "\r" ? $0.dropLast() : $0 } }
        lines = all.map { String(String.UnicodeScalarView($0)) }
    }

    static func join(_ lines: [String], newline: String, endsWithNewline: Bool) -> String {
        let body = lines.joined(separator: newline)
        return endsWithNewline && !lines.isEmpty ? body + newline : body
    }

    var count: Int { lines.count }
    subscript(i: Int) -> String { lines[i] }

    func isBlank(_ i: Int) -> Bool { lines[i].allSatisfy { $0 == " " || $0 == "\t" } }
    func isComment(_ i: Int) -> Bool { lines[i].first { $0 != " " && $0 != "\t" } == "#" }
    /// Spaces before the first character.
    func indent(_ i: Int) -> Int { Self.indent(lines[i]) }
    static func indent(_ s: String) -> Int { s.unicodeScalars.prefix { $0 == " " }.count }

    /// A line that belongs to an element at column `c`: anything but blank lines and comments
    /// at or left of `c` (those describe what follows).
    func belongs(_ i: Int, column c: Int) -> Bool {
        !isBlank(i) && (!isComment(i) || indent(i) > c)
    }
}

/// One element of a block collection: a mapping's entry or a sequence's item.
struct YElement {
    /// The key of a mapping entry (nil for a sequence item).
    var key: String?
    /// First line, comments describing the element included.
    var leadStart: Int
    /// The line of the key or the dash.
    var start: Int
    /// One past the last line.
    var end: Int
    /// The column of the key or the dash.
    var column: Int
    var value: YValue
    var node: Node
}

/// What an element holds, as far as editing in place is concerned.
indirect enum YValue {
    case scalar(Node.Scalar)
    case blockMap(YMap)
    case blockSeq(YSeq)
    /// A flow collection (`{…}`, `[…]`) or anything else that is replaced as a whole.
    case other
}

struct YMap {
    var column: Int
    var entries: [YElement]
    func entry(_ key: String) -> YElement? { entries.first { $0.key == key } }
}

struct YSeq {
    var column: Int
    var items: [YElement]
}

/// Reads the block structure of a composed document.
struct YAMLOutline {
    let src: YAMLLines

    /// Where each element of a collection at column `c` begins and ends, given the lines
    /// where their keys or dashes are (`starts`, ascending) and the lines the collection
    /// may use (`floor..<ceiling`).
    func layout(starts: [Int], column c: Int, floor: Int, ceiling: Int) -> [(lead: Int, end: Int)] {
        var out: [(lead: Int, end: Int)] = []
        var previousEnd = floor
        for (k, s) in starts.enumerated() {
            var lead = s
            while lead - 1 >= previousEnd, src.isComment(lead - 1), src.indent(lead - 1) <= c { lead -= 1 }
            let upper = k + 1 < starts.count ? starts[k + 1] : ceiling
            var end = s + 1
            var l = upper - 1
            while l > s {
                if src.belongs(l, column: c) {
                    end = l + 1
                    break
                }
                l -= 1
            }
            out.append((lead, max(end, s + 1)))
            previousEnd = max(end, s + 1)
        }
        return out
    }

    func scalars(_ line: Int) -> [Unicode.Scalar] { Array(src[line].unicodeScalars) }

    func char(at mark: Mark?) -> Unicode.Scalar? {
        guard let m = mark, m.line - 1 < src.count else { return nil }
        let s = scalars(m.line - 1)
        return m.column - 1 < s.count ? s[m.column - 1] : nil
    }

    func value(_ node: Node, floor: Int, ceiling: Int) -> YValue {
        switch node {
        case .scalar(let s):
            return .scalar(s)
        case .mapping(let m):
            guard char(at: m.mark) != "{", let map = map(m, floor: floor, ceiling: ceiling) else { return .other }
            return .blockMap(map)
        case .sequence(let q):
            guard char(at: q.mark) != "[", let seq = seq(q, floor: floor, ceiling: ceiling) else { return .other }
            return .blockSeq(seq)
        default:
            return .other
        }
    }

    func map(_ m: Node.Mapping, floor: Int, ceiling: Int) -> YMap? {
        var starts: [(line: Int, col: Int, key: String, value: Node, keyNode: Node)] = []
        for (k, v) in m {
            guard let mark = k.mark, let key = k.string else { return nil }
            starts.append((mark.line - 1, mark.column - 1, key, v, k))
        }
        guard let col = starts.first?.col, starts.allSatisfy({ $0.col == col }),
            zip(starts, starts.dropFirst()).allSatisfy({ $0.line < $1.line })
        else { return nil }
        let ranges = layout(starts: starts.map(\.line), column: col, floor: floor, ceiling: ceiling)
        var entries: [YElement] = []
        for (s, r) in zip(starts, ranges) {
            let v = value(s.value, floor: s.line + 1, ceiling: r.end)
            entries.append(
                YElement(
                    key: s.key, leadStart: r.lead, start: s.line, end: r.end, column: col, value: v,
                    node: s.value))
        }
        return YMap(column: col, entries: entries)
    }

    /// The dash of a sequence item whose content starts at `mark`: on the same line, or on
    /// the nearest line above that starts with one.
    func dash(before mark: Mark, floor: Int) -> (line: Int, col: Int)? {
        let line = mark.line - 1
        let s = scalars(line)
        var c = min(mark.column - 1, s.count) - 1
        while c >= 0, s[c] == " " { c -= 1 }
        if c >= 0 { return s[c] == "-" ? (line, c) : nil }
        var l = line - 1
        while l >= floor {
            if !src.isBlank(l) {
                let t = scalars(l)
                let i = src.indent(l)
                return i < t.count && t[i] == "-" ? (l, i) : nil
            }
            l -= 1
        }
        return nil
    }

    func seq(_ q: Node.Sequence, floor: Int, ceiling: Int) -> YSeq? {
        var starts: [(line: Int, col: Int, node: Node)] = []
        for item in q {
            guard let mark = item.mark, let d = dash(before: mark, floor: floor) else { return nil }
            starts.append((d.line, d.col, item))
        }
        guard let col = starts.first?.col, starts.allSatisfy({ $0.col == col }),
            zip(starts, starts.dropFirst()).allSatisfy({ $0.line < $1.line })
        else { return nil }
        let ranges = layout(starts: starts.map(\.line), column: col, floor: floor, ceiling: ceiling)
        var items: [YElement] = []
        for (s, r) in zip(starts, ranges) {
            let v = value(s.node, floor: s.line, ceiling: r.end)
            items.append(
                YElement(
                    key: nil, leadStart: r.lead, start: s.line, end: r.end, column: col, value: v,
                    node: s.node))
        }
        return YSeq(column: col, items: items)
    }
}

// MARK: - Scalars

/// Writing a string as a YAML scalar, in the style it had where possible.
enum YAMLScalar {
    /// Text that reads back as itself without quotes.
    static func isPlainSafe(_ s: String, inFlow: Bool) -> Bool {
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last else { return false }
        if first == " " || last == " " || last == ":" { return false }
        if s.contains(": ") || s.contains(" #") || s.contains(":\t") { return false }
        let indicators = Set("-?:,[]{}#&*!|>'\"%@`".unicodeScalars)
        if indicators.contains(first) {
            let rest = s.unicodeScalars.dropFirst()
            guard first == "-", let next = rest.first, ("0"..."9").contains(next) else { return false }
        }
        for u in s.unicodeScalars {
            if u.value < 0x20 || (0x7F...0x9F).contains(u.value) || u == "\u{2028}" || u == "\u{2029}"
                || u == "\u{FEFF}"
            {
                return false
            }
            if inFlow, ",[]{}".unicodeScalars.contains(u) { return false }
        }
        return true
    }

    static func doubleQuoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 || (0x7F...0x9F).contains(u.value) || u == "\u{2028}" || u == "\u{2029}"
                    || u == "\u{FEFF}"
                {
                    out += String(format: "\\u%04X", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// Single quotes cannot escape control characters: nil when the text has any.
    static func singleQuoted(_ s: String) -> String? {
        let printable = s.unicodeScalars.allSatisfy {
            $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) && $0 != "\u{2028}" && $0 != "\u{2029}"
                && $0 != "\u{FEFF}"
        }
        return printable ? "'" + s.replacingOccurrences(of: "'", with: "''") + "'" : nil
    }

    /// `s` as a scalar: in the quoting style `like` when given, else plain when that reads back.
    static func render(_ s: String, like style: Node.Scalar.Style? = nil, inFlow: Bool) -> String {
        switch style {
        case .singleQuoted?: if let q = singleQuoted(s) { return q }
        case .doubleQuoted?: return doubleQuoted(s)
        default: break
        }
        return isPlainSafe(s, inFlow: inFlow) ? s : doubleQuoted(s)
    }

    /// Where the scalar that starts at column `col` of `line` ends (one past its last
    /// character), or nil when it does not end on this line (a multi-line scalar).
    static func end(of line: [Unicode.Scalar], from col: Int, style: Node.Scalar.Style, inFlow: Bool) -> Int? {
        guard col <= line.count else { return nil }
        switch style {
        case .singleQuoted:
            var i = col + 1
            while i < line.count {
                if line[i] == "'" {
                    if i + 1 < line.count, line[i + 1] == "'" {
                        i += 2
                        continue
                    }
                    return i + 1
                }
                i += 1
            }
            return nil
        case .doubleQuoted:
            var i = col + 1
            while i < line.count {
                if line[i] == "\\" {
                    i += 2
                    continue
                }
                if line[i] == "\"" { return i + 1 }
                i += 1
            }
            return nil
        case .plain, .any:
            var i = col
            var end = col
            while i < line.count {
                let u = line[i]
                if u == "#", i > col, line[i - 1] == " " || line[i - 1] == "\t" { break }
                if inFlow, ",]}".unicodeScalars.contains(u) { break }
                if u == ":", i + 1 == line.count || line[i + 1] == " " { if inFlow { break } }
                if u != " " && u != "\t" { end = i + 1 }
                i += 1
            }
            return end
        default:
            return nil
        }
    }
}

extension Array where Element == String {
    /// The lines moved right (`delta` > 0) or left by `delta` columns; blank lines stay, and a
    /// line never loses more than its leading spaces.
    func shifted(by delta: Int) -> [String] {
        guard delta != 0 else { return self }
        return map { line in
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return line }
            if delta > 0 { return String(repeating: " ", count: delta) + line }
            let drop = Swift.min(-delta, YAMLLines.indent(line))
            return String(line.unicodeScalars.dropFirst(drop))
        }
    }
}
