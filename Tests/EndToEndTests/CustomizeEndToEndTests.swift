import XCTest
import Foundation
import DashTestSupport

/// Customizing the home screen from the keyboard, in the real binary inside tmux: the
/// gallery, the Edit Widget form (a typing error, fixed), a reload from a local feed,
/// arrange mode across pages, a stack, a remove and its undo; then a restart.
final class CustomizeEndToEndTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Fixture News</title><link>https://example.org/</link>
        <item><title>Harbour bridge reopens after repairs</title><link>https://example.org/1</link>
        <pubDate>Mon, 23 Nov 2026 08:48:00 GMT</pubDate></item>
        <item><title>Library extends its opening hours</title><link>https://example.org/2</link>
        <pubDate>Mon, 23 Nov 2026 08:12:00 GMT</pubDate></item>
        </channel></rss>
        """

    func testAddEditMoveStackRemoveUndoQuitAndRestart() throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/feed.xml", .init(contentType: "application/rss+xml", Self.feed))
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("swiftdash-customize-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = TmuxSession.folders(in: dir)
        // A clock that stands still: "undone" and the other notes stay until the next message.
        let clock = "2026-11-23T09:30:00Z"
        let t = try TmuxSession(width: 80, height: 24, env: env, clock: clock)
        defer { t.close() }
        t.waitFor("the first frame") { $0.contains("? help") }

        // The gallery: find the news widget, add it after the focused clock; the form opens.
        t.keys("a")
        t.waitFor("the gallery") { $0.contains("Add a widget") }
        t.keys("n", "e", "w", "s")
        t.waitFor("the filter") { $0.contains("News headlines") && $0.contains("of") }
        t.keys("Enter")
        var s = t.waitFor("the form") { $0.contains("Edit Widget · News headlines") }

        // A typing error in the feed URL: the row says what is allowed and Save is refused.
        t.keys("Down", "C-u")
        t.keys("-l", "htp://127.0.0.1:\(server.port)/feed.xml")
        s = t.waitFor("the typing error") { $0.contains("✗") && $0.contains("feed.xml") }
        t.keys("C-s")
        s = t.waitFor("the refusal") { $0.contains("Not saved") }
        XCTAssertTrue(s.contains("Feed URL must be an http:// or https:// address"), s)
        XCTAssertFalse(s.contains("https?://"), "words, never the pattern:\n\(s)")
        // Fixed: to the start, one character on, the missing t.
        t.keys("C-a", "Right", "t")
        t.waitFor("the error to go") { !$0.contains("✗ Feed") }
        t.keys("C-s")
        s = t.waitFor("the tile reloaded from the local feed") { $0.contains("Harbour bridge") }
        XCTAssertFalse(s.contains("Edit Widget"), "the form closed:\n\(s)")

        // Arrange mode: the new tile to the next page and back; the two small tiles into a stack.
        t.keys("m")
        t.waitFor("arrange mode") { $0.contains("ARRANGE") }
        t.keys("PageDown")
        s = t.waitFor("the tile on page 2") { $0.contains("page 2/") }
        XCTAssertTrue(s.contains("Harbour bridge"), "the page follows the lifted tile:\n\(s)")
        t.keys("Enter", "Escape")
        t.waitFor("home again") { $0.contains("? help") }
        t.keys("PageUp", "g", "m", "Right")  // the clock, lifted over the crypto tile beside it
        t.waitFor("the hover") { $0.contains("stack here") }
        t.keys("Enter")
        t.waitFor("the stack") { $0.contains("● ○") || $0.contains("○ ●") }

        // Remove a tile, undo it.
        t.keys("Escape")
        t.waitFor("home again") { $0.contains("? help") }
        t.keys("d")
        t.waitFor("the removal") { $0.contains("u undoes") }
        t.keys("u")
        s = t.waitFor("the undo") { $0.contains("undone") }
        XCTAssertTrue(s.contains("● ○") || s.contains("○ ●"), s)

        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }

        // A restart shows the same arrangement: every change was written to home.yaml.
        let file = dir.appendingPathComponent("config/swiftdash/home.yaml")
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "home.yaml was written")
        let again = try TmuxSession(width: 80, height: 24, env: env, clock: clock)
        defer { again.close() }
        s = again.waitFor("the restored home screen") {
            $0.contains("? help") && $0.contains("Harbour bridge")
        }
        XCTAssertTrue(s.contains("● ○") || s.contains("○ ●"), "the stack is back:\n\(s)")
        again.keys("q")
        again.waitFor("exit") { $0.contains("EXITED 0") }
    }
}
