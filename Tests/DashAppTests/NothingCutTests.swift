import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles
@testable import DashRuntime

/// Issue 23 points 2 and 3: nothing that says what to do is ever cut, and Esc steps back one
/// level.
final class NothingCutTests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_795_426_200)  // 2026-11-23 09:30 UTC

    func harness(_ kind: String, _ family: WidgetFamily, size: Size = Size(width: 80, height: 24)) -> AppHarness {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: family, items: [WidgetInstance(id: "w1", kind: kind)])
        ])
        return AppHarness(widgets: BuiltinWidgets.bundle.widgets, home: home, size: size, now: at)
    }

    /// Every word of every key's explanation is on the help, at 80 columns too: long ones wrap.
    func testTheHelpWrapsInsteadOfCutting() {
        for size in [Size(width: 80, height: 24), Size(width: 200, height: 60)] {
            let h = harness("clock", .small, size: size)
            h.press(.char("?"))
            var seen = ""
            for _ in 0...AppView.helpScrollLimit(size) {
                seen += h.screen
                h.press(.char("j"))
            }
            let words = Set(seen.split(whereSeparator: { " │\n".contains($0) }).map(String.init))
            for b in KeyTable.bindings {
                for w in b.help.split(separator: " ") {
                    XCTAssertTrue(words.contains(String(w)), "'\(w)' of \(b.label) is cut at \(size)")
                }
            }
            XCTAssertFalse(seen.contains("resi…"), seen)
            // The screens: help-80x24 and help-200x60 (AppCoreTests).
            h.skipPendingWork()
        }
    }

    /// A status message is one line (issue 38): whole where it fits (the key hint gives way),
    /// else shortened at a word, what to do kept, with the key that shows it whole.
    func testALongStatusMessageStaysOnOneLineAndKeepsWhatToDo() {
        let message = "home.yaml changed; earlier edits can no longer be undone"
        for size in [Size(width: 80, height: 24), Size(width: 200, height: 60)] {
            let h = harness("clock", .small, size: size)
            h.run {
                $0.say(message)
                return []
            }
            let screen = h.screen
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            XCTAssertTrue(rows.last!.contains(message), "\(size):\n\(screen)")
            assertSnapshot(screen, named: "status-long-message-\(size.width)x\(size.height)")
            h.skipPendingWork()
        }
        // The broken home.yaml's problem and what to do, at 80 columns.
        let h = harness("clock", .small)
        h.useHomeFile(HomeFileState(path: "/tmp/home.yaml", text: "tiles: []\n", home: h.state.home))
        h.send(.homeFileChanged(text: "tiles:\n  - widget: nope\n  - widget: clock\n    family: huge\n"))
        let screen = h.screen
        XCTAssertEqual(h.state.homeProblems?.all.count, 2)
        XCTAssertTrue(screen.contains("2 problems: ! lists them all"), screen)
        assertSnapshot(screen, named: "status-broken-home-80x24")
        assertSnapshot(h.styledScreen, named: "styles-status-broken-home-80x24")
        XCTAssertEqual(h.style(of: "2 problems")?.foreground, h.state.theme[.warning], "a broken home.yaml warns")
        h.skipPendingWork()
    }

    /// "undone" is seen: a note said while it shows waits for it.
    func testANewNoteWaitsForAConfirmation() {
        let h = harness("clock", .small)
        h.run {
            $0.say("undone: moved Clock (Ctrl-R redoes)")
            $0.say("home.yaml changed: home screen updated")
            return []
        }
        XCTAssertTrue(h.screen.contains("undone: moved Clock"), h.screen)
        h.advance(by: StatusNote.lifetime + 1)
        XCTAssertTrue(h.screen.contains("home.yaml changed: home screen updated"), h.screen)
        XCTAssertFalse(h.screen.contains("undone"), h.screen)
        // Any other note still replaces an ordinary one.
        h.run {
            $0.say("reloading all")
            return []
        }
        XCTAssertTrue(h.screen.contains("reloading all"), h.screen)
        h.skipPendingWork()
    }

    /// Esc goes back one level: a story opened from the stories pane returns to it, the help
    /// opened from a pane returns to the pane, and then Esc closes to the home screen.
    func testEscStepsBackOneLevel() async {
        let h = harness("news", .large)
        var ctx = h.load(of: "w1")!.context
        ctx.isPreview = true
        let entry = await BuiltinWidgets.bundle["news"]!.snapshot(for: WidgetConfig(), in: ctx)
        h.finish("w1", entries: [entry.base])
        h.send(.click(tile: "t1", url: DeepLink.make(kind: "news", "stories")))
        guard let first = h.state.detailPane?.link else { return XCTFail("no stories pane") }
        h.press(.char("j"))
        let scrolled = h.state.detailPane?.scroll
        let story = h.state.paneLinks.first { DeepLink($0)?.path.first == "story" }!
        h.press(.tab)
        while h.state.highlightedPaneLink != story { h.press(.tab) }
        h.press(.enter)
        guard let second = h.state.detailPane?.link else { return XCTFail("no story pane") }
        XCTAssertNotEqual(first, second)
        h.press(.char("?"))
        XCTAssertEqual(h.state.pane.kind, .help)
        h.press(.escape)
        XCTAssertEqual(h.state.detailPane?.link, second, "help → story")
        h.press(.escape)
        XCTAssertEqual(h.state.detailPane?.link, first, "story → stories")
        XCTAssertEqual(h.state.detailPane?.scroll, scrolled, "as it was left")
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .none, "stories → home")
        XCTAssertEqual(h.state.focusedTile, "t1")
    }
}

/// Issue 23 point 5: the command widget's shell switch keeps the command.
final class CommandShellSwitchTests: XCTestCase {
    func testTheShellSwitchQuotesTheWordsAndSplitsThemBack() {
        let words = ["git", "-C", "/tmp/my repo", "log", "--format=%h %s"]
        let home = HomeConfig(tiles: [
            TileInstance(
                id: "t1", family: .medium,
                items: [WidgetInstance(id: "w1", kind: "command", config: WidgetConfig(["command": .list(words)]))])
        ])
        let h = AppHarness(
            widgets: BuiltinWidgets.bundle.widgets, home: home, now: Date(timeIntervalSince1970: 1_795_426_200))
        h.press(.char("e"))
        h.select("shell")
        h.press(.char(" "))
        XCTAssertEqual(h.field("shell")?.flag, true)
        XCTAssertEqual(h.field("command")?.items, ["git -C '/tmp/my repo' log '--format=%h %s'"])
        h.press(.char(" "))
        XCTAssertEqual(h.field("shell")?.flag, false)
        XCTAssertEqual(h.field("command")?.items, words)
        h.skipPendingWork()
    }
}
