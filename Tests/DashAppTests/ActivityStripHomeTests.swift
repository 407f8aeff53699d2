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

/// The activity strip on the home screen (issue 39.2): a row above the tiles only while activities
/// show; the loop wakes only for what ticks; a new alert rings once.
final class ActivityStripHomeTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_426_230)

    func harness() -> AppHarness {
        let h = AppHarness(
            widgets: [NoteWidget.widget],
            home: HomeConfig(tiles: [TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "note")])]),
            size: Size(width: 80, height: 24), now: now)
        h.skipPendingWork()
        return h
    }

    func timer(_ book: inout ActivityBook, at: Date, seconds: TimeInterval = 300) throws {
        try book.start(
            Activity(
                id: "tea", kind: "timer", attributes: .object(["title": .string("Tea")]),
                content: ActivityContent(state: .object(["end": .number(at.timeIntervalSince1970 + seconds)])),
                started: at), at: at)
    }

    func testTheStripTakesARowAboveTheTilesOnlyWhileActivitiesShow() throws {
        let h = harness()
        XCTAssertEqual(h.state.layout.tile("t1")?.rect.y, 0)
        var book = ActivityBook()
        try timer(&book, at: now)
        h.send(.activitiesChanged(book))
        XCTAssertGreaterThanOrEqual(
            h.state.layout.tile("t1")?.rect.y ?? 0, 1, "the tiles lie below the strip; clicks and focus follow")
        assertSnapshot(h.screen, named: "home-with-activity-strip")
        // Ended and dismissed at once: the row is given back.
        try book.end("tea", dismissal: .immediate, at: now)
        h.send(.activitiesChanged(book))
        XCTAssertEqual(h.state.layout.tile("t1")?.rect.y, 0)
        XCTAssertFalse(h.screen.contains("Tea"))
    }

    func testTheLoopWakesOnlyForWhatChangesWithTime() throws {
        let h = harness()
        var book = ActivityBook()
        XCTAssertNil(h.state.activities.nextChange(after: now), "no activities: nothing to wake for")
        try timer(&book, at: now)
        h.send(.activitiesChanged(book))
        let tick = try XCTUnwrap(h.state.activities.nextChange(after: h.state.now))
        let nextSecond = Date(timeIntervalSince1970: (h.state.now.timeIntervalSince1970 + 1).rounded(.down))
        XCTAssertEqual(tick, nextSecond, "a counting timer: at each second")
        XCTAssertTrue(h.screen.contains("Tea"))
        XCTAssertTrue(h.screen.contains("5:00"), h.screen)
        h.advance(by: 61)
        XCTAssertTrue(h.screen.contains("3:59"), h.screen)
        // Ended: nothing counts any more; the next change is its dismissal, 4 hours on.
        try book.end("tea", at: h.state.now)
        h.send(.activitiesChanged(book))
        XCTAssertEqual(h.state.activities.nextChange(after: h.state.now), h.state.now.addingTimeInterval(4 * 3600))
        h.advance(by: 4 * 3600)
        XCTAssertEqual(h.state.layout.tile("t1")?.rect.y, 0, "dismissed by the clock, the row goes")
        XCTAssertNil(h.state.activities.nextChange(after: h.state.now))
        h.skipPendingWork()
    }

    func testANewAlertRingsOnceAndExpandsTheStripForAMoment() throws {
        let h = harness()
        var book = ActivityBook()
        try timer(&book, at: now)
        XCTAssertFalse(h.send(.activitiesChanged(book)).contains { if case .bell = $0 { true } else { false } })
        try book.update(
            "tea", content: book["tea"]!.content, alert: ActivityAlert(title: "Steeped", body: "take the bag out", date: now),
            at: now)
        let fx = h.send(.activitiesChanged(book))
        XCTAssertEqual(fx.filter { if case .bell = $0 { true } else { false } }.count, 1)
        XCTAssertTrue(h.screen.contains("🔔 Steeped — take the bag out"), h.screen)
        var again = book
        again.version = book.version
        XCTAssertTrue(h.send(.activitiesChanged(again)).isEmpty, "the same book again changes nothing")
        h.advance(by: ActivityFace.alertSeconds)
        XCTAssertFalse(h.screen.contains("Steeped"), "the strip folds back")
        h.skipPendingWork()
    }
}
