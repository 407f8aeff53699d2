import XCTest
import Foundation
import DashTestSupport

/// WidgetCenter from an extension process reaches the running home screen: the SwiftdashKit
/// fixture (Tests/KitFixture) runs as an extension; a button's intent in one widget calls
/// `WidgetCenter.shared.reloadTimelines(ofKind:)` for another widget, and another's calls
/// `reloadAllTimelines()`. The clock stands still (SWIFTDASH_TEST_CLOCK), so nothing but those
/// calls reloads the widgets; the test waits for frames (SWIFTDASH_TEST_EVENTS), never for time.
final class WidgetCenterTmuxTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    func testReloadTimelinesOfKindAndReloadAllTimelinesFromAnExtensionReachTheHomeScreen() throws {
        let exe = try XCTUnwrap(builtProduct("swiftdashkit-fixture"), "swift build builds the fixture")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-wc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try """
        extensions:
          - \(exe.path)
        tiles:
          - {family: medium, widget: kit-lamp}
          - {family: medium, widget: kit-echo}
        """.write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(
            width: 100, height: 24, env: TmuxSession.folders(in: dir), clock: "2027-01-15T08:00:00Z")
        defer { t.close() }
        t.waitFor("both widgets' first timelines") { $0.contains("lamp drawn 1") && $0.contains("echo drawn 1") }

        /// Presses a key that moves the focus and waits for the frame that shows it.
        func move(_ key: String) {
            let frames = t.framesDrawn()
            t.keys(key)
            XCTAssertTrue(t.waitForFrame(after: frames), "a frame after \(key)")
        }

        // The lamp's second control, Echo: its intent asks for the kit-echo timelines by kind.
        move("Tab")
        move("Tab")
        t.keys("Enter")
        t.waitFor("the echo reloaded by WidgetCenter, the lamp after its own intent") {
            $0.contains("echo drawn 2") && $0.contains("lamp drawn 2")
        }

        // The echo's All button: reloadAllTimelines() reloads the lamp too.
        move("Right")
        move("Tab")
        t.keys("Enter")
        t.waitFor("the lamp reloaded by reloadAllTimelines, the echo after its intent") {
            $0.contains("lamp drawn 3") && !$0.contains("echo drawn 2")
        }
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
    }
}
