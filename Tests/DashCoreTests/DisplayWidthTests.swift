import XCTest
@testable import DashCore

final class DisplayWidthTests: XCTestCase {
    func testASCIIIsOneColumnEach() {
        XCTAssertEqual(DisplayWidth.of("hello"), 5)
    }

    func testCJKAndEmojiAreTwoColumns() {
        XCTAssertEqual(DisplayWidth.of("日本"), 4)
        XCTAssertEqual(DisplayWidth.of(Character("😀")), 2)
        XCTAssertEqual(DisplayWidth.of("👨‍👩‍👧"), 2, "a ZWJ family is one emoji cluster")
        XCTAssertEqual(DisplayWidth.of("🇫🇷"), 2)
        XCTAssertEqual(DisplayWidth.of("❤️"), 2, "VS16 asks for emoji presentation")
    }

    func testCombiningMarksTakeNoColumn() {
        XCTAssertEqual(DisplayWidth.of("e\u{0301}"), 1)
        XCTAssertEqual(DisplayWidth.of(scalar: "\u{0301}"), 0)
        XCTAssertEqual(DisplayWidth.of("Cafe\u{0301}"), 4)
    }

    func testControlCharactersAreZero() {
        XCTAssertEqual(DisplayWidth.of("\u{1B}"), 0)
        XCTAssertEqual(DisplayWidth.of(scalar: "\u{07}"), -1, "wcwidth semantics: -1 for non-printable")
    }

    func testTruncateAddsEllipsisWithinWidth() {
        XCTAssertEqual(DisplayWidth.truncate("Hello world", to: 8), "Hello w…")
        XCTAssertEqual(DisplayWidth.truncate("Hello", to: 5), "Hello")
        XCTAssertEqual(DisplayWidth.truncate("Hello", to: 1), "…")
        XCTAssertEqual(DisplayWidth.truncate("Hello", to: 0), "")
    }

    func testTruncateNeverSplitsAWideCharacter() {
        // 日本語 is 6 columns; 4 columns leave room for one wide char and the ellipsis.
        let t = DisplayWidth.truncate("日本語", to: 4)
        XCTAssertEqual(t, "日…")
        XCTAssertLessThanOrEqual(DisplayWidth.of(t), 4)
        XCTAssertEqual(DisplayWidth.truncate("日本語", to: 5), "日本…")
        XCTAssertEqual(DisplayWidth.truncate("a😀b😀c", to: 4), "a😀…")
    }

    func testTruncateKeepsCombiningMarksWithTheirBase() {
        XCTAssertEqual(DisplayWidth.truncate("e\u{0301}e\u{0301}e\u{0301}e\u{0301}", to: 3), "e\u{0301}e\u{0301}…")
    }

    func testWrapBreaksAtSpacesAndHardBreaksLongWords() {
        XCTAssertEqual(DisplayWidth.wrap("the quick brown fox", width: 9), ["the quick", "brown fox"])
        XCTAssertEqual(DisplayWidth.wrap("abcdefghij", width: 4), ["abcd", "efgh", "ij"])
        XCTAssertEqual(DisplayWidth.wrap("日本語日本", width: 5), ["日本", "語日", "本"])
    }
}

final class CellBufferTests: XCTestCase {
    func testWideCharacterUsesTwoCellsAndDumpsOnce() {
        var b = CellBuffer(width: 6, height: 1)
        b.write("a日b", x: 0, y: 0)
        XCTAssertEqual(b[1, 0].text, "日")
        XCTAssertTrue(b[2, 0].isContinuation)
        XCTAssertEqual(b.textDump, "a日b")
    }

    func testWideCharacterAtTheEdgeIsNotHalfDrawn() {
        var b = CellBuffer(width: 3, height: 1)
        b.write("ab日", x: 0, y: 0)
        XCTAssertEqual(b.rowText(0), "ab ")
    }

    func testOverwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var b = CellBuffer(width: 4, height: 1)
        b.write("日本", x: 0, y: 0)
        b.write("x", x: 1, y: 0)
        XCTAssertEqual(b.rowText(0), " x本")
    }

    func testClipRect() {
        var b = CellBuffer(width: 10, height: 1)
        b.write("abcdefgh", x: 2, y: 0, clip: Rect(x: 3, y: 0, width: 3, height: 1))
        XCTAssertEqual(b.textDump, "   bcd")
    }
}

