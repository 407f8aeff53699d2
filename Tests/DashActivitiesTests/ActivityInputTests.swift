import XCTest
import DashActivities
import DashWidgets

/// What scripts hand in is checked and cleaned; sizes are bounded.
final class ActivityInputTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func testJSONMustBeAnObjectWithinLimits() throws {
        XCTAssertThrowsError(try ActivityInput.object("[1]", what: "--state")) {
            XCTAssertEqual("\($0)", "--state must be a JSON object ({…})")
        }
        XCTAssertThrowsError(try ActivityInput.object("{", what: "--state"))
        let big = "{\"a\":\"" + String(repeating: "x", count: 5000) + "\"}"
        XCTAssertThrowsError(try ActivityInput.object(big, what: "--state")) {
            XCTAssertTrue("\($0)".contains("at most 4096"), "\($0)")
        }
        let deep = String(repeating: "{\"a\":", count: 12) + "1" + String(repeating: "}", count: 12)
        XCTAssertThrowsError(try ActivityInput.object(deep, what: "--state"))
    }

    func testStringsAndKeysAreSanitised() throws {
        let v = try ActivityInput.object(#"{"t\u001b[31m":"a\u001b]0;pwned\u0007b\nc","n":[1,"\u0007x"]}"#, what: "s")
        XCTAssertEqual(v, .object(["t": .string("ab c"), "n": .array([.number(1), .string("x")])]))
        let long = "{\"a\":\"" + String(repeating: "y", count: 900) + "\"}"
        let cut = try ActivityInput.object(long, what: "s")
        XCTAssertEqual(cut["a"]?.string?.count, ActivityInput.maxStringCharacters)
    }

    func testNamesDatesSpansDismissalsAlerts() throws {
        XCTAssertNoThrow(try ActivityInput.checkName("build-1.x_y", what: "kind"))
        XCTAssertThrowsError(try ActivityInput.checkName("-x", what: "kind"))
        XCTAssertThrowsError(try ActivityInput.checkName("a b", what: "kind"))
        XCTAssertThrowsError(try ActivityInput.checkName("é", what: "kind"))
        XCTAssertEqual(ActivityInput.date("+10m", now: now), now.addingTimeInterval(600))
        XCTAssertEqual(ActivityInput.date("+1h30m", now: now), now.addingTimeInterval(5400))
        XCTAssertEqual(ActivityInput.date("+90", now: now), now.addingTimeInterval(90))
        XCTAssertEqual(ActivityInput.date("1800000060", now: now), now.addingTimeInterval(60))
        XCTAssertEqual(ActivityInput.date("2027-01-15T08:00:00Z", now: now), Date(timeIntervalSince1970: 1_800_000_000))
        XCTAssertNil(ActivityInput.date("soon", now: now))
        XCTAssertNil(ActivityInput.date("+10x", now: now))
        XCTAssertEqual(try ActivityInput.dismissal("immediate", now: now), .immediate)
        XCTAssertEqual(try ActivityInput.dismissal("default", now: now), .default)
        XCTAssertEqual(try ActivityInput.dismissal("+5m", now: now), .after(now.addingTimeInterval(300)))
        XCTAssertThrowsError(try ActivityInput.dismissal("later", now: now))
        XCTAssertEqual(try ActivityInput.alert("Done\u{1b}[2J", at: now), ActivityAlert(title: "Done", body: "", date: now))
        XCTAssertEqual(
            try ActivityInput.alert(#"{"title":"T","body":"B","bell":false}"#, at: now),
            ActivityAlert(title: "T", body: "B", bell: false, date: now))
        XCTAssertThrowsError(try ActivityInput.alert("{}", at: now))
        XCTAssertThrowsError(try ActivityInput.relevance("nan"))
    }
}
