/// A list value written as one line of text (`--set`, `config set`): YAML flow syntax
/// `[a, "b,c", '']` carries any item byte for byte (commas, spaces, empty items); a text that
/// does not start with `[` is the older comma-separated form (or one item, for a parameter
/// whose text is one item, such as a command line).
public enum ListText {
    /// The items of a flow sequence `[…]`, or nil when `text` is not one (it does not start
    /// with `[`). Throws what is wrong with a text that starts like one and is not.
    public static func flowItems(_ text: String) throws(ListTextError) -> [String]? {
        let s = Array(text.unicodeScalars)
        var i = 0
        func skipSpace() { while i < s.count, s[i] == " " || s[i] == "\t" { i += 1 } }
        skipSpace()
        guard i < s.count, s[i] == "[" else { return nil }
        i += 1
        var items: [String] = []
        while true {
            skipSpace()
            guard i < s.count else { throw ListTextError("the list has no closing ]") }
            if s[i] == "]" {
                i += 1
                break
            }
            let item: String
            switch s[i] {
            case "\"": item = try readDoubleQuoted(s, &i)
            case "'": item = try readSingleQuoted(s, &i)
            default:
                var plain = String.UnicodeScalarView()
                while i < s.count, s[i] != ",", s[i] != "]" {
                    plain.append(s[i])
                    i += 1
                }
                item = String(plain).trimmingSpace()
                if item.isEmpty {
                    throw ListTextError("an empty item must be written \"\"")
                }
            }
            items.append(item)
            skipSpace()
            guard i < s.count else { throw ListTextError("the list has no closing ]") }
            if s[i] == "," {
                i += 1
            } else if s[i] != "]" {
                throw ListTextError("expected , or ] after the item \(ListText.doubleQuoted(item))")
            }
        }
        skipSpace()
        guard i == s.count else { throw ListTextError("text after the closing ]") }
        return items
    }

    /// The list as text that `flowItems` (or, for one plain item, the text itself) reads back
    /// to the same items.
    public static func text(_ items: [String]) -> String {
        if items.isEmpty { return "" }
        if items.count == 1, isPlain(items[0]) { return items[0] }
        return "[" + items.map { isPlain($0) ? $0 : ListText.doubleQuoted($0) }.joined(separator: ", ") + "]"
    }

    /// An item written as it is inside `[…]` and alone (one item, for either reading).
    static func isPlain(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last else { return false }
        if first == " " || last == " " || first == "\t" || last == "\t" { return false }
        if "[\"'".unicodeScalars.contains(first) { return false }
        return !s.unicodeScalars.contains { $0 == "," || $0 == "]" || $0.value < 0x20 || $0.value == 0x7F }
    }

    private static func readSingleQuoted(_ s: [Unicode.Scalar], _ i: inout Int) throws(ListTextError) -> String {
        var out = String.UnicodeScalarView()
        i += 1
        while i < s.count {
            if s[i] == "'" {
                if i + 1 < s.count, s[i + 1] == "'" {
                    out.append("'")
                    i += 2
                    continue
                }
                i += 1
                return String(out)
            }
            out.append(s[i])
            i += 1
        }
        throw ListTextError("an item has no closing '")
    }

    private static func readDoubleQuoted(_ s: [Unicode.Scalar], _ i: inout Int) throws(ListTextError) -> String {
        var out = String.UnicodeScalarView()
        i += 1
        while i < s.count {
            let c = s[i]
            if c == "\"" {
                i += 1
                return String(out)
            }
            if c == "\\" {
                guard i + 1 < s.count else { break }
                let e = s[i + 1]
                i += 2
                switch e {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "0": out.append("\0")
                case "e": out.append("\u{1B}")
                case "\\", "\"", "/", "'": out.append(e)
                case "x", "u", "U":
                    let n = e == "x" ? 2 : e == "u" ? 4 : 8
                    guard i + n <= s.count, let v = UInt32(String(String.UnicodeScalarView(s[i..<i + n])), radix: 16),
                        let u = Unicode.Scalar(v)
                    else { throw ListTextError("a bad \\\(e) escape in an item") }
                    out.append(u)
                    i += n
                default: throw ListTextError("an unknown escape \\\(e) in an item")
                }
                continue
            }
            out.append(c)
            i += 1
        }
        throw ListTextError("an item has no closing \"")
    }
}

/// What is wrong with a list written as text.
public struct ListTextError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension ListText {
    /// `s` as a YAML double-quoted scalar: `"` `\` and control, line and paragraph separator and
    /// byte order mark characters escaped (the one spelling of it, for lists and home.yaml).
    public static func doubleQuoted(_ s: String) -> String {
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
                    let hex = String(u.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

extension String {
    fileprivate func trimmingSpace() -> String {
        var v = Substring(self)
        while let f = v.first, f == " " || f == "\t" { v = v.dropFirst() }
        while let l = v.last, l == " " || l == "\t" { v = v.dropLast() }
        return String(v)
    }
}
