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
@testable import DashRuntime

final class ActionTests: XCTestCase {
    func harness(family: WidgetFamily = .medium) -> AppHarness {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: family, items: [WidgetInstance(id: "w1", kind: "checklist")]),
            TileInstance(id: "t2", family: .medium, items: [WidgetInstance(id: "w2", kind: "stories")]),
        ])
        let h = AppHarness(widgets: [checklistWidget, storyWidget], home: home, now: start)
        h.finish("w1", entries: [ChecklistEntry(date: start, tasks: ["Milk", "Bread"], done: [])])
        h.finish("w2", entries: [StoryEntry(date: start, stories: ["a", "b"])])
        _ = h.takeEffects()
        return h
    }

    /// The cell style at the first occurrence of `text` on screen.
    func style(of text: String, in h: AppHarness) -> Style? {
        let b = h.frame.buffer
        for y in 0..<b.height {
            let row = b.rowText(y)
            if let r = row.range(of: text) {
                let x = DisplayWidth.of(String(row[..<r.lowerBound]))
                return b[x, y].style
            }
        }
        return nil
    }

    func testTabWalksLinksAndControlsTogetherInReadingOrder() {
        let h = harness()
        XCTAssertEqual(h.state.targets(ofTile: "t1").count, 4, "a link, two toggles, a button")
        h.press(.tab)
        XCTAssertEqual(h.state.highlightedLink, "swiftdash://checklist/all")
        h.press(.tab)
        XCTAssertEqual(h.state.highlightedControl?.title, "Milk")
        XCTAssertNil(h.state.highlightedLink)
        h.press(.tab, .tab)
        XCTAssertEqual(h.state.highlightedControl?.title, "Clear")
        h.press(.backTab)
        XCTAssertEqual(h.state.highlightedControl?.title, "Bread")
        // The highlight is drawn on the control in the focus colour.
        XCTAssertEqual(style(of: "[ ] Bread", in: h)?.background, Theme.dark[.focus])
    }

    func testSpaceOnAToggleFlipsItAtOnceAndRunsTheAction() throws {
        let h = harness()
        h.press(.tab, .tab, .char(" "))
        let job = try XCTUnwrap(h.actionJob(of: "w1"))
        XCTAssertEqual(try job.action.decode(ChecklistAction.self), .set("Milk", done: true))
        XCTAssertTrue(h.screen.contains("[x] Milk ⋯"), "optimistic: flipped and pending\n\(h.screen)")
        XCTAssertTrue(h.screen.contains("[ ] Bread"))
        let count = try XCTUnwrap(style(of: "2 left", in: h))
        XCTAssertTrue(count.attributes.contains(.dim), "invalidatable content is drawn pending")
        XCTAssertEqual(count.foreground, Theme.dark[.secondaryText])
        XCTAssertTrue(h.state.pane.kind == .none, "a control does not open the detail pane")
        h.skipPendingWork()
    }

    func testSuccessReloadsTheTimelineUnchargedAndKeepsTheLookUntilItArrives() throws {
        let h = harness()
        h.press(.tab, .tab, .enter)
        h.finishAction("w1", inverse: ChecklistAction.set("Milk", done: false))
        let reload = try XCTUnwrap(h.load(of: "w1"), "a successful action reloads the instance")
        XCTAssertEqual(reload.request.reason, .manual)
        XCTAssertTrue(h.screen.contains("[x] Milk ⋯"), "still optimistic until the reload answers\n\(h.screen)")
        XCTAssertTrue(h.screen.contains("Milk: done · u undoes"), h.screen)
        h.finish("w1", entries: [ChecklistEntry(date: start, tasks: ["Milk", "Bread"], done: ["Milk"])])
        XCTAssertTrue(h.screen.contains("[x] Milk "), h.screen)
        XCTAssertFalse(h.screen.contains("⋯"), "settled\n\(h.screen)")
        XCTAssertEqual(h.state.scheduler.status("w1", at: h.clock.now)?.budget.used, 0, "not charged")
        XCTAssertEqual(style(of: "1 left", in: h)?.attributes.contains(.dim), false, "no longer pending")
    }

    func testFailureRevertsTheTileAndSaysWhy() {
        let h = harness()
        h.press(.tab, .tab, .char(" "))
        XCTAssertTrue(h.screen.contains("[x] Milk ⋯"))
        h.failAction("w1", ActionError("the disk is full"))
        XCTAssertTrue(h.screen.contains("[ ] Milk"), h.screen)
        XCTAssertFalse(h.screen.contains("⋯"))
        XCTAssertTrue(h.screen.contains("Milk failed: the disk is full"), h.screen)
        XCTAssertNil(h.load(of: "w1"), "nothing to reload after a failure")
        XCTAssertFalse(h.state.actions.history.canUndo)
    }

    func testUUndoesTheLastActionWithItsInverse() throws {
        let h = harness()
        h.press(.tab, .tab, .char(" "))
        h.finishAction("w1", inverse: ChecklistAction.set("Milk", done: false))
        h.finish("w1", entries: [ChecklistEntry(date: start, tasks: ["Milk", "Bread"], done: ["Milk"])])
        h.press(.char("u"))
        let job = try XCTUnwrap(h.actionJob(of: "w1"))
        XCTAssertEqual(try job.action.decode(ChecklistAction.self), .set("Milk", done: false))
        XCTAssertTrue(
            h.screen.contains("[ ] Milk ⋯"),
            "the undo is optimistic too: the toggle's action is the inverse\n\(h.screen)")
        h.finishAction("w1", inverse: ChecklistAction.set("Milk", done: true))
        XCTAssertTrue(h.screen.contains("undone: Milk"), h.screen)
        XCTAssertFalse(h.state.actions.history.canUndo, "an undo is not itself recorded")
        h.press(.char("u"))
        XCTAssertTrue(h.screen.contains("nothing to undo"), h.screen)
        XCTAssertNil(h.actionJob(of: "w1"))
        h.skipPendingWork()
    }

    func testAnActionThatTakesTooLongFailsAtItsDeadlineAndItsLateAnswerIsIgnored() {
        let h = harness()
        h.press(.tab, .tab, .char(" "))
        XCTAssertEqual(
            h.state.nextDeadline, start.addingTimeInterval(5),
            "the timeout is a deadline the loop sleeps until")
        h.advance(by: 4.9)
        XCTAssertTrue(h.screen.contains("[x] Milk ⋯"))
        h.advance(by: 0.1)
        XCTAssertTrue(h.screen.contains("[ ] Milk"), h.screen)
        XCTAssertTrue(h.screen.contains("Milk failed: timed out after 5 s"), h.screen)
        h.finishAction("w1", inverse: ChecklistAction.set("Milk", done: false))
        XCTAssertNil(h.load(of: "w1"), "the late answer is ignored")
        XCTAssertFalse(h.state.actions.history.canUndo)
    }

    func testActionsOnOneInstanceRunOneAtATimeInOrder() throws {
        let h = harness()
        h.press(.tab, .tab, .char(" "), .tab, .char(" "), .tab, .char(" "))
        XCTAssertEqual(h.actionJobs.count, 1, "one at a time")
        XCTAssertTrue(h.screen.contains("[x] Milk ⋯") && h.screen.contains("[x] Bread ⋯"), h.screen)
        XCTAssertTrue(h.screen.contains("[ Clear ⋯ ]"), h.screen)
        XCTAssertEqual(try h.actionJobs[0].action.decode(ChecklistAction.self), .set("Milk", done: true))
        h.failAction("w1", ActionError("nope"))
        XCTAssertEqual(
            try h.actionJob(of: "w1")?.action.decode(ChecklistAction.self), .set("Bread", done: true),
            "the next starts when the one before answered")
        h.finishAction("w1", inverse: ChecklistAction.set("Bread", done: false))
        XCTAssertEqual(try h.actionJob(of: "w1")?.action.decode(ChecklistAction.self), .clear)
        h.skipPendingWork()
    }

    func testPressingAControlWhoseActionIsOnItsWayDoesNotRunItTwice() {
        let h = harness()
        h.press(.tab, .tab, .char(" "), .char(" "))
        XCTAssertEqual(h.actionJobs.count, 1)
        XCTAssertTrue(h.screen.contains("“Milk” is on its way"), h.screen)
        h.skipPendingWork()
    }

    func testAClickOnAControlActivatesItAndFocusesItsTile() throws {
        let h = harness()
        h.press(.right)
        XCTAssertEqual(h.state.focusedTile, "t2")
        h.click(tile: "t1", control: "Bread")
        XCTAssertEqual(h.state.focusedTile, "t1")
        XCTAssertEqual(try h.actionJob(of: "w1")?.action.decode(ChecklistAction.self), .set("Bread", done: true))
        h.skipPendingWork()
    }

    func testSmallTilesMayCarryControls() throws {
        let h = harness(family: .small)
        XCTAssertEqual(h.state.targets(ofTile: "t1").count, 3, "no link in the small view; its controls stay")
        h.press(.tab, .enter)
        XCTAssertEqual(try h.actionJob(of: "w1")?.action.decode(ChecklistAction.self), .set("Milk", done: true))
        h.skipPendingWork()
    }

    func testUIsBoundOnTheHomeScreenAndListedInTheHelp() {
        // One `u` undoes the last change of any kind (decision 36).
        XCTAssertEqual(KeyTable.command(for: .char("u"), in: .home), .edit(.undo))
        XCTAssertTrue(AppView.keyHelp.flatMap { $0.1.map(\.0) }.contains("u Ctrl-R"))
    }
}
