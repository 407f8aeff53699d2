import XCTest
import Foundation
import DashTestSupport
@testable import DashCore

/// The width model (decision 22): one answer per class of cluster terminals disagree on.
final class WidthModelTests: XCTestCase {
    let vowelSign = "\u{915}\u{93F}"  // कि
    let conjunct = "\u{915}\u{94D}\u{937}"  // क्ष
    let conjunctAndVowel = "\u{928}\u{94D}\u{926}\u{940}"  // न्दी
    let thai = "\u{E01}\u{E33}"  // กำ
    let thumbs = "\u{1F44D}\u{1F3FD}"  // 👍🏽
    let heart = "\u{2764}\u{FE0F}"  // ❤️
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"  // 👨‍👩‍👧
    let coder = "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}"  // 👩🏽‍💻
    let heartOnFire = "\u{2764}\u{FE0F}\u{200D}\u{1F525}"  // ❤️‍🔥

    func width(_ s: String, _ m: WidthModel) -> Int { WidthModel.$scoped.withValue(m) { DisplayWidth.of(s) } }

    func testSpacingVowelSignsAreOneColumnAsAClusterAndTwoByCodePoints() {
        XCTAssertEqual(width(vowelSign, .clusters), 1)
        XCTAssertEqual(width(vowelSign, .codePoints), 2)
        XCTAssertEqual(width(thai, .clusters), 1)
        XCTAssertEqual(width(thai, .tmux33), 2)
        XCTAssertEqual(WidthModel.disputedClass(of: Character(vowelSign)), .spacingMarks)
    }

    func testConjunctsSplitAfterTheViramaWhenTheTerminalSegmentsOldStyle() {
        XCTAssertEqual(WidthModel.disputedClass(of: Character(conjunct)), .conjuncts)
        XCTAssertEqual(width(conjunct, .clusters), 1)
        XCTAssertEqual(width(conjunct, .tmux33), 2)
        var oldSegmentation = WidthModel.clusters
        oldSegmentation.conjuncts = .codePoints
        XCTAssertEqual(width(conjunct, oldSegmentation), 2, "क् and ष as two clusters")
        XCTAssertEqual(width(conjunctAndVowel, .clusters), 1)
        XCTAssertEqual(width(conjunctAndVowel, oldSegmentation), 2, "न् and दी")
        XCTAssertEqual(width(conjunctAndVowel, .tmux33), 3)
    }

    func testSkinToneModifiersAreTwoColumnsAsAClusterAndFourByCodePoints() {
        XCTAssertEqual(width(thumbs, .clusters), 2)
        XCTAssertEqual(width(thumbs, .tmux33), 4)
        XCTAssertEqual(WidthModel.disputedClass(of: Character(thumbs)), .emojiModifiers)
    }

    func testVS16WidensATextSymbolOnlyWhereTheTerminalDoesSo() {
        XCTAssertEqual(width(heart, .clusters), 2)
        XCTAssertEqual(width(heart, .tmux33), 1)
        XCTAssertEqual(width("1\u{FE0F}\u{20E3}", .clusters), 2, "a keycap")
        XCTAssertEqual(width("1\u{FE0F}\u{20E3}", .codePoints), 1)
        XCTAssertEqual(width("\u{1F600}\u{FE0F}", .codePoints), 2, "an emoji that is wide anyway")
    }

    func testEmojiSequencesJoinOrStandSideBySide() {
        XCTAssertEqual(width(family, .clusters), 2)
        XCTAssertEqual(width(family, .tmux33), 2, "tmux joins what follows a ZWJ into the first emoji's cell")
        XCTAssertEqual(width(family, .codePoints), 6)
        XCTAssertEqual(width(coder, .tmux33), 4, "the first emoji keeps its modifier's width")
        XCTAssertEqual(width(coder, .clusters), 2)
        XCTAssertEqual(width(heartOnFire, .tmux33), 1)
        XCTAssertEqual(width(heartOnFire, .clusters), 2)
    }

    func testAZWJInsideOrdinaryTextIsNeverSentAndTakesNoColumn() {
        // Swift splits "a‍b" into "a‍" and "b"; tmux would join b into a's cell.
        let text = "a\u{200D}b ca\u{200D}f\u{E9}"
        for m in [WidthModel.clusters, .tmux33, .widest] { XCTAssertEqual(width(text, m), 7) }
        XCTAssertEqual(WidthModel.terminalText(Character("a\u{200D}")), "a")
        XCTAssertEqual(WidthModel.terminalText(Character(conjunct)), conjunct)
        let zwjConjunct = Character("\u{915}\u{94D}\u{200D}\u{937}")
        XCTAssertEqual(WidthModel.terminalText(zwjConjunct), conjunct, "a ZWJ between consonants is left out")
        XCTAssertEqual(WidthModel.terminalText(Character(family)), family, "a ZWJ between emoji stays")
    }

