import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

@Suite struct APIWidgetTests {
    let widget = APIWidget.make(http: testHTTP)

    func server() throws -> LocalHTTPServer {
        let s = try LocalHTTPServer()
        s.route("/status", fixtureResponse("api/service_status.json"))
        s.route("/hostile", fixtureResponse("api/hostile.json"))
        s.route("/html", LocalHTTPServer.Response(status: 200, contentType: "text/html", "<html>login</html>"))
        s.handle("/private") { req in
            req.headers["authorization"] == "Bearer s3cret-token-42"
                ? fixtureResponse("api/service_status.json")
                : fixtureResponse("github/bad_credentials_401.json", status: 401)
        }
        s.route("/gone", LocalHTTPServer.Response(status: 404, contentType: "application/json", "{}"))
        s.route(
            "/busy",
            LocalHTTPServer.Response(status: 503, headers: ["Retry-After": "120"], body: Data("oops".utf8)))
        s.route("/down", LocalHTTPServer.Response(status: 502, contentType: "text/plain", ""))
        s.route(
            "/limited",
            LocalHTTPServer.Response(
                status: 429, headers: ["Retry-After": "600", "Content-Type": "application/json"],
                body: Data("{\"message\":\"slow down\"}".utf8)))
        s.route("/huge", LocalHTTPServer.Response(status: 200, body: Data(repeating: 0x20, count: 3 * 1024 * 1024)))
        return s
    }

    static let fields: [String] = [
        "Requests = metrics.requests_total | number",
        "Errors = metrics.error_ratio | ratio:1 | warn>2 | alert>5",
        "p95 = metrics.p95_ms | number:1",
        "Disk = metrics.disk_bytes | bytes",
        "Revenue = metrics.revenue_usd | currency:USD",
        "Deployed = metrics.deployed_at | relative",
        "Checked = metrics.last_check | date",
        "Nodes = nodes[*].name",
        "Worst load = nodes[*].load | ratio | warn>90",
        "Dotted = [\"weird key.with dots\"].value",
        "Note = note",
    ]

    func config(_ s: LocalHTTPServer, _ path: String = "/status", _ extra: [String: ConfigValue] = [:]) -> WidgetConfig
    {
        var c = WidgetConfig([
            "url": .string(s.baseURL + path), "title": .string("Checkout"), "fields": .list(Self.fields),
            "small": .list(["Errors"]), "medium": .list(["Requests", "Errors", "p95"]),
        ])
        for (k, v) in extra { c[k] = v }
        return c
    }

    @Test func pathSyntax() throws {
        let root = try #require(APIJSON.parse(fixture("api/service_status.json")))
        #expect(try JSONPath("metrics.p95_ms").values(in: root) == [.number(184.5)])
        #expect(try JSONPath("nodes[1].name").values(in: root) == [.string("node-b")])
        #expect(try JSONPath("nodes[-1].name").values(in: root) == [.string("node-c")])
        #expect(try JSONPath("nodes.0.name").values(in: root) == [.string("node-a")])
        #expect(try JSONPath("nodes[*].healthy").values(in: root).count == 3)
        #expect(try JSONPath("nodes.*.load").values(in: root).count == 3)
        #expect(try JSONPath("[\"weird key.with dots\"].value").values(in: root) == [.number(7)])
        #expect(try JSONPath("metrics.nothing").values(in: root).isEmpty)
        #expect(try JSONPath("nodes[9]").values(in: root).isEmpty)
        #expect(throws: JSONPath.SyntaxError.self) { try JSONPath("nodes[x]") }
        #expect(throws: JSONPath.SyntaxError.self) { try JSONPath("nodes[0") }
        let found = JSONPath.discover(root).map(\.path)
        #expect(found.contains("metrics.p95_ms"))
        #expect(found.contains("nodes[0].name"))
        #expect(found.contains("[\"weird key.with dots\"].value"))
    }

