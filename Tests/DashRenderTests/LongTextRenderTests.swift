import DashCore
import DashWidgets
import Foundation
import XCTest

@testable import DashRender

/// Issue 9, item 2: long text froze the screen (a 20,000-character title took 2 s a frame;
/// a megabyte never finished). Layout now reads only what can show.
final class LongTextRenderTests: XCTestCase {
    let megabyte = LongTextBenchmark.title(bytes: 1 << 20)

    func testLongTextFreezesTheScreen_megabyteTitleDrawsLikeAShortOne() {
        let (b, _) = draw(LongTextBenchmark.view(megabyte), 35, 5)
        let x35 = String(repeating: "x", count: 35)
        XCTAssertEqual(
            b.textDump,
            """
            Breaking: xxxxxxxxxxxxxxxx…  5 of 9
            Breaking:
            \(x35)
            \(String(repeating: "x", count: 34))…
            Breaking: xxxxxxxxxxxxxxxxxxxxxxxx…
            """)
        // Without a line limit, a wrapped megabyte still fills only the rows it has.
        let (full, _) = draw(Text(megabyte), 20, 4)
        XCTAssertEqual(full.textDump.split(separator: "\n").count, 4)
        XCTAssertTrue(full.textDump.hasSuffix("…"))
        // Newlines read as spaces on one line, without copying the megabyte first.
        let (one, _) = draw(Text("a\nb\n" + megabyte).lineLimit(1), 10, 1)
        XCTAssertEqual(one.textDump, "a b Break…")
        XCTAssertEqual(
            TileRenderer.measure(
                Text(megabyte), proposal: Size(width: 30, height: 2),
                environment: RenderEnvironment(theme: .dark, now: t0)),
            Size(width: 30, height: 2))
    }

    func testLongTextFreezesTheScreen_sameLayoutAsBeforeForOrdinaryText() {
        let (b, _) = draw(Text("one two three four five six seven"), 10, 2)
        XCTAssertEqual(b.textDump, "one two\nthree fou…")
        let (c, _) = draw(Text("the end\n").lineLimit(1), 10, 1)
        XCTAssertEqual(c.textDump, "the end")
        let (d, _) = draw(Text("line one\nline two\nline three"), 10, 2)
        XCTAssertEqual(d.textDump, "line one\nline two…")
    }

    /// Not a timed test: prints the figures (`swift test --filter LongTextRenderTests`);
    /// docs/decisions.md ("Limits on input from outside") has the release figures.
    func testLongTextBenchmarkFigures() {
        let clock = ContinuousClock()
        let r = LongTextBenchmark.run(titleBytes: 1 << 20, frames: 5) { body in
            let d = clock.measure(body)
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        print(r)
        XCTAssertEqual(r.keptCharacters, TextSanitizer.maxFieldCharacters)
    }
}
