import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// Arrange mode (`m`), removing (`d`), resizing (`f`), undo and redo, through the `AppHarness`.
final class ArrangeTests: XCTestCase {
    func order(_ h: AppHarness) -> [String] { h.state.home.tiles.map(\.id) }

    func testMLiftsTheTileAndTheArrowsMoveItThroughTheFlowUntilEnterDropsIt() {
        let h = editHarness([("dot", .small), ("stories", .medium), ("dot", .small)])
        h.press(.char("m"))
        XCTAssertEqual(h.state.pane.kind, .arrange)
        XCTAssertEqual(h.state.arrange?.lifted, true)
        XCTAssertTrue(h.screen.contains("⇅ ARRANGE"), h.screen)
        XCTAssertTrue(h.screen.contains("Enter drop"), "the status bar says what the keys do")
        h.press(.right)
        XCTAssertEqual(order(h), ["t2", "t1", "t3"], "past a tile of another size")
        h.press(.char("l"))
        XCTAssertEqual(h.state.arrange?.hover, "t3", "over a tile of its size first")
        XCTAssertTrue(h.screen.contains("Enter: stack onto Dot"), h.screen)
        h.press(.right)
        XCTAssertEqual(order(h), ["t2", "t3", "t1"])
        XCTAssertEqual(h.writes, 0, "nothing written while the tile is lifted")
        h.press(.left, .left)
        XCTAssertEqual(order(h), ["t2", "t1", "t3"])
        h.press(.enter)
        XCTAssertEqual(h.state.arrange?.lifted, false)
        XCTAssertEqual(h.writes, 1, "one write when dropped")
        XCTAssertEqual(h.state.editing.history.undo.count, 1, "the whole move is one step")
        XCTAssertEqual(h.state.focusedTile, "t1")
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .none)
        h.press(.char("u"))
        XCTAssertEqual(order(h), ["t1", "t2", "t3"])
        h.press(.ctrl("r"))
        XCTAssertEqual(order(h), ["t2", "t1", "t3"])
    }

    func testUpAndDownTakeThePlaceOfTheTileAboveOrBelow() {
        // Four smalls fill a row at 80 columns: the fifth is below the first.
        let h = editHarness(Array(repeating: ("dot", .small), count: 6))
        h.press(.char("m"), .down)
        XCTAssertEqual(order(h), ["t2", "t3", "t4", "t5", "t1", "t6"])
        XCTAssertEqual(h.state.layout.tile("t1")?.rect.y, h.state.layout.tile("t2")?.rect.y.advanced(by: 8))
        h.press(.up)
        XCTAssertEqual(order(h), ["t1", "t2", "t3", "t4", "t5", "t6"])
    }

    func testDroppingOnATileOfTheSameSizeMakesAStackAndJoinsOne() {
        let h = editHarness([("dot", .small), ("probe", .small), ("dot", .small)])
        h.press(.char("m"), .right, .enter)
        XCTAssertEqual(order(h), ["t2", "t3"])
        XCTAssertEqual(h.state.tile("t2")?.items.map(\.id), ["w2", "w1"])
        XCTAssertEqual(h.state.focusedTile, "t2")
        XCTAssertEqual(h.state.shownInstance("t2")?.id, "w1", "the dropped widget shows")
        XCTAssertTrue(h.state.scheduler.contains("w1"), "its instance stays registered")
        XCTAssertTrue(h.screen.contains("○ ●"), h.screen)
        XCTAssertEqual(h.writes, 1)
        // Join: the third tile onto the stack.
        h.press(.right, .enter, .left)
        XCTAssertEqual(h.state.arrange?.hover, "t2")
        h.press(.enter)
        XCTAssertEqual(h.state.tile("t2")?.items.map(\.id), ["w2", "w1", "w3"])
        XCTAssertEqual(order(h), ["t2"])
        h.press(.char("u"))
        XCTAssertEqual(h.state.tile("t2")?.items.map(\.id), ["w2", "w1"])
        XCTAssertEqual(order(h), ["t2", "t3"])
    }

    func testTheLiftedTileMovesAcrossPages() {
        // 40x12: one row of two smalls per page.
        let h = editHarness(Array(repeating: ("dot", .small), count: 4), size: Size(width: 40, height: 12))
        XCTAssertEqual(h.state.layout.pageCount, 2)
        h.press(.char("m"), .pageDown)
        XCTAssertEqual(h.state.layout.tile("t1")?.page, 1)
        XCTAssertEqual(h.state.page, 1, "the page follows the lifted tile")
        h.press(.pageDown)
        XCTAssertTrue(h.screen.contains("already on the last page"), h.screen)
        h.press(.pageUp)
        XCTAssertEqual(h.state.layout.tile("t1")?.page, 0)
        // Through the flow: past the last tile of the page onto the next one.
        h.press(.enter, .left, .enter)
        XCTAssertEqual(order(h), ["t2", "t1", "t3", "t4"])
        XCTAssertEqual(h.state.focusedTile, "t2")
        h.press(.right, .right)
        XCTAssertEqual(order(h), ["t1", "t2", "t3", "t4"])
        h.press(.right)
        XCTAssertEqual(h.state.arrange?.hover, "t3", "over the first tile of the next page")
        h.press(.right)
        XCTAssertEqual(order(h), ["t1", "t3", "t2", "t4"])
        XCTAssertEqual(h.state.layout.tile("t2")?.page, 1)
        XCTAssertEqual(h.state.page, 1)
    }

    func testDRemovesTheTileAndUnregistersItsWidgetAndUUndoes() {
        let h = editHarness([("probe", .medium), ("stories", .medium)])
        h.press(.char("d"))
        XCTAssertEqual(order(h), ["t2"])
        XCTAssertFalse(h.state.scheduler.contains("w1"))
        XCTAssertEqual(h.state.focusedTile, "t2")
        XCTAssertTrue(h.screen.contains("Remove Probe: u undoes"), h.screen)
        XCTAssertEqual(h.written.last?.tiles.map(\.id), ["t2"])
        h.press(.char("u"))
        XCTAssertEqual(order(h), ["t1", "t2"])
        XCTAssertTrue(h.state.scheduler.contains("w1"))
        XCTAssertEqual(h.state.focusedTile, "t1")
        XCTAssertEqual(h.written.count, 2, "undo writes too")
        h.skipPendingWork()
    }

    func testDOnAStackRemovesTheWidgetItShows() {
        let home = HomeConfig(tiles: [
            TileInstance(
                id: "t1", family: .small,
                items: [
                    WidgetInstance(id: "w1", kind: "dot"), WidgetInstance(id: "w2", kind: "probe"),
                ])
        ])
        let h = AppHarness(widgets: editWidgets, home: home, now: start)
        answerAll(h)
        h.press(.char(">"))
        h.press(.char("m"), .char("d"))
        XCTAssertEqual(h.state.tile("t1")?.items.map(\.id), ["w1"])
        XCTAssertFalse(h.state.scheduler.contains("w2"))
        XCTAssertEqual(h.state.pane.kind, .arrange, "still arranging")
    }

    func testFCyclesTheSizeAmongThoseItsWidgetsSupport() {
        let h = editHarness([("probe", .medium), ("dot", .small)])
        h.press(.char("f"))
        XCTAssertEqual(h.state.tile("t1")?.family, .medium, "f does nothing outside arrange mode")
        h.press(.char("m"), .char("f"))
        XCTAssertEqual(h.state.tile("t1")?.family, .large)
        XCTAssertEqual(h.load(of: "w1")?.request.family, .large, "the scheduler reloads it for the new family")
        XCTAssertEqual(h.load(of: "w1")?.request.reason, .configurationChanged)
        answerAll(h)
        h.press(.char("f"))
        XCTAssertEqual(h.state.tile("t1")?.family, .small)
        h.press(.right, .char("f"))
        XCTAssertTrue(h.screen.contains("Dot has one size only"), h.screen)
        h.skipPendingWork()
    }

    func testUndoAndRedoGoBackAtLeastTwentySteps() {
        let h = editHarness([("probe", .small), ("dot", .small)])
        h.press(.char("m"))
        for _ in 0..<25 { h.press(.char("f")) }
        XCTAssertEqual(h.state.tile("t1")?.family, .medium, "25 steps through small, medium, large")
        for _ in 0..<25 { h.press(.char("u")) }
        XCTAssertEqual(h.state.tile("t1")?.family, .small)
        XCTAssertEqual(h.state.scheduler.status("w1", at: h.clock.now)?.family, .small, "the scheduler follows undo")
        h.press(.char("u"))
        XCTAssertTrue(h.screen.contains("nothing to undo"), h.screen)
        for _ in 0..<25 { h.press(.ctrl("r")) }
        XCTAssertEqual(h.state.tile("t1")?.family, .medium)
        XCTAssertEqual(h.state.scheduler.status("w1", at: h.clock.now)?.family, .medium)
        h.skipPendingWork()
    }

    func testAMouseDragMovesATileAndOntoTheMiddleOfOneOfItsSizeStacksIt() {
        let h = editHarness([("dot", .small), ("dot", .small), ("stories", .medium)])
        h.press(.char("m"), .escape)
        h.press(.char("m"))
        let r1 = h.state.layout.tile("t1")!.rect, r3 = h.state.layout.tile("t3")!.rect
        h.send(.mouse(MouseEvent(kind: .press, point: r1.center)))
        h.send(.mouse(MouseEvent(kind: .release, point: Point(x: r3.x + 1, y: r3.y + 2))))
        XCTAssertEqual(order(h), ["t2", "t1", "t3"], "dropped before the tile it was released on")
        XCTAssertEqual(h.state.arrange?.lifted, false)
        XCTAssertEqual(h.writes, 1)
        // A press on a link comes as a click: it lifts that tile; the release in the middle of t2 stacks.
        h.send(.click(tile: "t1", url: "swiftdash://dot"))
        XCTAssertEqual(h.state.arrange?.lifted, true)
        let r2 = h.state.layout.tile("t2")!.rect
        h.send(.mouse(MouseEvent(kind: .release, point: r2.center)))
        XCTAssertEqual(h.state.tile("t2")?.items.map(\.id), ["w2", "w1"])
        XCTAssertEqual(order(h), ["t2", "t3"])
    }

    func testEscLeavesArrangeModeDroppingTheTileWhereItIs() {
        let h = editHarness([("dot", .small), ("dot", .small), ("stories", .medium)])
        h.press(.char("m"), .right, .right, .escape)
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertEqual(order(h), ["t2", "t1", "t3"])
        XCTAssertEqual(h.writes, 1)
        h.press(.right)
        XCTAssertEqual(h.state.focusedTile, "t3", "the home screen's keys again")
        XCTAssertTrue(h.screen.contains("? help"), "its status bar again")
    }

    func testScreenArrange80x24() {
        let h = editHarness([("dot", .small), ("probe", .small), ("stories", .medium), ("probe", .large)])
        h.press(.char("m"), .right)
        assertSnapshot(h.screen, named: "arrange-hover-80x24")
        assertSnapshot(h.styledScreen, named: "styles-arrange-hover-80x24")
        // The lifted tile is in the focus role, the place it would go in the accent role.
        XCTAssertEqual(h.style(of: "⇅ moving")?.foreground, h.state.theme[.focus])
        XCTAssertEqual(h.style(of: "⊕ stack here")?.foreground, h.state.theme[.accent])
        XCTAssertEqual(h.style(of: "⇅ ARRANGE")?.attributes.contains(.reverse), true)
    }

    func testScreenArrange200x60() {
        let h = editHarness(
            [
                ("dot", .small), ("probe", .small), ("stories", .medium), ("probe", .large),
                ("remote", .medium),
            ], size: Size(width: 200, height: 60))
        h.press(.char("m"), .right, .right)
        assertSnapshot(h.screen, named: "arrange-lifted-200x60")
    }

    func testScreenArrangeWithoutColour80x24() {
        let h = editHarness([("dot", .small), ("probe", .small), ("stories", .medium)], theme: .monochrome)
        h.press(.char("m"), .right, .right)
        let screen = h.screen
        XCTAssertTrue(screen.contains("╔"), "lifted: double lines, visible without colour")
        assertSnapshot(screen, named: "arrange-lifted-mono-80x24")
    }
}