    @Test func formatsAndThresholds() throws {
        let now = testNow, utc = TimeZone(identifier: "UTC")!
        func w(_ f: String, _ v: APIJSON) throws -> String? { try APIFormat(f).write(v, now: now, timeZone: utc) }
        #expect(try w("number", .number(1_284_091)) == "1,284,091")
        #expect(try w("number:2", .number(-1234.5)) == "-1,234.50")
        #expect(try w("percent", .number(42)) == "42 %")
        #expect(try w("ratio:1", .number(0.0312)) == "3.1 %")
        #expect(try w("currency:EUR", .number(12)) == "€12.00")
        #expect(try w("currency:CHF", .number(-3)) == "-3.00 CHF")
        #expect(try w("bytes", .number(5_368_709_120)) == "5.0 GB")
        #expect(try w("date", .string("2026-11-23T08:15:00Z")) == "2026-11-23 08:15")
        #expect(try w("relative", .number(1_795_424_100)) == "5m ago")
        #expect(try w("relative", .number(1_795_424_100_000)) == "5m ago", "milliseconds")
        #expect(try w("number:1", .string("12.5")) == "12.5", "a number written as text")
        #expect(try w("number", .string("abc")) == nil)
        #expect(try w("bytes", .number(-1)) == nil)
        #expect(throws: APIFormat.SyntaxError.self) { try APIFormat("fancy") }
        #expect(throws: APIFormat.SyntaxError.self) { try APIFormat("currency:dollars") }
        let t = try APIField.parse("CPU = cpu | percent | warn>70 | alert>=90")
        #expect(APIThreshold.level(75, t.thresholds) == .warning)
        #expect(APIThreshold.level(95, t.thresholds) == .alert)
        #expect(APIThreshold.level(10, t.thresholds) == .normal)
        #expect(throws: APIFormat.SyntaxError.self) { try APIField.parse("X = a | warn=3") }
    }

