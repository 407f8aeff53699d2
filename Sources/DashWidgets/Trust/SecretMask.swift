import Foundation

/// The secrets one load may send (keys, tokens, what a secret's command printed, the
/// environment variables a setting names) and the masking that keeps them out of what the load
/// brings back (issue 37.4): a server that echoes its request — httpbin's `/headers`, an error
/// page quoting `Authorization` — would otherwise have the token drawn in the tile, printed by
/// `snapshot` and written to the cache. Each secret is masked as sent and in the encodings a
/// server may echo it in: base64 (plain and URL-safe), URL percent-encoding, hex, JSON escapes.
public struct SecretMask: Sendable {
    /// What a masked secret reads as.
    public static let mark = "••••"
    /// Shorter values are not masked: "on" or "1" would take words and numbers with them.
    public static let shortest = 4

    /// Every form to look for, longest first (so a form inside another is not cut first).
    public let forms: [String]

    public init(_ secrets: [String]) {
        var all = Set<String>()
        for s in secrets where s.count >= Self.shortest { all.formUnion(Self.encodings(of: s)) }
        forms = all.filter { $0.count >= Self.shortest }.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    public var isEmpty: Bool { forms.isEmpty }

    /// The secrets a load with `config` sends: its secret parameters (as given, or from their
    /// environment variable) and every `${NAME}` a setting names, from `environment`.
    public static func of(_ config: WidgetConfig, schema: ConfigurationSchema, environment: [String: String])
        -> SecretMask
    {
        let resolved = schema.resolve(config, environment: environment)
        var secrets: [String] = []
        for p in schema.parameters where p.isSecret {
            if let v = resolved[p.key] { secrets.append(v.description) }
            if let name = p.environmentVariable, let v = environment[name] { secrets.append(v) }
        }
        for (_, v) in config.values {
            let texts: [String]
            switch v {
            case .string(let s): texts = [s]
            case .list(let l): texts = l
            default: texts = []
            }
            for t in texts { secrets += variables(in: t).compactMap { environment[$0] } }
        }
        return SecretMask(secrets)
    }

    /// The names in `${NAME}` references of `text`.
    static func variables(in text: String) -> [String] {
        var out: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "${") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: "}") else { break }
            out.append(String(rest[..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return out
    }

    /// `s` as sent and as a server may echo it.
    static func encodings(of s: String) -> Set<String> {
        let bytes = Data(s.utf8)
        let base64 = bytes.base64EncodedString()
        let unpadded = String(base64.reversed().drop { $0 == "=" }.reversed())
        let urlSafe = unpadded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        var forms: Set<String> = [s, base64, unpadded, urlSafe, hex, hex.uppercased()]
        // Percent-encoding: everything but unreserved characters, and a form's own choice of
        // what to leave alone (a query's `+`, `/`), in either case of hex digits.
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        for allowed in [unreserved, .alphanumerics, .urlQueryAllowed, .urlPathAllowed] {
            if let p = s.addingPercentEncoding(withAllowedCharacters: allowed) {
                forms.insert(p)
                forms.insert(lowercasingPercentEscapes(p))
            }
        }
        // A JSON string's escapes, as JSONEncoder writes them and with `/` escaped.
        if let data = try? JSONEncoder().encode(s) {
            let quoted = String(decoding: data, as: UTF8.self)
            let inner = String(quoted.dropFirst().dropLast())
            forms.insert(inner)
            forms.insert(inner.replacingOccurrences(of: "/", with: "\\/"))
            forms.insert(inner.replacingOccurrences(of: "\\/", with: "/"))
        }
        return forms
    }

    static func lowercasingPercentEscapes(_ s: String) -> String {
        var out = ""
        var it = s.makeIterator()
        while let c = it.next() {
            out.append(c)
            if c == "%" {
                for _ in 0..<2 { if let h = it.next() { out.append(Character(h.lowercased())) } }
            }
        }
        return out
    }

    /// `text` with every form of every secret replaced by `mark`.
    public func mask(_ text: String) -> String {
        guard !forms.isEmpty else { return text }
        var out = text
        for f in forms where out.contains(f) { out = out.replacingOccurrences(of: f, with: Self.mark) }
        return out
    }

    /// Whether `text` holds any form of a secret.
    public func finds(in text: String) -> Bool { forms.contains { text.contains($0) } }

    /// `entries` with every secret masked in every string they hold (titles, fields, lines):
    /// through the widget's own cache encoding, so no entry type has to know. Nil when an entry
    /// held one and could not be read back masked (the load then fails rather than show it).
    public func masking(_ entries: [AnyEntry], of widget: Widget) -> [AnyEntry]? {
        guard !forms.isEmpty, let data = try? widget.encodeEntries(entries) else { return entries }
        let text = String(decoding: data, as: UTF8.self)
        // The cache's JSON escapes what JSON escapes: a secret with `"` is found as `\"`.
        guard finds(in: text) else { return entries }
        guard let tree = try? JSONDecoder.dash.decode(JSONValue.self, from: data),
            let masked = try? JSONEncoder.dash.encode(mask(tree)),
            let out = try? widget.decodeEntries(masked), out.count == entries.count
        else { return nil }
        return out
    }

    func mask(_ v: JSONValue) -> JSONValue {
        switch v {
        case .string(let s): return .string(mask(s))
        case .array(let a): return .array(a.map { mask($0) })
        case .object(let o):
            var out: [String: JSONValue] = [:]
            for (k, value) in o { out[mask(k)] = mask(value) }
            return .object(out)
        default: return v
        }
    }
}

/// A load's failure whose message held a secret: the message masked, what it was otherwise lost.
public struct MaskedFailure: LocalizedError, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var errorDescription: String? { message }
    public var description: String { message }
}
