import XCTest

@testable import DashWidgets

/// Issue 9, item 2: outside text is capped where it enters, at a grapheme boundary.
final class LongTextCapTests: XCTestCase {
    let cap = TextSanitizer.maxFieldCharacters

    func testLongTextFreezesTheScreen_fieldsAreCappedAt2000Characters() {
        XCTAssertEqual(cap, 2_000)
        let megabyte = String(repeating: "headline ", count: 120_000)
        let clean = TextSanitizer.singleLine(megabyte)
        XCTAssertLessThanOrEqual(clean.count, cap)
        XCTAssertTrue(clean.hasSuffix("…"))
        XCTAssertTrue(clean.hasPrefix("headline headline"))
        // Short text is untouched; exactly the cap is kept whole.
        XCTAssertEqual(TextSanitizer.clean("short"), "short")
        let exact = String(repeating: "é", count: cap)
        XCTAssertEqual(TextSanitizer.clean(exact), exact)
        let over = exact + "z"
        XCTAssertEqual(TextSanitizer.clean(over).count, cap)
        XCTAssertEqual(TextSanitizer.clean(over), String(repeating: "é", count: cap - 1) + "…")
        // Newlines kept (summaries, commit messages) count like any character.
        XCTAssertEqual(TextSanitizer.clean(String(repeating: "a\n", count: 5_000), keepNewlines: true).count, cap)
    }

    func testLongTextFreezesTheScreen_cutNeverSplitsAGrapheme() {
        let family = "👨‍👩‍👧"  // 5 scalars, one cluster
        let clean = TextSanitizer.clean(String(repeating: family, count: 3_000))
        XCTAssertEqual(clean.count, cap)
        XCTAssertTrue(clean.dropLast().allSatisfy { $0 == Character(family) })
        let flags = TextSanitizer.clean(String(repeating: "🇫🇷", count: 2_500))
        XCTAssertTrue(flags.dropLast().allSatisfy { $0 == "🇫🇷" })
        // One letter under a million combining marks: reading stops at the scalar cap, and
        // the cluster it may have cut is dropped, not shown half.
        let zalgo = "ok " + "e" + String(repeating: "\u{0301}", count: 1_000_000)
        let z = TextSanitizer.clean(zalgo)
        XCTAssertEqual(z, "ok …")
        // Escape sequences do not count toward the cap.
        let escaped = String(repeating: "\u{1B}]52;c;AAAA\u{07}", count: 10_000) + "visible"
        XCTAssertEqual(TextSanitizer.clean(escaped), "visible")
    }
}
