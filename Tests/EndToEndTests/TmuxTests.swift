import XCTest
import Foundation
import DashTestSupport
#if canImport(Glibc)
    import Glibc
#endif

final class TmuxEndToEndTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    /// Lines of the focused tile's heavy frame.
    func focusedTitle(_ screen: String) -> String? {
        for line in screen.split(separator: "\n") {
            if let r = line.range(of: "┏━ ") {
                return String(line[r.upperBound...].prefix { $0 != " " })
            }
        }
        return nil
    }

    func testFirstFrameFocusDetailHelpResizeAndQuitAt80x24() throws {
        let t = try TmuxSession(width: 80, height: 24)
        defer { t.close() }
        let first = t.waitFor("the first frame") { $0.contains("? help") }
        let lines = first.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines[0].hasPrefix("┏━ Clock"), "the first tile is focused:\n\(first)")
        XCTAssertEqual(focusedTitle(first), "Clock")

        // Move focus right, then back.
        t.keys("l")
        var s = t.waitFor("focus to move") { self.focusedTitle($0) != "Clock" }
        let second = focusedTitle(s)
        XCTAssertNotNil(second)
        t.keys("Left")
        s = t.waitFor("focus to come back") { self.focusedTitle($0) == "Clock" }

        // Enter opens the detail pane; Esc closes it and focus stays.
        t.keys("Enter")
        s = t.waitFor("the detail pane") { $0.contains("Esc close") }
        XCTAssertTrue(s.contains("Tab links · Enter open · Esc close"), s)
        t.keys("Escape")
        s = t.waitFor("the pane to close") { !$0.contains("Esc close") }
        XCTAssertEqual(focusedTitle(s), "Clock")

        // Help lists the keys.
        t.keys("?")
        let keys = ["PgUp PgDn", "Tab Shift-Tab", "Enter", "switch dark / light", "quit"]
        s = t.waitFor("help") { screen in screen.contains("swiftdash keys") && keys.allSatisfy { screen.contains($0) } }
        for k in keys { XCTAssertTrue(s.contains(k), "\(k):\n\(s)") }
        t.keys("Escape")
        t.waitFor("help to close") { !$0.contains("swiftdash keys") }

        // Resize: to 200x60, then too small, then back; focus stays on the same widget.
        t.keys("l")
        s = t.waitFor("focus to move") { self.focusedTitle($0) != "Clock" }
        let focused = focusedTitle(s)
        t.resize(200, 60)
        s = t.waitFor("the wide layout") {
            $0.split(separator: "\n").first { $0.contains("? help") }.map { $0.count > 150 } ?? false
        }
        XCTAssertEqual(focusedTitle(s), focused)
        // Esc and a resize at once (found trying the app): the resize must not be lost in the
        // Escape sequence ncurses is still reading.
        t.keys("?")
        t.waitFor("the help") { $0.contains("swiftdash keys") }
        t.keys("Escape")
        t.resize(120, 40)
        t.waitFor("the layout for 120x40 after Esc") {
            $0.split(separator: "\n").first { $0.contains("? help") }.map { $0.count > 100 } ?? false
        }
        t.resize(15, 5)
        t.waitFor("the too-small note") { $0.contains("Too small") }
        t.resize(80, 24)
        s = t.waitFor("recovery") { $0.contains("? help") }
        XCTAssertEqual(focusedTitle(s), focused)

        // Quit restores the terminal: the shell's line is all that is left.
        t.keys("q")
        s = t.waitFor("exit") { $0.contains("EXITED") }
        XCTAssertTrue(s.contains("EXITED 0"), s)
        XCTAssertFalse(s.contains("╭"), "the alternate screen is gone:\n\(s)")
    }

    func testWideScreen200x60ShowsEveryTileOnOnePage() throws {
        let t = try TmuxSession(width: 200, height: 60)
        defer { t.close() }
        let s = t.waitFor("the first frame") { $0.contains("? help") }
        XCTAssertFalse(s.contains("○"), "no page dots: everything fits\n\(s)")
        XCTAssertTrue(s.contains("Calendar"))
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
    }

    func testExportedColumnsAndLinesDoNotFixTheScreenSize() throws {
        // A shell or a CI runner may export COLUMNS and LINES; the terminal's own size wins.
        let t = try TmuxSession(width: 80, height: 24, env: ["COLUMNS": "132", "LINES": "50"])
        defer { t.close() }
        let s = t.waitFor("the first frame") { $0.contains("? help") }
        let lines = s.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines.indices.contains(23) && lines[23].contains("? help"), "the key bar is on row 24:\n\(s)")
        XCTAssertTrue(lines.allSatisfy { $0.count <= 80 }, s)
        t.resize(120, 40)
        t.waitFor("the layout for 120x40") {
            $0.split(separator: "\n").first { $0.contains("? help") }.map { $0.count > 100 } ?? false
        }
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
    }

    func testSigtermRestoresTheTerminal() throws {
        let t = try TmuxSession(width: 80, height: 24)
        defer { t.close() }
        t.waitFor("the first frame") { $0.contains("? help") }
        // The pane's shell runs swiftdash as its child.
        let child = t.childPID()
        XCTAssertGreaterThan(child, 0)
        kill(child, SIGTERM)
        let s = t.waitFor("exit on SIGTERM") { $0.contains("EXITED") }
        XCTAssertTrue(s.contains("EXITED 143"), s)
        XCTAssertFalse(s.contains("╭"), s)
    }

    /// Issue 24.2: the home screen ignored SIGHUP and SIGTERM while its loop was busy. A quit
    /// signal ends it within a second with the terminal restored, even when the loop never
    /// comes back (the test build hangs it after the first frame).
    func testNoConfigurationCanExhaustTheMachineSigtermEndsAStuckLoop() throws {
        for (signal, status) in [(SIGTERM, "EXITED 143"), (SIGHUP, "EXITED 129")] {
            let t = try TmuxSession(width: 80, height: 24, env: ["SWIFTDASH_TEST_HANG": "after-first-frame"])
            defer { t.close() }
            t.waitFor("the first frame") { $0.contains("? help") }
            let child = t.childPID()
            XCTAssertGreaterThan(child, 0)
            // The loop never comes back: only the signal's own deadline can end the program.
            kill(child, signal)
            let s = t.waitFor("exit on signal \(signal)") { $0.contains("EXITED") }
            XCTAssertTrue(s.contains(status), s)
            XCTAssertFalse(s.contains("╭") || s.contains("┏"), "the alternate screen was left:\n\(s)")
        }
    }

    /// Issue 24.8 / 37.7: `q` and Ctrl-C behind 10,000 keys quit, and keys sent after them are
    /// not typed into the shell (issue 38.7). Asserts what happened, never how long it took: the
    /// timeouts only end a hung test.
    func testKeysNeverPileUpAfterATenThousandKeyFlood() throws {
        for (quit, status) in [("q", "EXITED 0"), ("C-c", "EXITED 130")] {
            let t = try TmuxSession(width: 100, height: 30)
            defer { t.close() }
            t.waitFor("the first frame") { $0.contains("? help") }
            t.keys("-l", String(repeating: "hjkl", count: 2_500))
            t.keys(quit)
            // More keys after the quit: a person still holding a key.
            t.keys("-l", String(repeating: "jjjj", count: 250))
            let s = t.waitFor("exit after the flood and \(quit)", timeout: 120) { $0.contains("EXITED") }
            XCTAssertTrue(s.contains(status), s)
            let child = t.childPID()
            let comm = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
            XCTAssertFalse(comm.hasPrefix("swiftdash"), "the process is gone")
            // The shell's terminal echoes what reaches it: a marker typed now comes after any
            // stray key (tmux sends in order), so once it shows, nothing else may show with it.
            t.keys("-l", "MARK")
            let after = t.waitFor("the marker to echo", timeout: 60) { $0.contains("MARK") }
            let lines = after.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let exited = lines.firstIndex { $0.contains("EXITED") } ?? 0
            XCTAssertEqual(lines[exited], status, "nothing typed before the shell's line:\n\(after)")
            XCTAssertEqual(
                lines[(exited + 1)...].filter { !$0.isEmpty }, ["MARK"], "no key of the flood reached the shell:\n\(after)")
        }
    }

    /// The pane's terminal modes as tmux tracks them.
    func modes(_ t: TmuxSession) -> [String: String] {
        let names = ["alternate_on", "cursor_flag", "mouse_any_flag", "mouse_standard_flag", "keypad_cursor_flag"]
        let format = names.map { "#{\($0)}" }.joined(separator: " ")
        let out = TmuxSession.tmux(t.socket, ["display-message", "-p", "-t", t.name, format])
        let values = out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").map(String.init)
        return Dictionary(uniqueKeysWithValues: zip(names, values))
    }

    /// Issue 9, item 6: Ctrl-\ (SIGQUIT) left the alternate screen, a hidden cursor, and
    /// mouse and keypad modes on. It now quits like SIGTERM, restoring all of them.
    func testCtrlBackslashSIGQUITLeavesTheTerminalBroken_fixed() throws {
        let t = try TmuxSession(width: 80, height: 24)
        defer { t.close() }
        t.waitFor("the first frame") { $0.contains("? help") }
        let running = modes(t)
        XCTAssertEqual(running["alternate_on"], "1", "\(running)")
        XCTAssertEqual(running["cursor_flag"], "0", "\(running)")
        XCTAssertEqual(running["mouse_standard_flag"], "1", "\(running)")
        XCTAssertEqual(running["keypad_cursor_flag"], "1", "\(running)")
        t.keys("C-\\")
        let s = t.waitFor("exit on Ctrl-\\") { $0.contains("EXITED") }
        XCTAssertTrue(s.contains("EXITED 131"), s)
        XCTAssertFalse(s.contains("╭") || s.contains("┏"), "the alternate screen was left:\n\(s)")
        XCTAssertEqual(
            modes(t),
            [
                "alternate_on": "0", "cursor_flag": "1", "mouse_any_flag": "0",
                "mouse_standard_flag": "0", "keypad_cursor_flag": "0",
            ])
    }

    func testACrashStillRestoresTheTerminal() throws {
        let t = try TmuxSession(width: 80, height: 24, env: ["SWIFTDASH_TEST_CRASH": "after-first-frame"])
        defer { t.close() }
        let s = t.waitFor("the crash") { $0.contains("EXITED") }
        XCTAssertTrue(s.contains("EXITED 132") || s.contains("EXITED 133") || s.contains("EXITED 134"), s)
        XCTAssertFalse(s.contains("╭") || s.contains("┏"), "the alternate screen was left:\n\(s)")
        let cursor = TmuxSession.tmux(t.socket, ["display-message", "-p", "-t", t.name, "#{cursor_flag}"])
        XCTAssertEqual(cursor.trimmingCharacters(in: .whitespacesAndNewlines), "1", "the cursor is visible again")
    }

    func testSecretsNeverReachTheCache() throws {
        let secret = "0123456789abcdef0123456789abcdef"
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftdash-secret-\(UUID().uuidString)")
        let config = home.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try
            "tiles:\n  - family: medium\n    widget: news\n    config: { source: newsapi, endpoint: http://127.0.0.1:9, apiKey: \(secret) }\n"
            .write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(
            width: 80, height: 24,
            env: TmuxSession.folders(in: home))
        defer {
            t.close()
            try? FileManager.default.removeItem(at: home)
        }
        // Nothing listens on port 9: the tile says so quietly (issue 23).
        t.waitFor("the failed load") { $0.contains("offline · ") }
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
        let files =
            FileManager.default.enumerator(atPath: home.appendingPathComponent("cache").path)?.allObjects as? [String]
            ?? []
        XCTAssertFalse(files.filter { $0.hasSuffix(".json") }.isEmpty, "the cache was written")
        for f in files {
            let text =
                (try? String(contentsOfFile: home.appendingPathComponent("cache/\(f)").path, encoding: .utf8)) ?? ""
            XCTAssertFalse(text.contains(secret), "\(f) holds the API key")
        }
        // Nor what swiftdash remembers, or its log.
        let state = home.appendingPathComponent("state")
        for f in FileManager.default.enumerator(atPath: state.path)?.allObjects as? [String] ?? [] {
            let text = (try? String(contentsOfFile: state.appendingPathComponent(f).path, encoding: .utf8)) ?? ""
            XCTAssertFalse(text.contains(secret), "state/\(f) holds the API key")
        }
    }

    func testNoColorStillShowsFocus() throws {
        let t = try TmuxSession(width: 80, height: 24, env: ["NO_COLOR": "1"])
        defer { t.close() }
        t.waitFor("the first frame") { $0.contains("? help") }
        let styled = TmuxSession.tmux(t.socket, ["capture-pane", "-t", t.name, "-p", "-e"])
        XCTAssertFalse(styled.contains("38;5;") || styled.contains("38;2;"), "no colours with NO_COLOR")
        XCTAssertTrue(styled.contains("\u{1B}[1m") || styled.contains("\u{1B}[7m"), "focus still shows (bold/reverse)")
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
    }

    func testReloadReachesTheRunningInstance() throws {
        let t = try TmuxSession(width: 80, height: 24)
        defer { t.close() }
        t.waitFor("the first frame") { $0.contains("? help") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TmuxSession.binary)
        p.arguments = ["reload", "clock"]
        // The same configuration reaches the same instance (one socket per configuration).
        p.environment = t.environment
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertTrue(
            String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("reload clock"))
        t.waitFor("the status note") { $0.contains("reloading clock") }
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
    }
}
