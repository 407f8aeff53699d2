import Foundation
import DashCore
import DashWidgets

/// One story from a feed or a JSON API, already cleaned for the screen.
public struct NewsItem: Codable, Sendable, Hashable {
    public var id: String
    public var title: String
    public var source: String
    public var published: Date?
    public var summary: String
    public var url: String

    public init(id: String, title: String, source: String, published: Date?, summary: String, url: String) {
        self.id = id
        self.title = title
        self.source = source
        self.published = published
        self.summary = summary
        self.url = url
    }
}

/// Turns outside text into what a tile shows: HTML reduced to text (tags removed, script
/// and style with their content, references decoded by HTML5's rules), escape sequences
/// and control characters removed, white space collapsed, at most 2,000 characters.
enum NewsHTML {
    static func text(_ html: String, keepParagraphs: Bool = false) -> String {
        plain(HTMLText.plain(html, keepParagraphs: keepParagraphs), keepParagraphs: keepParagraphs)
    }

    /// Text that is already plain: only cleaned, collapsed and capped.
    static func plain(_ s: String, keepParagraphs: Bool = false) -> String {
        let capped = OutsideText.capped(s, OutsideText.maxCharacters * 4)
        if keepParagraphs {
            let paras = TextSanitizer.clean(capped, keepNewlines: true).split(separator: "\n")
                .map { OutsideText.collapsed(String($0)) }.filter { !$0.isEmpty }
            return OutsideText.capped(paras.joined(separator: "\n"))
        }
        return OutsideText.capped(OutsideText.collapsed(TextSanitizer.clean(capped)))
    }

    /// A feed field as text: markup reduced when the feed says (or shows) it is HTML.
    static func field(_ f: FeedReader.Field?, keepParagraphs: Bool = false) -> String {
        guard let f else { return "" }
        return f.isHTML ? text(f.value, keepParagraphs: keepParagraphs) : plain(f.value, keepParagraphs: keepParagraphs)
    }

    /// The link if it is an http(s) address, else "" (a feed must not smuggle in other schemes).
    static func webURL(_ s: String?) -> String { FeedURL.web(s ?? "") }
}

/// Reads an RSS or Atom feed from the bytes a server sent. The bytes are decoded and
/// repaired first (`FeedBytes`), then read by a lenient tokenizer (`XMLTokenizer`) with
/// feedparser's rules (`FeedReader`): no parser ever sees invalid text, nothing is
/// resolved from outside, and a feed that is not well formed is recovered, not dropped.
enum NewsFeedParser {
    struct Feed {
        var title: String
        var link: String
        var items: [NewsItem]
    }

    /// Parses `data`; `url` is the feed's address, against which relative links resolve;
    /// `contentType` is the HTTP answer's `Content-Type`, whose charset `FeedBytes` weighs.
    static func parse(_ data: Data, host: String, url: String = "", contentType: String? = nil) throws -> Feed {
        let text = FeedBytes.decode(data, httpCharset: FeedBytes.charset(contentType: contentType))
        let reader = FeedReader(text: text, baseURL: url)
        // Feeds need no entity declarations; they are never expanded, and a feed that
        // declares some (external entities, entity bombs) is refused outright.
        if reader.declaresEntities {
            throw DataSourceError(.badData, "\(host) sent a feed that declares XML entities: refused")
        }
        guard let root = reader.rootName else {
            throw DataSourceError(.badData, "\(host) sent a feed that is not valid XML")
        }
        // A root with a prefix of its own (`<rss:rss>`, `<x:RDF>`) is read like the plain one.
        let local = root.split(separator: ":").last.map(String.init) ?? root
        guard
            ["rss", "feed", "rdf:rdf", "channel"].contains(root) || ["rss", "feed", "rdf", "channel"].contains(local)
        else {
            throw DataSourceError(.badData, "\(host)'s answer is not an RSS or Atom feed")
        }
        let feedLink = NewsHTML.webURL(reader.feed.link ?? "")
        var items: [NewsItem] = []
        for entry in reader.entries {
            let summary = NewsHTML.field(entry.fields["summary"], keepParagraphs: true)
            // An item without a title (Mastodon, micro.blog) is a story too: its first words
            // stand for the title, as feed readers show them.
            let given = NewsHTML.field(entry.title)
            let title = given.isEmpty ? Self.titleFromSummary(NewsHTML.field(entry.fields["summary"])) : given
            guard !title.isEmpty else { continue }
            var link = NewsHTML.webURL(entry.link)
            if link.isEmpty, url.isEmpty, !feedLink.isEmpty, let rel = entry.link, !rel.isEmpty {
                link = NewsHTML.webURL(FeedURL.resolve(rel, against: feedLink))
            }
            let rawID = NewsHTML.plain(entry.fields["id"]?.value ?? "")
            let id = rawID.isEmpty ? (link.isEmpty ? title : link) : rawID
            let date = (entry.fields["published"] ?? entry.fields["updated"]).flatMap { NewsDates.parse($0.value) }
            items.append(
                NewsItem(
                    id: Fmt.shortID(id), title: title,
                    source: NewsHTML.plain(entry.fields["sourcename"]?.value ?? ""),
                    published: date, summary: summary, url: link))
        }
        if items.isEmpty, reader.notWellFormed {
            throw DataSourceError(.badData, "\(host) sent a feed that is not valid XML")
        }
        return Feed(title: NewsHTML.field(reader.feed.title), link: feedLink, items: items)
    }