final class FrameDiffTests: XCTestCase {
    func testNoChangeNoRuns() {
        var a = CellBuffer(width: 10, height: 3)
        a.write("hello", x: 0, y: 1)
        XCTAssertEqual(FrameDiff.runs(from: a, to: a), [])
    }

    func testOneRunPerContiguousChange() {
        var a = CellBuffer(width: 20, height: 2)
        a.write("12:00 and 13:00", x: 0, y: 0)
        var b = a
        b.write("12:01 and 13:05", x: 0, y: 0)
        let runs = FrameDiff.runs(from: a, to: b)
        XCTAssertEqual(runs.count, 2)
        XCTAssertEqual(runs[0].x, 4)
        XCTAssertEqual(runs[0].cells.map(\.text), ["1"])
        XCTAssertEqual(runs[1].x, 14)
        XCTAssertEqual(runs[1].cells.map(\.text), ["5"])
        XCTAssertEqual(runs.reduce(0) { $0 + $1.cells.count }, 2, "only changed cells are sent")
    }

    func testAdjacentChangesMergeAndStyleChangesCount() {
        var a = CellBuffer(width: 10, height: 1)
        a.write("abcdef", x: 0, y: 0)
        var b = a
        b.write("XY", x: 1, y: 0)
        b.write("c", x: 3, y: 0, style: Style(attributes: [.bold]))
        let runs = FrameDiff.runs(from: a, to: b)
        XCTAssertEqual(runs.count, 1)
        XCTAssertEqual(runs[0].x, 1)
        XCTAssertEqual(runs[0].cells.map(\.text), ["X", "Y", "c"])
    }

    func testWideCharacterChangeIsSentWhole() {
        var a = CellBuffer(width: 6, height: 1)
        a.write("ab日", x: 0, y: 0)
        var b = a
        b.write("本", x: 2, y: 0)
        let runs = FrameDiff.runs(from: a, to: b)
        XCTAssertEqual(runs.count, 1)
        XCTAssertEqual(runs[0].x, 2)
        XCTAssertEqual(runs[0].cells.count, 2, "lead and continuation")
        var screen = a
        for r in runs { for (i, c) in r.cells.enumerated() { screen[r.x + i, r.y] = c } }
        XCTAssertEqual(screen, b)
    }

    func testApplyingRunsReproducesTheNewFrame() {
        var a = CellBuffer(width: 12, height: 3)
        a.write("日本 abc", x: 0, y: 0)
        a.write("xyz", x: 5, y: 2)
        var b = CellBuffer(width: 12, height: 3)
        b.write("a日本bc", x: 0, y: 0)
        b.write("xyz😀", x: 5, y: 2)
        b.write("new", x: 0, y: 1)
        var screen = a
        for r in FrameDiff.runs(from: a, to: b) { for (i, c) in r.cells.enumerated() { screen[r.x + i, r.y] = c } }
        XCTAssertEqual(screen, b)
    }

    func testSizeChangeRedrawsEveryRow() {
        let a = CellBuffer(width: 4, height: 2)
        let b = CellBuffer(width: 5, height: 3)
        XCTAssertEqual(FrameDiff.runs(from: a, to: b).count, 3)
    }
}

final class ColorTests: XCTestCase {
    func testParsing() {
        XCTAssertEqual(Color(parsing: "#ff0000"), .rgb(255, 0, 0))
        XCTAssertEqual(Color(parsing: "#0f0"), .rgb(0, 255, 0))
        XCTAssertEqual(Color(parsing: "brightblue"), .ansi(12))
        XCTAssertEqual(Color(parsing: "208"), .indexed(208))
        XCTAssertNil(Color(parsing: "#12345"))
    }

    func testDegradesTrueColorTo256And8AndNone() {
        XCTAssertEqual(Color.rgb(255, 0, 0).degraded(to: .indexed256), .indexed(196))
        XCTAssertEqual(Color.rgb(255, 0, 0).degraded(to: .ansi8), .ansi(1))
        XCTAssertEqual(Color.rgb(128, 128, 128).degraded(to: .indexed256), .indexed(244))
        XCTAssertEqual(Color.rgb(1, 2, 3).degraded(to: .none), .default)
    }

    func testNoColorWins() {
        XCTAssertEqual(
            ColorDepth.detect(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"], terminalColors: 256),
            ColorDepth.none)
        XCTAssertEqual(ColorDepth.detect(environment: ["COLORTERM": "truecolor"], terminalColors: 256), .trueColor)
        XCTAssertEqual(ColorDepth.detect(environment: [:], terminalColors: 8), .ansi8)
    }
}
