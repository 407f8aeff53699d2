import XCTest
import Foundation
import DashTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// Issue 37.2 end to end: terminal replies tmux injects as raw bytes (`send-keys -H`, a pasted
/// buffer) never act as keys (the flood of keys is `TmuxEndToEndTests`'
/// `testKeysNeverPileUpAfterATenThousandKeyFlood`).
final class TerminalReplyTmuxTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    static let homeText = """
        tiles:
          - {family: small, widget: clock}
          - {family: small, widget: note, config: {title: one}}
          - {family: small, widget: note, config: {title: two}}
          - {family: small, widget: note, config: {title: three}}

        """

    /// A session on a home.yaml of four tiles; returns it and the file.
    func start(width: Int = 100, height: Int = 30) throws -> (TmuxSession, URL, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-replies-\(UUID().uuidString)")
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let file = config.appendingPathComponent("home.yaml")
        try Self.homeText.write(to: file, atomically: true, encoding: .utf8)
        let t = try TmuxSession(width: width, height: height, env: TmuxSession.folders(in: dir))
        t.waitFor("the first frame") { $0.contains("? help") }
        return (t, file, dir)
    }

    /// The lines the program reported about terminal replies (`terminal: …`).
    func replyEvents(_ t: TmuxSession) -> [String] {
        let text = (try? String(contentsOf: t.events, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("terminal: ") }
    }

    /// Waits (bounded only against a hang) until the program has reported `count` replies.
    @discardableResult
    func waitForReplies(_ t: TmuxSession, count: Int) -> [String] {
        t.waitFor("\(count) replies reported") { _ in self.replyEvents(t).count >= count }
        return replyEvents(t)
    }

    func hex(_ bytes: [UInt8]) -> [String] { bytes.map { String(format: "%02x", $0) } }

    func testATerminalsAnswerIsNeverAKey() throws {
        let (t, file, dir) = try start()
        defer {
            t.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let esc: UInt8 = 0x1B
        func b(_ s: String) -> [UInt8] { Array(s.utf8) }
        let replies: [[UInt8]] = [
            // The probe's findings: ended by the 8-bit ST, with a fourth channel, and `?q` + BEL.
            b("\u{1B}]11;rgb:1d1d/1d1d/1d1d") + [0x9C],
            b("\u{1B}]11;rgba:1d1d/1d1d/1d1d/dddd\u{1B}\\"),
            b("\u{1B}]11;?q\u{07}"),
            // The same through the 8-bit introducers, and a DCS, a DA and a DSR answer.
            [0x9D] + b("11;rgb:dd/dd/dd") + [0x07],
            [0x90] + b("1$r0;ddm") + [0x9C],
            [esc] + b("P>|dd(q)") + [esc, UInt8(ascii: "\\")],
            [0x9B] + b("?62;22c"),
            b("\u{1B}[0n"),
        ]
        for r in replies { TmuxSession.tmux(t.socket, ["send-keys", "-t", t.name, "-H"] + hex(r)) }
        waitForReplies(t, count: replies.count)
        let s = t.screen()
        XCTAssertFalse(s.contains("EXITED"), "the app still runs:\n\(s)")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), Self.homeText, "no tile was removed")
        // And the keys still work.
        t.keys("q")
        let end = t.waitFor("exit on q") { $0.contains("EXITED") }
        XCTAssertTrue(end.contains("EXITED 0"), end)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), Self.homeText)
    }

    func testAHundredKilobyteUnendedAnswerThenATypedQQuits() throws {
        let (t, file, dir) = try start()
        defer {
            t.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let flood = Array("\u{1B}]11;rgb:".utf8) + [UInt8](repeating: UInt8(ascii: "d"), count: 100_000)
        let buffer = dir.appendingPathComponent("flood")
        try Data(flood).write(to: buffer)
        TmuxSession.tmux(t.socket, ["load-buffer", "-b", "flood", buffer.path])
        TmuxSession.tmux(t.socket, ["paste-buffer", "-b", "flood", "-d", "-t", t.name])
        // The program says when it drops the answer (at its deadline, with no key to wake it).
        let seen = waitForReplies(t, count: 1)
        XCTAssertTrue(seen.first?.contains("did not end (OSC, \(flood.count) bytes)") ?? false, "\(seen)")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), Self.homeText, "no tile was removed")
        t.keys("q")
        let s = t.waitFor("exit on q") { $0.contains("EXITED") }
        XCTAssertTrue(s.contains("EXITED 0"), s)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), Self.homeText)
    }
}