    func testUndisputedClustersAreTheSameUnderEveryModel() {
        for s in ["a", "日", "e\u{301}", "\u{1F1EB}\u{1F1F7}", "\u{1100}\u{1161}\u{11A8}", "😀", "ก\u{E34}"] {
            let widths = [WidthModel.clusters, .codePoints, .tmux33, .widest].map { width(s, $0) }
            XCTAssertEqual(Set(widths).count, 1, "\(s): \(widths)")
            XCTAssertNil(WidthModel.disputedClass(of: Character(s)))
        }
    }

    func testTheWidestModelIsNeverNarrowerThanAnyOther() {
        let models: [WidthModel] = [.clusters, .codePoints, .tmux33]
        for line in widthCorpus() {
            for ch in line.text {
                let widest = width(String(ch), .widest)
                for m in models { XCTAssertGreaterThanOrEqual(widest, width(String(ch), m), "\(ch) under \(m)") }
            }
        }
    }

    func testModelsByName() {
        XCTAssertEqual(WidthModel(name: "tmux"), .tmux33)
        XCTAssertEqual(WidthModel(name: "widest"), .widest)
        XCTAssertEqual(WidthModel(name: "clusters"), .clusters)
        XCTAssertNil(WidthModel(name: "probe"))
    }

    func testTheCorpusHasEveryDisputedClass() {
        var counts: [WidthClass: Int] = [:]
        for line in widthCorpus() {
            for ch in line.text { if let c = WidthModel.disputedClass(of: ch) { counts[c, default: 0] += 1 } }
        }
        XCTAssertGreaterThanOrEqual(widthCorpus().count, 300)
        for c in WidthClass.allCases { XCTAssertGreaterThanOrEqual(counts[c] ?? 0, 10, "\(c)") }
    }
}

/// Asking the terminal: the probe's bytes, the answers and the model they make.
final class WidthProbeTests: XCTestCase {
    /// The columns a simulated terminal reports for each probe.
    func columns(_ kind: TerminalSimulator.Kind) -> [Int?] {
        WidthProbe.probes.map { TerminalSimulator.measure($0.1, kind: kind) + 1 }
    }

    func testTmuxAnswersMakeTheTmuxModel() {
        let r = WidthProbe.result(columns: columns(.tmux33))
        XCTAssertEqual(r.model, .tmux33)
        XCTAssertEqual(r.measured, Set(WidthClass.allCases), "conjuncts add up either way when spacing marks do")
    }

    func testXtermAnswersMakeTheCodePointModel() {
        XCTAssertEqual(WidthProbe.result(columns: columns(.xterm)).model, .codePoints)
    }

    func testGraphemeTerminalAnswersMakeTheClusterModel() {
        let r = WidthProbe.result(columns: columns(.graphemes))
        XCTAssertEqual(r.model, .clusters)
        XCTAssertEqual(r.measured, Set(WidthClass.allCases))
    }

    func testNoAnswerOrAnOddOneTakesTheWidestAnswer() {
        XCTAssertEqual(WidthProbe.result(columns: []).model, .widest)
        XCTAssertEqual(WidthProbe.result(columns: []).measured, [])
        var odd = columns(.graphemes)
        odd[2] = 4 + 2  // 👍🏽 reported 5 wide: neither 2 nor 4
        let r = WidthProbe.result(columns: odd)
        XCTAssertEqual(r.model.emojiModifiers, .codePoints)
        XCTAssertFalse(r.measured.contains(.emojiModifiers))
        XCTAssertEqual(r.model.emojiPresentation, .cluster)
    }

    func testTheRequestPrintsEveryProbeConcealedAndEndsWithADeviceAttributesQuery() {
        let req = WidthProbe.request(row: 1, askBackground: false)
        XCTAssertEqual(req.components(separatedBy: "\u{1B}[6n").count - 1, WidthProbe.probes.count)
        XCTAssertTrue(req.hasSuffix("\u{1B}[c"))
        for (_, cluster) in WidthProbe.probes { XCTAssertTrue(req.contains("\u{1B}[2;1H\u{1B}[8m" + cluster)) }
        XCTAssertTrue(WidthProbe.cleanup(row: 1).contains("\u{1B}[2K"))
    }

