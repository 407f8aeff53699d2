/// Reads RSS 0.9x, 1.0 (RDF) and 2.0 and Atom 0.3 and 1.0 the way Python's feedparser, the
/// de-facto reference, reads them: which element gives an entry its title and link, when a
/// plain-text RSS title is really HTML, `xml:base`, `guid` as the link, link relations
/// compared without case. It works on `XMLTokenizer` tokens, so a feed that is not well
/// formed is read leniently instead of failing, and it keeps bounded state (depth, items,
/// text per element), so no input can make it use much memory or time.
struct FeedReader {
    /// A text field as the feed gave it: `isHTML` says it is markup to reduce to text.
    struct Field: Equatable {
        var value: String
        var isHTML: Bool
    }

    struct Entry {
        var fields: [String: Field] = [:]
        /// At which depth each field was taken (a shallower element wins over a deeper one).
        var depths: [String: Int] = [:]
        var title: Field? { fields["title"] }
        var link: String? { fields["link"]?.value }
    }

    static let maxDepth = 256
    static let maxEntries = 500
    static let maxStack = 1024
    static let maxFieldBytes = 256 * 1024

    // What was read.
    var feed = Entry()
    var entries: [Entry] = []
    var version = ""
    var rootName: String?
    var notWellFormed = false
    var declaresEntities = false

    struct Pending {
        var name: String
        var expectingText: Bool
        var pieces: [String] = []
        var bytes = 0
    }

    var stack: [Pending] = []
    var namespaces: [[String: String]] = [[:]]
    var depth = 0
    var ignoredDepth = 0
    var base: String
    var baseStack: [String] = []
    var inFeed = false, inEntry = false, inImage = false, inTextInput = false, inSource = false
    var feedHasImage = false
    var inContent = 0
    var contentType: String?
    /// Atom 0.3's `mode` of the text construct being read (`base64`, `escaped`, `xml`).
    var contentMode: String?
    var hasContent = false
    var summaryKey: String?
    var titleDepth = -1
    var guidIsLink = false
    var source = Entry()
    var image = Entry()
    var textInput = Entry()

    /// Namespaces that feed readers know by a fixed prefix ("" for the feed formats themselves).
    static let knownNamespaces: [String: String] = [
        "": "",
        "http://backend.userland.com/rss": "",
        "http://blogs.law.harvard.edu/tech/rss": "",
        "http://purl.org/rss/1.0/": "",
        "http://my.netscape.com/rdf/simple/0.9/": "",
        "http://example.com/newformat#": "",
        "http://example.com/necho": "",
        "http://purl.org/echo/": "",
        "uri/of/echo/namespace#": "",
        "http://purl.org/pie/": "",
        "http://purl.org/atom/ns#": "",
        "http://www.w3.org/2005/atom": "",
        "http://purl.org/rss/1.0/modules/rss091#": "",
        "http://purl.org/rss/1.0/modules/content/": "content",
        "http://purl.org/dc/elements/1.1/": "dc",
        "http://purl.org/dc/terms/": "dcterms",
        "http://search.yahoo.com/mrss": "media",
        "http://search.yahoo.com/mrss/": "media",
        "http://www.itunes.com/dtds/podcast-1.0.dtd": "itunes",
        "http://example.com/dtds/podcast-1.0.dtd": "itunes",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#": "rdf",
        "http://www.w3.org/2000/01/rdf-schema#": "rdfs",
        "http://www.w3.org/1999/xhtml": "xhtml",
        "http://www.w3.org/xml/1998/namespace": "xml",
        "http://purl.org/rss/1.0/modules/syndication/": "sy",
        "http://purl.org/rss/1.0/modules/slash/": "slash",
        "http://wellformedweb.org/commentapi/": "wfw",
        "http://rssnamespace.org/feedburner/ext/1.0": "feedburner",
        "http://www.georss.org/georss": "georss",
        "http://podlove.org/simple-chapters": "psc",
        "http://purl.org/rss/1.0/modules/threading/": "thr",
        "http://www.w3.org/1999/xlink": "xlink",
    ]

    /// HTML elements whose presence lets a plain-text RSS field count as HTML.
    static let htmlElements: Set<String> = [
        "a", "abbr", "acronym", "address", "area", "article", "aside", "audio", "b", "big", "blockquote",
        "br", "button", "canvas", "caption", "center", "cite", "code", "col", "colgroup", "command",
        "datagrid", "datalist", "dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em",
        "event-source", "fieldset", "figcaption", "figure", "font", "footer", "form", "h1", "h2", "h3", "h4",
        "h5", "h6", "header", "hr", "i", "img", "input", "ins", "kbd", "keygen", "label", "legend", "li", "m",
        "map", "menu", "meter", "multicol", "nav", "nextid", "noscript", "ol", "optgroup", "option",
        "output", "p", "pre", "progress", "q", "s", "samp", "section", "select", "small", "sound", "source",
        "spacer", "span", "strike", "strong", "sub", "sup", "table", "tbody", "td", "textarea", "tfoot", "th",
        "thead", "time", "tr", "tt", "u", "ul", "var", "video",
    ]

