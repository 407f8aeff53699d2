import XCTest

@testable import DashCore

/// Issue 9, item 2: long text froze the screen because wrapping re-measured the rest of a
/// long word for every line it cut (quadratic: a 20,000-character title took 2 s a frame).
/// Wrapping and truncating are now one pass that stops where the visible text ends.
final class LongTextTests: XCTestCase {
    /// The previous (quadratic) implementations, kept as the reference for what the
    /// results must be.
    enum Reference {
        static func truncate(_ text: String, to maxWidth: Int, ellipsis: String = "…") -> String {
            guard maxWidth > 0 else { return "" }
            if DisplayWidth.of(text) <= maxWidth { return text }
            let ellipsisWidth = DisplayWidth.of(ellipsis)
            guard maxWidth >= ellipsisWidth else { return String(repeating: ".", count: maxWidth) }
            let budget = maxWidth - ellipsisWidth
            var result = ""
            var used = 0
            for ch in text {
                let w = DisplayWidth.of(ch)
                if used + w > budget { break }
                result.append(ch)
                used += w
            }
            while let last = result.last, last == " " { result.removeLast() }
            return result + ellipsis
        }

        static func wrap(_ text: String, width: Int) -> [String] {
            guard width > 0 else { return [] }
            var lines: [String] = []
            for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
                var line = ""
                var lineWidth = 0
                for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                    var w = String(word)
                    var ww = DisplayWidth.of(w)
                    let sep = line.isEmpty ? 0 : 1
                    if lineWidth + sep + ww <= width {
                        if sep == 1 { line += " " }
                        line += w
                        lineWidth += sep + ww
                        continue
                    }
                    if !line.isEmpty {
                        lines.append(line)
                        line = ""
                        lineWidth = 0
                    }
                    while ww > width {
                        var head = ""
                        var hw = 0
                        var rest = Substring(w)
                        while let ch = rest.first, hw + DisplayWidth.of(ch) <= width {
                            head.append(ch)
                            hw += DisplayWidth.of(ch)
                            rest = rest.dropFirst()
                        }
                        if head.isEmpty { break }
                        lines.append(head)
                        w = String(rest)
                        ww = DisplayWidth.of(w)
                    }
                    line = w
                    lineWidth = ww
                }
                lines.append(line)
            }
            return lines
        }
    }

    /// Deterministic random text from pieces that matter: spaces, newlines, wide and
    /// zero-width characters, combining marks, emoji sequences, long words.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func text() -> String {
            let pieces = [
                "a", "bc", "word", " ", "  ", "\n", "日", "本語", "e\u{0301}", "👨‍👩‍👧", "🇫🇷", "\u{200B}", "\t",
                "❤️", String(repeating: "x", count: 25), String(repeating: "長", count: 9), "…",
            ]
            var s = ""
            for _ in 0..<Int(next() % 40) { s += pieces[Int(next() % UInt64(pieces.count))] }
            return s
        }
    }

    func testLongTextFreezesTheScreen_resultsAreUnchanged() {
        var g = Generator(state: 9)
        for _ in 0..<3_000 {
            let s = g.text()
            for width in [1, 2, 3, 5, 8, 20] {
                XCTAssertEqual(
                    DisplayWidth.wrap(s, width: width), Reference.wrap(s, width: width),
                    "wrap \(s.debugDescription) \(width)")
                XCTAssertEqual(
                    DisplayWidth.truncate(s, to: width), Reference.truncate(s, to: width),
                    "truncate \(s.debugDescription) \(width)")
                let all = Reference.wrap(s, width: width)
                for maxLines in [1, 2, 4] {
                    let (lines, truncated) = DisplayWidth.wrap(s, width: width, maxLines: maxLines)
                    XCTAssertEqual(lines, Array(all.prefix(maxLines)), "\(s.debugDescription) \(width) \(maxLines)")
                    XCTAssertEqual(truncated, all.count > maxLines, "\(s.debugDescription) \(width) \(maxLines)")
                }
            }
        }
    }

    func testLongTextFreezesTheScreen_aMegabyteWordIsCutInOnePass() {
        // With the old wrap this call re-measured a megabyte for each of 50,000 lines.
        let word = String(repeating: "x", count: 1 << 20)
        let (lines, truncated) = DisplayWidth.wrap("Breaking: " + word, width: 20, maxLines: 3)
        XCTAssertEqual(lines, ["Breaking:", String(repeating: "x", count: 20), String(repeating: "x", count: 20)])
        XCTAssertTrue(truncated)
        XCTAssertEqual(DisplayWidth.wrap(word, width: 4096).count, 256)
        XCTAssertEqual(DisplayWidth.truncate(word, to: 10), "xxxxxxxxx…")
        XCTAssertEqual(DisplayWidth.truncate("日本" + word, to: 4), "日…")
    }
}
