import XCTest
import Foundation
import DashCore
import DashWidgets
import DashRender
import DashTestSupport
import DashBuiltinWidgets
import DashActivities
@testable import DashApp
@testable import DashHome

/// The focus on the activity strip and the activity pane (issue 39.2): ↑ from the top row of tiles
/// focuses the strip, ← → pick among its activities, Enter opens the focused one's detail (the
/// Lock Screen presentation) with its deep link, Esc closes it; the pane outlives its activity.
final class ActivityPaneTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_426_230)

    /// Two rows of tiles: t1, t2 and t3 on top, t4 below.
    func harness() -> AppHarness {
        func tile(_ id: String, _ family: WidgetFamily) -> TileInstance {
            TileInstance(id: id, family: family, items: [WidgetInstance(id: "w" + id, kind: "note")])
        }
        let h = AppHarness(
            widgets: [NoteWidget.widget],
            home: HomeConfig(tiles: [tile("t1", .small), tile("t2", .small), tile("t3", .large), tile("t4", .small)]),
            size: Size(width: 80, height: 24), now: now)
        h.skipPendingWork()
        return h
    }

    func generic(_ id: String, title: String, url: String?, relevance: Double) -> Activity {
        var attrs: [String: JSONValue] = ["title": .string(title)]
        if let url { attrs["url"] = .string(url) }
        return Activity(
            id: id, kind: "generic", attributes: .object(attrs),
            content: ActivityContent(
                state: .object(["status": .string("\(title) step 2"), "progress": .number(0.4)]),
                relevanceScore: relevance),
            started: now)
    }

    /// Deploy (a web link) first, Build (a widget's link) second, Tea (no link) third.
    func book() throws -> ActivityBook {
        var book = ActivityBook()
        try book.start(generic("deploy", title: "Deploy", url: "https://example.com/deploys/42", relevance: 3), at: now)
        try book.start(generic("build", title: "Build", url: DeepLink.make(kind: "note"), relevance: 2), at: now)
        try book.start(
            Activity(
                id: "tea", kind: "timer", attributes: .object(["title": .string("Tea")]),
                content: ActivityContent(state: .object(["end": .number(now.timeIntervalSince1970 + 300)]), relevanceScore: 1),
                started: now), at: now)
        return book
    }

    func withActivities() throws -> AppHarness {
        let h = harness()
        h.send(.activitiesChanged(try book()))
        return h
    }

    func focus(_ h: AppHarness, _ tile: String) {
        h.run { s in
            s.focusedTile = tile
            return []
        }
    }

    func testUpFromTheTopRowFocusesTheStripAndDownGivesTheFocusBack() throws {
        let h = try withActivities()
        let top = try XCTUnwrap(h.state.layout.tile("t1")).rect.y
        let low = try XCTUnwrap(h.state.layout.tile("t4"))
        XCTAssertGreaterThan(low.rect.y, top, "t4 lies below the top row")
        focus(h, "t4")
        h.press(.char("k"))
        XCTAssertNil(h.state.focus.stripActivity, "from the second row, ↑ goes to a tile")
        XCTAssertNotEqual(h.state.focusedTile, "t4")
        let from = h.state.focusedTile
        h.press(.up)
        XCTAssertEqual(h.state.focus.stripActivity, "deploy", "the most relevant activity has the focus")
        XCTAssertEqual(App.layers(h.state), [.strip, .global])
        XCTAssertTrue(h.screen.contains("Deploy step 2"), "focused, the strip expands:\n\(h.screen)")
        h.press(.char("k"))
        XCTAssertEqual(h.state.focus.stripActivity, "deploy", "nothing above the strip")
        h.press(.char("j"))
        XCTAssertNil(h.state.focus.stripActivity)
        XCTAssertEqual(h.state.focusedTile, from, "the focus is back on the tile it left")
        h.press(.up, .escape)
        XCTAssertNil(h.state.focus.stripActivity, "Esc gives the focus back too")
        XCTAssertEqual(App.layers(h.state), [.home, .global])
    }

    func testNoStripNoFocusOnIt() {
        let h = harness()
        focus(h, "t1")
        h.press(.char("k"))
        XCTAssertNil(h.state.focus.stripActivity)
        XCTAssertEqual(h.state.focusedTile, "t1")
    }

    func testLeftAndRightPickAmongTheActivitiesShown() throws {
        let h = try withActivities()
        focus(h, "t1")
        h.press(.char("k"))
        h.press(.char("l"))
        XCTAssertEqual(h.state.focus.stripActivity, "build")
        XCTAssertEqual(h.state.activities.strip(at: h.state.now, selecting: "build").faces.first?.id, "build")
        XCTAssertTrue(h.screen.contains("Build step 2"), "the one focused draws in the pill:\n\(h.screen)")
        h.press(.right)
        XCTAssertEqual(h.state.focus.stripActivity, "tea")
        h.press(.char("l"))
        XCTAssertEqual(h.state.focus.stripActivity, "deploy", "round to the first")
        h.press(.char("h"))
        XCTAssertEqual(h.state.focus.stripActivity, "tea")
        h.press(.char("r"), .char("d"), .tab)
        XCTAssertEqual(h.state.home.tiles.count, 4, "the tiles' keys do not act while the strip has the focus")
        XCTAssertEqual(h.state.focus.stripActivity, "tea")
    }

    func testEnterOpensTheActivityPaneAndEscClosesIt() throws {
        let h = try withActivities()
        focus(h, "t1")
        h.press(.char("k"), .enter)
        XCTAssertEqual(h.state.pane.kind, .activity)
        XCTAssertEqual(App.layers(h.state), [.activity, .global])
        XCTAssertEqual(h.state.activityDetail?.face.id, "deploy")
        XCTAssertTrue(h.screen.contains("Activity · Deploy"), h.screen)
        XCTAssertTrue(h.screen.contains("link: https://example.com/deploys/42"), h.screen)
        XCTAssertTrue(h.screen.contains("o browser"), "a web link: o opens it")
        // o: the browser; Tab highlights the link; Enter opens the link pane over this one.
        _ = h.takeEffects()
        h.press(.char("o"))
        XCTAssertTrue(h.takeEffects().contains { if case .openURL("https://example.com/deploys/42") = $0 { true } else { false } })
        h.press(.tab)
        XCTAssertEqual(h.state.panes.last.flatMap { if case .activity(let a) = $0 { a.linkHighlighted } else { nil } }, true)
        h.press(.enter)
        XCTAssertEqual(h.state.pane.kind, .external)
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .activity, "back to the activity pane as it was left")
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertEqual(h.state.focus.stripActivity, "deploy", "the strip keeps the focus")
        // A widget's link opens its detail pane.
        h.press(.char("l"), .enter, .enter)
        XCTAssertEqual(h.state.pane.kind, .detail)
        XCTAssertEqual(h.state.detailPane?.link.kind, "note")
        h.press(.escape, .escape, .char("l"), .enter)
        XCTAssertEqual(h.state.activityDetail?.face.id, "tea")
        h.press(.enter)
        XCTAssertEqual(h.state.pane.kind, .activity, "no link: Enter stays")
        XCTAssertTrue(h.screen.contains("no link in this activity"), h.screen)
    }

    func testThePaneOutlivesItsActivity() throws {
        let h = try withActivities()
        var book = try book()
        focus(h, "t1")
        h.press(.char("k"), .char("l"), .enter)
        XCTAssertEqual(h.state.activityDetail?.face.id, "build")
        // Ended: the pane says how.
        try book.end(
            "build", content: ActivityContent(state: .object(["status": .string("built"), "outcome": .string("failure")])),
            at: h.state.now)
        h.send(.activitiesChanged(book))
        XCTAssertEqual(h.state.activityDetail?.phase, .ended)
        XCTAssertTrue(h.screen.contains("failed"), h.screen)
        // Dismissed while it shows: it says so, and the strip's focus moves to one still shown.
        book.activities.removeAll { $0.id == "build" }
        h.send(.activitiesChanged(book))
        XCTAssertEqual(h.state.pane.kind, .activity)
        XCTAssertNil(h.state.activityDetail)
        XCTAssertTrue(h.screen.contains("This activity ended and was dismissed."), h.screen)
        h.press(.enter, .char("o"))
        XCTAssertEqual(h.state.pane.kind, .activity)
        XCTAssertEqual(h.state.focus.stripActivity, "deploy")
        // Every one gone: the strip goes, and the focus returns to the tiles.
        h.send(.activitiesChanged(ActivityBook()))
        XCTAssertNil(h.state.focus.stripActivity)
        h.press(.escape)
        XCTAssertEqual(App.layers(h.state), [.home, .global])
        XCTAssertEqual(h.state.focusedTile, "t1")
    }

    func testScreensOfTheFocusedStripAndTheActivityPane() throws {
        let h = try withActivities()
        focus(h, "t1")
        h.press(.char("k"))
        assertSnapshot(h.screen, named: "activity-strip-focused-80x24")
        assertSnapshot(StyleDump.dump(h.frame.buffer, theme: h.state.theme), named: "styles-activity-strip-focused-80x24")
        h.press(.enter, .tab)
        assertSnapshot(h.screen, named: "activity-pane-80x24")
        assertSnapshot(StyleDump.dump(h.frame.buffer, theme: h.state.theme), named: "styles-activity-pane-80x24")
    }
}