    func testRepliesArePickedOutOfTypedKeysEvenWhenSplit() {
        var f = TerminalInputFilter()
        var r = TerminalReplies()
        var keys: [UInt8] = []
        for chunk in ["q\u{1B}[2;3R\u{1B}[2;", "5Rx\u{1B}[A\u{1B}[?62;22c"] {
            let out = f.feed(Array(chunk.utf8), at: 0)
            keys += out.keys
            out.replies.forEach { r.record($0) }
            if chunk.hasPrefix("q") { XCTAssertEqual(r.positions.count, 1) }
        }
        XCTAssertEqual(r.positions.map(\.column), [3, 5])
        XCTAssertEqual(r.positions.map(\.row), [2, 2])
        XCTAssertTrue(r.sawDeviceAttributes)
        XCTAssertEqual(String(decoding: keys, as: UTF8.self), "qx\u{1B}[A", "keys typed meanwhile are kept in order")
    }

    func testALoneEscapeIsTheEscapeKeyOnceNothingFollows() {
        var f = TerminalInputFilter()
        XCTAssertTrue(f.feed([0x1B], at: 0).keys.isEmpty)
        XCTAssertEqual(f.expire(at: 1).keys, [0x1B], "a lone Escape key")
    }
}

/// How cells reach the terminal: through ncurses when it measures them right, else written
/// at an explicit position over blanks.
final class CellEmissionTests: XCTestCase {
    func testWhatNcursesMeasuresRightGoesThroughIt() {
        for m in [WidthModel.clusters, .tmux33, .widest] {
            for s in ["a", "日", "e\u{301}", "😀", "\u{1100}\u{1161}\u{11A8}"] {
                XCTAssertEqual(m.emission(for: s), .native(s), "\(s) under \(m)")
            }
        }
        XCTAssertEqual(
            WidthModel.tmux33.emission(for: "\u{2764}\u{FE0F}"), .native("\u{2764}\u{FE0F}"),
            "tmux draws ❤️ one column wide, as ncurses measures it")
        XCTAssertEqual(
            WidthModel.clusters.emission(for: "a\u{200D}"), .native("a"),
            "no stray ZWJ reaches the terminal")
    }

    func testDisputedClustersAreOverlaidOnBlanks() {
        XCTAssertEqual(WidthModel.clusters.emission(for: "\u{2764}\u{FE0F}"), .overlay("\u{2764}\u{FE0F}", width: 2))
        XCTAssertEqual(WidthModel.tmux33.emission(for: "\u{915}\u{93F}"), .overlay("\u{915}\u{93F}", width: 2))
        XCTAssertEqual(WidthModel.widest.emission(for: "\u{1F44D}\u{1F3FD}"), .overlay("\u{1F44D}\u{1F3FD}", width: 4))
        XCTAssertEqual(
            WidthModel.clusters.emission(for: "\u{1F1EB}\u{1F1F7}"),
            .overlay("\u{1F1EB}\u{1F1F7}", width: 2),
            "ncurses keeps only one code point with a width per cell")
        XCTAssertEqual(
            WidthModel.tmux33.emission(for: "\u{1F600}\u{FE0E}"), .overlay("\u{1F600}\u{FE0E}", width: 2),
            "text presentation is not probed: padded")
    }

    func testRawCellsArePositionedAgainAfterEveryOverlay() {
        let style = Style.plain
        let out = RawPainter.paint(
            row: 2,
            cells: [
                RawCell(x: 5, width: 2, text: "\u{2764}\u{FE0F}", style: style, isOverlay: true),
                RawCell(x: 7, width: 1, text: "x", style: style, isOverlay: false),
                RawCell(x: 8, width: 1, text: "y", style: style, isOverlay: false),
                RawCell(x: 20, width: 4, text: "\u{1F44D}\u{1F3FD}", style: style, isOverlay: true),
            ], depth: .none)
        XCTAssertEqual(out, "\u{1B}[3;6H\u{1B}[0m\u{2764}\u{FE0F}\u{1B}[3;8Hxy\u{1B}[3;21H\u{1F44D}\u{1F3FD}\u{1B}[0m")
    }

    func testHyperlinksWrapTheirCellsWithOSC8() {
        var style = Style.plain
        style.hyperlink = "https://example.com/a"
        let out = RawPainter.paint(
            row: 0,
            cells: [
                RawCell(x: 0, width: 1, text: "a", style: style, isOverlay: false),
                RawCell(x: 1, width: 1, text: "b", style: style, isOverlay: false),
            ], depth: .none)
        XCTAssertEqual(out, "\u{1B}[1;1H\u{1B}[0m\u{1B}]8;;https://example.com/a\u{1B}\\ab\u{1B}]8;;\u{1B}\\\u{1B}[0m")
    }
}

