import XCTest
import Foundation
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// The control-socket protocol fuzzed in `swift test` (fixed seed): whatever a client sends,
/// one clean line comes back and nothing crashes. The checks are `AppFuzzHarness.control`,
/// the same as the libFuzzer target `control` (Tests/fuzz/run.sh control).
final class ControlProtocolFuzzTests: XCTestCase {
    func testRandomLinesGetOneCleanLineBack() {
        var rng = SeededRandom(seed: 0xC0_4701)
        let words = [
            "ping", "reload", "push", "clock", "note", "w1", "{", "}", "\"entries\":", "[", "]",
            "\u{1B}]52;c;aGk=\u{07}", "\u{9B}2J", "\u{202E}", "\0", "\n", "\r", " ", "💥", "é", "-1", "1e999",
            "{\"title\":", "\"view\":", "\"text\":", "\"date\":", "\"policy\":", "\"never\"", #""x\u001b[31m""#, ",",
        ]
        let pushes = [
            #"push note {"entries": [{"title": "Build \u001b[31mpassed", "text": "main"}], "policy": "never"}"#,
            #"push w1 {"entries": [{"date": 1795426000, "title": "\u202eevil"}]}"#,
        ]
        var cases = 0, accepted = 0
        for _ in 0..<4_000 {
            var line = ""
            for _ in 0..<rng.below(12) { line += rng.pick(words) + (rng.below(3) == 0 ? "" : " ") }
            switch rng.below(8) {
            case 0, 1: line = "push note " + line
            case 2:  // a valid push with words spliced in
                var p = Array(rng.pick(pushes).utf8)
                p.insert(contentsOf: Array(line.utf8), at: rng.below(p.count + 1))
                line = String(decoding: p, as: UTF8.self)
            case 3: line = rng.pick(pushes)
            default: break
            }
            var bytes = Array(line.utf8)
            if rng.below(4) == 0 {  // raw bytes: invalid UTF-8, NULs, a second line
                for _ in 0..<1 + rng.below(4) { bytes.insert(UInt8(rng.below(256)), at: rng.below(bytes.count + 1)) }
            }
            let o = AppFuzzHarness.control(Data(bytes))
            cases += 1
            if o.accepted { accepted += 1 }
            XCTAssertEqual(o.problems, [], "for \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        XCTAssertEqual(cases, 4_000)
        XCTAssertGreaterThan(accepted, 200, "some lines are valid requests")
    }

    /// The framing the server applies to a connection's bytes.
    func testFraming() {
        XCTAssertNil(ControlProtocol.frame(Array("ping".utf8), ended: false), "waits for the line's end")
        XCTAssertEqual(ControlProtocol.frame(Array("ping".utf8), ended: true), .line("ping"))
        XCTAssertEqual(ControlProtocol.frame(Array(" ping \r\nreload\n".utf8), ended: false), .line("ping"))
        XCTAssertEqual(ControlProtocol.frame([0x70, 0xC3, 0x0A], ended: false), .line("p\u{FFFD}"))
        let long = [UInt8](repeating: 0x61, count: ControlProtocol.maxLine)
        XCTAssertEqual(ControlProtocol.frame(long, ended: false), .tooLong)
        XCTAssertEqual(
            ControlProtocol.frame(Array(long.dropLast()), ended: true), .line(String(repeating: "a", count: 511)))
        let push = Array("push note ".utf8) + long
        XCTAssertNil(ControlProtocol.frame(push, ended: false), "a push may be longer")
        XCTAssertEqual(ControlProtocol.frame([], ended: true), .line(""))
    }
}
