import XCTest
@testable import DashCore

/// Issue 37.2: a terminal's answer is never a key. Every class of reply (each introducer and
/// terminator, 7-bit and 8-bit, rgba, garbage, unended, split, late) is picked out of the input
/// by `TerminalInputFilter` on a virtual clock, and only what a person typed is left as keys.
final class TerminalInputFilterTests: XCTestCase {
    let esc: UInt8 = 0x1B

    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// Feeds `chunks` at time `at` (all at once unless given times) and gathers the output.
    func run(
        _ chunks: [[UInt8]], times: [Double]? = nil, expireAt end: Double? = nil,
        filter f: inout TerminalInputFilter
    ) -> TerminalInputFilter.Output {
        var out = TerminalInputFilter.Output(keys: [], replies: [])
        for (i, c) in chunks.enumerated() {
            let o = f.feed(c, at: times?[i] ?? 0)
            out.keys += o.keys
            out.replies += o.replies
        }
        if let end {
            let o = f.expire(at: end)
            out.keys += o.keys
            out.replies += o.replies
        }
        return out
    }

    func filtered(_ chunks: [UInt8]..., expireAt end: Double? = 10) -> TerminalInputFilter.Output {
        var f = TerminalInputFilter()
        return run(chunks, expireAt: end, filter: &f)
    }

    func keys(_ o: TerminalInputFilter.Output) -> String { String(decoding: o.keys, as: UTF8.self) }

    func testAnOSC11AnswerEndedBy8BitSTIsNoKey_theDsDeletedEveryTile() {
        // The probe's finding: ESC]11;rgb:1d1d/1d1d/1d1d ended by 0x9C was read as keys.
        let o = filtered(bytes("\u{1B}]11;rgb:1d1d/1d1d/1d1d") + [0x9C] + bytes("q"))
        XCTAssertEqual(keys(o), "q", "only the typed q is a key")
        guard case .background(let r, let g, let b)? = o.replies.first else { return XCTFail("\(o.replies)") }
        XCTAssertEqual(r, Double(0x1d1d) / 65535, accuracy: 1e-9)
        XCTAssertEqual(g, r)
        XCTAssertEqual(b, r)
    }

    func testEveryIntroducerAndTerminatorIsAReply() {
        let ends: [[UInt8]] = [[0x07], [esc, UInt8(ascii: "\\")], [0x9C]]
        let introducers: [[UInt8]] = [
            [esc, UInt8(ascii: "]")], [0x9D], [esc, UInt8(ascii: "P")], [0x90], [esc, UInt8(ascii: "X")], [0x98],
            [esc, UInt8(ascii: "^")], [0x9E], [esc, UInt8(ascii: "_")], [0x9F],
        ]
        for intro in introducers {
            for end in ends {
                let o = filtered(bytes("a") + intro + bytes("11;rgb:dd/dd/dd") + end + bytes("b"))
                XCTAssertEqual(keys(o), "ab", "\(intro) … \(end)")
                XCTAssertEqual(o.replies.count, 1, "\(intro) … \(end): \(o.replies)")
            }
        }
        // 7-bit and 8-bit control sequences that are replies.
        for csi in [[esc, UInt8(ascii: "[")], [0x9B]] {
            for reply in ["?62;22c", ">41;330;0c", "0n", "8;24;80t", "?2026;2$y", "5;7R", "?1u"] {
                let o = filtered(bytes("a") + csi + bytes(reply) + bytes("b"))
                XCTAssertEqual(keys(o), "ab", "\(csi) \(reply)")
                XCTAssertEqual(o.replies.count, 1, "\(csi) \(reply)")
            }
        }
    }

    func testAFourthChannelIsStillTheBackground() {
        let o = filtered(bytes("\u{1B}]11;rgba:ffff/ffff/ffff/8000\u{07}"))
        XCTAssertEqual(o.keys, [])
        XCTAssertEqual(o.replies, [.background(red: 1, green: 1, blue: 1)])
    }

