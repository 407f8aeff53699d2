import Foundation
import DashWidgets
#if canImport(FoundationXML)
import FoundationXML
#endif

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

/// Turns feed HTML into plain text: tags removed (script and style with their content),
/// entities decoded, then control characters and escape sequences stripped.
enum NewsHTML {
    static func text(_ html: String, keepParagraphs: Bool = false) -> String {
        var s = html
        for tag in ["script", "style"] {
            while let open = s.range(of: "<\(tag)", options: .caseInsensitive) {
                let close = s.range(of: "</\(tag)>", options: .caseInsensitive, range: open.upperBound..<s.endIndex)
                s.removeSubrange(open.lowerBound..<(close?.upperBound ?? s.endIndex))
            }
        }
        if keepParagraphs {
            for br in ["<br>", "<br/>", "<br />", "</p>", "</div>", "</li>"] {
                s = s.replacingOccurrences(of: br, with: "\n", options: .caseInsensitive)
            }
        }
        // Remove tags: anything from < up to the next >. Inline tags vanish ("<b>W</b>ord"
        // stays one word); block tags leave a space between words.
        var out = ""
        var tag: String?
        for ch in s {
            if tag != nil {
                if ch == ">" {
                    let name = tag!.lowercased().drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }
                    if !inlineTags.contains(String(name)) { out.append(" ") }
                    tag = nil
                } else { tag!.append(ch) }
                continue
            }
            if ch == "<" { tag = ""; continue }
            out.append(ch)
        }
        if let t = tag, !t.isEmpty { out.append(" ") } // an unclosed "<": drop the rest
        out = decodeEntities(out)
        if keepParagraphs {
            let paras = TextSanitizer.clean(out, keepNewlines: true).split(separator: "\n")
                .map { TextSanitizer.singleLine(String($0)) }.filter { !$0.isEmpty }
            return paras.joined(separator: "\n")
        }
        return TextSanitizer.singleLine(out)
    }

    /// The link if it is an http(s) address, else "" (a feed must not smuggle in other schemes).
    static func webURL(_ s: String?) -> String {
        let t = TextSanitizer.singleLine(s ?? "")
        guard let c = URLComponents(string: t), let scheme = c.scheme?.lowercased(),
              scheme == "http" || scheme == "https", c.host?.isEmpty == false else { return "" }
        return t
    }

    static let inlineTags: Set<String> = ["a", "b", "i", "em", "strong", "span", "code", "small", "sup", "sub", "u", "abbr", "mark", "q", "s"]

    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ndash": "–", "mdash": "—",
        "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "laquo": "«", "raquo": "»",
        "copy": "©", "reg": "®", "trade": "™", "euro": "€", "pound": "£", "middot": "·", "bull": "•",
    ]

    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var i = s.startIndex
        while i < s.endIndex {
            let ch = s[i]
            if ch == "&", let semi = s[i...].prefix(12).firstIndex(of: ";") {
                let name = String(s[s.index(after: i)..<semi])
                var rep: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    rep = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if name.hasPrefix("#") {
                    rep = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else {
                    rep = named[name]
                }
                if let rep {
                    out += rep
                    i = s.index(after: semi)
                    continue
                }
            }
            out.append(ch)
            i = s.index(after: i)
        }
        return out
    }
}

/// Parses RSS 2.0 and Atom with Foundation's XMLParser; external entities are never
/// resolved (no file or network reads from a hostile feed).
final class NewsFeedParser: NSObject, XMLParserDelegate {
    struct Feed { var title: String; var items: [NewsItem] }

    private struct Draft {
        var title = "", link = "", summary = "", content = "", date = "", id = "", source = ""
    }

    private var feedTitle = ""
    private var items: [NewsItem] = []
    private var draft: Draft?
    private var text = ""
    private var stack: [String] = []
    private var sawRoot = false
    private var isFeedRoot = false
    private var closedRoot = false

    static func parse(_ data: Data, host: String) throws -> Feed {
        // Feeds need no entity declarations; refusing them stops external entities and
        // entity-expansion bombs before the parser sees them.
        if data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw DataSourceError(.badData, "\(host) sent a feed that declares XML entities: refused")
        }
        let p = NewsFeedParser()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = p
        // A truncated document may end without a parse error: insist on the root's end tag.
        let ok = parser.parse() && p.closedRoot
        guard ok, p.isFeedRoot else {
            if p.isFeedRoot, !p.items.isEmpty { return Feed(title: p.feedTitle, items: p.items) }
            let why = p.sawRoot && !p.isFeedRoot ? "is not an RSS or Atom feed" : "sent a feed that is not valid XML"
            throw DataSourceError(.badData, p.sawRoot && !p.isFeedRoot ? "\(host)'s answer \(why)" : "\(host) \(why)")
        }
        return Feed(title: NewsHTML.text(p.feedTitle), items: p.items)
    }

    /// The element's name without its prefix. Elements of other vocabularies that reuse
    /// RSS names (media:title, itunes:summary) get a name of their own so they never
    /// replace the story's fields; content:, dc: and atom: ones count.
    private func local(_ name: String) -> String {
        let parts = name.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { return name.lowercased() }
        let prefix = parts[0].lowercased(), local = parts[1].lowercased()
        return ["content", "dc", "atom"].contains(prefix) ? local : "\(prefix):\(local)"
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        let name = local(elementName)
        if !sawRoot {
            sawRoot = true
            isFeedRoot = ["rss", "feed", "rdf:rdf"].contains(name)
        }
        stack.append(name)
        text = ""
        if name == "item" || name == "entry" { draft = Draft() }
        if name == "link", draft != nil, let href = attributes["href"] {
            let rel = attributes["rel"] ?? "alternate"
            // The first alternate link is the article; self, edit and enclosure links are not.
            if rel == "alternate", draft!.link.isEmpty { draft!.link = href }
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        let name = local(elementName)
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        defer { if !stack.isEmpty { stack.removeLast() }; text = ""; if stack.isEmpty { closedRoot = true } }
        let parent = stack.count >= 2 ? stack[stack.count - 2] : ""
        if var d = draft {
            switch name {
            case "title" where parent == "item" || parent == "entry": d.title = value
            case "link" where !value.isEmpty && d.link.isEmpty: d.link = value
            case "description", "summary": if d.summary.isEmpty { d.summary = value }
            case "encoded", "content": if d.content.isEmpty { d.content = value }
            case "pubdate", "published", "date": d.date = value
            case "updated": if d.date.isEmpty { d.date = value }
            case "guid", "id": if parent == "item" || parent == "entry" { d.id = value }
            case "source" where parent == "item": d.source = value
            case "name" where parent == "author": break
            case "item", "entry":
                draft = nil
                finish(d)
                return
            default: break
            }
            draft = d
        } else if name == "title", ["channel", "feed"].contains(parent), feedTitle.isEmpty {
            feedTitle = value
        }
    }

    private func finish(_ d: Draft) {
        let title = NewsHTML.text(d.title)
        guard !title.isEmpty else { return }
        let link = NewsHTML.webURL(d.link)
        let summary = NewsHTML.text(d.summary.isEmpty ? d.content : d.summary, keepParagraphs: true)
        let id = TextSanitizer.singleLine(d.id.isEmpty ? (link.isEmpty ? title : link) : d.id)
        items.append(NewsItem(id: Fmt.shortID(id), title: title, source: NewsHTML.text(d.source),
                              published: NewsDates.parse(d.date), summary: summary, url: link))
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
