// Text helpers of `FeedReader`: escaping, HTML detection, query ampersands.
extension FeedReader {
    static func escape(_ s: String, quotes: Bool) -> String {
        guard s.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || (quotes && $0 == "\"") }) else { return s }
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// "?a=1&b;=2" (a query read as an entity by a sloppy parser) back to "?a=1&b=2".
    static func fixQueryAmpersands(_ s: String) -> String {
        guard s.contains("&") else { return s }
        let u = Array(s.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < u.count {
            out.append(u[i])
            if u[i] == "&" {
                var k = i + 1
                while k < u.count, isASCIIWord(u[k]) { k += 1 }
                if k > i + 1, k < u.count, u[k] == ";" {
                    out.append(contentsOf: u[(i + 1)..<k])
                    i = k + 1
                    continue
                }
            }
            i += 1
        }
        return String(out)
    }

    static func isASCIIWord(_ u: Unicode.Scalar) -> Bool {
        (u.value >= 0x30 && u.value <= 0x39) || (u.value >= 0x41 && u.value <= 0x5A)
            || (u.value >= 0x61 && u.value <= 0x7A) || u == "_"
    }

    static func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    /// Whether a plain-text RSS field is really HTML: it has an end tag or a reference, every
    /// tag is a known HTML element and every named reference an HTML 4 one.
    static func looksLikeHTML(_ s: String) -> Bool {
        let c = Array(s)
        var sawEndTag = false, sawReference = false
        var i = 0
        while i < c.count {
            if c[i] == "<" {
                var k = i + 1
                let closing = k < c.count && c[k] == "/"
                if closing { k += 1 }
                let nameStart = k
                while k < c.count, isWord(c[k]) { k += 1 }
                if k > nameStart {
                    let tag = String(c[nameStart..<k]).lowercased()
                    if !htmlElements.contains(tag) { return false }
                    if closing, k < c.count, c[k] == ">" { sawEndTag = true }
                }
            } else if c[i] == "&" {
                var k = i + 1
                let numeric = k < c.count && c[k] == "#"
                if numeric { k += 1 }
                let nameStart = k
                while k < c.count, isWord(c[k]) { k += 1 }
                if k > nameStart, k < c.count, c[k] == ";" {
                    sawReference = true
                    if !numeric, !HTMLEntities.html4.contains(String(c[nameStart..<k])) { return false }
                }
            }
            i += 1
        }
        return sawEndTag || sawReference
    }
}
