import Foundation
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
        self.id = id; self.title = title; self.source = source; self.published = published
        self.summary = summary; self.url = url
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

    /// Parses `data`; `url` is the feed's address, against which relative links resolve.
    static func parse(_ data: Data, host: String, url: String = "") throws -> Feed {
        let text = FeedBytes.decode(data)
        let reader = FeedReader(text: text, baseURL: url)
        // Feeds need no entity declarations; they are never expanded, and a feed that
        // declares some (external entities, entity bombs) is refused outright.
        if reader.declaresEntities {
            throw DataSourceError(.badData, "\(host) sent a feed that declares XML entities: refused")
        }
        guard let root = reader.rootName else {
            throw DataSourceError(.badData, "\(host) sent a feed that is not valid XML")
        }
        guard ["rss", "feed", "rdf:rdf", "channel"].contains(root) else {
            throw DataSourceError(.badData, "\(host)'s answer is not an RSS or Atom feed")
        }
        let feedLink = NewsHTML.webURL(reader.feed.link ?? "")
        var items: [NewsItem] = []
        for entry in reader.entries {
            let title = NewsHTML.field(entry.title)
            guard !title.isEmpty else { continue }
            var link = NewsHTML.webURL(entry.link)
            if link.isEmpty, url.isEmpty, !feedLink.isEmpty, let rel = entry.link, !rel.isEmpty {
                link = NewsHTML.webURL(FeedURL.resolve(rel, against: feedLink))
            }
            let summary = NewsHTML.field(entry.fields["summary"], keepParagraphs: true)
            let rawID = NewsHTML.plain(entry.fields["id"]?.value ?? "")
            let id = rawID.isEmpty ? (link.isEmpty ? title : link) : rawID
            let date = (entry.fields["published"] ?? entry.fields["updated"]).flatMap { NewsDates.parse($0.value) }
            items.append(NewsItem(id: Fmt.shortID(id), title: title,
                                  source: NewsHTML.plain(entry.fields["sourcename"]?.value ?? ""),
                                  published: date, summary: summary, url: link))
        }
        if items.isEmpty, reader.notWellFormed {
            throw DataSourceError(.badData, "\(host) sent a feed that is not valid XML")
        }
        return Feed(title: NewsHTML.field(reader.feed.title), link: feedLink, items: items)
    }
}

/// RFC 822 (RSS) and ISO 8601 (Atom, NewsAPI) dates.
enum NewsDates {
    static func parse(_ s: String) -> Date? {
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty else { return nil }
        if let d = try? Date(t, strategy: .iso8601) { return d }
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = iso.date(from: t) { return d }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        for format in ["EEE, dd MMM yyyy HH:mm:ss Z", "EEE, d MMM yyyy HH:mm:ss Z", "dd MMM yyyy HH:mm:ss Z",
                       "EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, d MMM yyyy HH:mm zzz", "EEE, dd MMM yyyy HH:mm Z",
                       "yyyy-MM-dd'T'HH:mm:ssZ", "yyyy-MM-dd HH:mm:ss"] {
            f.dateFormat = format
            if let d = f.date(from: t) { return d }
        }
        return nil
    }
}
