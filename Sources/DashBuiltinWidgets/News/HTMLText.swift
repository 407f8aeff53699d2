/// The HTML5 named character references (from `HTMLEntityTable`, generated) and HTML's
/// rules for decoding references, as browsers and Python's `html.unescape` apply them.
enum HTMLEntities {
    /// Name (with its ";" where the name needs one) to replacement text.
    static let table: [String: String] = {
        var t: [String: String] = [:]
        t.reserveCapacity(HTMLEntityTable.count)
        for entry in HTMLEntityTable.packed.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let eq = entry.lastIndex(of: "=") else { continue }
            let name = entry[..<eq].drop { $0 == "*" }
            var value = String.UnicodeScalarView()
            for hex in entry[entry.index(after: eq)...].split(separator: ",") {
                if let v = UInt32(hex, radix: 16), let u = Unicode.Scalar(v) { value.append(u) }
            }
            t[String(name)] = String(value)
        }
        return t
    }()

    /// The HTML 4 names (without ";"), which RSS readers use to guess whether text is HTML.
    static let html4: Set<String> = {
        var s = Set<String>()
        for entry in HTMLEntityTable.packed.split(whereSeparator: { $0 == " " || $0 == "\n" })
        where entry.hasPrefix("*") {
            s.insert(String(entry.dropFirst().prefix { $0 != ";" }))
        }
        return s
    }()

    /// The replacement for a reference name such as "eacute;" or "amp", if it is one.
    static func named(_ name: String) -> String? { table[name] }

    /// Decodes every character reference in `s` by HTML's rules (numeric references with
    /// the windows-1252 fix-ups, named ones with or without ";" where HTML allows it).
    static func unescape(_ s: String) -> String {
        guard s.contains("&") else { return s }
        let u = Array(s.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < u.count {
            guard u[i] == "&", i + 1 < u.count else {
                out.append(u[i])
                i += 1
                continue
            }
            if u[i + 1] == "#" {
                var k = i + 2
                var hex = false
                if k < u.count, u[k] == "x" || u[k] == "X" {
                    hex = true
                    k += 1
                }
                let start = k
                var value: UInt32 = 0
                while k < u.count, let d = digit(u[k], hex: hex) {
                    value = min(value &* (hex ? 16 : 10) &+ d, 0x110000)
                    k += 1
                }
                guard k > start else {
                    out.append(u[i])
                    i += 1
                    continue
                }
                if k < u.count, u[k] == ";" { k += 1 }
                out.append(contentsOf: numeric(value).unicodeScalars)
                i = k
                continue
            }
            // A name: up to 32 characters that are not white space, "<", "&", "#" or ";".
            var k = i + 1
            while k < u.count, k - i - 1 < 32, !" \t\n\u{0C}<&#;".unicodeScalars.contains(u[k]) { k += 1 }
            guard k > i + 1 else {
                out.append(u[i])
                i += 1
                continue
            }
            var name = String(String.UnicodeScalarView(u[(i + 1)..<k]))
            if k < u.count, u[k] == ";" {
                name += ";"
                k += 1
            }
            if let v = table[name] {
                out.append(contentsOf: v.unicodeScalars)
                i = k
                continue
            }
            // The longest prefix that is a name HTML accepts without ";".
            let scalars = Array(name.unicodeScalars)
            var matched = false
            var x = scalars.count - 1
            while x > 1 {
                if let v = table[String(String.UnicodeScalarView(scalars[0..<x]))] {
                    out.append(contentsOf: v.unicodeScalars)
                    out.append(contentsOf: scalars[x...])
                    matched = true
                    break
                }
                x -= 1
            }
            if !matched {
                out.append("&")
                out.append(contentsOf: scalars)
            }
            i = k
        }
        return String(out)
    }

    private static func digit(_ c: Unicode.Scalar, hex: Bool) -> UInt32? {
        switch c.value {
        case 0x30...0x39: return c.value - 0x30
        case 0x61...0x66 where hex: return c.value - 0x61 + 10
        case 0x41...0x46 where hex: return c.value - 0x41 + 10
        default: return nil
        }
    }

    /// A numeric reference's text by HTML's rules.
    static func numeric(_ v: UInt32) -> String {
        if v == 0 { return "\u{FFFD}" }
        if v == 0x0D { return "\r" }
        if (0x80...0x9F).contains(v) {
            return String(Unicode.Scalar(UInt32(FeedBytes.cp1252High[Int(v) - 0x80])) ?? "\u{FFFD}")
        }
        if (0xD800...0xDFFF).contains(v) || v > 0x10FFFF { return "\u{FFFD}" }
        if (0x01...0x08).contains(v) || (0x0E...0x1F).contains(v) || v == 0x0B || (0x7F...0x9F).contains(v)
            || (0xFDD0...0xFDEF).contains(v) || (v & 0xFFFE) == 0xFFFE
        {
            return ""
        }
        return Unicode.Scalar(v).map { String($0) } ?? "\u{FFFD}"
    }
}

