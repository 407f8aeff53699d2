import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// The links of a tile that open a story.
func stories(_ tile: RenderedTile) -> [String] { tile.links.filter { $0.hasPrefix("swiftdash://news/story/") } }

@Suite("news widget")
struct NewsWidgetTests {
    let widget = NewsWidget.make(http: testHTTP)

    func feedServer() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        server.route("/world.xml", fixtureResponse("rss_world.xml"))
        server.route("/atom.xml", fixtureResponse("atom_tech.xml", headers: ["Content-Type": "application/atom+xml"]))
        server.route("/xxe.xml", fixtureResponse("xxe.xml"))
        server.route("/page.html", fixtureResponse("not_a_feed.html"))
        server.route("/broken.xml", fixtureResponse("broken.xml"))
        server.handle("/v2/top-headlines") { req in
            guard req.query["apiKey"] == "news-key-1234" || req.headers["x-api-key"] == "news-key-1234" else {
                return fixtureResponse("newsapi_error_401.json", status: 401)
            }
            switch req.query["country"] {
            case "us": return fixtureResponse("newsapi_us.json")
            case "gb": return fixtureResponse("newsapi_gb.json")
            default: return .init(status: 200, "{\"status\":\"ok\",\"totalResults\":0,\"articles\":[]}")
            }
        }
        return server
    }

    func feed(_ server: LocalHTTPServer, _ path: String, _ extra: [String: ConfigValue] = [:]) -> WidgetConfig {
        var c = WidgetConfig(["feed": .string(server.baseURL + path)])
        for (k, v) in extra { c[k] = v }
        return c
    }

    @Test func schemaHasTheIssueKeys() throws {
        #expect(widget.schema.parameters.map(\.key) == ["source", "feed", "endpoint", "country", "apiKey", "count"])
        let d = widget.schema.defaults
        #expect(d.string("source") == "feed")
        #expect(d.string("feed").hasPrefix("https://"))
        #expect(d.string("endpoint") == "https://newsapi.org")
        #expect(widget.schema.validate(WidgetConfig(["country": .string("ar")])).isEmpty)
        #expect(widget.schema.validate(WidgetConfig(["country": .string("gb")])).isEmpty)
        #expect(!widget.schema.validate(WidgetConfig(["country": .string("xx")])).isEmpty)
        #expect(try #require(widget.schema.parameter("apiKey")).isSecret)
    }

    @Test func rssInEveryFamily() async throws {
        let server = try feedServer()
        defer { server.stop() }
        var texts: [WidgetFamily: String] = [:]
        for family in [WidgetFamily.small, .medium, .large] {
            let (tile, timeline) = try await liveTile(widget, feed(server, "/world.xml"), family)
            assertSnapshot(tile.text, named: "news-\(family.rawValue)")
            texts[family] = tile.text
            #expect(timeline.policy == .after(testNow.addingTimeInterval(15 * 60)))
            switch family {
            case .small:
                #expect(tile.widgetURL?.hasPrefix("swiftdash://news/story/") == true)
                #expect(tile.links.isEmpty)
            case .medium:
                #expect(tile.links.first == "swiftdash://news/stories")
                #expect(stories(tile).count == 2)
            default: #expect(stories(tile).count == 5)
            }
        }
        // HTML reduced to text, entities decoded, live relative age.
        #expect(texts[.small]!.contains("Leaders reach"))
        #expect(texts[.small]!.contains("12 min ago"))
        #expect(!texts[.large]!.contains("<b>"))
        #expect(texts[.large]!.contains("Prices & wages: what’s next"))
        #expect(texts[.medium]!.contains("Rescue teams") && !texts[.medium]!.contains("Central bank"))
        #expect(texts[.large]!.contains("Ancient shipwreck"))
        #expect(server.requests.allSatisfy { $0.path == "/world.xml" })
    }

    @Test func atomFeed() async throws {
        let server = try feedServer()
        defer { server.stop() }
        let timeline = try await widget.timeline(for: feed(server, "/atom.xml"), in: context(.medium))
        let entry = try #require(timeline.entries.first?.base as? NewsEntry)
        #expect(entry.sourceName == "Tech Notes")
        #expect(entry.items.map(\.title) == ["Swift 6.3 ships with faster builds", "Terminal UIs are back"])
        #expect(entry.items[0].url == "https://tech.example.org/2026/swift-6-3")
        #expect(entry.items[0].summary == "The release brings quicker incremental builds & better diagnostics.")
        #expect(entry.items[1].summary == "Why more tools draw with text cells again.")
        #expect(entry.items[0].published == Date(timeIntervalSince1970: 1_795_420_800))
        #expect(entry.items[1].published == testNow.addingTimeInterval(-16 * 3600))
        let tile = render(widget, timeline.entries[0], .medium)
        assertSnapshot(tile.text, named: "news-atom-medium")
    }

    @Test func entityBombsAreRefused() async throws {
        let server = try feedServer()
        defer { server.stop() }
        server.route("/laughs.xml", fixtureResponse("laughs.xml"))
        let e = await expectDataSourceError {
            _ = try await widget.timeline(for: feed(server, "/laughs.xml"), in: context(.small))
        }
        #expect(e?.message == "127.0.0.1:\(server.port) sent a feed that declares XML entities: refused")
    }

    @Test func externalEntitiesAreNotResolved() async throws {
        let server = try feedServer()
        defer { server.stop() }
        let host =
            (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "no-hostname-file"
        do {
            let timeline = try await widget.timeline(for: feed(server, "/xxe.xml"), in: context(.small))
            let entry = try #require(timeline.entries.first?.base as? NewsEntry)
            #expect(!entry.items.contains { $0.title.contains(host) })
        } catch let e as DataSourceError {
            #expect(e.reason == .badData)
            #expect(!e.message.contains(host))
        }
    }

    @Test func notAFeedAndBrokenXML() async throws {
        let server = try feedServer()
        defer { server.stop() }
        let html = await expectDataSourceError {
            _ = try await widget.timeline(for: feed(server, "/page.html"), in: context(.small))
        }
        #expect(html?.message == "127.0.0.1:\(server.port)'s answer is not an RSS or Atom feed")
        let broken = await expectDataSourceError {
            _ = try await widget.timeline(for: feed(server, "/broken.xml"), in: context(.small))
        }
        #expect(broken?.message == "127.0.0.1:\(server.port) sent a feed that is not valid XML")
        let missing = await expectDataSourceError {
            _ = try await widget.timeline(for: feed(server, "/gone.xml"), in: context(.small))
        }
        #expect(
            missing?.message == "HTTP 404 from 127.0.0.1:\(server.port): no feed at this address (check the feed URL)")
    }

    @Test func twoConfigurationsShowDifferentStories() async throws {
        let server = try feedServer()
        defer { server.stop() }
        func api(_ country: String) -> WidgetConfig {
            WidgetConfig([
                "source": .string("newsapi"), "endpoint": .string(server.baseURL), "country": .string(country),
            ])
        }
        let env = [NewsWidget.apiKeyVariable: "news-key-1234"]
        let (us, _) = try await liveTile(widget, api("us"), .medium, environment: env)
        let (gb, _) = try await liveTile(widget, api("gb"), .medium, environment: env)
        assertSnapshot(us.text, named: "news-newsapi-us-medium")
        assertSnapshot(gb.text, named: "news-newsapi-gb-medium")
        #expect(us.text.contains("Senate passes"))
        #expect(gb.text.contains("Rail strike"))
        #expect(us.text != gb.text)
        #expect(Set(stories(us)).isDisjoint(with: stories(gb)))
        let req = try #require(server.requests.last)
        #expect(req.path == "/v2/top-headlines")
        #expect(req.query["country"] == "gb")

        // "[Removed]" stories are skipped; escape sequences never reach the screen.
        let t = try await widget.timeline(for: api("us"), in: context(.large, environment: env))
        let entry = try #require(t.entries.first?.base as? NewsEntry)
        #expect(entry.items.map(\.source) == ["Associated Press", "The Verge", "ESPN", "Reuters"])
        #expect(entry.items[1].title == "New phone promises a week of battery life")
        #expect(entry.items.allSatisfy { isClean($0.title) && isClean($0.summary) && isClean($0.source) })
    }

    @Test func newsAPIErrors() async throws {
        let server = try feedServer()
        defer { server.stop() }
        let cfg = WidgetConfig([
            "source": .string("newsapi"), "endpoint": .string(server.baseURL),
            "apiKey": .string("wrong-key-999"),
        ])
        let e = await expectDataSourceError { _ = try await widget.timeline(for: cfg, in: context(.small)) }
        #expect(
            e?.message == "HTTP 401 from 127.0.0.1:\(server.port): Your API key is invalid or incorrect. "
                + "Check your key, or go to https://newsapi.org to create a free API key.", "NewsAPI's own words")
        var noKey = cfg
        noKey["apiKey"] = .string("")
        let n = await expectDataSourceError { _ = try await widget.timeline(for: noKey, in: context(.small)) }
        #expect(n?.message == "newsapi needs an API key: set apiKey or SWIFTDASH_NEWSAPI_KEY")
    }

    @Test func countOverridesTheFamily() async throws {
        let server = try feedServer()
        defer { server.stop() }
        let (tile, _) = try await liveTile(widget, feed(server, "/world.xml", ["count": .int(3)]), .large)
        #expect(stories(tile).count == 3)
        let (one, _) = try await liveTile(widget, feed(server, "/world.xml", ["count": .int(1)]), .medium)
        #expect(stories(one).count == 1)
    }

    @Test func detailPaneHasTheSummaryAndURL() async throws {
        let server = try feedServer()
        defer { server.stop() }
        let t = try await widget.timeline(for: feed(server, "/world.xml"), in: context(.small))
        let tile = render(widget, t.entries[0], .small)
        let link = try #require(tile.widgetURL.flatMap(DeepLink.init))
        let detail = render(widget.detail(for: link, entry: t.entries[0], in: context(.large)), width: 60, height: 16)
        assertSnapshot(detail.text, named: "news-detail")
        #expect(detail.text.contains("Negotiators agree a new fund"))
        #expect(detail.text.contains("BBC News - World"))
        #expect(detail.links == ["https://www.bbc.com/news/articles/c1climate"])
    }

    @Test func snapshotAndPlaceholderNeedNoNetwork() async throws {
        let server = try feedServer()
        defer { server.stop() }
        let snap = await widget.snapshot(for: feed(server, "/world.xml"), in: context(.large, preview: true))
        #expect(stories(render(widget, snap, .large)).count == 5)
        #expect(server.requests.isEmpty)
        let placeholder = render(widget, widget.placeholder(in: context(.small)), .small).text
        #expect(placeholder.contains("▆"))
        let entry = try #require(snap.base as? NewsEntry)
        #expect(try widget.decodeEntries(widget.encodeEntries([snap])).count == 1)
        #expect(entry.relevance != nil)
    }

    @Test func storiesPaneListsEverything() async throws {
        let server = try feedServer()
        defer { server.stop() }
        let t = try await widget.timeline(for: feed(server, "/world.xml"), in: context(.medium))
        let tile = render(widget, t.entries[0], .medium)
        let pane = render(
            widget.detail(for: DeepLink(tile.links[0])!, entry: t.entries[0], in: context(.large)),
            width: 60, height: 16)
        assertSnapshot(pane.text, named: "news-stories-pane")
        #expect(pane.links.count == 6)
        #expect(pane.text.contains("Marathon record falls"))
    }

    /// A feed title longer than the header (about 28 columns) wrapped onto a second row and
    /// pushed the fifth story out of the large tile; it is now cut with "…" on one row.
    @Test func longFeedTitleNeverPushesTheFifthStoryOut() throws {
        let name = "The International Herald of Science, Technology, Engineering and Medicine — Breaking News"
        let entry = NewsSamples.entry(now: testNow, name: name)
        for family in [WidgetFamily.medium, .large] {
            let tile = render(widget, AnyEntry(entry), family)
            assertSnapshot(tile.text, named: "news-long-feed-title-\(family.rawValue)")
            let rows = tile.text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(rows[0].hasPrefix("The International Herald"))
            #expect(rows[0].contains("…"))
            #expect(rows[0].hasSuffix(family == .large ? "5 of 6" : "2 of 6"))
            #expect(stories(tile).count == (family == .large ? 5 : 2))
        }
        let large = render(widget, AnyEntry(entry), .large).text
        #expect(large.contains("New battery design promises"))
    }

    @Test func htmlToText() {
        #expect(NewsHTML.text("<p>A &amp; B&nbsp;&#8212; <i>c</i></p><script>x()</script>") == "A & B — c")
        #expect(NewsHTML.text("caf&#xE9; &unknown; 5 &lt; 6") == "café &unknown; 5 < 6")
        #expect(NewsHTML.text("<p>one</p><p>two</p>", keepParagraphs: true) == "one\ntwo")
    }

    /// Found by a new user: Enter on a news tile that never loaded said the story had left the feed.
    @Test func aStoryPaneWithNothingLoadedSaysSo() throws {
        let link = try #require(DeepLink(DeepLink.make(kind: NewsWidget.kind, "story", "s1")))
        let empty = render(NewsViews.detail(link, nil, context(.large)), width: 60, height: 12)
        #expect(empty.text.contains("No headlines yet: the feed has not loaded"))
        #expect(!empty.text.contains("no longer in the feed"))
    }
}
