import XCTest
import DashActivities
import DashTestSupport

/// `swiftdash run` reads the last line and a progress from what passes through.
final class OutputScannerTests: XCTestCase {
    func scan(_ text: String) -> OutputScanner {
        var s = OutputScanner()
        s.feed(Array(text.utf8))
        return s
    }

    func p(_ line: String) -> [Int]? { OutputScanner.progress(in: line).map { [$0.done, $0.total] } }

    func testProgressAsNinjaCargoAndPercentagesPrintIt() {
        XCTAssertEqual(p("[12/80] Compiling foo.c"), [12, 80])
        XCTAssertEqual(p("   Building [=====>    ] 123/456: serde"), [123, 456])
        XCTAssertEqual(p("downloading 42% done"), [42, 100])
        XCTAssertEqual(p("10% then 42.5%"), [42, 100], "the last one")
        XCTAssertNil(OutputScanner.progress(in: "150% sure"))
        XCTAssertNil(OutputScanner.progress(in: "see [3/0] and 1/2"))
        XCTAssertNil(OutputScanner.progress(in: "version 1.2.3"))
    }

    func testTheLastLineIsCleanAndARedrawnLineCountsByItsLastState() {
        var s = scan("one\n\u{1B}[32mtwo\u{1B}[0m\n\n")
        XCTAssertEqual(s.lastLine, "two")
        XCTAssertTrue(s.take())
        XCTAssertFalse(s.take())
        s.feed(Array(" 10%\r 55%\r".utf8))
        XCTAssertEqual(s.lastLine, "55%")
        XCTAssertEqual(s.progress.map { [$0.done, $0.total] }, [55, 100])
        XCTAssertTrue(s.progressIsPercent)
        s.feed(Array("waiting for input: ".utf8))
        XCTAssertEqual(s.lastLine, "55%", "an unfinished line counts when flushed")
        s.flush()
        XCTAssertEqual(s.lastLine, "waiting for input:")
        s.feed(Array("[55/100] step\n".utf8))
        XCTAssertFalse(s.progressIsPercent, "a count of 100 is a count")
    }

    func testChunksCutAnywhereReadAsTheWholeDoes() {
        let text = "build\r\n[1/9] cc a.c\n\n  \nhalf 50%\r 60%\r 61%\nerr: x/y\r\n[9/9] link\n\n  done  \r\npartial 7"
        let bytes = Array(text.utf8)
        var whole = OutputScanner()
        whole.feed(bytes)
        XCTAssertEqual(whole.lastLine, "done")
        XCTAssertEqual(whole.progress.map { [$0.done, $0.total] }, [9, 9])
        var random = SeededRandom(seed: 39)
        for _ in 0..<200 {
            var s = OutputScanner()
            var i = 0
            while i < bytes.count {
                let n = Int.random(in: 1...12, using: &random)
                s.feed(Array(bytes[i..<min(bytes.count, i + n)]))
                i += n
            }
            XCTAssertEqual(s.lastLine, whole.lastLine)
            XCTAssertEqual(s.progress.map { [$0.done, $0.total] }, [9, 9])
            s.flush()
            XCTAssertEqual(s.lastLine, "partial 7")
        }
    }

    func testALineEndingInCRLFAloneInItsChunkIsTheLastLine() {
        var s = OutputScanner()
        s.feed(Array("[40/100] half\r\n".utf8))
        s.feed(Array("70%\r\n".utf8))
        XCTAssertEqual(s.lastLine, "70%")
        XCTAssertEqual(s.progress.map { [$0.done, $0.total] }, [70, 100])
    }

    func testALongLineIsBounded() {
        let s = scan(String(repeating: "z", count: 100_000) + "\n")
        XCTAssertEqual(s.lastLine.count, OutputScanner.maxLineCharacters)
    }
}
