import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// The built `swiftdash-fetch`, found beside the test bundle (in .build/<config>/).
func builtFetchHelper() -> URL? { builtProduct(SubprocessTransport.helperName) }

/// The transport the shipped widgets use: the real `swiftdash-fetch` process against a
/// local server, with the same messages as the in-process transport.
@Suite("swiftdash-fetch helper")
struct SubprocessTransportTests {
    func client(_ options: HTTPOptions = HTTPOptions(connectTimeout: 30, totalTimeout: 30)) throws -> HTTPClient {
        let exe = try #require(builtFetchHelper(), "swiftdash-fetch is not built next to the tests (swift build)")
        return HTTPClient(options: options, transport: SubprocessTransport(executable: exe))
    }

    @Test func helperAnswersErrorsCapsAndTimesOut() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let host = "127.0.0.1:\(server.port)"
        server.route("/ok", .init(status: 200, "{\"price\": 1}"))
        server.route("/missing", .init(status: 404, "{}"))
        server.route("/limited", .init(status: 429, headers: ["Retry-After": "60"], body: Data("{}".utf8)))
        server.route(
            "/big",
            .init(status: 200, headers: [:], body: Data(repeating: 32, count: 1024 * 1024), omitContentLength: true))
        server.route("/slow", .init(status: 200, "[]", delay: 60))
        let http = try client()

        // Success: the body, and the headers and key went to the server through stdin.
        let body = try await http.get(
            URL(string: server.baseURL + "/ok")!, headers: ["X-Api-Key": "secret-key-123"],
            secrets: ["secret-key-123"])
        #expect(String(decoding: body, as: UTF8.self) == "{\"price\": 1}")
        #expect(server.requests.first?.headers.first { $0.key.lowercased() == "x-api-key" }?.value == "secret-key-123")

        let notFound = await expectDataSourceError {
            _ = try await http.get(URL(string: server.baseURL + "/missing")!, notFoundHint: "no such coin")
        }
        #expect(notFound?.message == "HTTP 404 from \(host): no such coin")
        #expect(notFound?.reason == .notFound)

        let limited = await expectDataSourceError { _ = try await http.get(URL(string: server.baseURL + "/limited")!) }
        #expect(limited?.message == "rate limited (HTTP 429) by \(host): try again in 60 s")

        let capped = try client(HTTPOptions(connectTimeout: 30, totalTimeout: 30, maxBytes: 64 * 1024))
        let big = await expectDataSourceError { _ = try await capped.get(URL(string: server.baseURL + "/big")!) }
        #expect(big?.message == "response from \(host) is larger than 65536 bytes: refused")

        let quick = try client(HTTPOptions(connectTimeout: 0.5, totalTimeout: 0.5))
        let start = Date()
        let slow = await expectDataSourceError { _ = try await quick.get(URL(string: server.baseURL + "/slow")!) }
        let took = Date().timeIntervalSince(start)
        #expect(slow?.reason == .timeout)
        #expect(slow?.message.hasPrefix("\(host) did not answer within 0.5 s (timeout)") == true)
        // It gave up at its own 0.5 s limit (a `.timeout`; the 60 s answer would have been an answer).
        #expect(took >= 0.45, "took \(took) s")
    }

    @Test func offlineHostIsUnreachable() async throws {
        let server = try LocalHTTPServer()
        let port = server.port
        server.stop()
        let e = await expectDataSourceError { _ = try await client().get(URL(string: "http://127.0.0.1:\(port)/x")!) }
        #expect(e?.message == "cannot reach 127.0.0.1:\(port): offline or the server is down")
    }

    @Test func missingHelperSaysWhatToBuild() async throws {
        let http = HTTPClient(
            options: .standard,
            transport: SubprocessTransport(executable: URL(fileURLWithPath: "/nonexistent/swiftdash-fetch")))
        let e = await expectDataSourceError { _ = try await http.get(URL(string: "https://example.com/")!) }
        #expect(e?.message.contains("/nonexistent/swiftdash-fetch is missing") == true)
        #expect(e?.message.contains("swift build --product swiftdash-fetch") == true)
    }

    @Test func helperLocation() {
        #expect(
            SubprocessTransport.defaultExecutable(environment: ["SWIFTDASH_FETCH": "/opt/x/fetch"]).path
                == "/opt/x/fetch")
        #expect(SubprocessTransport.defaultExecutable(environment: [:]).lastPathComponent == "swiftdash-fetch")
    }

    @Test func shippedWidgetsUseTheHelper() {
        #expect(HTTPClient().transport is SubprocessTransport)
    }
}
