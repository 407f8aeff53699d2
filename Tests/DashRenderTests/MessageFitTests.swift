import XCTest
import DashCore
@testable import DashRender

/// Status messages fit their line: outside text gives way first, what to do stays, no word is
/// cut in half.
final class MessageFitTests: XCTestCase {
    func fit(_ text: String, _ width: Int, file: StaticString = #filePath, line: UInt = #line) -> String {
        let out = MessageFit.fit(text, width: width)
        XCTAssertLessThanOrEqual(DisplayWidth.of(out), width, out, file: file, line: line)
        return out
    }

    func testAMessageThatFitsIsLeftAlone() {
        XCTAssertEqual(fit("added Clock: u undoes", 55), "added Clock: u undoes")
    }

    func testAFailureKeepsWhatToDoAndTheSiteItCouldNotReach() {
        let m = "⚠ crypto: cannot reach api.coingecko.com: offline or the server is down · r retries"
        XCTAssertEqual(fit(m, 75), "⚠ crypto: cannot reach …coingecko.com: offline or the server… · r retries")
        // Shortening the host would keep no more words here: it stays whole.
        XCTAssertEqual(fit(m, 55), "⚠ crypto: cannot reach api.coingecko.com… · r retries")
        XCTAssertTrue(fit(m, 30).hasSuffix(" · r retries"))
    }

    func testAPathKeepsItsLastComponentsAndAHostItsSite() {
        XCTAssertEqual(
            fit("cannot read /home/someone/.config/swiftdash/themes/solarized.yaml: permission denied", 60),
            "cannot read …/themes/solarized.yaml: permission denied")
        XCTAssertEqual(MessageFit.shorten("geocoding-api.open-meteo.com:", to: 16), "…open-meteo.com:")
        XCTAssertEqual(
            fit("⚠ news: cannot reach feeds.bbci.co.uk: offline or the server is down · r retries", 55),
            "⚠ news: cannot reach …bbci.co.uk: offline… · r retries")
        XCTAssertEqual(MessageFit.shorten("'/a/b/c/notes.txt'", to: 14), "'…/notes.txt'")
        XCTAssertEqual(MessageFit.shorten("https://news.example.com/2026/11/23", to: 20), "https://news.exampl…")
    }

    func testOurEndingsStayWhole() {
        XCTAssertEqual(
            fit("Stack News headlines onto Crypto prices: < > rotate it, u undoes", 50),
            "Stack News headlines…: < > rotate it, u undoes")
        XCTAssertEqual(
            fit("undone: move a tile with a rather long name indeed (Ctrl-R redoes)", 50),
            "undone: move a tile with a rather… (Ctrl-R redoes)")
    }

    func testOnlyAnEndingThatNamesAKeyIsKept() {
        XCTAssertNil(MessageFit.ending("⚠ fixed choices only: HTTP 429: rate limited", width: 28))
        XCTAssertNotNil(MessageFit.ending("removed Clock from the stack: u undoes", width: 40))
        XCTAssertNotNil(MessageFit.ending("no tile to arrange: add one with a", width: 40))
        XCTAssertEqual(fit("⚠ fixed choices only: HTTP 429: rate limited", 28), "⚠ fixed choices only: HTTP…")
    }

    func testNoWordIsCutInHalf() {
        let m = "the quick brown fox jumps over the lazy dog and keeps running far away"
        for width in 12...70 {
            let out = fit(m, width)
            let kept = out.hasSuffix("…") ? String(out.dropLast()) : out
            XCTAssertTrue(m.hasPrefix(kept), out)
            XCTAssertTrue(
                kept.isEmpty || m.count == kept.count || m[m.index(m.startIndex, offsetBy: kept.count)] == " ", out)
        }
    }

    func testKeyHintsGiveWayWholeAndKeepTheFirstAndTheLast() {
        let hints = ["←↓↑→ focus", "Enter lift", "f size", "d remove", "u undo", "Ctrl-R redo", "Esc done"]
        XCTAssertEqual(
            MessageFit.hints(hints, width: 68), "←↓↑→ focus · Enter lift · f size · d remove · u undo · Esc done")
        XCTAssertEqual(MessageFit.hints(hints, width: 30), "←↓↑→ focus · Esc done")
        XCTAssertEqual(
            MessageFit.message("Remove Clock: u undoes", hints: hints, width: 68),
            "Remove Clock: u undoes · ←↓↑→ focus · Enter lift · f size · Esc done")
        let long = "Stack News headlines onto the other tile: < > rotate it, u undoes"
        XCTAssertEqual(MessageFit.message(long, hints: hints, width: 68), long, "the note first, whole")
    }
}
