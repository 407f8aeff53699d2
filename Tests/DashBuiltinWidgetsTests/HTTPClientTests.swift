import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// What a broken, slow, huge or hostile server does to a tile: a clear error that the
/// scheduler shows as a stale mark, never a hang, a crash or a leaked key.
@Suite("HTTP failures")
struct HTTPClientTests {
    func cryptoError(_ response: LocalHTTPServer.Response, http: HTTPClient = testHTTP,
                     apiKey: String = "") async throws -> (DataSourceError?, Int) {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("*", response)
        let widget = CryptoWidget.make(http: http)
        let cfg = WidgetConfig(["endpoint": .string(server.baseURL + "/api/v3"), "apiKey": .string(apiKey)])
        let e = await expectDataSourceError { _ = try await widget.timeline(for: cfg, in: context(.medium)) }
        return (e, Int(server.port))
    }

    @Test func serverErrorSaysSo() async throws {
        let (e, port) = try await cryptoError(.init(status: 503, "{\"error\":\"down\"}"))
        #expect(e?.message == "HTTP 503 from 127.0.0.1:\(port): server error, try again later")
        #expect(e?.status == 503)
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
        let small = HTTPClient(options: HTTPOptions(connectTimeout: 2, totalTimeout: 2, maxBytes: 64 * 1024))
        let (streamed, _) = try await cryptoError(.init(status: 200, headers: [:], body: Data(repeating: 32, count: 1024 * 1024),
                                                        omitContentLength: true), http: small)
        #expect(streamed?.reason == .tooLarge)
    }

    @Test func slowAnswerTimesOut() async throws {
        let quick = HTTPClient(options: HTTPOptions(connectTimeout: 0.5, totalTimeout: 0.5))
        let start = Date()
        let (e, port) = try await cryptoError(.init(status: 200, "[]", delay: 1.5), http: quick)
        let took = Date().timeIntervalSince(start)
        #expect(e?.reason == .timeout)
        #expect(e?.message.hasPrefix("127.0.0.1:\(port) did not answer within 0.5 s (timeout)") == true)
        #expect(took < 1.4)
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
            .init(status: 200, "{\"status\":\"error\",\"code\":\"apiKeyInvalid\",\"message\":\"bad key \(req.query["apiKey"] ?? "")\"}")
        }
        let news = NewsWidget.make(http: testHTTP)
        let cfg = WidgetConfig(["source": .string("newsapi"), "endpoint": .string(server.baseURL),
                                "apiKey": .string("super-secret-news-key")])
        let e = await expectDataSourceError { _ = try await news.timeline(for: cfg, in: context(.small)) }
        #expect(e?.message == "127.0.0.1:\(server.port): bad key ••••")
        #expect(!String(describing: e!).contains("super-secret"))
        #expect(!(e?.localizedDescription.contains("super-secret") ?? true))
    }

    @Test func badEndpointIsAConfigurationError() async throws {
        let widget = CryptoWidget.make(http: testHTTP)
        let e = await expectDataSourceError {
            _ = try await widget.timeline(for: WidgetConfig(["endpoint": .string("ftp://example.com")]), in: context(.small))
        }
        #expect(e?.reason == .configuration)
    }

    @Test func urlBuildingKeepsTheBasePath() throws {
        let url = try URL.api("https://api.example.com/api/v3/", ["coins", "a b"], query: [("x", "1&2")])
        #expect(url.absoluteString == "https://api.example.com/api/v3/coins/a%20b?x=1%262")
    }
}
