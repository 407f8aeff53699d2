import Foundation
import DashWidgets

/// What the news tile shows at one moment.
public struct NewsEntry: TimelineEntry, Hashable {
    public var date: Date
    /// The feed's title, or "NewsAPI · US".
    public var sourceName: String
    public var items: [NewsItem]
    /// The `count` parameter (0: the family decides).
    public var count: Int
    public var isPlaceholder: Bool

    public init(date: Date, sourceName: String, items: [NewsItem], count: Int = 0, isPlaceholder: Bool = false) {
        self.date = date
        self.sourceName = sourceName
        self.items = items
        self.count = count
        self.isPlaceholder = isPlaceholder
    }

    public var summary: String {
        guard let top = items.first else { return "\(sourceName): no stories" }
        return "\(items.count) stories from \(sourceName); top: \(top.title)"
    }

    /// A top story not seen before is worth a look (0.6, until the user has seen it in its
    /// stack); a top story older than a day is not news.
    public var relevance: Relevance? {
        guard !isPlaceholder, let top = items.first else { return nil }
        if let p = top.published, date.timeIntervalSince(p) > 86_400 { return nil }
        return Relevance(score: 0.6, reason: "new top story: \(top.title)", untilSeen: true)
    }

    /// The top story: a new one is "new" for attention.
    public var contentID: String? { isPlaceholder ? nil : items.first.map { "story:" + $0.id } }

    public func item(_ id: String) -> NewsItem? { items.first { $0.id == id } }
}

/// The headlines widget of seeds/001 and seeds/003: RSS 2.0, Atom or a NewsAPI-style
/// JSON source; small shows the top story, medium 2, large 5.
public enum NewsWidget {
    public static let kind = "news"
    public static let defaultFeed = "https://feeds.bbci.co.uk/news/world/rss.xml"
    public static let newsAPIEndpoint = "https://newsapi.org"
    public static let apiKeyVariable = "SWIFTDASH_NEWSAPI_KEY"
    /// NewsAPI's countries for top headlines.
    public static let countries = [
        "ae", "ar", "at", "au", "be", "bg", "br", "ca", "ch", "cn", "co", "cu", "cz", "de",
        "eg", "fr", "gb", "gr", "hk", "hu", "id", "ie", "il", "in", "it", "jp", "kr", "lt",
        "lv", "ma", "mx", "my", "ng", "nl", "no", "nz", "ph", "pl", "pt", "ro", "rs", "ru",
        "sa", "se", "sg", "si", "sk", "th", "tr", "tw", "ua", "us", "ve", "za",
    ]

    static let schema = ConfigurationSchema([
        Parameter(
            key: "source", title: "Source", help: "An RSS/Atom feed or a NewsAPI-style JSON API",
            kind: .enumeration([
                ParameterOption("feed", title: "RSS or Atom feed"),
                ParameterOption("newsapi", title: "NewsAPI (needs an API key)"),
            ]),
            default: .string("feed")),
        Parameter(
            key: "feed", title: "Feed URL", help: "The RSS 2.0 or Atom feed to read",
            kind: .string(pattern: "https?://.+"), default: .string(defaultFeed)
        ).allowing("an http:// or https:// address"),
        Parameter(
            key: "endpoint", title: "Endpoint", help: "The NewsAPI-style base URL (/v2/top-headlines is added)",
            kind: .string(pattern: "https?://.+"), default: .string(newsAPIEndpoint)
        ).allowing("an http:// or https:// address"),
        Parameter(
            key: "country", title: "Country", help: "Whose top headlines (NewsAPI)",
            kind: .enumeration(countries.map { ParameterOption($0, title: $0.uppercased()) }),
            default: .string("us")),
        Parameter(
            key: "apiKey", title: "API key", help: "NewsAPI key", kind: .string(), default: .string(""),
            isSecret: true, environmentVariable: apiKeyVariable),
        Parameter(
            key: "count", title: "Stories", help: "How many stories to show (0: 1 small, 2 medium, 5 large)",
            kind: .integer(0...20), default: .int(0)),
    ])

    public static func make(http: HTTPClient = HTTPClient()) -> Widget {
        Widget(
            kind: kind, displayName: "News headlines",
            description: "Top stories from an RSS/Atom feed or NewsAPI; each headline opens its summary",
            supportedFamilies: [.small, .medium, .large],
            schema: schema, cost: .budgeted, timeout: http.options.totalTimeout + 5,
            provider: NewsProvider(http: http),
            view: { entry, ctx in NewsViews.tile(entry, ctx) },
            detail: { link, entry, ctx in NewsViews.detail(link, entry, ctx) }
        )
        .relevance("when the top story is one not seen before (0.6, until it has been shown; not if a day old)")
    }

    static func link(_ item: NewsItem) -> String { DeepLink.make(kind: kind, "story", item.id) }

    /// How many stories a family shows.
    static func count(for family: WidgetFamily, override: Int) -> Int {
        if override > 0 { return override }
        switch family {
        case .small: return 1
        case .medium: return 2
        case .large: return 5
        case .extraLarge: return 8
        }
    }
}

struct NewsProvider: TimelineProvider {
    let http: HTTPClient

    func placeholder(in context: TimelineContext) -> NewsEntry {
        var e = NewsSamples.entry(now: context.now, name: "Top stories")
        e.isPlaceholder = true
        return e
    }

    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> NewsEntry {
        var e = NewsSamples.entry(now: context.now, name: "Sample news")
        e.count = max(0, configuration.int("count") ?? 0)
        // The gallery and `preview` want an answer at once: sample data, no network.
        if context.isPreview { return e }
        return (try? await timeline(for: configuration, in: context).entries.first) ?? e
    }

    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<NewsEntry> {
        let source = NewsSource(config: configuration, http: http)
        var entry = try await source.load(now: context.now)
        entry.count = source.count
        return Timeline(entries: [entry], policy: .after(context.now.addingTimeInterval(15 * 60)))
    }
}

