/// A small, lenient XML tokenizer for feeds. It reads text that `FeedBytes` already made
/// valid, never fails and never recurses: whatever the input, it returns tokens in one
/// forward pass. It resolves no DTD and expands no declared entity; it decodes the five XML
/// entities, numeric references and (as recovery for feeds that are not well formed) the
/// HTML5 named references. A bare `&` or `<` is text. Names and attribute lists are capped.
struct XMLTokenizer {
    enum Token: Equatable {
        /// A start tag: its name as written, its attributes (names as written, values decoded).
        case start(name: String, attributes: [Attribute], selfClosing: Bool)
        case end(name: String)
        /// Character data, entities decoded.
        case text(String)
        /// The content of a CDATA section, verbatim.
        case cdata(String)
    }

    struct Attribute: Equatable {
        var name: String
        var value: String
    }

    static let maxNameBytes = 256
    static let maxAttributes = 64
    static let maxAttributeBytes = 64 * 1024

    private let b: [UInt8]
    private var i = 0
    /// True once the input showed something a strict XML parser would reject.
    private(set) var notWellFormed = false
    /// True if a DOCTYPE's internal subset declares entities (never expanded here).
    private(set) var declaresEntities = false

    init(_ text: String) {
        b = Array(text.utf8)
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    private static func isNameStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == 0x3A || c >= 0x80
    }

    private func starts(_ s: StaticString, at j: Int) -> Bool {
        let n = s.utf8CodeUnitCount
        guard j + n <= b.count else { return false }
        return s.withUTF8Buffer { p in
            for k in 0..<n where b[j + k] != p[k] { return false }
            return true
        }
    }

    /// The index of the first occurrence of `s` at or after `j`, or nil.
    private func find(_ s: StaticString, from j: Int) -> Int? {
        let n = s.utf8CodeUnitCount
        guard n > 0 else { return j }
        let first = s.withUTF8Buffer { $0[0] }
        var k = j
        while k + n <= b.count {
            if b[k] == first, starts(s, at: k) { return k }
            k += 1
        }
        return nil
    }

    private func string(_ from: Int, _ to: Int) -> String {
        guard from < to else { return "" }
        return String(decoding: b[from..<to], as: UTF8.self)
    }

    mutating func next() -> Token? {
        while i < b.count {
            if b[i] != UInt8(ascii: "<") { return text() }
            let j = i + 1
            if starts("!--", at: j) {
                if let e = find("-->", from: j + 3) {
                    i = e + 3
                } else {
                    i = b.count
                    notWellFormed = true
                }
                continue
            }
            if starts("![CDATA[", at: j) {
                let s = j + 8
                if let e = find("]]>", from: s) {
                    i = e + 3
                    return .cdata(string(s, e))
                }
                notWellFormed = true
                i = b.count
                return .cdata(string(s, b.count))
            }
            if starts("?", at: j) {
                if let e = find("?>", from: j + 1) { i = e + 2 } else { i = b.count }
                continue
            }
            if starts("!", at: j) {
                skipDeclaration(from: j + 1)
                continue
            }
            if starts("/", at: j) {
                if let t = endTag(from: j + 1) { return t }
                continue
            }
            if j < b.count, Self.isNameStart(b[j]) {
                return startTag(from: j)
            }
            // "<" not starting markup: it is text.
            notWellFormed = true
            return text()
        }
        return nil
    }

    /// Text up to the next "<" that starts markup.
    private mutating func text() -> Token {
        var out = [UInt8]()
        var start = i
        // The first byte is taken as text even if it is "<" (a stray one).
        var k = i
        if k < b.count, b[k] == UInt8(ascii: "<") { k += 1 }
        while k < b.count {
            let c = b[k]
            if c == UInt8(ascii: "<") {
                let n = k + 1 < b.count ? b[k + 1] : 0
                if Self.isNameStart(n) || n == UInt8(ascii: "/") || n == UInt8(ascii: "!") || n == UInt8(ascii: "?") {
                    break
                }
                notWellFormed = true
                k += 1
                continue
            }
            if c == UInt8(ascii: "&") {
                out.append(contentsOf: b[start..<k])
                let (decoded, next) = entity(at: k, inAttribute: false)
                out.append(contentsOf: decoded)
                k = next
                start = k
                continue
            }
            k += 1
        }
        out.append(contentsOf: b[start..<k])
        i = k
        return .text(String(decoding: out, as: UTF8.self))
    }

    /// Decodes the reference at `at` (which holds "&"); returns its bytes and the index after it.
    private mutating func entity(at: Int, inAttribute: Bool) -> ([UInt8], Int) {
        var k = at + 1
        let limit = min(b.count, at + 40)
        if k < limit, b[k] == UInt8(ascii: "#") {
            k += 1
            var hex = false
            if k < limit, b[k] == UInt8(ascii: "x") || b[k] == UInt8(ascii: "X") {
                hex = true
                k += 1
            }
            let digitsStart = k
            var value: UInt32 = 0
            while k < limit {
                let c = b[k]
                let d: UInt32
                if c >= 0x30 && c <= 0x39 {
                    d = UInt32(c - 0x30)
                } else if hex && c >= 0x61 && c <= 0x66 {
                    d = UInt32(c - 0x61 + 10)
                } else if hex && c >= 0x41 && c <= 0x46 {
                    d = UInt32(c - 0x41 + 10)
                } else {
                    break
                }
                value = min(value &* (hex ? 16 : 10) &+ d, 0x110000)
                k += 1
            }
            guard k > digitsStart, k < limit, b[k] == UInt8(ascii: ";") else {
                notWellFormed = true
                return ([UInt8(ascii: "&")], at + 1)
            }
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            if value == 0 || value >= 0x110000 { notWellFormed = true }
            return (Array(String(Character(value == 0 ? "\u{FFFD}" : scalar)).utf8), k + 1)
        }
        let nameStart = k
        while k < limit,
            (b[k] >= 0x30 && b[k] <= 0x39) || (b[k] >= 0x41 && b[k] <= 0x5A)
                || (b[k] >= 0x61 && b[k] <= 0x7A)
        {
            k += 1
        }
        guard k > nameStart, k < limit, b[k] == UInt8(ascii: ";") else {
            notWellFormed = true
            return ([UInt8(ascii: "&")], at + 1)
        }
        let name = string(nameStart, k)
        switch name {
        case "lt": return ([UInt8(ascii: "<")], k + 1)
        case "gt": return ([UInt8(ascii: ">")], k + 1)
        case "amp": return ([UInt8(ascii: "&")], k + 1)
        case "quot": return ([UInt8(ascii: "\"")], k + 1)
        case "apos": return ([UInt8(ascii: "'")], k + 1)
        default:
            notWellFormed = true
            if let v = HTMLEntities.named(name + ";") { return (Array(v.utf8), k + 1) }
            return ([UInt8(ascii: "&")], at + 1)
        }
    }

