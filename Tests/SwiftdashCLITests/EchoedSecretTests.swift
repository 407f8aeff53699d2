import XCTest
import Foundation
import DashTestSupport

/// Issue 37.4, "a secret stays secret even when a server echoes it": an api widget sends
/// `Authorization: Bearer ${secret}`, the secret printed by a secret command, to a server on
/// 127.0.0.1 that answers with the request's headers (as httpbin's `/headers` does) and with the
/// token again in the encodings a server may use. Neither the tile (`render --live`), nor
/// `timeline`, nor `snapshot`, nor anything written under the state and cache folders holds the
/// token in any of them; the fields still show, masked.
final class EchoedSecretTests: XCTestCase {
    static let token = "tok-S3CRET/42+x y\"z"
    var root: URL!
    var server: LocalHTTPServer!
    var env: [String: String] {
        [
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_STATE_HOME": root.appendingPathComponent("state").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
            "XDG_RUNTIME_DIR": root.appendingPathComponent("run").path,
        ]
    }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-echo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("config/swiftdash"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("run"), withIntermediateDirectories: true)
        server = try LocalHTTPServer()
        let echo: @Sendable (LocalHTTPServer.Request) -> LocalHTTPServer.Response = { req in
            let auth = req.headers.first { $0.key.lowercased() == "authorization" }?.value ?? ""
            let sent = String(auth.dropFirst("Bearer ".count))
            let bytes = Data(sent.utf8)
            let forms: [String: Any] = [
                "headers": req.headers,
                "base64": bytes.base64EncodedString(),
                "percent": sent.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "",
                "hex": bytes.map { String(format: "%02x", $0) }.joined(),
                "note": "you sent \(sent)",
            ]
            let body = try! JSONSerialization.data(withJSONObject: forms, options: [.sortedKeys])
            return LocalHTTPServer.Response(status: 200, headers: ["Content-Type": "application/json"], body: body)
        }
        server.handle("/headers", echo)
        server.handle("/denied") { req in
            let auth = req.headers.first { $0.key.lowercased() == "authorization" }?.value ?? ""
            return LocalHTTPServer.Response(status: 500, headers: [:], body: Data("bad token \(auth)".utf8))
        }
        let secret = #"{ command: "printf '%s' '"# + Self.token.replacingOccurrences(of: "\"", with: "\\\"") + #"'" }"#
        try Data(
            """
            tiles:
              - widget: api
                family: large
                config:
                  url: \(server.baseURL)/headers
                  secret: \(secret)
                  headers: ["Authorization: Bearer ${secret}"]
                  fields: ["auth = headers.Authorization", "all = headers", "b = base64", "p = percent",
                           "h = hex", "n = note"]
              - widget: api
                config:
                  url: \(server.baseURL)/denied
                  secret: \(secret)
                  headers: ["Authorization: Bearer ${secret}"]

            """.utf8
        ).write(to: root.appendingPathComponent("config/swiftdash/home.yaml"))
    }

    override func tearDownWithError() throws {
        server.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// Every form the token may take in text that left swiftdash.
    var forms: [String] {
        let bytes = Data(Self.token.utf8)
        return [
            Self.token, "S3CRET", bytes.base64EncodedString(),
            Self.token.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
            bytes.map { String(format: "%02x", $0) }.joined(),
        ]
    }

    func assertNoToken(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for f in forms { XCTAssertFalse(text.contains(f), "\(what) holds \(f): \(text)", file: file, line: line) }
    }

    func testASecretStaysSecretWhenAServerEchoesIt() throws {
        let render = try runSwiftdash(["render", "--live", "--size", "120x40"], env: env)
        XCTAssertEqual(render.status, 0, render.err)
        XCTAssertTrue(render.out.contains("Bearer ••••"), "the field still shows, masked: \(render.out)")
        assertNoToken(render.out + render.err, "render --live")
        XCTAssertEqual(server.requests.filter { $0.path == "/headers" }.count >= 1, true, "the server was asked")

        let timeline = try runSwiftdash(["timeline"], env: env)
        XCTAssertEqual(timeline.status, 0, timeline.err)
        XCTAssertTrue(timeline.out.contains("••••"), timeline.out)
        assertNoToken(timeline.out + timeline.err, "timeline")

        let at = ISO8601DateFormatter().string(from: Date())
        let snapshot = try runSwiftdash(["snapshot", "--at", at], env: env)
        assertNoToken(snapshot.out + snapshot.err, "snapshot")

        // Whatever these commands kept under the state and cache folders (a one-off command
        // keeps no timelines; the home screen's cache is fed by the same masked loads).
        var written = 0
        for dir in ["state", "cache"] {
            let base = root.appendingPathComponent(dir)
            for case let url as URL in FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) ?? .init()
            {
                guard let data = try? Data(contentsOf: url) else { continue }
                written += 1
                assertNoToken(String(decoding: data, as: UTF8.self), url.path)
            }
        }
        _ = written
    }
}