    /// `summary` (as one line of text) cut at a word after at most `limit` characters (with "…");
    /// Tests/reference/feedparser_reference.py applies the same rule to feedparser's summary.
    static func titleFromSummary(_ summary: String, limit: Int = 80) -> String {
        let words = summary.split(whereSeparator: { $0 == " " || $0.isNewline })
        var out = ""
        for w in words {
            let next = out.isEmpty ? String(w) : out + " " + w
            if next.count > limit {
                return out.isEmpty ? String(w.prefix(limit - 1)) + "…" : out + "…"
            }
            out = next
        }
        return out
    }
}

/// RFC 822 (RSS: "Mon, 23 Nov 2026 08:41:09 GMT", "+0100", "EST") and ISO 8601 (Atom,
/// NewsAPI, GitHub, git: "2026-11-23T08:41:09.123+01:00", a date alone). Read by hand:
/// fast, the same on every machine, and without ICU's date formatters (memory, decision 16).
enum NewsDates {
    static func parse(_ s: String) -> Date? {
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        var t = Array(s.utf8.prefix(80)).drop(while: isSpace)
        while let last = t.last, isSpace(last) { t.removeLast() }
        guard let first = t.first else { return nil }
        return first >= 0x30 && first <= 0x39 && t.count >= 10 && t[t.startIndex + 4] == UInt8(ascii: "-")
            ? iso8601(Array(t)) : rfc822(Array(t))
    }

    /// Seconds since 1970 of a UTC calendar time, or nil when a field is out of range.
    static func epoch(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ sec: Double, offset: Int) -> Date? {
        guard (1...9999).contains(y), (1...12).contains(mo), (1...31).contains(d), (0...24).contains(h),
            (0...59).contains(mi), sec >= 0, sec < 61
        else { return nil }
        guard d <= Civil.daysInMonth(y, mo) else { return nil }
        let dayNumber = Civil.days(y, mo, d)
        let seconds = Double(dayNumber * 86_400 + h * 3_600 + mi * 60 - offset) + sec
        return Date(timeIntervalSince1970: seconds)
    }

    private struct Scanner {
        let b: [UInt8]
        var i = 0
        var atEnd: Bool { i >= b.count }
        var peek: UInt8? { i < b.count ? b[i] : nil }
        mutating func number(maxDigits: Int = 9) -> (value: Int, digits: Int)? {
            var v = 0, n = 0
            while i < b.count, n < maxDigits, b[i] >= 0x30, b[i] <= 0x39 {
                v = v * 10 + Int(b[i] - 0x30)
                i += 1
                n += 1
            }
            return n == 0 ? nil : (v, n)
        }
        mutating func skip(_ c: UInt8) -> Bool {
            guard peek == c else { return false }
            i += 1
            return true
        }
        mutating func skipSpaces() { while let c = peek, c == 0x20 || c == 0x09 || c == 0x2C { i += 1 } }
        mutating func word() -> String {
            let s = i
            while let c = peek, (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) { i += 1 }
            return String(decoding: b[s..<i], as: UTF8.self).lowercased()
        }
    }

