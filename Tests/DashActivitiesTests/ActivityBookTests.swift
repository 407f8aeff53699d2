import XCTest
import DashActivities
import DashScheduler
import DashWidgets

/// The lifecycle as ActivityKit has it, on a virtual clock: active → ended (dismissal default,
/// immediate, after a date) or stale; the 5-active cap, the 8-hour end, the bounded history.
final class ActivityBookTests: XCTestCase {
    let clock = VirtualClock(now: Date(timeIntervalSince1970: 1_800_000_000))

    func activity(_ id: String, kind: String = "generic", relevance: Double = 0, stale: Date? = nil) -> Activity {
        Activity(
            id: id, kind: kind, attributes: .object(["title": .string(id)]),
            content: ActivityContent(state: .object([:]), staleDate: stale, relevanceScore: relevance),
            started: .distantPast)
    }

    func testStartUpdateEndAndTheDefaultDismissalLingersFourHours() throws {
        var book = ActivityBook()
        try book.start(activity("a"), at: clock.now)
        XCTAssertEqual(book["a"]?.started, clock.now, "the start is the book's time, not the caller's")
        XCTAssertEqual(book["a"]?.phase(at: clock.now), .active)
        clock.advance(by: 60)
        try book.update("a", content: ActivityContent(state: .object(["progress": .number(0.5)])), at: clock.now)
        XCTAssertEqual(book["a"]?.updated, clock.now)
        clock.advance(by: 60)
        try book.end("a", content: ActivityContent(state: .object(["exit": .number(0)])), at: clock.now)
        XCTAssertEqual(book["a"]?.phase(at: clock.now), .ended)
        XCTAssertEqual(book.shown(at: clock.now).map(\.id), ["a"], "an ended one stays shown")
        XCTAssertThrowsError(try book.update("a", content: ActivityContent(state: .object([:])), at: clock.now)) {
            XCTAssertEqual($0 as? ActivityError, .alreadyEnded("a"))
        }
        XCTAssertEqual(book.nextChange(after: clock.now), clock.now.addingTimeInterval(4 * 3600))
        clock.advance(by: 4 * 3600 - 1)
        XCTAssertEqual(book.shown(at: clock.now).map(\.id), ["a"])
        clock.advance(by: 1)
        XCTAssertEqual(book.shown(at: clock.now), [], "dismissed after 4 hours")
        XCTAssertTrue(book.settle(at: clock.now))
        XCTAssertEqual(book.history.map(\.id), ["a"], "the history keeps it")
        XCTAssertEqual(book.endedList(at: clock.now).map(\.id), ["a"])
        XCTAssertEqual(book["a"]?.phase(at: clock.now), .dismissed)
    }

    func testImmediateAndAfterADateDismissals() throws {
        var book = ActivityBook()
        try book.start(activity("now"), at: clock.now)
        try book.start(activity("soon"), at: clock.now)
        try book.start(activity("late"), at: clock.now)
        try book.end("now", dismissal: .immediate, at: clock.now)
        XCTAssertEqual(book.shown(at: clock.now).map(\.id).sorted(), ["late", "soon"])
        XCTAssertEqual(book.history.map(\.id), ["now"])
        try book.end("soon", dismissal: .after(clock.now.addingTimeInterval(600)), at: clock.now)
        // A date past the 4-hour window is held to it.
        try book.end("late", dismissal: .after(clock.now.addingTimeInterval(24 * 3600)), at: clock.now)
        XCTAssertEqual(book.nextChange(after: clock.now), clock.now.addingTimeInterval(600))
        clock.advance(by: 600)
        XCTAssertEqual(book.shown(at: clock.now).map(\.id), ["late"])
        clock.advance(by: 4 * 3600 - 600)
        XCTAssertEqual(book.shown(at: clock.now), [])
    }

