import Foundation

/// Turns the bytes of a feed into text before any parser sees them. Whatever arrives, the
/// result is a valid Swift string; bytes that are not valid in the chosen encoding become
/// U+FFFD. Nothing downstream ever handles raw network bytes.
///
/// The encoding, first match wins (RFC 7303 §3, and what feedparser does in practice):
/// 1. a byte-order mark (dropped), or `<?` in UTF-16/UTF-32 code units, which no
///    ASCII-compatible document can start with;
/// 2. the `charset` parameter of the HTTP `Content-Type` (`FeedBytes.charset(contentType:)`),
///    with two exceptions: a name swiftdash does not know is ignored, and when it names a
///    single-byte encoding (ISO-8859-x, windows-125x, US-ASCII) while the declaration says
///    UTF-8 or nothing and the body is valid UTF-8 with multi-byte sequences, the body is
///    UTF-8 (the server's default charset is wrong far more often than such bytes are
///    meant as Latin-1). A `charset=utf-8` the body is not valid in also falls through, as
///    feedparser tries the next candidate when one fails;
/// 3. the XML declaration (`encoding="ISO-8859-1"`);
/// 4. UTF-8, or windows-1252 when nothing names a charset and the bytes are not valid UTF-8
///    (feedparser's last candidate; every byte sequence is windows-1252 text).
enum FeedBytes {
    /// Feeds larger than this are cut (the HTTP client's cap is lower; this guards other callers).
    static let maxBytes = 8 * 1024 * 1024

    /// `data` as text; `httpCharset` is the charset of the HTTP answer's `Content-Type`, if any
    /// (already checked by `charset(contentType:)`; other values are checked again here).
    static func decode(_ data: Data, httpCharset: String? = nil) -> String {
        let bytes = [UInt8](data.prefix(maxBytes))
        var body = bytes[...]
        var unit: Encoding?
        // Byte-order marks first (and dropped), then the first characters of "<?xml" in UTF-16/32.
        let marks: [([UInt8], Encoding)] = [
            ([0x00, 0x00, 0xFE, 0xFF], .utf32BE), ([0xFF, 0xFE, 0x00, 0x00], .utf32LE),
            ([0xFE, 0xFF], .utf16BE), ([0xFF, 0xFE], .utf16LE), ([0xEF, 0xBB, 0xBF], .utf8),
        ]
        if let (mark, encoding) = marks.first(where: { body.starts(with: $0.0) }) {
            unit = encoding
            body = body.dropFirst(mark.count)
        } else if body.starts(with: [0x00, 0x00, 0x00, 0x3C]) {
            unit = .utf32BE
        } else if body.starts(with: [0x3C, 0x00, 0x00, 0x00]) {
            unit = .utf32LE
        } else if body.starts(with: [0x00, 0x3C, 0x00, 0x3F]) {
            unit = .utf16BE
        } else if body.starts(with: [0x3C, 0x00, 0x3F, 0x00]) {
            unit = .utf16LE
        }
        if let unit { return decode(body, as: unit) }
        let declared = declaredEncoding(body).flatMap(Encoding.init(name:))
        if let http = httpCharset.flatMap(sanitizedCharset).flatMap(Encoding.init(name:)),
            let chosen = httpEncoding(http, declared: declared, body: body)
        {
            return decode(body, as: chosen)
        }
        if let declared { return decode(body, as: declared) }
        // Nothing names a charset: UTF-8, or windows-1252 when the bytes are not valid UTF-8
        // (feedparser's last resort; decision 46). A usable HTTP charset set aside above counts
        // as named: its body stays UTF-8 with U+FFFD.
        if httpCharset.flatMap(sanitizedCharset).flatMap(Encoding.init(name:)) == nil,
            body.contains(where: { $0 >= 0x80 }), String(validatingUTF8Bytes: body) == nil
        {
            return decode(body, as: .windows1252)
        }
        return decode(body, as: .utf8)
    }

    /// The encoding the HTTP charset gives, or nil when the rule above sets it aside.
    static func httpEncoding(_ http: Encoding, declared: Encoding?, body: ArraySlice<UInt8>) -> Encoding? {
        let isUTF8 = { String(validatingUTF8Bytes: body) != nil }
        if http == .utf8 { return isUTF8() ? .utf8 : nil }
        if http.isSingleByte, declared == nil || declared == .utf8, body.contains(where: { $0 >= 0x80 }), isUTF8() {
            return .utf8  // valid UTF-8 with a byte >= 0x80 has a multi-byte sequence
        }
        return http
    }