    @Test func liveTilesInEveryFamily() async throws {
        let s = try server()
        defer { s.stop() }
        for family in [WidgetFamily.small, .medium, .large] {
            let (tile, timeline) = try await liveTile(widget, config(s), family)
            assertSnapshot(tile.text, named: "api-\(family.rawValue)")
            #expect(isClean(tile.text))
            #expect(timeline.policy == .after(testNow.addingTimeInterval(15 * 60)))
        }
        let timeline = try await widget.timeline(for: config(s), in: context(.large))
        let entry = try #require(timeline.entries.first?.base as? APIEntry)
        // 3.1 % errors passes warn>2: coloured, relevant, attention.
        #expect(entry.relevance?.score == 0.7)
        #expect(entry.contentID != nil)
        #expect(
            entry.values.first { $0.label == "Note" }?.text?.unicodeScalars.contains { $0.value == 0x202E } == false)
        let detail = render(
            widget.detail(
                for: try #require(DeepLink("swiftdash://api/fields")), entry: timeline.entries.first,
                in: context(.large)), width: 70, height: 40)
        assertSnapshot(detail.text, named: "api-detail")
    }

    @Test func noFieldsShowsThePathsFound() async throws {
        let s = try server()
        defer { s.stop() }
        let (tile, _) = try await liveTile(widget, config(s, "/status", ["fields": .list([])]), .large)
        #expect(tile.text.contains("paths found"))
        #expect(tile.text.contains("metrics.p95_ms = 184.5"))
    }

    /// The Edit form's preview runs the url the user typed and lists the paths of the answer;
    /// the gallery (the default url) gets the sample without a request.
    @Test func theFormPreviewRunsTheRealAnswer() async throws {
        let s = try server()
        defer { s.stop() }
        let cfg = config(s, "/status", ["fields": .list(["p95 = metrics.p95_ms"])])
        let entry = await widget.snapshot(for: cfg, in: context(.large, preview: true))
        let tile = render(widget, entry, .large)
        #expect(tile.text.contains("184.5"))
        #expect(tile.text.contains("Paths found"))
        #expect(tile.text.contains("metrics.error_ratio = 0.0312"))
        let before = s.requests.count
        let gallery = await widget.snapshot(for: WidgetConfig(), in: context(.medium, preview: true))
        #expect(render(widget, gallery, .medium).text.contains("api.example.com"))
        #expect(s.requests.count == before)
    }

    @Test func hostileAndWrongAnswersCostOnlyTheTile() async throws {
        let s = try server()
        defer { s.stop() }
        let hostile = config(s, "/hostile", ["fields": .list(["Huge = huge | number", "Name = name", "Deep = deep"])])
        let (tile, _) = try await liveTile(widget, hostile, .large)
        #expect(isClean(tile.text))
        assertSnapshot(portless(tile.text, s), named: "api-hostile")
        // 1e400 is JSON by the grammar, but no Double: the parser refuses the answer, in the tile.
        s.route("/overflow", LocalHTTPServer.Response(status: 200, contentType: "application/json", "{\"a\": 1e400}"))
        let (overflow, _) = try await liveTile(widget, config(s, "/overflow"), .small)
        #expect(overflow.text.contains("Failed"))
        let (html, _) = try await liveTile(widget, config(s, "/html"), .medium)
        #expect(html.text.contains("HTML"))
        let (huge, _) = try await liveTile(widget, config(s, "/huge"), .large)
        #expect(huge.text.contains("Failed"))
        let capped = APIWidget.make(
            http: inProcessHTTP(HTTPOptions(connectTimeout: 30, totalTimeout: 30, maxBytes: 2 * 1024 * 1024)))
        let big = try await capped.timeline(for: config(s, "/huge"), in: context(.large))
        #expect((big.entries.first?.base as? APIEntry)?.failure?.contains("larger than 2 MB") == true)
    }

    @Test func statusesGiveMessagesAndBackOff() async throws {
        let s = try server()
        defer { s.stop() }
        let (gone, t404) = try await liveTile(widget, config(s, "/gone"), .large)
        #expect(gone.text.contains("HTTP 404"))
        #expect(t404.policy == .after(testNow.addingTimeInterval(30 * 60)))
        let (busy, t503) = try await liveTile(widget, config(s, "/busy"), .large)
        #expect(busy.text.contains("HTTP 503"))
        #expect(t503.policy == .after(testNow.addingTimeInterval(120)), "Retry-After")
        let (limited, t429) = try await liveTile(widget, config(s, "/limited"), .large)
        #expect(limited.text.contains("rate limited"))
        #expect(t429.policy == .after(testNow.addingTimeInterval(600)), "Retry-After")
        // A 5xx without Retry-After is thrown: the scheduler keeps the last data, stale, and backs off.
        let e = await expectDataSourceError {
            _ = try await widget.timeline(for: config(s, "/down"), in: context(.large))
        }
        #expect(e?.message.contains("HTTP 502") == true)
    }

    @Test func secretsComeFromTheEnvironmentAndAreNeverShown() async throws {
        let s = try server()
        defer { s.stop() }
        let cfg = config(s, "/private", ["headers": .list(["Authorization: Bearer ${secret}"])])
        let env = [APIWidget.secretVariable: "s3cret-token-42"]
        let (ok, _) = try await liveTile(widget, cfg, .medium, environment: env)
        #expect(ok.text.contains("Requests"))
        let byName = config(s, "/private", ["headers": .list(["Authorization: Bearer ${MY_TOKEN}"])])
        let (ok2, _) = try await liveTile(widget, byName, .medium, environment: ["MY_TOKEN": "s3cret-token-42"])
        #expect(ok2.text.contains("Requests"))
        let (bad, _) = try await liveTile(
            widget, cfg, .large, environment: [APIWidget.secretVariable: "wrong-token-99"])
        #expect(bad.text.contains("HTTP 401"))
        #expect(!bad.text.contains("wrong-token-99"))
        #expect(s.requests.last?.headers["authorization"] == "Bearer wrong-token-99")
    }

    @Test func rateLimitKeepsTheLastGoodAnswer() async throws {
        let s = try LocalHTTPServer()
        defer { s.stop() }
        let flip = Flag()
        s.handle("/status") { _ in
            flip.isOn
                ? LocalHTTPServer.Response(
                    status: 403, headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1795425300"],
                    body: fixture("github/rate_limited_403.json"))
                : fixtureResponse("api/service_status.json")
        }
        _ = try await liveTile(widget, config(s), .large)
        flip.isOn = true
        let (tile, t) = try await liveTile(widget, config(s), .large)
        #expect(tile.text.contains("rate limited"))
        #expect(tile.text.contains("1,284,091"), "the last good answer stays")
        #expect(t.policy == .after(Date(timeIntervalSince1970: 1_795_425_300)), "X-RateLimit-Reset")
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var on = false
    var isOn: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }
}

/// `text` with the test server's port written as PORT, so snapshots do not depend on it.
func portless(_ text: String, _ server: LocalHTTPServer) -> String {
    text.replacingOccurrences(of: "127.0.0.1:\(server.port)", with: "127.0.0.1:PORT")
}
