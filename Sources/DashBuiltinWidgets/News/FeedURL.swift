/// Resolving the links of a feed: relative references (`/path`, `//host/path`, `story.html`,
/// `?page=2`) against `xml:base` or the feed's own address, by RFC 3986 as feed readers
/// (Python's `urljoin`) do it. Works on strings: a link with a space or a non-ASCII
/// character is still a link.
enum FeedURL {
    struct Parts {
        var scheme = ""
        var netloc = ""
        var hasNetloc = false
        var path = ""
        var query = ""
        var fragment = ""
    }

    static let usesRelative: Set<String> = [
        "", "ftp", "http", "gopher", "nntp", "imap", "wais", "file", "https", "shttp", "mms",
        "prospero", "rtsp", "rtspu", "sftp", "svn", "svn+ssh", "ws", "wss",
    ]
    static let usesNetloc: Set<String> = [
        "", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file", "mms", "https", "shttp",
        "snews", "prospero", "rtsp", "rtspu", "rsync", "svn", "svn+ssh", "sftp", "nfs", "git", "git+ssh",
        "ws", "wss",
    ]
    /// Schemes a base (`xml:base`) may have; anything else is ignored as a base.
    static let safeSchemes: Set<String> = [
        "file", "ftp", "gopher", "h323", "hdl", "http", "https", "imap", "magnet", "mailto", "mms", "news",
        "nntp", "prospero", "rsync", "rtsp", "rtspu", "sftp", "shttp", "sip", "sips", "snews", "svn",
        "svn+ssh", "telnet", "wais", "aim", "callto", "cvs", "facetime", "feed", "git", "gtalk", "irc", "ircs",
        "irc6", "itms", "msnim", "skype", "ssh", "smb", "ymsg",
    ]

    static let maxLength = 8 * 1024

    static func split(_ raw: String, defaultScheme: String = "") -> Parts {
        // Leading controls and spaces go; tabs and line breaks anywhere go (WHATWG, urllib).
        var s = Substring(raw).drop { $0.unicodeScalars.allSatisfy { $0.value <= 0x20 } }
        if s.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            s = Substring(s.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" && $0 != "\r\n" })
        }
        var p = Parts()
        p.scheme = defaultScheme
        if let colon = s.firstIndex(of: ":"), colon > s.startIndex,
            let first = s.first, first.isASCII, first.isLetter,
            s[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        {
            p.scheme = s[..<colon].lowercased()
            s = s[s.index(after: colon)...]
        }
        if s.hasPrefix("//") {
            let rest = s.dropFirst(2)
            let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
            p.netloc = String(rest[..<end])
            p.hasNetloc = true
            s = rest[end...]
        }
        if let hash = s.firstIndex(of: "#") {
            p.fragment = String(s[s.index(after: hash)...])
            s = s[..<hash]
        }
        if let q = s.firstIndex(of: "?") {
            p.query = String(s[s.index(after: q)...])
            s = s[..<q]
        }
        p.path = String(s)
        return p
    }

    static func join(_ p: Parts) -> String {
        var url = p.path
        if !p.netloc.isEmpty || (!p.scheme.isEmpty && usesNetloc.contains(p.scheme) && !url.hasPrefix("//")) {
            if !url.isEmpty, !url.hasPrefix("/") { url = "/" + url }
            url = "//" + p.netloc + url
        }
        if !p.scheme.isEmpty { url = p.scheme + ":" + url }
        if !p.query.isEmpty { url += "?" + p.query }
        if !p.fragment.isEmpty { url += "#" + p.fragment }
        return url
    }

    /// `ref` resolved against `base`.
    static func resolve(_ ref: String, against base: String) -> String {
        var ref = String(ref.prefix(maxLength))
        // "http:///host" (extra slashes after the scheme) is read as "http://host".
        if let r = ref.range(of: "://"),
            ref[..<r.lowerBound].allSatisfy({
                $0.isASCII
                    && ($0.isLetter || $0.isNumber
                        || "+,-.".contains($0))
            }), ref.first?.isLetter == true, ref[r.upperBound...].hasPrefix("/")
        {
            ref = String(ref[..<r.upperBound]) + ref[r.upperBound...].drop { $0 == "/" }
        }
        if base.isEmpty { return ref }
        if ref.isEmpty { return base }
        let b = split(base)
        var r = split(ref, defaultScheme: b.scheme)
        if r.scheme != b.scheme || !usesRelative.contains(r.scheme) { return ref }
        if usesNetloc.contains(r.scheme) {
            if !r.netloc.isEmpty { return join(r) }
            r.netloc = b.netloc
        }
        if r.path.isEmpty {
            r.path = b.path
            if r.query.isEmpty { r.query = b.query }
            return join(r)
        }
        var baseParts = b.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if baseParts.last != "" { baseParts.removeLast() }
        var segments: [String]
        if r.path.hasPrefix("/") {
            segments = r.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        } else {
            segments = baseParts + r.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if segments.count > 2 {
                let middle = segments[1..<(segments.count - 1)].filter { !$0.isEmpty }
                segments = [segments[0]] + middle + [segments[segments.count - 1]]
            }
        }
        var resolved: [String] = []
        for seg in segments {
            if seg == ".." {
                if !resolved.isEmpty { resolved.removeLast() }
            } else if seg != "." {
                resolved.append(seg)
            }
        }
        if let last = segments.last, last == "." || last == ".." { resolved.append("") }
        let path = resolved.joined(separator: "/")
        r.path = path.isEmpty ? "/" : path
        return join(r)
    }

    /// A new base from `attribute` (an `xml:base`), or nil when it would not be a safe one.
    static func safeBase(_ attribute: String, current: String) -> String? {
        if current.isEmpty { return resolve(attribute, against: "") }
        let joined = resolve(attribute, against: current)
        let scheme = joined.trimmingWhitespace().split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        return safeSchemes.contains(scheme) ? joined : nil
    }

    /// The link if it is an absolute http(s) address with a host, else "" (a feed must not
    /// smuggle in other schemes). Control and bidi characters are removed first. A link
    /// longer than a field may be (2,000 characters) is dropped: cut, it would open another page.
    static func web(_ s: String) -> String {
        let t = stripControls(String(s.prefix(maxLength))).trimmingWhitespace()
        guard t.count <= OutsideText.maxCharacters else { return "" }
        let p = split(t)
        guard p.scheme == "http" || p.scheme == "https", p.hasNetloc, !p.netloc.isEmpty else { return "" }
        return t
    }

    /// `s` without C0/C1 control characters and bidirectional controls (which could make a
    /// link read as another on screen).
    static func stripControls(_ s: String) -> String {
        func isControl(_ u: Unicode.Scalar) -> Bool {
            u.value < 0x20 || (0x7F...0x9F).contains(u.value) || (0x202A...0x202E).contains(u.value)
                || (0x2066...0x2069).contains(u.value) || u.value == 0x200E || u.value == 0x200F
        }
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        return String(String.UnicodeScalarView(s.unicodeScalars.filter { !isControl($0) }))
    }
}

extension StringProtocol {
    /// Without leading and trailing white space (any Unicode space or line break).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) ?? first
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