/// Turns HTML into plain text for a tile: tags removed (the content of script and style
/// too), block-level tags leave a space (or a line break), references decoded.
enum HTMLText {
    /// Tags that separate words: they become a space (a line break with `keepParagraphs`).
    static let blockTags: Set<String> = [
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure",
        "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "nav", "ol", "p", "pre",
        "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    ]

    /// Longest HTML converted; the rest is dropped (a tile shows far less).
    static let maxInputBytes = 256 * 1024

    static func plain(_ html: String, keepParagraphs: Bool = false) -> String {
        var b = Array(html.utf8)
        if b.count > maxInputBytes { b = Array(b[0..<maxInputBytes]) }
        var out = ""
        var data = [UInt8]()
        let separator = keepParagraphs ? "\n" : " "
        func flush() {
            if !data.isEmpty {
                out += HTMLEntities.unescape(String(decoding: data, as: UTF8.self))
                data.removeAll(keepingCapacity: true)
            }
        }
        func isLetter(_ c: UInt8) -> Bool { (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) }
        func find(_ s: [UInt8], from j: Int, caseInsensitive: Bool = false) -> Int? {
            guard !s.isEmpty else { return j }
            var k = j
            while k + s.count <= b.count {
                var hit = true
                for m in 0..<s.count {
                    let c = caseInsensitive && b[k + m] >= 0x41 && b[k + m] <= 0x5A ? b[k + m] + 32 : b[k + m]
                    if c != s[m] {
                        hit = false
                        break
                    }
                }
                if hit { return k }
                k += 1
            }
            return nil
        }
        /// The end (index of ">") of the tag starting at `j`, honouring quoted attribute values.
        func tagEnd(_ j: Int) -> Int? {
            var k = j
            var afterEquals = false
            var quotesClose = true  // after one unclosed quote, quotes are ordinary characters
            while k < b.count {
                let c = b[k]
                if c == UInt8(ascii: ">") { return k }
                if afterEquals, quotesClose, c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    var m = k + 1
                    let limit = min(b.count, k + 1024)
                    while m < limit, b[m] != c { m += 1 }
                    if m < limit {
                        k = m + 1
                        afterEquals = false
                        continue
                    }
                    quotesClose = false
                }
                if c == UInt8(ascii: "=") {
                    afterEquals = true
                } else if c != 0x20 && c != 0x09 && c != 0x0A && c != 0x0D {
                    afterEquals = false
                }
                k += 1
            }
            return nil
        }
        var i = 0
        while i < b.count {
            let c = b[i]
            guard c == UInt8(ascii: "<"), i + 1 < b.count else {
                data.append(c)
                i += 1
                continue
            }
            let n = b[i + 1]
            if isLetter(n) || (n == UInt8(ascii: "/") && i + 2 < b.count && isLetter(b[i + 2])) {
                let closing = n == UInt8(ascii: "/")
                guard let e = tagEnd(i + 1) else {
                    data.append(contentsOf: b[i...])
                    break
                }
                var k = i + (closing ? 2 : 1)
                var name = [UInt8]()
                while k < e, isLetter(b[k]) || (b[k] >= 0x30 && b[k] <= 0x39) || b[k] == UInt8(ascii: "-") {
                    name.append(b[k] >= 0x41 && b[k] <= 0x5A ? b[k] + 32 : b[k])
                    k += 1
                }
                let tag = String(decoding: name, as: UTF8.self)
                i = e + 1
                if !closing, tag == "script" || tag == "style" {
                    // Their content is not text: skip to the end tag (or the end).
                    if let close = find(Array("</\(tag)".utf8), from: i, caseInsensitive: true) {
                        i = (find([UInt8(ascii: ">")], from: close) ?? b.count - 1) + 1
                    } else {
                        i = b.count
                    }
                }
                if blockTags.contains(tag) {
                    flush()
                    out += separator
                }
                continue
            }
            if b[i...].starts(with: Array("<!--".utf8)) {
                guard let e = find(Array("-->".utf8), from: i + 4) else {
                    data.append(contentsOf: b[i...])
                    break
                }
                i = e + 3
                continue
            }
            if n == UInt8(ascii: "!") || n == UInt8(ascii: "?") {
                guard let e = find([UInt8(ascii: ">")], from: i + 2) else {
                    data.append(contentsOf: b[i...])
                    break
                }
                i = e + 1
                continue
            }
            data.append(c)
            i += 1
        }
        flush()
        return out
    }
}