    func testAnAnswerThatIsNotAColourIsDropped_itQuitTheApp() {
        // ESC]11;?q BEL quit the app: the q was read as a key.
        let o = filtered(bytes("\u{1B}]11;?q\u{07}"))
        XCTAssertEqual(o.keys, [])
        XCTAssertEqual(o.replies, [.unused("OSC 11")])
        for garbage in ["11;rgb:zz/00/00", "11;rgb:1/2", "11;hsl:1/2/3", "10;rgb:0/0/0", "52;c;ZGQ=", "", ";;;"] {
            let o = filtered(bytes("\u{1B}]" + garbage + "\u{1B}\\") + bytes("j"))
            XCTAssertEqual(keys(o), "j", garbage)
            XCTAssertEqual(o.replies.count, 1, garbage)
        }
    }

    func testAHundredKilobyteUnendedAnswerThenATypedQ() {
        var f = TerminalInputFilter()
        let flood = bytes("\u{1B}]11;rgb:") + [UInt8](repeating: UInt8(ascii: "d"), count: 100_000)
        // Arrives in reads of 4 KiB over a few milliseconds: no key comes of it.
        var out = TerminalInputFilter.Output(keys: [], replies: [])
        for (i, start) in stride(from: 0, to: flood.count, by: 4096).enumerated() {
            let o = f.feed(flood[start..<min(flood.count, start + 4096)], at: Double(i) * 0.001)
            out.keys += o.keys
            out.replies += o.replies
        }
        XCTAssertEqual(out.keys, [])
        XCTAssertTrue(f.isPending)
        // Its deadline passes: it is dropped, whole.
        let due = f.nextDeadline!
        XCTAssertEqual(f.expire(at: due - 0.001).replies, [])
        XCTAssertEqual(f.expire(at: due).replies, [.abandoned("OSC", bytes: flood.count)])
        // A person's q afterwards is a key.
        XCTAssertEqual(keys(f.feed(bytes("q"), at: due + 0.5)), "q")
        XCTAssertFalse(f.isPending)
    }

    func testAQTypedAfterTheDeadlineEndsTheUnendedAnswerEvenWithoutAWakeUp() {
        var f = TerminalInputFilter()
        XCTAssertEqual(f.feed(bytes("\u{1B}]11;rgb:00"), at: 0).keys, [])
        let o = f.feed(bytes("q"), at: TerminalInputFilter.deadline + 0.1)
        XCTAssertEqual(keys(o), "q")
        XCTAssertEqual(o.replies, [.abandoned("OSC", bytes: 11)])
    }

    func testAnOverlongAnswerThatEndsIsDroppedWhole() {
        let long = bytes("\u{1B}]11;rgb:") + [UInt8](repeating: UInt8(ascii: "0"), count: 10_000) + [0x07]
        let o = filtered(long + bytes("q"))
        XCTAssertEqual(keys(o), "q")
        XCTAssertEqual(o.replies, [.abandoned("OSC", bytes: long.count)])
        let csi = bytes("\u{1B}[") + [UInt8](repeating: UInt8(ascii: "1"), count: 10_000) + bytes("R")
        XCTAssertEqual(keys(filtered(csi + bytes("q"))), "q")
    }

    func testRepliesSplitAcrossReadsAtEveryByte() {
        let reply =
            bytes("\u{1B}]11;rgb:1d1d/1d1d/1d1d\u{1B}\\") + bytes("\u{1B}[2;5R") + [0x9D] + bytes("11;rgb:ff/ff/ff")
            + [0x9C] + bytes("\u{1B}[?62;22c")
        let typed = bytes("x")
        for cut in 1..<reply.count {
            var f = TerminalInputFilter()
            let o = run([typed + reply[..<cut], Array(reply[cut...]) + typed], expireAt: 0.01, filter: &f)
            XCTAssertEqual(keys(o), "xx", "cut at \(cut)")
            XCTAssertEqual(o.replies.count, 4, "cut at \(cut): \(o.replies)")
            XCTAssertEqual(o.replies.last, .deviceAttributes)
        }
    }

    func testALateReplyAfterItsQuestionIsStillNoKey() {
        // The probe stopped waiting long ago: the answer is a reply all the same.
        var f = TerminalInputFilter()
        _ = f.feed(bytes("j"), at: 0)
        let o = f.feed(bytes("\u{1B}]11;rgb:1d1d/1d1d/1d1d") + [0x9C] + bytes("\u{1B}[?64;1c\u{1B}[3;9R"), at: 30)
        XCTAssertEqual(o.keys, [])
        XCTAssertEqual(o.replies.count, 3)
    }

