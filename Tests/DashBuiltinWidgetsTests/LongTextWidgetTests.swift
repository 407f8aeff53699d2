import DashTestSupport
import DashWidgets
import Foundation
import Testing

@testable import DashBuiltinWidgets

/// Issue 9, item 2: every text field a widget takes from outside goes through the
/// sanitiser, so none is longer than `TextSanitizer.maxFieldCharacters` however long the
/// server made it. Checked on the encoded entry, so a new field cannot slip past.
@Suite("Hardening: long text from servers")
struct LongTextWidgetTests {
    static let huge = String(repeating: "wordy ", count: 50_000)  // 300,000 characters
    /// Smaller for JSON fixtures, where every element gets one (the body cap is 5 MB).
    static let long = String(repeating: "wordy ", count: 5_000)  // 30,000 characters

    /// Every string in an entry's JSON (the cache format, so every stored field).
    func strings(_ entry: AnyEntry, _ widget: Widget) throws -> [String] {
        let data = try widget.encodeEntries([entry])
        var out: [String] = []
        func walk(_ v: Any) {
            if let s = v as? String { out.append(s) }
            if let a = v as? [Any] { a.forEach(walk) }
            if let d = v as? [String: Any] { d.values.forEach(walk) }
        }
        walk(try JSONSerialization.jsonObject(with: data))
        return out
    }

    func expectCapped(_ entry: AnyEntry, _ widget: Widget, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let all = try strings(entry, widget)
        #expect(!all.isEmpty)
        let longest = all.map(\.count).max() ?? 0
        #expect(
            longest <= TextSanitizer.maxFieldCharacters, "a field of \(longest) characters",
            sourceLocation: sourceLocation)
        #expect(
            all.contains { $0.count > 1_000 && $0.hasSuffix("…") }, "the long fields were cut",
            sourceLocation: sourceLocation)
    }

    /// `json` with the string values of `keys` replaced by a 30,000-character text.
    func inflate(_ name: String, keys: Set<String>) throws -> Data {
        func walk(_ v: Any) -> Any {
            if let a = v as? [Any] { return a.map(walk) }
            if let d = v as? [String: Any] {
                var o: [String: Any] = [:]
                for (k, x) in d { o[k] = keys.contains(k) && x is String ? Self.long : walk(x) }
                return o
            }
            return v
        }
        return try JSONSerialization.data(withJSONObject: walk(try JSONSerialization.jsonObject(with: fixture(name))))
    }

    @Test func longTextFreezesTheScreen_newsFeedFieldsAreCapped() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>\(Self.huge)</title>
            <item><title>Story \(Self.huge)</title><description>&lt;p&gt;\(Self.huge)&lt;/p&gt;</description>
            <source>\(Self.huge)</source><link>https://example.com/\(String(repeating: "a", count: 5_000))</link>
            <guid>\(Self.huge)</guid></item></channel></rss>
            """
        server.route(
            "/feed.xml", .init(status: 200, headers: ["Content-Type": "application/rss+xml"], body: Data(feed.utf8)))
        let widget = NewsWidget.make(http: testHTTP)
        let t = try await widget.timeline(
            for: WidgetConfig(["feed": .string(server.baseURL + "/feed.xml")]), in: context(.large))
        try expectCapped(try #require(t.entries.first), widget)
        let entry = try #require(t.entries.first?.base as? NewsEntry)
        #expect(entry.items.first?.title.hasPrefix("Story wordy") == true)
    }

    @Test func longTextFreezesTheScreen_newsAPIFieldsAreCapped() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let body = try inflate("newsapi_us.json", keys: ["name", "title", "description", "author", "content"])
        server.route("/v2/top-headlines", .init(status: 200, headers: ["Content-Type": "application/json"], body: body))
        let widget = NewsWidget.make(http: testHTTP)
        let cfg = WidgetConfig([
            "source": .string("newsapi"), "endpoint": .string(server.baseURL), "apiKey": .string("key-123456"),
        ])
        let t = try await widget.timeline(for: cfg, in: context(.large))
        try expectCapped(try #require(t.entries.first), widget)
    }

    @Test func longTextFreezesTheScreen_cryptoFieldsAreCapped() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let body = try inflate("coingecko_markets.json", keys: ["name", "id"])
        server.route(
            "/api/v3/coins/markets", .init(status: 200, headers: ["Content-Type": "application/json"], body: body))
        let widget = CryptoWidget.make(http: testHTTP)
        let cfg = WidgetConfig(["endpoint": .string(server.baseURL + "/api/v3"), "coin": .string("BTC")])
        let t = try await widget.timeline(for: cfg, in: context(.large))
        try expectCapped(try #require(t.entries.first), widget)
    }

    @Test func longTextFreezesTheScreen_commitFieldsAreCapped() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let branch = try inflate("github_branch.json", keys: ["message", "name"])
        let commits = try inflate("github_commits.json", keys: ["message", "name", "login"])
        server.route(
            "/repos/apple/swift/branches/main",
            .init(status: 200, headers: ["Content-Type": "application/json"], body: branch))
        server.route(
            "/repos/apple/swift/commits",
            .init(status: 200, headers: ["Content-Type": "application/json"], body: commits))
        let widget = CommitsWidget.make(http: testHTTP, gitTimeout: 5)
        for family in [WidgetFamily.small, .large] {
            let t = try await widget.timeline(
                for: WidgetConfig(["endpoint": .string(server.baseURL)]), in: context(family))
            try expectCapped(try #require(t.entries.first), widget)
            // And the tile still draws in the time of an ordinary one.
            _ = render(widget, try #require(t.entries.first), family)
        }
    }
}