    static let xhtml = "application/xhtml+xml"

    /// Reads `text` (already decoded); `baseURL` is the feed's own address, for relative links.
    init(text: String, baseURL: String) {
        base = baseURL
        var tokenizer = XMLTokenizer(text)
        while let token = tokenizer.next() {
            switch token {
            case .start(let name, let attributes, let selfClosing):
                start(name, attributes)
                if selfClosing { end(name) }
            case .end(let name):
                end(name)
            case .text(let s), .cdata(let s):
                handleData(s)
            }
            if entries.count > Self.maxEntries { break }
        }
        if entries.count > Self.maxEntries { entries.removeLast(entries.count - Self.maxEntries) }
        notWellFormed = tokenizer.notWellFormed || depth != 0
        declaresEntities = tokenizer.declaresEntities
    }

    // MARK: names

    /// The element's name as feed readers key it: lower case, prefixed by the known prefix of
    /// its namespace (`dc:title`, `media:title`), or by the prefix as written when the
    /// namespace is unknown or undeclared; Atom and RSS elements have no prefix.
    func canonical(_ qname: String) -> String {
        let lower = qname.lowercased()
        let parts = lower.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 {
            let prefix = String(parts[0])
            let local = String(parts[1])
            if prefix == "xml" { return "xml:" + local }
            if let uri = lookup(prefix), let known = Self.knownNamespaces[uri.lowercased()] {
                return known.isEmpty ? local : known + ":" + local
            }
            return prefix + ":" + local
        }
        if let uri = lookup(""), let known = Self.knownNamespaces[uri.lowercased()], !known.isEmpty {
            return known + ":" + lower
        }
        return lower
    }

    func lookup(_ prefix: String) -> String? {
        for scope in namespaces.reversed() {
            if let uri = scope[prefix] { return uri }
        }
        return nil
    }

    func prefixOf(_ name: String) -> String {
        guard let colon = name.firstIndex(of: ":") else { return "" }
        return String(name[..<colon])
    }

    // MARK: events

    mutating func start(_ qname: String, _ rawAttributes: [XMLTokenizer.Attribute]) {
        if depth >= Self.maxDepth {
            ignoredDepth += 1
            return
        }
        depth += 1
        var scope: [String: String] = [:]
        var attrs: [String: String] = [:]
        for a in rawAttributes {
            let key = a.name.lowercased()
            if key == "xmlns" {
                scope[""] = Self.userlandNamespace(a.value)
                trackNamespace(prefix: nil, uri: a.value)
            } else if key.hasPrefix("xmlns:") {
                scope[String(key.dropFirst(6))] = Self.userlandNamespace(a.value)
                trackNamespace(prefix: String(key.dropFirst(6)), uri: a.value)
            }
        }
        namespaces.append(scope)
        for a in rawAttributes {
            var key = a.name.lowercased()
            if key == "xmlns" || key.hasPrefix("xmlns:") { continue }
            if key.contains(":"), !key.hasPrefix("xml:") { key = canonical(key) }
            attrs[key] = (key == "rel" || key == "type") ? a.value.lowercased() : a.value
        }
        let name = canonical(qname)
        if rootName == nil { rootName = name }

        // xml:base (or a plain base attribute) for this element and what it contains.
        if let b = attrs["xml:base"] ?? attrs["base"], !b.isEmpty {
            if let safe = FeedURL.safeBase(b, current: base) { base = safe }
        }
        baseStack.append(base)

        // Markup inside a text construct: kept as markup of the field.
        if inContent > 0, !(contentType ?? "xml").hasSuffix("xml") {
            if name == "xhtml:div" || name == "div" { return }
            contentType = Self.xhtml
        }
        if inContent > 0, contentType == Self.xhtml {
            let local = name.split(separator: ":", maxSplits: 1).last.map(String.init) ?? name
            let attrText = rawAttributes.filter { !$0.name.lowercased().hasPrefix("xmlns") }
                .map { " \($0.name.lowercased())=\"\(Self.escape($0.value, quotes: true))\"" }.joined()
            appendPiece("<\(local)\(attrText)>")
            return
        }

        let prefix = prefixOf(name)
        let local = prefix.isEmpty ? name : String(name.dropFirst(prefix.count + 1))
        if prefix.isEmpty, !["title", "link", "description", "name"].contains(local) { inTextInput = false }
        if prefix.isEmpty, !["title", "link", "description", "url", "href", "width", "height"].contains(local) {
            inImage = false
        }

        switch name {
        case "rss":
            if !version.hasPrefix("rss") {
                let v = attrs["version"] ?? ""
                switch v {
                case "0.91": version = "rss091u"
                case "0.92": version = "rss092"
                case "0.93": version = "rss093"
                case "0.94": version = "rss094"
                default: version = v.hasPrefix("2.") ? "rss20" : "rss"
                }
            }
        case "channel":
            inFeed = true
        case "feed":
            inFeed = true
            if version.isEmpty {
                switch attrs["version"] {
                case "0.1": version = "atom01"
                case "0.2": version = "atom02"
                case "0.3": version = "atom03"
                default: version = "atom"
                }
            }
        case "item", "entry":
            entries.append(Entry())
            push("item", false)
            inEntry = true
            guidIsLink = false
            titleDepth = -1
            if let about = attrs["rdf:about"] {
                entries[entries.count - 1].fields["id"] = Field(value: about, isHTML: false)
            }
        case "image":
            if !inEntry { feedHasImage = true }
            inImage = true
            titleDepth = -1
            push("image", false)
        case "textinput":
            inTextInput = true
            titleDepth = -1
            push("textinput", false)
        case "source":
            push("source", true)
            inSource = true
            titleDepth = -1
        case "title", "dc:title", "media:title":
            pushContent("title", attrs, defaultType: "text/plain", expectingText: inFeed || inEntry || inSource)
        case "link":
            startLink(attrs)
        case "guid", "id":
            guidIsLink = (attrs["ispermalink"] ?? "true") == "true"
            push("id", true)
        case "description", "dc:description", "media:description":
            if context()?.fields["summary"] != nil, !hasContent {
                summaryKey = "content"
                startContent(attrs)
            } else {
                pushContent(
                    "description", attrs, defaultType: "text/html",
                    expectingText: inFeed || inEntry || inSource)
            }
        case "summary", "itunes:summary":
            if context()?.fields["summary"] != nil, !hasContent {
                summaryKey = "content"
                startContent(attrs)
            } else {
                summaryKey = "summary"
                pushContent("summary", attrs, defaultType: "text/plain", expectingText: true)
            }
        case "content":
            startContent(attrs)
        case "content:encoded":
            hasContent = true
            pushContent("content", attrs, defaultType: "text/html", expectingText: true)
        case "pubdate", "published", "issued", "dcterms:issued":
            push("published", true)
        case "updated", "modified", "lastbuilddate", "dc:date", "dcterms:modified":
            push("updated", true)
        default:
            // Elements without a meaning here collect their text, unless they carry attributes.
            if attrs.isEmpty { push(name, true) }
        }
    }

