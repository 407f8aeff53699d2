import XCTest
@testable import DashCore

/// What follows an ESC: Alt+key, a bracketed paste, Esc alone, sequences to ignore.
final class EscapeSequenceTests: XCTestCase {
    /// A terminal that has sent `now`, and `later` after a wait.
    final class Feed {
        var now: [Character]
        var later: [Character]
        var waits = 0
        init(_ now: String, later: String = "") {
            self.now = Array(now)
            self.later = Array(later)
        }
        func next(_ wait: Bool) -> Character? {
            if !now.isEmpty { return now.removeFirst() }
            guard wait, !later.isEmpty else { return nil }
            waits += 1
            now = later
            later = []
            return now.removeFirst()
        }
    }

    func decode(_ feed: Feed) -> Key? { EscapeSequence.decode(next: feed.next) }

    func testEscAloneAndAltWithAKey() {
        XCTAssertEqual(decode(Feed("")), .escape)
        XCTAssertEqual(decode(Feed("b")), .alt("b"))
        XCTAssertEqual(decode(Feed("F")), .alt("F"))
        XCTAssertEqual(decode(Feed("\u{1B}")), .escape)
        XCTAssertEqual(decode(Feed("[")), .alt("["))
    }

    func testABracketedPasteIsOneKeyEvenWhenItArrivesInPieces() {
        let feed = Feed("[200~hello wor", later: "ld\u{1B}[201~x")
        XCTAssertEqual(decode(feed), .paste("hello world"))
        XCTAssertEqual(feed.waits, 1)
        XCTAssertEqual(feed.now, ["x"], "what follows the paste is left for the next key")
        XCTAssertEqual(decode(Feed("[200~a\nb\u{1B}[201~")), .paste("a\nb"), "the text as sent; fields clean it")
    }

    func testAPasteWithoutItsEndStopsWhenTheTerminalStopsSending() {
        XCTAssertEqual(decode(Feed("[200~abc")), .paste("abc"))
    }

    func testAVeryLongPasteIsCut() {
        let long = String(repeating: "x", count: EscapeSequence.pasteLimit + 10)
        guard case .paste(let text)? = decode(Feed("[200~" + long + "\u{1B}[201~")) else { return XCTFail() }
        XCTAssertEqual(text.count, EscapeSequence.pasteLimit)
    }

    func testSequencesNcursesDidNotKnowAreIgnored() {
        let feed = Feed("[1;5Pz")
        XCTAssertNil(decode(feed))
        XCTAssertEqual(feed.now, ["z"], "only the sequence is consumed")
        XCTAssertNil(decode(Feed("OA")))
        XCTAssertEqual(decode(Feed("O")), .alt("O"))
    }
}
