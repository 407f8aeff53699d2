import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets
@testable import DashNetworking

/// What a broken, slow, huge or hostile server does to a tile: a clear error that the
/// scheduler shows as a stale mark, never a hang, a crash or a leaked key.
@Suite("HTTP failures")
struct HTTPClientTests {
    func cryptoError(
        _ response: LocalHTTPServer.Response, http: HTTPClient = testHTTP,
        apiKey: String = ""
    ) async throws -> (DataSourceError?, Int) {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("*", response)
        let widget = CryptoWidget.make(http: http)
        let cfg = WidgetConfig(["endpoint": .string(server.baseURL + "/api/v3"), "apiKey": .string(apiKey)])
        let e = await expectDataSourceError { _ = try await widget.timeline(for: cfg, in: context(.medium)) }
        return (e, Int(server.port))
    }

    @Test func serverErrorSaysSo() async throws {
        let (e, port) = try await cryptoError(.init(status: 503, "{\"error\":\"down for maintenance\"}"))
        #expect(e?.message == "HTTP 503 from 127.0.0.1:\(port): down for maintenance")
        #expect(e?.status == 503)
        let (bare, portBare) = try await cryptoError(.init(status: 503, headers: [:], body: Data()))
        #expect(
            bare?.message == "HTTP 503 from 127.0.0.1:\(portBare): server error, try again later",
            "no body: the hint")
    }

    @Test func rateLimitIsNamed() async throws {
        let (e, port) = try await cryptoError(.init(status: 429, headers: ["Retry-After": "60"], body: Data("{}".utf8)))
        #expect(e?.message == "rate limited (HTTP 429) by 127.0.0.1:\(port): try again in 60 s")
        #expect(e?.reason == .rateLimited)
    }

    @Test func notFoundHasAHint() async throws {
        let (e, port) = try await cryptoError(.init(status: 404, "{}"))
        #expect(e?.message == "HTTP 404 from 127.0.0.1:\(port): no such API path (check the endpoint)")
    }

    @Test func malformedJSON() async throws {
        let (e, port) = try await cryptoError(.init(status: 200, "[{\"id\": \"bitcoin\", \"symbol\": "))
        #expect(e?.message == "127.0.0.1:\(port) sent a response that is not valid JSON")
        let (shape, _) = try await cryptoError(.init(status: 200, "{\"coins\": []}"))
        #expect(shape?.reason == .badData)
    }

    @Test func oversizeBodyIsRefused() async throws {
        let big = Data(repeating: UInt8(ascii: "a"), count: 6 * 1024 * 1024)
        let (e, port) = try await cryptoError(.init(status: 200, headers: [:], body: big))
        #expect(e?.message == "response from 127.0.0.1:\(port) is larger than 5 MB: refused")
        // Without Content-Length the cap is enforced while receiving.
        let small = inProcessHTTP(HTTPOptions(connectTimeout: 30, totalTimeout: 30, maxBytes: 64 * 1024))
        let (streamed, _) = try await cryptoError(
            .init(
                status: 200, headers: [:], body: Data(repeating: 32, count: 1024 * 1024),
                omitContentLength: true), http: small)
        #expect(streamed?.reason == .tooLarge)
    }

    @Test func slowAnswerTimesOut() async throws {
        // Sub-second limits work too (URLSession alone would fire at once or round up).
        let quick = inProcessHTTP(HTTPOptions(connectTimeout: 0.5, totalTimeout: 0.5))
        let start = Date()
        let (e, port) = try await cryptoError(.init(status: 200, "[]", delay: 60), http: quick)
        let took = Date().timeIntervalSince(start)
        #expect(e?.reason == .timeout)
        #expect(e?.message.hasPrefix("127.0.0.1:\(port) did not answer within 0.5 s (timeout)") == true)
        // It gave up on its own limit: a `.timeout`, where waiting for the 60 s answer would have
        // given the answer. Only the lower bound is timed (it waited at least its limit), since a
        // busy machine is slow, not wrong.
        #expect(took >= 0.45, "took \(took) s")
    }

    @Test func offlineHostIsUnreachable() async throws {
        let server = try LocalHTTPServer()
        let port = server.port
        server.stop()
        let widget = CryptoWidget.make(http: testHTTP)
        let cfg = WidgetConfig(["endpoint": .string("http://127.0.0.1:\(port)/api/v3")])
        let e = await expectDataSourceError { _ = try await widget.timeline(for: cfg, in: context(.small)) }
        #expect(e?.message == "cannot reach 127.0.0.1:\(port): offline or the server is down")
    }

    @Test func keysNeverAppearInErrors() async throws {
        // A server that echoes what it was sent.
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.handle("/v2/top-headlines") { req in
            .init(
                status: 200,
                "{\"status\":\"error\",\"code\":\"apiKeyInvalid\",\"message\":\"bad key \(req.query["apiKey"] ?? "")\"}"
            )
        }
        let news = NewsWidget.make(http: testHTTP)
        let cfg = WidgetConfig([
            "source": .string("newsapi"), "endpoint": .string(server.baseURL),
            "apiKey": .string("super-secret-news-key"),
        ])
        let e = await expectDataSourceError { _ = try await news.timeline(for: cfg, in: context(.small)) }
        #expect(e?.message == "127.0.0.1:\(server.port): bad key ••••")
        #expect(!String(describing: e!).contains("super-secret"))
        #expect(!(e?.localizedDescription.contains("super-secret") ?? true))
    }

    @Test func keysAreNotSentOverPlainHTTPToOtherHosts() async throws {
        let commits = CommitsWidget.make(http: testHTTP)
        let cfg = WidgetConfig(["endpoint": .string("http://git.example.com"), "token": .string("tok-plain-123")])
        let e = await expectDataSourceError { _ = try await commits.timeline(for: cfg, in: context(.small)) }
        #expect(e?.message == "refusing to send the API key or token to git.example.com over plain http: use https")
        #expect(
            HTTPClient.isLoopback("127.0.0.1") && HTTPClient.isLoopback("localhost") && HTTPClient.isLoopback("[::1]"))
        #expect(!HTTPClient.isLoopback("127.evil.example") && !HTTPClient.isLoopback("10.0.0.1"))
    }

    @Test func badEndpointIsAConfigurationError() async throws {
        let widget = CryptoWidget.make(http: testHTTP)
        let e = await expectDataSourceError {
            _ = try await widget.timeline(
                for: WidgetConfig(["endpoint": .string("ftp://example.com")]), in: context(.small))
        }
        #expect(e?.reason == .configuration)
    }

    @Test func bundleListsTheThreeWidgets() {
        #expect(BuiltinNetworkWidgets.all.map(\.kind) == ["crypto", "news", "commits"])
        #expect(BuiltinNetworkWidgets.crypto.supportedFamilies == [.small, .medium, .large])
        #expect(BuiltinNetworkWidgets.widgets(http: testHTTP).count == 3)
    }

    @Test func urlBuildingKeepsTheBasePath() throws {
        let url = try URL.api("https://api.example.com/api/v3/", ["coins", "a b"], query: [("x", "1&2")])
        #expect(url.absoluteString == "https://api.example.com/api/v3/coins/a%20b?x=1%262")
    }

    // MARK: errors say what the server said (issue 14, point 4)

    @Test func theServersOwnMessageIsShownForAny4xxOr5xx() async throws {
        let cases: [(Int, String, String)] = [
            (
                400, #"{"message":"Problems parsing JSON","documentation_url":"https://docs.github.com/rest"}"#,
                "Problems parsing JSON"
            ),
            (
                402, #"{"status":{"error_code":402,"error_message":"This request is limited to PRO API subscribers"}}"#,
                "This request is limited to PRO API subscribers"
            ),
            (
                409,
                #"{"message":"Git Repository is empty.","documentation_url":"https://docs.github.com/rest/commits"}"#,
                "Git Repository is empty."
            ),
            (
                422, #"{"message":"Validation Failed","errors":[{"resource":"Commit","code":"invalid"}]}"#,
                "Validation Failed"
            ),
            (
                426,
                #"{"status":"error","code":"parameterInvalid","message":"You have requested too many results. "#
                    + #"Developer accounts are limited to a max of 100 results."}"#,
                "You have requested too many results. Developer accounts are limited to a max of 100 results."
            ),
            (500, "upstream timed out\n", "upstream timed out"),
            (
                502, #"{"type":"about:blank","title":"Bad Gateway","detail":"upstream connect error"}"#,
                "upstream connect error"
            ),
            (
                503, #"{"error":{"code":503,"message":"The service is currently unavailable."}}"#,
                "The service is currently unavailable."
            ),
            (
                401, #"{"error":"invalid_token","error_description":"The access token expired"}"#,
                "invalid_token: The access token expired"
            ),
        ]
        for (status, body, said) in cases {
            let (e, port) = try await cryptoError(
                .init(
                    status: status, headers: ["Content-Type": "application/json"],
                    body: Data(body.utf8)))
            #expect(e?.message == "HTTP \(status) from 127.0.0.1:\(port): \(said)")
            #expect(e?.status == status)
        }
    }

    @Test func aBodyThatSaysNothingKeepsTheHint() async throws {
        let html = "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"
        let (e1, port) = try await cryptoError(
            .init(
                status: 502, headers: ["Content-Type": "text/html"],
                body: Data(html.utf8)))
        #expect(e1?.message == "HTTP 502 from 127.0.0.1:\(port): server error, try again later")
        let notFound = #"{"message":"Not Found","documentation_url":"https://x"}"#
        let (e2, portE2) = try await cryptoError(.init(status: 404, notFound))
        #expect(
            e2?.message == "HTTP 404 from 127.0.0.1:\(portE2): no such API path (check the endpoint)",
            "a bare reason phrase says less than the hint")
        let (e3, portE3) = try await cryptoError(.init(status: 400, #"{"data":[]}"#))
        #expect(e3?.message == "HTTP 400 from 127.0.0.1:\(portE3)")
    }

    @Test func aServerMessageIsSanitisedAndCapped() async throws {
        let hostile = "{\"message\":\"\\u001b[2J\\u001b]0;pwned\\u0007Quota\\nexceeded\\tnow\"}"
        let (e, port) = try await cryptoError(.init(status: 403, hostile))
        #expect(e?.message == "HTTP 403 from 127.0.0.1:\(port): Quota exceeded now")
        #expect(isClean(e?.message ?? ""))
        let long = String(repeating: "very long explanation ", count: 40)
        let (e2, _) = try await cryptoError(.init(status: 400, "{\"message\":\"\(long)\"}"))
        let said = e2?.message.components(separatedBy: ": ").dropFirst().joined(separator: ": ") ?? ""
        #expect(said.count <= HTTPClient.maxServerMessage)
        let atAWord = said.hasSuffix("explanation…") || said.hasSuffix("long…") || said.hasSuffix("very…")
        #expect(atAWord, "cut at a word: \(said)")
    }

    @Test func anErrorSentWithStatus200IsThatError() async throws {
        let cmc =
            #"{"status":{"error_code":1008,"error_message":"#
            + #""You've exceeded your API Key's HTTP request rate limit.","credit_count":0}}"#
        let (e1, port) = try await cryptoError(.init(status: 200, cmc))
        #expect(e1?.message == "127.0.0.1:\(port): You've exceeded your API Key's HTTP request rate limit.")
        #expect(e1?.reason == .rateLimited)
        let (e2, portE2) = try await cryptoError(.init(status: 200, #"{"error":"coin not found"}"#))
        #expect(e2?.message == "127.0.0.1:\(portE2): coin not found", "not 'JSON of an unexpected shape'")
        let moved = #"{"message":"Moved Permanently","documentation_url":"https://x"}"#
        let (e3, portE3) = try await cryptoError(.init(status: 200, moved))
        #expect(e3?.message == "127.0.0.1:\(portE3): Moved Permanently")
        // Data that merely has an error field is data.
        #expect(HTTPClient.errorInSuccess(Data(#"{"data":[1],"error":"partial"}"#.utf8), status: 200, host: "h") == nil)
        #expect(
            HTTPClient.errorInSuccess(
                Data(#"{"status":{"error_code":0,"error_message":null},"data":[]}"#.utf8),
                status: 200, host: "h") == nil)
        #expect(HTTPClient.errorInSuccess(Data(#"{"status":"ok","articles":[]}"#.utf8), status: 200, host: "h") == nil)
    }

    @Test func newsAPIsPlanLimitAndGitHubsEmptyRepositorySayWhy() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route(
            "/v2/top-headlines",
            .init(
                status: 426,
                #"{"status":"error","code":"corsNotAllowed","message":"#
                    + #""Requests from the browser are not allowed on the Developer plan, except from localhost."}"#))
        server.route(
            "/repos/octo/empty/branches/main",
            .init(
                status: 409,
                #"{"message":"Git Repository is empty.","#
                    + #""documentation_url":"https://docs.github.com/rest/branches/branches#get-a-branch","status":"409"}"#
            ))
        let news = NewsWidget.make(http: testHTTP)
        let newsConfig = WidgetConfig([
            "source": .string("newsapi"), "endpoint": .string(server.baseURL),
            "apiKey": .string("k-123456"),
        ])
        let e1 = await expectDataSourceError { _ = try await news.timeline(for: newsConfig, in: context(.small)) }
        #expect(
            e1?.message == "HTTP 426 from 127.0.0.1:\(server.port): Requests from the browser are not allowed "
                + "on the Developer plan, except from localhost.")
        let commits = CommitsWidget.make(http: testHTTP)
        let repo = WidgetConfig([
            "endpoint": .string(server.baseURL), "account": .string("octo"),
            "repo": .string("empty"), "branch": .string("main"),
        ])
        let e2 = await expectDataSourceError { _ = try await commits.timeline(for: repo, in: context(.small)) }
        #expect(e2?.message == "HTTP 409 from 127.0.0.1:\(server.port): Git Repository is empty.")
        #expect(e2?.status == 409)
    }

    /// A small tile cut "try again in 6…" from "60": a number is cut whole.
    @Test func theRetryTimeIsNeverCutMidNumber() {
        let e = HTTPClient.statusError(
            429, host: "api.example.com", retryAfter: "60", rateRemaining: nil,
            notFoundHint: nil,
            body: Data(#"{"status":{"error_code":429,"error_message":"Rate limit"}}"#.utf8))
        #expect(e.message == "rate limited (HTTP 429) by api.example.com: try again in 60 s (Rate limit)")
        let numbers = Set(e.message.split { !$0.isNumber }.map(String.init))
        for width in 8...70 {
            for lines in [1, 3] {
                let view = VStack {
                    Text("Failed to load").font(.headline)
                    Text(e.message).font(.caption).lineLimit(lines)
                }
                let text = render(view, width: width, height: lines + 1).text
                for run in text.split(whereSeparator: { !$0.isNumber }) {
                    #expect(numbers.contains(String(run)), "\(width)x\(lines) cut a number: \(text)")
                }
            }
        }
    }
}

@Suite("HTTP redirects and degraded entries")
struct RedirectAndFamilyTests {
    final class Box: @unchecked Sendable {
        var request: URLRequest?
        var called = false
    }

    @Test func httpsToHTTPRedirectIsNotFollowed() async throws {
        let policy = RedirectPolicy(HTTPRequestSpec(url: "https://api.example.com/x"))
        let receiver = URLSessionTransport.Receiver(maxBytes: 1024, redirects: policy)
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URL(string: "https://api.example.com/x")!)
        let response = try #require(
            HTTPURLResponse(
                url: URL(string: "https://api.example.com/x")!, statusCode: 301,
                httpVersion: "HTTP/1.1", headerFields: ["Location": "http://api.example.com/x"]))
        let box = Box()
        receiver.urlSession(
            session, task: task, willPerformHTTPRedirection: response,
            newRequest: URLRequest(url: URL(string: "http://api.example.com/x")!)
        ) { req in
            box.request = req
            box.called = true
        }
        #expect(box.called && box.request == nil)
        let outcome = await withCheckedContinuation { receiver.start($0) }
        guard case .failure(let failure) = outcome else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure == HTTPTransportError(.insecureRedirect, status: 301))
        let e = HTTPClient.error(for: failure, host: "api.example.com", options: .standard)
        #expect(e.reason == .insecure && e.status == 301)
        #expect(e.message == "api.example.com redirected from https to plain http: not followed")

        // https to https is fine.
        let secure = URLSessionTransport.Receiver(maxBytes: 1024, redirects: policy)
        let ok = Box()
        secure.urlSession(
            session, task: task, willPerformHTTPRedirection: response,
            newRequest: URLRequest(url: URL(string: "https://cdn.example.com/x")!)
        ) { req in ok.request = req }
        #expect(ok.request?.url?.host == "cdn.example.com")
    }

    @Test func plainRedirectsOnLoopbackAreFollowed() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/world.xml", fixtureResponse("rss_world.xml"))
        server.route(
            "/moved.xml", .init(status: 301, headers: ["Location": server.baseURL + "/world.xml"], body: Data()))
        let widget = NewsWidget.make(http: testHTTP)
        let t = try await widget.timeline(
            for: WidgetConfig(["feed": .string(server.baseURL + "/moved.xml")]), in: context(.small))
        #expect((t.entries[0].base as? NewsEntry)?.items.count == 6)
        #expect(server.requests.map(\.path) == ["/moved.xml", "/world.xml"])
    }

    @Test func feedLinksMustBeWebAddresses() {
        #expect(NewsHTML.webURL("javascript:alert(1)") == "")
        #expect(NewsHTML.webURL("swiftdash://crypto/BTC") == "")
        #expect(NewsHTML.webURL("file:///etc/passwd") == "")
        #expect(NewsHTML.webURL(" https://example.com/a ") == "https://example.com/a")
    }

    /// `preview --live` may draw every family from one timeline: larger families still show more.
    @Test func anEntryLoadedForSmallDrawsWellInLargerFamilies() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/api/v3/coins/markets", fixtureResponse("coingecko_markets.json"))
        server.route("/repos/apple/swift/branches/main", fixtureResponse("github_branch.json"))
        let crypto = CryptoWidget.make(http: testHTTP)
        let c = try await crypto.timeline(
            for: WidgetConfig(["endpoint": .string(server.baseURL + "/api/v3")]), in: context(.small))
        #expect(render(crypto, c.entries[0], .medium).text.contains("ETH"))
        #expect(render(crypto, c.entries[0], .large).text.contains("7d low"))

        let commits = CommitsWidget.make(http: testHTTP)
        let t = try await commits.timeline(
            for: WidgetConfig(["endpoint": .string(server.baseURL), "branch": .string("main")]), in: context(.small))
        let large = render(commits, t.entries[0], .large)
        assertSnapshot(large.text, named: "commits-large-from-small-entry")
        #expect(large.text.contains("The pass assumed every store had a"))
        #expect(large.links.count == 2)
    }

    @Test func snapshotOutsideThePreviewLoadsRealData() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/world.xml", fixtureResponse("rss_world.xml"))
        let news = NewsWidget.make(http: testHTTP)
        let cfg = WidgetConfig(["feed": .string(server.baseURL + "/world.xml")])
        let live = await news.snapshot(for: cfg, in: context(.small))
        #expect((live.base as? NewsEntry)?.sourceName == "BBC News - World")
        server.route("/world.xml", .init(status: 500, "oops"))
        let fallback = await news.snapshot(for: cfg, in: context(.small))
        #expect((fallback.base as? NewsEntry)?.sourceName == "Sample news")
    }
}
