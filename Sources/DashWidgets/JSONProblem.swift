import Foundation

/// Why an answer that Foundation would not read as JSON is not read, in words a tile can show:
/// nested deeper than the parser goes, a number no Double holds (`1e400`), HTML, or plainly not
/// JSON. Only asked after a parse failed: the api and chart widgets, the HTTP client's decoding,
/// and `JSONValue.parse` (push, extensions).
public enum JSONProblem {
    /// How deep JSONSerialization and JSONDecoder read arrays and objects.
    public static let maxNesting = 512

    /// "nested more than 512 levels deep", "a number out of range (1e400)", "HTML, not JSON …" or
    /// "not valid JSON" (the first that applies, from one pass over at most the first 4 MB).
    public static func describe(_ data: Data) -> String {
        let start = String(decoding: data.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if start.hasPrefix("<") { return "HTML, not JSON (a login page or a wrong url?)" }
        return scan(data) ?? "not valid JSON"
    }

    /// Nesting past `maxNesting` or a number out of range, when the text has either.
    public static func scan(_ data: Data) -> String? {
        var depth = 0
        var number: [UInt8] = []
        var problem: String?
        func numberProblem() -> String? {
            defer { number.removeAll() }
            guard !number.isEmpty, let d = Double(String(decoding: number, as: UTF8.self)) else { return nil }
            guard d.isInfinite else { return nil }
            let shown = String(decoding: number.prefix(24), as: UTF8.self) + (number.count > 24 ? "…" : "")
            return "JSON holding a number out of range (\(shown)): larger than any number swiftdash can hold"
        }
        JSONStructure.forEachByte(data.prefix(4 << 20)) { b in
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                if number.count < 4096 { number.append(b) }
                return true
            default:
                problem = numberProblem()
                if problem != nil { return false }
            }
            switch b {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxNesting {
                    problem = "JSON nested more than \(maxNesting) levels deep (swiftdash reads \(maxNesting))"
                    return false
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
            return true
        }
        return problem ?? numberProblem()
    }
}