/// Glyphs wider than two columns (a model that adds up code points) in the cell buffer.
final class WideGlyphBufferTests: XCTestCase {
    let thumbs = "\u{1F44D}\u{1F3FD}"

    func testAFourColumnGlyphIsALeadAndThreeContinuations() {
        WidthModel.$scoped.withValue(.tmux33) {
            var b = CellBuffer(width: 8, height: 1)
            XCTAssertEqual(b.write("a\(thumbs)b", x: 0, y: 0), 6)
            XCTAssertEqual(b[1, 0].text, thumbs)
            XCTAssertEqual(b[1, 0].width, 4)
            XCTAssertTrue((2...4).allSatisfy { b[$0, 0].isContinuation })
            XCTAssertEqual(b[5, 0].text, "b")
            b.write("x", x: 3, y: 0)
            XCTAssertEqual(b.rowText(0), "a  x b  ", "writing inside a glyph blanks all of it")
        }
    }

    func testAGlyphThatWouldCrossTheClipEdgeBecomesBlanks() {
        WidthModel.$scoped.withValue(.tmux33) {
            var b = CellBuffer(width: 8, height: 1)
            b.write("ab\(thumbs)", x: 0, y: 0, clip: Rect(x: 0, y: 0, width: 5, height: 1))
            XCTAssertEqual(b.rowText(0), "ab      ")
            XCTAssertFalse((0..<8).contains { b[$0, 0].isContinuation })
        }
    }

    func testTheDiffSendsAWideGlyphWhole() {
        WidthModel.$scoped.withValue(.tmux33) {
            var a = CellBuffer(width: 10, height: 1)
            a.write("abcdefgh", x: 0, y: 0)
            var b = a
            b.write(thumbs, x: 2, y: 0)
            let runs = FrameDiff.runs(from: a, to: b)
            XCTAssertEqual(runs.count, 1)
            XCTAssertEqual(runs[0].x, 2)
            XCTAssertEqual(runs[0].cells.count, 4)
            var c = b
            c.write(thumbs, x: 2, y: 0, style: Style(attributes: [.bold]))
            let restyled = FrameDiff.runs(from: b, to: c)
            XCTAssertEqual(restyled.map(\.x), [2])
            XCTAssertEqual(restyled[0].cells.count, 4)
        }
    }

    func testBlitDropsAGlyphCutByTheEdge() {
        WidthModel.$scoped.withValue(.tmux33) {
            var src = CellBuffer(width: 6, height: 1)
            src.write("a\(thumbs)", x: 0, y: 0)
            var dst = CellBuffer(width: 4, height: 1)
            dst.blit(src, at: Point(x: 0, y: 0))
            XCTAssertEqual(dst.rowText(0), "a   ")
            XCTAssertFalse((0..<4).contains { dst[$0, 0].isContinuation })
        }
    }
}

/// A number cut by the tile is cut whole (issue 14, point 3).
final class WholeNumberTruncationTests: XCTestCase {
    func testACutNeverFallsInsideANumber() {
        XCTAssertEqual(DisplayWidth.truncate("rate limited: try again in 60 s", to: 29), "rate limited: try again in…")
        XCTAssertEqual(DisplayWidth.truncate("$0.00000123", to: 8), "…")
        XCTAssertEqual(DisplayWidth.truncate("Price $43,210.55 today", to: 12), "Price…")
        XCTAssertEqual(DisplayWidth.truncate("v1.2.3 released", to: 4), "v…")
        XCTAssertEqual(DisplayWidth.truncate("-12.5% drop", to: 4), "…")
        XCTAssertEqual(DisplayWidth.truncate("SHIB 1.23e-5", to: 10), "SHIB…", "an exponent is part of the number")
        XCTAssertEqual(DisplayWidth.truncate("up 12.5%", to: 7), "up…")
    }

    func testACutAfterAWholeNumberOrInsideAWordIsUnchanged() {
        XCTAssertEqual(DisplayWidth.truncate("60 seconds left", to: 6), "60 se…")
        XCTAssertEqual(DisplayWidth.truncate("try again later", to: 8), "try aga…")
        XCTAssertEqual(DisplayWidth.truncate("ends 12.5.", to: 8), "ends…")
    }
}
