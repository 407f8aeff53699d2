import XCTest
import DashActivities
import DashWidgets

/// What the built-in kinds show at a moment: compact regions, timers that count, how it ended.
final class ActivityKindsTests: XCTestCase {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func make(_ kind: String, _ attrs: [String: JSONValue], _ state: [String: JSONValue]) -> Activity {
        Activity(
            id: "id1", kind: kind, attributes: .object(attrs), content: ActivityContent(state: .object(state)),
            started: t0)
    }

    func testGenericShowsProgressAsAFractionOrNOfMAndAnETAAsATimer() {
        var a = make("generic", ["title": .string("Deploy")], ["progress": .number(0.42), "status": .string("uploading")])
        var f = ActivityKinds.face(of: a, at: t0.addingTimeInterval(65))
        XCTAssertEqual(f.compactLeading, "● Deploy")
        XCTAssertEqual(f.compactTrailing, "42%")
        XCTAssertEqual(f.line, "uploading")
        XCTAssertEqual(f.timing, "elapsed 1:05")
        XCTAssertEqual(f.minimal, "●▄")
        a.content.state = .object(["progress": .string("3 of 5"), "eta": .number(t0.timeIntervalSince1970 + 600)])
        f = ActivityKinds.face(of: a, at: t0.addingTimeInterval(90))
        XCTAssertEqual(f.progressLabel, "3 of 5")
        XCTAssertEqual(f.compactTrailing, "3/5")
        XCTAssertEqual(f.timing, "ETA 8:30")
        XCTAssertTrue(f.ticks)
    }

    func testATimerCountsDownToItsDate() {
        let a = make("timer", ["title": .string("Tea")], ["end": .number(t0.timeIntervalSince1970 + 180)])
        XCTAssertEqual(ActivityKinds.face(of: a, at: t0).compactTrailing, "3:00")
        XCTAssertEqual(ActivityKinds.face(of: a, at: t0.addingTimeInterval(0.5)).compactTrailing, "3:00")
        XCTAssertEqual(ActivityKinds.face(of: a, at: t0.addingTimeInterval(61)).compactTrailing, "1:59")
        let done = ActivityKinds.face(of: a, at: t0.addingTimeInterval(200))
        XCTAssertEqual(done.compactTrailing, "0:00")
        XCTAssertEqual(done.timing, "done")
        XCTAssertFalse(done.ticks)
    }

    func testAnEndedCommandSaysHowItEndedAndHowLong() {
        var a = make("command", ["command": .string("make -j8")], ["line": .string("error: x"), "exit": .number(3)])
        a.ended = t0.addingTimeInterval(62)
        let f = ActivityKinds.face(of: a, at: t0.addingTimeInterval(100))
        XCTAssertEqual(f.outcome, .failure(exitStatus: 3))
        XCTAssertEqual(f.compactLeading, "✗ make -j8")
        XCTAssertEqual(f.compactTrailing, "1m 02s")
        XCTAssertEqual(f.outcomeText, "✗ failed, exit 3 after 1m 02s")
        XCTAssertEqual(f.tone, .failure)
        XCTAssertEqual(ActivityLine.compact(f), "✗ make -j8 1m 02s")
        a.content.state = .object(["exit": .number(0)])
        XCTAssertEqual(ActivityKinds.face(of: a, at: t0.addingTimeInterval(100)).outcomeText, "✓ succeeded after 1m 02s")
        a.content.state = .object(["signal": .number(9)])
        XCTAssertEqual(
            ActivityKinds.face(of: a, at: t0.addingTimeInterval(100)).outcomeText,
            "✗ killed by signal 9 (KILL) after 1m 02s")
    }

    func testTheStatusLineShowsTheMostRelevantAndMarksForTheOthers() throws {
        var book = ActivityBook()
        try book.start(make("command", ["title": .string("build")], ["done": .number(12), "total": .number(80)]), at: t0)
        var other = make("timer", ["title": .string("Tea")], ["end": .number(t0.timeIntervalSince1970 + 60)])
        other.id = "id2"
        try book.start(other, at: t0.addingTimeInterval(-1))
        XCTAssertEqual(ActivityLine.status(book, at: t0.addingTimeInterval(5)), "▶ build 12/80 ⏲▁", "the timer as its symbol and a filling block")
        XCTAssertEqual(ActivityLine.status(ActivityBook(), at: t0), "")
    }
}