    func testAtMostFiveAreActive() throws {
        var book = ActivityBook()
        for i in 1...5 { try book.start(activity("a\(i)"), at: clock.now) }
        XCTAssertThrowsError(try book.start(activity("a6"), at: clock.now)) {
            XCTAssertEqual($0 as? ActivityError, .tooManyActive(5))
        }
        try book.end("a1", at: clock.now)
        try book.start(activity("a6"), at: clock.now)
        XCTAssertEqual(book.active.count, 5, "an ended one, still shown, does not count")
        XCTAssertThrowsError(try book.start(activity("a6"), at: clock.now)) {
            XCTAssertEqual($0 as? ActivityError, .duplicate("a6"))
        }
    }

    func testAnActiveActivityEndsItselfAfterEightHours() throws {
        var book = ActivityBook()
        try book.start(activity("long"), at: clock.now)
        let start = clock.now
        XCTAssertEqual(book.nextChange(after: clock.now), start.addingTimeInterval(8 * 3600))
        clock.advance(by: 8 * 3600 - 1)
        XCTAssertFalse(book.settle(at: clock.now))
        clock.advance(by: 1)
        XCTAssertTrue(book.settle(at: clock.now))
        let a = try XCTUnwrap(book["long"])
        XCTAssertEqual(a.ended, start.addingTimeInterval(8 * 3600))
        XCTAssertEqual(a.endedBySystem, true)
        XCTAssertEqual(ActivityOutcome.of(a), .expired)
        XCTAssertEqual(a.phase(at: clock.now), .ended, "and lingers like any ended one")
    }

    func testStaleAfterItsStaleDateUntilUpdated() throws {
        var book = ActivityBook()
        try book.start(activity("s", stale: clock.now.addingTimeInterval(300)), at: clock.now)
        XCTAssertEqual(book.nextChange(after: clock.now), clock.now.addingTimeInterval(300))
        clock.advance(by: 300)
        XCTAssertEqual(book["s"]?.phase(at: clock.now), .stale)
        try book.update(
            "s", content: ActivityContent(state: .object([:]), staleDate: clock.now.addingTimeInterval(300)), at: clock.now)
        XCTAssertEqual(book["s"]?.phase(at: clock.now), .active)
    }

    func testTheMostRelevantIsTheHighestScoreThenTheLatestChange() throws {
        var book = ActivityBook()
        try book.start(activity("low", relevance: 0), at: clock.now)
        clock.advance(by: 1)
        try book.start(activity("high", relevance: 10), at: clock.now)
        clock.advance(by: 1)
        try book.start(activity("new", relevance: 0), at: clock.now)
        XCTAssertEqual(book.shown(at: clock.now).map(\.id), ["high", "new", "low"])
        clock.advance(by: 1)
        try book.update("low", content: ActivityContent(state: .object([:])), at: clock.now)
        XCTAssertEqual(book.mostRelevant(at: clock.now)?.id, "high")
        XCTAssertEqual(book.shown(at: clock.now).map(\.id), ["high", "low", "new"])
    }

    func testTheHistoryIsBounded() throws {
        var book = ActivityBook()
        for i in 0..<(ActivityBook.maxHistory + 10) {
            try book.start(activity("h\(i)"), at: clock.now)
            try book.end("h\(i)", dismissal: .immediate, at: clock.now)
            clock.advance(by: 1)
        }
        XCTAssertEqual(book.history.count, ActivityBook.maxHistory)
        XCTAssertEqual(book.history.first?.id, "h\(ActivityBook.maxHistory + 9)", "newest first")
    }

    func testTheBookRoundTripsAndRefusesWhatIsNotOne() throws {
        var book = ActivityBook()
        try book.start(activity("r"), at: clock.now)
        try book.end("r", dismissal: .after(clock.now.addingTimeInterval(60)), at: clock.now)
        XCTAssertEqual(try ActivityBook.decode(book.encoded()), book)
        XCTAssertEqual(try ActivityBook.decode(Data()), ActivityBook())
        XCTAssertThrowsError(try ActivityBook.decode(Data("[1,2]".utf8)))
        XCTAssertThrowsError(try ActivityBook.decode(Data(#"{"version":99,"activities":[],"history":[]}"#.utf8)))
    }
}
