import XCTest
import Foundation
import DashCore
import DashWidgets
import DashRender
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles

/// Issue 23 point 2: a broken home.yaml says how many problems it has and lists them all on a key.
final class ProblemsPaneTests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_795_426_200)  // 2026-11-23 09:30 UTC

    func brokenHarness(problems: Int, size: Size = Size(width: 80, height: 24)) -> AppHarness {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "clock")])
        ])
        let h = AppHarness(widgets: BuiltinWidgets.bundle.widgets, home: home, size: size, now: at)
        h.useHomeFile(HomeFileState(path: "/tmp/home.yaml", text: "tiles: []\n", home: h.state.home))
        guard problems > 0 else { return h }
        let tiles = (0..<problems).map { "  - widget: nope\($0)\n" }.joined()
        h.send(.homeFileChanged(text: "tiles:\n" + tiles))
        return h
    }

    func testTheStatusLineNamesTheKeyAndItListsEveryProblem() {
        let h = brokenHarness(problems: 3)
        XCTAssertEqual(h.state.homeProblems?.all.count, 3)
        XCTAssertTrue(h.screen.contains("3 problems: ! lists them all"), h.screen)
        h.press(.char("!"))
        XCTAssertEqual(h.state.pane.kind, .problems)
        let screen = h.screen
        for n in 0..<3 { XCTAssertTrue(screen.contains("nope\(n)"), screen) }
        XCTAssertTrue(screen.contains("home.yaml: 3 problems"), screen)
        assertSnapshot(screen, named: "problems-pane-80x24")
        assertSnapshot(h.styledScreen, named: "styles-problems-pane-80x24")
        XCTAssertEqual(h.style(of: "3 problems: !")?.foreground, h.state.theme[.warning], "the status line warns")
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .none, "Esc closes")
        h.press(.char("!"))
        h.press(.char("!"))
        XCTAssertEqual(h.state.pane.kind, .none, "! again closes")
        h.skipPendingWork()
    }

    func testALongListScrolls() {
        let h = brokenHarness(problems: 40)
        h.press(.char("!"))
        let rows = AppView.problemsGeometry(h.state.screen).visibleRows
        let total = AppView.problemRows(h.state).count
        XCTAssertGreaterThanOrEqual(total, 40, "a long message wraps, never cut")
        XCTAssertFalse(h.screen.contains("nope39"), h.screen)
        XCTAssertTrue(h.screen.contains("↑↓ scroll (\(rows)/\(total))"), h.screen)
        for _ in 0..<(total / 10 + 2) { h.press(.pageDown) }
        guard case .problems(let p) = h.state.pane else { return XCTFail("the pane closed") }
        XCTAssertEqual(p.scroll, total - rows, "scrolled to the end, no further")
        XCTAssertTrue(h.screen.contains("nope39"), h.screen)
        h.press(.pageUp, .pageUp)
        XCTAssertFalse(h.screen.contains("nope39"), h.screen)
        h.skipPendingWork()
    }

    func testWithNothingBrokenTheKeySaysSo() {
        let h = brokenHarness(problems: 0)
        h.press(.char("!"))
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertTrue(h.screen.contains("home.yaml has no problems"), h.screen)
        h.skipPendingWork()
    }

    func testTheKeyIsInTheHelp() {
        XCTAssertTrue(
            AppView.keyHelp.flatMap(\.1).contains { $0.0 == "!" && $0.1.contains("every problem") },
            "\(AppView.keyHelp)")
    }
}
