import XCTest
import Foundation
import DashTestSupport

/// A widget bundle's own Live Activity views end to end (decision 68): examples/widgetkit's
/// pocket-widgets, WidgetKit code built with no edits, declares `DeliveryLiveActivity`; a script
/// starts an activity of its kind with `swiftdash activity start`, and the running home screen's
/// strip, its expanded regions, the detail pane and `snapshot --line` show the bundle's text.
final class ActivityBundleTmuxTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    /// examples/widgetkit built into `.build-examples` (as WidgetKitExamplesTests builds it).
    func examples() throws -> URL {
        let scratch = Self.repo.appendingPathComponent(".build-examples")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "swift", "build", "--package-path", Self.repo.appendingPathComponent("examples/widgetkit").path,
            "--scratch-path", scratch.path, "--product", "pocket-widgets",
        ]
        let out = Pipe()
        (p.standardOutput, p.standardError, p.standardInput) = (out, out, FileHandle.nullDevice)
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw NSError(domain: "swift build: \(text.suffix(3000))", code: 1) }
        return scratch.appendingPathComponent("debug/pocket-widgets")
    }

    /// A home screen in tmux at 80x24 whose home.yaml names pocket-widgets and `tiles` (YAML lines),
    /// in a folder of its own; both go when the test ends.
    func home(_ tiles: [String]) throws -> TmuxSession {
        let exe = try examples()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-island-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try (["extensions:", "  - \(exe.path)", "tiles:"] + tiles.map { "  - \($0)" }).joined(separator: "\n")
            .write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(width: 80, height: 24, env: TmuxSession.folders(in: dir))
        addTeardownBlock { t.close() }
        return t
    }

    func testAnActivityOfABundlesKindIsDrawnWithTheBundlesOwnViews() throws {
        let t = try home(["{family: small, widget: clock}"])
        t.waitFor("the home screen") { $0.contains("Clock") }
        func swiftdash(_ args: String...) throws -> (status: Int32, out: String, err: String) {
            try runProgram(TmuxSession.binary, args, env: t.environment, input: "")
        }

        let start = try swiftdash(
            "activity", "start", "delivery-attributes", "--attributes", #"{"orderName":"Books"}"#,
            "--state", #"{"stopsAway":3,"driver":"Sam"}"#)
        XCTAssertEqual(start.status, 0, start.err)
        let id = start.out.trimmingCharacters(in: .whitespacesAndNewlines)
        // The compact leading and trailing views, as the bundle wrote them.
        t.waitFor("the bundle's compact presentation") { $0.contains("Van: Books") && $0.contains("3 stops") }
        let line = try swiftdash("snapshot", "--line", "{kind}")
        XCTAssertTrue(line.out.hasPrefix("Van: Books 3 stops"), line.out)
        let json = try swiftdash("snapshot", "--json")
        XCTAssertTrue(json.out.contains(#""compact":"Van: Books 3 stops""#), json.out)

        // Focused, the expanded regions; Enter, the Lock Screen view with the island's link.
        t.keys("k")
        t.waitFor("the expanded regions") { $0.contains("Sam") && $0.contains("Leave it at the door") }
        t.keys("Enter")
        t.waitFor("the Lock Screen view") {
            $0.contains("Books is on its way") && $0.contains("Sam is 3 stops away")
                && $0.contains("link: https://example.com/orders/42")
        }
        t.keys("Escape", "j")
        XCTAssertEqual(try swiftdash("activity", "update", id, "--state", #"{"stopsAway":1,"driver":"Sam"}"#).status, 0)
        t.waitFor("the update drawn by the bundle") { $0.contains("Van: Books") && $0.contains("1 stops") }
        // Ended: the bundle's leading view with the built-in outcome mark and duration.
        XCTAssertEqual(
            try swiftdash("activity", "end", id, "--state", #"{"stopsAway":0,"driver":"Sam","outcome":"success"}"#).status, 0)
        t.waitFor("how it ended") { $0.contains("✓ Van: Books") }
        t.keys("q")
    }

    /// 39.4's last clause: an intent behind a tile's button starts, updates and ends an activity
    /// (pocket-widgets' track tile: `Activity.request`, `update`, `end`), drawn by the bundle.
    func testATilesButtonStartsUpdatesAndEndsTheBundlesActivity() throws {
        let t = try home(["{family: small, widget: track-widget}", "{family: small, widget: clock}"])
        t.waitFor("the track tile") { $0.contains("Lamp order") && $0.contains("Track") }
        // Tab highlights the button, Space presses it: the intent requests the activity.
        t.keys("Tab", "Space")
        t.waitFor("the activity the intent started, in the bundle's views") {
            $0.contains("Van: Lamp") && $0.contains("2 stops") && $0.contains("Next stop")
        }
        // Pressed again: an update with an alert.
        t.keys("Space")
        t.waitFor("the intent's update") { $0.contains("Van: Lamp") && $0.contains("1 stops") }
        let state = try XCTUnwrap(t.environment["XDG_STATE_HOME"])
        let file = URL(fileURLWithPath: state).appendingPathComponent("swiftdash/activities.json")
        let book = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let stored = try XCTUnwrap((book["activities"] as? [[String: Any]])?.first)
        XCTAssertEqual((stored["alert"] as? [String: Any])?["body"] as? String, "1 stops away", "the update alerted")
        // The last stop: the intent ends it; the tile offers to track again.
        t.keys("Space")
        t.waitFor("ended by the intent") { $0.contains("■ Van: Lamp") && $0.contains("Track") && !$0.contains("Next stop") }
        let list = try runProgram(TmuxSession.binary, ["activity", "list", "--json"], env: t.environment, input: "")
        XCTAssertTrue(list.out.contains(#""kind":"delivery-attributes""#), list.out)
        XCTAssertTrue(list.out.contains(#""phase":"ended""#), list.out)
        t.keys("q")
    }
}