    /// "+hh:mm", "+hhmm", "+hh", "Z", a named zone, or nothing (UTC).
    private static func zone(_ sc: inout Scanner) -> Int? {
        sc.skipSpaces()
        guard let c = sc.peek else { return 0 }
        if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
            sc.i += 1
            guard let h = sc.number(maxDigits: 2) else { return nil }
            var m = 0
            if h.digits == 2 {
                _ = sc.skip(UInt8(ascii: ":"))
                m = sc.number(maxDigits: 2)?.value ?? 0
            }
            guard h.value <= 23, m <= 59 else { return nil }
            let off = h.value * 3_600 + m * 60
            return c == UInt8(ascii: "-") ? -off : off
        }
        let names: [String: Int] = [
            "z": 0, "gmt": 0, "ut": 0, "utc": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5,
            "mst": -7, "mdt": -6, "pst": -8, "pdt": -7, "cet": 1, "cest": 2, "bst": 1,
        ]
        let w = sc.word()
        return names[w].map { $0 * 3_600 } ?? (w.isEmpty ? nil : 0)
    }

    private static func iso8601(_ b: [UInt8]) -> Date? {
        var sc = Scanner(b: b)
        guard let y = sc.number(maxDigits: 4), y.digits == 4, sc.skip(UInt8(ascii: "-")),
            let mo = sc.number(maxDigits: 2), sc.skip(UInt8(ascii: "-")), let d = sc.number(maxDigits: 2)
        else {
            return nil
        }
        var h = 0, mi = 0, sec = 0.0
        if sc.skip(UInt8(ascii: "T")) || sc.skip(UInt8(ascii: "t")) || sc.skip(UInt8(ascii: " ")) {
            guard let hh = sc.number(maxDigits: 2), sc.skip(UInt8(ascii: ":")), let mm = sc.number(maxDigits: 2) else {
                return nil
            }
            h = hh.value
            mi = mm.value
            if sc.skip(UInt8(ascii: ":")) {
                guard let ss = sc.number(maxDigits: 2) else { return nil }
                sec = Double(ss.value)
                if sc.skip(UInt8(ascii: ".")) || sc.skip(UInt8(ascii: ",")) {
                    guard let frac = sc.number(maxDigits: 9) else { return nil }
                    sec += Double(frac.value) / pow(10, Double(frac.digits))
                    while let c = sc.peek, c >= 0x30, c <= 0x39 { sc.i += 1 }
                }
            }
        }
        guard let off = zone(&sc) else { return nil }
        sc.skipSpaces()
        guard sc.atEnd else { return nil }
        return epoch(y.value, mo.value, d.value, h, mi, sec, offset: off)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func rfc822(_ b: [UInt8]) -> Date? {
        var sc = Scanner(b: b)
        sc.skipSpaces()
        if let c = sc.peek, !(c >= 0x30 && c <= 0x39) {
            _ = sc.word()  // the day name
            sc.skipSpaces()
        }
        guard let d = sc.number(maxDigits: 2) else { return nil }
        sc.skipSpaces()
        _ = sc.skip(UInt8(ascii: "-"))
        let monthName = sc.word()
        guard monthName.count >= 3, let mo = months.firstIndex(of: String(monthName.prefix(3))) else { return nil }
        _ = sc.skip(UInt8(ascii: "-"))
        sc.skipSpaces()
        guard var y = sc.number(maxDigits: 4)?.value else { return nil }
        if y < 100 { y += y < 50 ? 2000 : 1900 }
        sc.skipSpaces()
        guard let hh = sc.number(maxDigits: 2), sc.skip(UInt8(ascii: ":")), let mm = sc.number(maxDigits: 2) else {
            return epoch(y, mo + 1, d.value, 0, 0, 0, offset: 0)
        }
        var sec = 0.0
        if sc.skip(UInt8(ascii: ":")) {
            guard let ss = sc.number(maxDigits: 2) else { return nil }
            sec = Double(ss.value)
        }
        guard let off = zone(&sc) else { return nil }
        return epoch(y, mo + 1, d.value, hh.value, mm.value, sec, offset: off)
    }
}