    /// Skips `<!DOCTYPE …>` (with an internal subset) or any other `<!…>` declaration.
    private mutating func skipDeclaration(from j: Int) {
        var k = j
        var depth = 0
        while k < b.count {
            let c = b[k]
            if c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if c == UInt8(ascii: "<"), depth > 0, starts("<!ENTITY", at: k) {
                declaresEntities = true
            } else if c == UInt8(ascii: ">"), depth == 0 {
                i = k + 1
                return
            }
            k += 1
        }
        i = b.count
    }

    private mutating func name(from j: Int) -> (String, Int) {
        var k = j
        while k < b.count {
            let c = b[k]
            if Self.isSpace(c) || c == UInt8(ascii: ">") || c == UInt8(ascii: "/") || c == UInt8(ascii: "=")
                || c == UInt8(ascii: "<") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")
            {
                break
            }
            k += 1
        }
        return (string(j, min(k, j + Self.maxNameBytes)), k)
    }

    private mutating func endTag(from j: Int) -> Token? {
        let (n, k0) = name(from: j)
        var k = k0
        // Anything up to ">" (or a "<" that starts the next tag) is dropped.
        while k < b.count, b[k] != UInt8(ascii: ">"), b[k] != UInt8(ascii: "<") { k += 1 }
        if k < b.count, b[k] == UInt8(ascii: ">") {
            i = k + 1
        } else {
            i = k
            notWellFormed = true
        }
        if n.isEmpty {
            notWellFormed = true
            return nil
        }
        return .end(name: n)
    }

    private mutating func startTag(from j: Int) -> Token {
        let (tagName, k0) = name(from: j)
        var k = k0
        var attributes: [Attribute] = []
        var selfClosing = false
        while k < b.count {
            let c = b[k]
            if Self.isSpace(c) {
                k += 1
                continue
            }
            if c == UInt8(ascii: ">") {
                k += 1
                break
            }
            if c == UInt8(ascii: "<") {  // an unclosed tag ends where the next begins
                notWellFormed = true
                break
            }
            if c == UInt8(ascii: "/") {
                if k + 1 < b.count, b[k + 1] == UInt8(ascii: ">") {
                    selfClosing = true
                    k += 2
                    break
                }
                k += 1
                continue
            }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || c == UInt8(ascii: "=") {
                notWellFormed = true
                k += 1
                continue
            }
            let (attrName, afterName) = name(from: k)
            k = afterName
            while k < b.count, Self.isSpace(b[k]) { k += 1 }
            var value = ""
            if k < b.count, b[k] == UInt8(ascii: "=") {
                k += 1
                while k < b.count, Self.isSpace(b[k]) { k += 1 }
                (value, k) = attributeValue(from: k)
            } else {
                notWellFormed = true  // an attribute without a value (HTML style)
            }
            if attributes.count < Self.maxAttributes, !attrName.isEmpty,
                !attributes.contains(where: { $0.name == attrName })
            {
                attributes.append(Attribute(name: attrName, value: value))
            }
        }
        if k >= b.count, !(b.last == UInt8(ascii: ">")) { notWellFormed = true }
        i = k
        return .start(name: tagName, attributes: attributes, selfClosing: selfClosing)
    }

    private mutating func attributeValue(from j: Int) -> (String, Int) {
        guard j < b.count else { return ("", j) }
        var k = j
        var end: Int
        let quote = b[k]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            k += 1
            let s = k
            while k < b.count, b[k] != quote, b[k] != UInt8(ascii: "<") { k += 1 }
            end = k
            if k < b.count, b[k] == quote { k += 1 } else { notWellFormed = true }
            return (attributeText(s, end), k)
        }
        notWellFormed = true
        let s = k
        while k < b.count, !Self.isSpace(b[k]), b[k] != UInt8(ascii: ">"), b[k] != UInt8(ascii: "<") { k += 1 }
        end = k
        return (attributeText(s, end), k)
    }

    /// An attribute value with references decoded and white space normalised, as XML does.
    private mutating func attributeText(_ s: Int, _ e: Int) -> String {
        let end = min(e, s + Self.maxAttributeBytes)
        var out = [UInt8]()
        var k = s
        while k < end {
            let c = b[k]
            if c == UInt8(ascii: "&") {
                let (d, n) = entity(at: k, inAttribute: true)
                out.append(contentsOf: d)
                k = n
                continue
            }
            out.append(Self.isSpace(c) ? 0x20 : c)
            k += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
