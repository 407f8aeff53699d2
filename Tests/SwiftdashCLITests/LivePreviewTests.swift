import XCTest
import Foundation
import DashTestSupport

/// `preview --live` runs the real timeline against a local server (no internet).
final class LivePreviewTests: XCTestCase {
    let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Local Wire</title><link>http://127.0.0.1/</link>
        <item><title>Harbour bridge reopens after repairs</title><link>http://127.0.0.1/a</link>
        <pubDate>Mon, 23 Nov 2026 09:00:00 GMT</pubDate><description>The &lt;b&gt;bridge&lt;/b&gt; is open.</description></item>
        <item><title>Evil \u{1B}]0;pwned\u{07}title \u{1B}[31mred</title><link>http://127.0.0.1/b</link>
        <pubDate>Mon, 23 Nov 2026 08:00:00 GMT</pubDate></item>
        </channel></rss>
        """

    func testLiveNewsPreviewDrawsTheFeedAndStripsEscapes() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/rss.xml", .init(status: 200, contentType: "application/rss+xml", feed))
        let r = try runSwiftdash([
            "preview", "news", "--live", "--family", "medium", "--at", "2026-11-23T09:30:00Z",
            "--set", "feed=\(server.baseURL)/rss.xml",
        ])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("Harbour bridge reopens"), r.out)
        XCTAssertTrue(r.out.contains("30 min ago"), r.out)
        XCTAssertFalse(r.out.contains("\u{1B}"), "no escape sequence from the feed reaches the output")
        XCTAssertFalse(r.out.contains("\u{07}"))
        XCTAssertTrue(r.out.contains("1 h ago"), "the second story is there too")
    }

    func testLivePreviewOfABrokenSourceSaysWhyInsteadOfCrashing() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/rss.xml", .init(status: 500, contentType: "text/plain", "boom"))
        let r = try runSwiftdash([
            "preview", "news", "--live", "--family", "medium", "--set", "feed=\(server.baseURL)/rss.xml",
        ])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("Failed to load"), r.out)
        XCTAssertTrue(r.out.contains("500"), r.out)
    }
}