    /// The `charset` parameter of a `Content-Type` value (`text/xml; charset="ISO-8859-1"`):
    /// parameter names in any case, values quoted or not, other parameters skipped. Nil when
    /// there is none or it is not a plausible charset name (see `sanitizedCharset`).
    static func charset(contentType: String?) -> String? {
        guard let contentType else { return nil }
        var params = Substring(contentType.prefix(1024))
        // The media type, then "; name=value" pairs; a quoted value may hold ';'.
        guard let semicolon = params.firstIndex(of: ";") else { return nil }
        params = params[params.index(after: semicolon)...]
        while !params.isEmpty {
            params = params.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            let name = params.prefix { $0 != "=" && $0 != ";" }
            params = params.dropFirst(name.count)
            var value = ""
            if params.first == "=" {
                params = params.dropFirst().drop { $0 == " " || $0 == "\t" }
                if params.first == "\"" {
                    params = params.dropFirst()
                    while let c = params.first, c != "\"" {
                        params = params.dropFirst()
                        if c == "\\", let next = params.first {
                            value.append(next)
                            params = params.dropFirst()
                        } else {
                            value.append(c)
                        }
                    }
                    params = params.dropFirst()
                    params = params.drop { $0 != ";" }
                } else {
                    value = String(params.prefix { $0 != ";" })
                    params = params.dropFirst(value.count)
                }
            }
            if name.trimmingCharacters(in: .whitespaces).lowercased() == "charset" {
                return sanitizedCharset(value)
            }
        }
        return nil
    }

    /// `raw` trimmed if it looks like a charset name (1–40 of ASCII letters, digits and
    /// `-_.:+()`), else nil: a server's text never reaches a lookup, a log or a message as is.
    static func sanitizedCharset(_ raw: String) -> String? {
        let name = raw.trimmingCharacters(in: .whitespaces)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:+()")
        guard (1...40).contains(name.count), name.allSatisfy({ allowed.contains($0) }) else { return nil }
        return name
    }

    /// The encodings read by hand; others named in the declaration go through Foundation.
    enum Encoding: Equatable {
        case utf8, utf16LE, utf16BE, utf32LE, utf32BE, latin1, windows1252, ascii
        /// Any other charset glibc's iconv knows (the name as the feed gave it, sanitised).
        case iconv(String)

        /// One byte per character, and every byte sequence decodes: a server default that
        /// is often wrong (the guard in `decode` reads valid UTF-8 as UTF-8 instead).
        var isSingleByte: Bool {
            switch self {
            case .latin1, .windows1252, .ascii: return true
            case .iconv(let name):
                let n = name.lowercased()
                return ["iso-8859-", "iso8859-", "windows-125", "cp125", "koi8"].contains { n.hasPrefix($0) }
            default: return false
            }
        }

        init?(name raw: String) {
            let name = raw.lowercased().replacingOccurrences(of: "_", with: "-")
            switch name {
            case "utf-8", "utf8", "unicode-1-1-utf-8": self = .utf8
            case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso-ir-100", "cp819", "ibm819":
                self = .latin1
            case "windows-1252", "cp1252", "x-cp1252", "ms-ansi": self = .windows1252
            case "us-ascii", "ascii", "ansi-x3.4-1968": self = .ascii
            case "utf-16le": self = .utf16LE
            case "utf-16be", "utf-16": self = .utf16BE
            case "shift-jis", "sjis", "x-sjis", "ms-kanji": self = .iconv("SHIFT_JIS")
            case "x-gbk", "gb2312", "gb-2312": self = .iconv("GBK")  // GBK is a superset, as browsers read it
            case "big5-hkscs": self = .iconv("BIG5-HKSCS")
            case "x-euc-kr", "ks-c-5601-1987": self = .iconv("EUC-KR")
            default:
                guard FeedIconv.knows(name) else { return nil }
                self = .iconv(name)
            }
        }
    }