    func testKeysPassUnchanged() {
        let typed = [
            "hjkl q", "\u{1B}[A\u{1B}[B\u{1B}OP\u{1B}[15~\u{1B}[1;5C", "\u{1B}[<0;12;5M\u{1B}[<0;12;5m",
            "\u{1B}[200~pasted\u{1B}[201~", "\u{1B}b\u{1B}f", "é日😀", "\u{1B}[Z", "\u{1B}[1;2R",
        ]
        for t in typed {
            XCTAssertEqual(keys(filtered(bytes(t))), t, t.debugDescription)
        }
        // An X10 mouse report: three raw bytes, whatever they are (x = 125 is 0x9D).
        let x10: [UInt8] = [esc, UInt8(ascii: "["), UInt8(ascii: "M"), 0x20, 0x9D, 0x30]
        XCTAssertEqual(filtered(x10).keys, x10)
        // An 8-bit CSI key goes on in 7-bit form.
        XCTAssertEqual(keys(filtered([0x9B, UInt8(ascii: "A")])), "\u{1B}[A")
    }

    func testAUTF8CharacterWhoseLastByteIs0x9CDoesNotEndAnOSC() {
        // Ŝ is C5 9C: inside an OSC's text it is a character, not ST.
        let o = filtered(bytes("\u{1B}]2;Ŝ") + [0x07] + bytes("k"))
        XCTAssertEqual(keys(o), "k")
        XCTAssertEqual(o.replies, [.unused("OSC 2")])
    }

    func testALoneEscapeIsAKeyAfterTheEscapeDelay() {
        var f = TerminalInputFilter()
        XCTAssertEqual(f.feed([esc], at: 0).keys, [], "it may begin a reply")
        XCTAssertEqual(f.nextDeadline, TerminalInputFilter.escapeDelay)
        XCTAssertEqual(f.expire(at: 0.01).keys, [])
        XCTAssertEqual(f.expire(at: TerminalInputFilter.escapeDelay).keys, [esc])
        // Esc Esc: the first is the key.
        XCTAssertEqual(filtered([esc, esc]).keys, [esc, esc])
    }

    func testCursorReportsOfRowOneAreKeysUnlessExpected() {
        // CSI 1;2R is Shift-F3; the probe asks on row 2, so a report of row 1 is only ever one
        // the filter was told to expect.
        XCTAssertEqual(keys(filtered(bytes("\u{1B}[1;2R"))), "\u{1B}[1;2R")
        var f = TerminalInputFilter()
        f.expectedPositions = 1
        let o = run([bytes("\u{1B}[1;2R\u{1B}[1;2R")], filter: &f)
        XCTAssertEqual(o.replies, [.cursorPosition(row: 1, column: 2)])
        XCTAssertEqual(keys(o), "\u{1B}[1;2R")
    }

    func testCancelledAndInterruptedRepliesLeaveNoKeys() {
        // CAN ends a reply; an ESC that is no ST ends it and begins the next sequence.
        XCTAssertEqual(keys(filtered(bytes("\u{1B}]11;rgb:d\u{18}q"))), "q")
        XCTAssertEqual(keys(filtered(bytes("\u{1B}]11;rgb:dd\u{1B}[Aq"))), "\u{1B}[Aq")
        XCTAssertEqual(keys(filtered(bytes("\u{1B}[?6\u{1B}j"))), "\u{1B}j")
        // Stray C1 controls are no keys.
        XCTAssertEqual(keys(filtered([0x9C, 0x85, UInt8(ascii: "z")])), "z")
    }

    func testRandomBytesNeverCrashAndNeverLeaveAReplyBehind() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return seed
        }
        let alphabet: [UInt8] = [0x1B, 0x9B, 0x9C, 0x9D, 0x90, 0x07, 0x18, 0x5C, 0x5B, 0x5D, 0x3F, 0x3B, 0x31, 0x64, 0xC5]
        for _ in 0..<500 {
            var f = TerminalInputFilter()
            var t = 0.0
            for _ in 0..<20 {
                let n = Int(next() % 64)
                let chunk = (0..<n).map { _ in
                    next() % 3 == 0 ? UInt8(truncatingIfNeeded: next()) : alphabet[Int(next() % UInt64(alphabet.count))]
                }
                t += Double(next() % 100) / 1000
                _ = f.feed(chunk, at: t)
            }
            _ = f.expire(at: t + 10)
            XCTAssertFalse(f.isPending)
        }
    }
}