struct NewsSource: Sendable {
    let kind: String
    let feed: String
    let endpoint: String
    let country: String
    let apiKey: String
    let count: Int
    let http: HTTPClient

    init(config: WidgetConfig, http: HTTPClient) {
        let k = config.string("source").lowercased()
        kind = k.isEmpty ? "feed" : k
        let f = config.string("feed").trimmingCharacters(in: .whitespaces)
        feed = f.isEmpty ? NewsWidget.defaultFeed : f
        let e = config.string("endpoint").trimmingCharacters(in: .whitespaces)
        endpoint = e.isEmpty ? NewsWidget.newsAPIEndpoint : e
        let c = config.string("country").lowercased()
        country = c.isEmpty ? "us" : c
        apiKey = config.string("apiKey").trimmingCharacters(in: .whitespaces)
        count = max(0, min(20, config.int("count") ?? 0))
        self.http = http
    }

    /// Enough stories for the largest family (the detail pane and the count override).
    var fetchCount: Int { max(count, 10) }

    func load(now: Date) async throws -> NewsEntry {
        switch kind {
        case "feed": return try await loadFeed(now: now)
        case "newsapi": return try await loadNewsAPI(now: now)
        default: throw DataSourceError(.configuration, "source '\(Fmt.line(kind))' is not feed or newsapi")
        }
    }

    func loadFeed(now: Date) async throws -> NewsEntry {
        let url = try URL.api(feed, [])
        let host = HTTPClient.hostName(url)
        let response = try await http.getResponse(
            url, headers: ["Accept": "application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5"],
            notFoundHint: "no feed at this address (check the feed URL)")
        let parsed = try NewsFeedParser.parse(
            response.body, host: host, url: url.absoluteString, contentType: response.header("Content-Type"))
        let name = parsed.title.isEmpty ? host : parsed.title
        var items = parsed.items.map { item -> NewsItem in
            var i = item
            if i.source.isEmpty { i.source = name }
            return i
        }
        items = Array(items.prefix(fetchCount))
        return NewsEntry(date: now, sourceName: name, items: items)
    }

    struct APIResponse: Decodable {
        struct Article: Decodable {
            struct Source: Decodable {
                var id: String?
                var name: String?
            }
            var source: Source?
            var author: String?
            var title: String?
            var description: String?
            var url: String?
            var publishedAt: String?
            var content: String?
        }
        var status: String?
        var code: String?
        var message: String?
        var articles: [Article]?
    }

    func loadNewsAPI(now: Date) async throws -> NewsEntry {
        guard !apiKey.isEmpty else {
            throw DataSourceError(
                .configuration, "newsapi needs an API key: set apiKey or \(NewsWidget.apiKeyVariable)")
        }
        let url = try URL.api(
            endpoint, ["v2", "top-headlines"],
            query: [("country", country), ("pageSize", String(fetchCount)), ("apiKey", apiKey)])
        let host = HTTPClient.hostName(url)
        let secrets = [apiKey]
        let data = try await http.get(
            url, headers: ["Accept": "application/json", "X-Api-Key": apiKey],
            notFoundHint: "no such API path (check the endpoint)", secrets: secrets)
        let r = try HTTPClient.decode(APIResponse.self, data, host: host)
        if r.status == "error" {
            let msg = Fmt.line(r.message ?? r.code ?? "error")
            throw DataSourceError(.httpStatus, "\(host): \(msg)").masking(secrets)
        }
        guard let articles = r.articles else { throw DataSourceError(.badData, "\(host) sent JSON without 'articles'") }
        let items: [NewsItem] = articles.prefix(Fmt.maxItems).compactMap { a in
            let title = NewsHTML.text(a.title ?? "")
            guard !title.isEmpty, title != "[Removed]" else { return nil }
            let link = NewsHTML.webURL(a.url)
            let summary = NewsHTML.text(a.description ?? a.content ?? "", keepParagraphs: true)
            return NewsItem(
                id: Fmt.shortID(link.isEmpty ? title : link), title: title,
                source: NewsHTML.text(a.source?.name ?? a.author ?? host),
                published: a.publishedAt.flatMap(NewsDates.parse), summary: summary, url: link)
        }
        return NewsEntry(
            date: now, sourceName: "Top headlines · \(country.uppercased())", items: Array(items.prefix(fetchCount)))
    }
}

enum NewsSamples {
    static func entry(now: Date, name: String) -> NewsEntry {
        let titles = [
            ("City council approves new riverside park", "Local Times"),
            ("Researchers map the ocean floor in record detail", "Science Daily"),
            ("Markets steady as investors await rate decision", "Business Wire"),
            ("Home team clinches the title in overtime", "Sports Desk"),
            ("New battery design promises faster charging", "Tech Review"),
            ("Weekend forecast: sunny spells and a light breeze", "Weather Now"),
        ]
        let items = titles.enumerated().map { i, t in
            NewsItem(
                id: "sample\(i)", title: t.0, source: t.1, published: now.addingTimeInterval(-Double(i + 1) * 1260),
                summary: "A sample story shown while the widget has no real data yet.",
                url: "https://example.com/news/\(i)")
        }
        return NewsEntry(date: now, sourceName: name, items: items)
    }
}