    /// The `encoding` pseudo-attribute of an XML declaration at the start of the document.
    static func declaredEncoding(_ bytes: ArraySlice<UInt8>) -> String? {
        let head = bytes.prefix(512)
        var i = head.startIndex
        while i < head.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        guard head[i...].starts(with: Array("<?xml".utf8)) else { return nil }
        guard let end = head[i...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let decl = String(decoding: head[i..<end], as: UTF8.self)
        guard let r = decl.range(of: "encoding") else { return nil }
        var rest = decl[r.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return value.isEmpty || value.count > 40 ? nil : String(value)
    }

    static func decode(_ bytes: ArraySlice<UInt8>, as encoding: Encoding) -> String {
        switch encoding {
        case .utf8:
            return String(decoding: bytes, as: UTF8.self)  // invalid sequences become U+FFFD
        case .ascii:
            // Declared ASCII but not: UTF-8 if it is valid UTF-8, else windows-1252 (as feed readers do).
            if let s = String(validatingUTF8Bytes: bytes) { return s }
            return singleByte(bytes, table: cp1252High)
        case .latin1:
            // C1 bytes in "Latin-1" feeds are nearly always windows-1252 punctuation.
            return singleByte(bytes, table: cp1252High)
        case .windows1252:
            return singleByte(bytes, table: cp1252High)
        case .utf16LE, .utf16BE:
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = bytes.startIndex
            while i + 1 < bytes.endIndex {
                let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
                units.append(encoding == .utf16LE ? a | b << 8 : a << 8 | b)
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        case .utf32LE, .utf32BE:
            var out = String.UnicodeScalarView()
            var i = bytes.startIndex
            while i + 3 < bytes.endIndex {
                let b = (0..<4).map { UInt32(bytes[i + $0]) }
                let v =
                    encoding == .utf32LE
                    ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
                    : b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
                out.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                i += 4
            }
            return String(out)
        case .iconv(let name):
            return FeedIconv.decode(bytes, charset: name) ?? String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A single-byte encoding whose lower half is ASCII and upper half Latin-1 except 0x80–0x9F.
    static func singleByte(_ bytes: ArraySlice<UInt8>, table: [UInt16]) -> String {
        var out = String.UnicodeScalarView()
        for b in bytes {
            if (0x80...0x9F).contains(b) {
                out.append(Unicode.Scalar(UInt32(table[Int(b) - 0x80])) ?? "\u{FFFD}")
            } else {
                out.append(Unicode.Scalar(b))
            }
        }
        return String(out)
    }

    /// windows-1252 for 0x80–0x9F; the five undefined bytes keep their C1 code points.
    static let cp1252High: [UInt16] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}

extension String {
    /// The bytes as a string if they are valid UTF-8, else nil.
    init?(validatingUTF8Bytes bytes: ArraySlice<UInt8>) {
        var it = bytes.makeIterator()
        var decoder = UTF8()
        var out = String.UnicodeScalarView()
        loop: while true {
            switch decoder.decode(&it) {
            case .scalarValue(let s): out.append(s)
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        self = String(out)
    }
}

/// Limits on text that comes from outside, applied where it enters the program.
enum OutsideText {
    /// The longest text kept from one field (a title, a summary, a name).
    static let maxCharacters = 2_000

    /// `s` cut to `limit` characters, at a grapheme boundary (a flag or an accented letter
    /// is never split).
    static func capped(_ s: String, _ limit: Int = maxCharacters) -> String {
        var n = 0
        var end = s.startIndex
        while end < s.endIndex {
            if n == limit { return String(s[..<end]) }
            end = s.index(after: end)
            n += 1
        }
        return s
    }

    /// Windows-1252 punctuation that arrived as C1 control characters (`&#150;`, mislabelled
    /// Latin-1) mapped to what was meant, as feed readers do.
    static func mapC1(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if (0x80...0x9F).contains(u.value) {
                out.append(Unicode.Scalar(UInt32(FeedBytes.cp1252High[Int(u.value) - 0x80])) ?? u)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    /// Text that was UTF-8, read as Latin-1 and encoded again ("CafÃ©"), put back ("Café").
    /// Only when every character fits in one byte and those bytes are valid UTF-8 with at
    /// least one multi-byte sequence, so ordinary Latin-1 text ("café") is left alone.
    static func repairMojibake(_ s: String) -> String {
        var bytes: [UInt8] = []
        var high = false
        for u in s.unicodeScalars {
            guard u.value <= 0xFF else { return s }
            if u.value >= 0x80 { high = true }
            bytes.append(UInt8(u.value))
        }
        guard high, let fixed = String(validatingUTF8Bytes: bytes[...]) else { return s }
        return fixed
    }

    /// Runs of white space (any Unicode space, tabs and line breaks) made one space, ends trimmed.
    static func collapsed(_ s: String) -> String {
        var out = ""
        var pendingSpace = false
        for ch in s {
            if ch.isWhitespace {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(ch)
            }
        }
        return out
    }
}
