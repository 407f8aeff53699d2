import XCTest
import Foundation
import DashCore
import DashWidgets
import DashTestSupport
@testable import DashApp
@testable import DashHome

/// The panes open form one stack (`AppState.panes`): what is under the pane shown is kept as it
/// was left (NothingCutTests, EditFormTests.testEditFromADetailPaneReturnsToIt), and nothing stays
/// hidden under the home screen.
final class PaneStackTests: XCTestCase {
    func harness() -> AppHarness {
        let home = HomeConfig(
            tiles: (1...2).map { i in
                TileInstance(id: "t\(i)", family: .medium, items: [WidgetInstance(id: "w\(i)", kind: "stories")])
            })
        return AppHarness(widgets: [storyWidget], home: home, size: Size(width: 80, height: 24), now: start)
    }

    func testAHomeChangeClosesThePaneOfARemovedTileEvenUnderAnother() {
        let h = harness()
        h.send(.click(tile: "t1", url: "swiftdash://stories/1"))
        h.press(.char("?"))
        XCTAssertEqual(h.state.panes.map(\.kind), [.detail, .help])
        var home = h.state.home
        home.tiles.removeAll { $0.id == "t1" }
        _ = h.run { s in App.reconcile(&s, to: home, focus: nil) }
        XCTAssertEqual(h.state.panes.map(\.kind), [.help], "the detail pane of the removed tile closed under the help")
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .none, "Esc shows the home screen, not a pane of a tile that is gone")
        h.skipPendingWork()
    }

    func testAPressOnTheHelpClosesEveryPane() {
        let h = harness()
        h.send(.click(tile: "t2", url: "swiftdash://stories/1"))
        h.press(.char("?"))
        XCTAssertEqual(h.state.panes.map(\.kind), [.detail, .help])
        h.send(.mouse(MouseEvent(kind: .press, point: Point(x: 1, y: 1))))
        XCTAssertTrue(h.state.panes.isEmpty, "\(h.state.panes.map(\.kind))")
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .none, "no pane was left under the home screen")
        h.skipPendingWork()
    }
}