    mutating func end(_ qname: String) {
        if ignoredDepth > 0 {
            ignoredDepth -= 1
            return
        }
        let name = canonical(qname)
        if namespaces.count > 1 { namespaces.removeLast() }

        if inContent > 0, !(contentType ?? "xml").hasSuffix("xml"), name == "xhtml:div" || name == "div" {
            return  // the start tag was not kept either
        }
        switch name {
        case "channel", "feed": inFeed = false
        case "item", "entry":
            _ = pop("item")
            inEntry = false
            hasContent = false
        case "image":
            _ = pop("image")
            inImage = false
        case "textinput":
            _ = pop("textinput")
            inTextInput = false
        case "source":
            inSource = false
            let value = pop("source") ?? ""
            let name = value.isEmpty ? source.fields["title"]?.value ?? "" : value
            if inEntry, !entries.isEmpty, !name.isEmpty {
                entries[entries.count - 1].fields["sourcename"] = Field(value: name, isHTML: false)
            }
            source = Entry()
        case "title", "dc:title", "media:title":
            // A media:title never decides which title of the entry counts.
            let saved = titleDepth
            if let value = popContent("title"), !value.isEmpty { titleDepth = depth }
            if name == "media:title" { titleDepth = saved }
        case "link":
            _ = pop("link")
        case "guid", "id":
            let value = pop("id")
            if guidIsLink { save("link", value ?? "") }
        case "description", "dc:description", "media:description", "summary", "itunes:summary":
            if summaryKey == "content" {
                endContent()
            } else {
                _ = popContent(name.hasSuffix("description") ? "description" : (summaryKey ?? "summary"))
            }
            summaryKey = nil
        case "content", "content:encoded":
            endContent()
        case "pubdate", "published", "issued", "dcterms:issued":
            _ = pop("published")
        case "updated", "modified", "lastbuilddate", "dc:date", "dcterms:modified":
            _ = pop("updated")
        default:
            _ = pop(name)
        }

        if inContent > 0, !(contentType ?? "xml").hasSuffix("xml") {
            contentType = Self.xhtml
        }
        if inContent > 0, contentType == Self.xhtml {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            appendPiece("</\(local)>", raw: true)
        }
        if !baseStack.isEmpty {
            baseStack.removeLast()
            if let top = baseStack.last, !top.isEmpty { base = top }
        }
        depth = max(0, depth - 1)
    }

    mutating func handleData(_ s: String) {
        guard !stack.isEmpty else { return }
        appendPiece(contentType == Self.xhtml ? Self.escape(s, quotes: false) : s, raw: true)
    }
}
