import XCTest
import DashActivities
import DashCore
import DashWidgets
import DashTestSupport

/// The strip and the detail view as whole screens, text and style (issue 39.2).
final class ActivityViewTests: XCTestCase {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let theme = Theme.dark

    func book() throws -> ActivityBook {
        var b = ActivityBook()
        try b.start(
            Activity(
                id: "build", kind: "command", attributes: .object(["command": .string("make -j8"), "title": .string("make -j8")]),
                content: ActivityContent(state: .object([
                    "line": .string("[12/80] Compiling src/render/\u{1B}[1mtiles.c"), "done": .number(12), "total": .number(80),
                ]), relevanceScore: 5),
                started: t0), at: t0)
        try b.start(
            Activity(
                id: "tea", kind: "timer", attributes: .object(["title": .string("Tea")]),
                content: ActivityContent(state: .object(["end": .number(t0.timeIntervalSince1970 + 300)])), started: t0),
            at: t0)
        try b.start(
            Activity(
                id: "deploy", kind: "generic",
                attributes: .object(["title": .string("Deploy"), "url": .string("https://ci.example/42")]),
                content: ActivityContent(state: .object(["status": .string("migrating"), "progress": .string("3 of 5")])),
                started: t0), at: t0)
        return b
    }

    func screen(_ model: ActivityStripModel, width: Int = 80, height: Int = 3) -> String {
        var buffer = CellBuffer(width: width, height: height)
        ActivityStripView.draw(model, into: &buffer, rect: buffer.bounds, theme: theme)
        return framedDump(buffer) + "\n" + StyleDump.dump(buffer, theme: theme)
    }

    func testTheStripIsCompactWithMarksForTheOthers() throws {
        let model = ActivityStripModel.at(t0.addingTimeInterval(65), book: try book())
        XCTAssertEqual(model.height, 1)
        XCTAssertTrue(model.ticks)
        assertSnapshot(screen(model), named: "strip-compact")
    }

    func testTheStripExpandsWhenFocused() throws {
        let model = ActivityStripModel.at(t0.addingTimeInterval(65), book: try book(), focused: true)
        XCTAssertEqual(model.height, 2)
        assertSnapshot(screen(model), named: "strip-focused")
    }

    func testAnAlertingUpdateExpandsTheStripForAMoment() throws {
        var b = try book()
        let at = t0.addingTimeInterval(120)
        try b.update(
            "build", content: b["build"]!.content,
            alert: ActivityAlert(title: "Linking", body: "80 of 80 compiled", date: at), at: at)
        let model = ActivityStripModel.at(at.addingTimeInterval(2), book: b)
        XCTAssertTrue(model.expanded)
        assertSnapshot(screen(model), named: "strip-alert")
        XCTAssertFalse(ActivityStripModel.at(at.addingTimeInterval(ActivityFace.alertSeconds), book: b).expanded)
    }

    func testAFinishedOneSaysHowItEndedAndHowLong() throws {
        var b = try book()
        let at = t0.addingTimeInterval(62)
        try b.end("build", content: ActivityContent(state: .object(["exit": .number(3), "line": .string("error 3")]), relevanceScore: 5), at: at)
        let compact = ActivityStripModel.at(at.addingTimeInterval(30), book: b)
        assertSnapshot(screen(compact), named: "strip-ended")
        XCTAssertFalse(compact.faces[0].ticks)
        let focused = ActivityStripModel.at(at.addingTimeInterval(30), book: b, focused: true)
        assertSnapshot(screen(focused), named: "strip-ended-focused")
    }

    func testTheDetailViewIsTheLockScreenPresentation() throws {
        let b = try book()
        let now = t0.addingTimeInterval(65)
        var buffer = CellBuffer(width: 80, height: 24)
        let model = try XCTUnwrap(ActivityDetailModel.at(now, book: b, id: "build"))
        ActivityDetailView.draw(model, into: &buffer, rect: buffer.bounds, theme: theme)
        assertSnapshot(framedDump(buffer) + "\n" + StyleDump.dump(buffer, theme: theme), named: "detail-running")
        var ended = b
        try ended.end("deploy", content: ActivityContent(state: .object(["outcome": .string("success"), "status": .string("live")])), at: now)
        var buffer2 = CellBuffer(width: 60, height: 16)
        let model2 = try XCTUnwrap(ActivityDetailModel.at(now.addingTimeInterval(10), book: ended, id: "deploy"))
        ActivityDetailView.draw(model2, into: &buffer2, rect: buffer2.bounds, theme: theme)
        assertSnapshot(framedDump(buffer2) + "\n" + StyleDump.dump(buffer2, theme: theme), named: "detail-ended")
        XCTAssertNil(ActivityDetailModel.at(now, book: b, id: "nope"))
    }

    func testNothingIsDrawnWithoutActivities() {
        let model = ActivityStripModel.at(t0, book: ActivityBook())
        XCTAssertEqual(model.height, 0)
        var buffer = CellBuffer(width: 40, height: 2)
        ActivityStripView.draw(model, into: &buffer, rect: buffer.bounds, theme: theme)
        XCTAssertEqual(buffer, CellBuffer(width: 40, height: 2))
    }
}
