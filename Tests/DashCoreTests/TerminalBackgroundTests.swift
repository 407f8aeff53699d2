import XCTest
@testable import DashCore

/// `theme: auto`: the terminal's answer to OSC 11 (its background colour) is picked out of the
/// start-up probe's replies; anything else that starts like it is a reply too, never a key.
final class TerminalBackgroundTests: XCTestCase {
    /// The probe's replies among `text` (fed in two reads when `split`), and the keys left.
    func replies(_ text: String, split: Int? = nil) -> (TerminalReplies, keys: String) {
        var f = TerminalInputFilter()
        var r = TerminalReplies()
        var keys: [UInt8] = []
        let bytes = Array(text.utf8)
        let chunks = split.map { [Array(bytes[..<$0]), Array(bytes[$0...])] } ?? [bytes]
        for c in chunks {
            let out = f.feed(c, at: 0)
            keys += out.keys
            out.replies.forEach { r.record($0) }
        }
        keys += f.expire(at: 10).keys
        return (r, String(decoding: keys, as: UTF8.self))
    }

    func testAnOSC11AnswerGivesTheBackgroundAndIsNotAKey() throws {
        // xterm answers with 4 hex digits a channel and ST; others with 2 digits and BEL.
        var (r, keys) = replies("\u{1B}]11;rgb:1a1a/1b1b/2626\u{1B}\\\u{1B}[?62;22c")
        let bg = try XCTUnwrap(r.background)
        XCTAssertEqual(bg.red, Double(0x1a1a) / 65535, accuracy: 1e-9)
        XCTAssertTrue(Theme.isDark(red: bg.red, green: bg.green, blue: bg.blue))
        XCTAssertTrue(r.sawDeviceAttributes)
        XCTAssertEqual(keys, "")
        (r, keys) = replies("x\u{1B}]11;rgb:f5/f5/f7\u{07}y", split: 9)
        let light = try XCTUnwrap(r.background)
        XCTAssertFalse(Theme.isDark(red: light.red, green: light.green, blue: light.blue))
        XCTAssertEqual(keys, "xy")
    }

    func testWhatOnlyStartsLikeAnAnswerIsNeitherAColourNorAKey() {
        // Issue 37.2: an answer not understood used to go back to the keys.
        var (r, keys) = replies("\u{1B}]x")
        XCTAssertNil(r.background)
        XCTAssertEqual(keys, "")
        (r, keys) = replies("\u{1B}]11;rgb:zz/00/00\u{07}")
        XCTAssertNil(r.background)
        XCTAssertEqual(keys, "")
    }

    func testColorfgbgSaysWhetherTheBackgroundIsDark() {
        XCTAssertEqual(Theme.backgroundIsDark(colorfgbg: "15;0"), true)
        XCTAssertEqual(Theme.backgroundIsDark(colorfgbg: "0;15"), false)
        XCTAssertEqual(Theme.backgroundIsDark(colorfgbg: "0;default;7"), false)
        XCTAssertEqual(Theme.backgroundIsDark(colorfgbg: "12;8"), true)
        XCTAssertNil(Theme.backgroundIsDark(colorfgbg: nil))
        XCTAssertNil(Theme.backgroundIsDark(colorfgbg: "default"))
        XCTAssertNil(Theme.backgroundIsDark(colorfgbg: "0;99"))
    }

    func testTheProbeAsksForTheBackgroundBeforeTheDeviceAttributesEndIt() {
        let request = WidthProbe.request(row: 1, askBackground: true)
        let osc = request.range(of: "\u{1B}]11;?\u{1B}\\")
        let da = request.range(of: "\u{1B}[c", options: .backwards)
        XCTAssertNotNil(osc)
        XCTAssertTrue(osc!.upperBound <= da!.lowerBound, "the device attributes come last and end the wait")
        // Decision 55: only `theme: auto` asks.
        XCTAssertFalse(WidthProbe.request(row: 1, askBackground: false).contains("\u{1B}]"))
    }

    func testTheTerminalThemeUsesOnlyTheTerminalsOwnColours() {
        for role in ThemeRole.allCases {
            switch Theme.terminal[role] {
            case .default: break
            case .ansi(let i): XCTAssertLessThan(i, 16)
            default: XCTFail("\(role) is \(Theme.terminal[role]), not one of the terminal's 16 colours")
            }
        }
    }
}
