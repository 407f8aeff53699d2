import XCTest
import Foundation
import DashTestSupport

/// The README's tmux configuration (issue 23, point 7): a status line built with
/// `snapshot --line` and a long `status-interval` follows the home screen because swiftdash, running
/// inside that tmux, asks it to redraw (`refresh-client -S`) when a value changes. The status
/// script reports each run to a file; the test waits for the run that shows the pushed value.
final class TmuxStatusRefreshTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    func testAPushedValueReachesTheStatusLineLongBeforeItsInterval() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-status-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "tiles:\n  - {family: medium, widget: note}\n  - {family: small, widget: clock}\n".write(
            to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(width: 100, height: 24, env: TmuxSession.folders(in: dir))
        defer { t.close() }
        t.waitFor("the first frame") { $0.contains("Nothing pushed yet") }

        var env = t.environment
        env["PATH"] = URL(fileURLWithPath: TmuxSession.binary).deletingLastPathComponent().path + ":/usr/bin:/bin"
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let runs = dir.appendingPathComponent("status-runs")
        _ = FileManager.default.createFile(atPath: runs.path, contents: nil)
        let script = dir.appendingPathComponent("status.sh")
        let vars = env.map { "\($0.key)=\($0.value)" }.sorted().map(quote).joined(separator: " ")
        try """
        out=$(env -i \(vars) \(quote(TmuxSession.binary)) snapshot --line '{kind}: {summary}' --tmux --kind note)
        printf '%s\\n' "$out" >> \(quote(runs.path))
        printf '%s' "$out"

        """.write(to: script, atomically: true, encoding: .utf8)
        // The README's configuration: a long interval; the status line is swiftdash's snapshot.
        for (option, value) in [
            ("status-interval", "600"), ("status-right-length", "100"),
            ("status-right", "#(/bin/sh \(script.path))"),
        ] {
            TmuxSession.tmux(t.socket, ["set-option", "-g", option, value])
        }
        TmuxSession.tmux(t.socket, ["set-option", "-t", t.name, "status", "on"])  // TmuxSession turned it off
        // A client to draw that status line: another tmux's pane attached to the session.
        let outer = "swiftdash-e2e-outer-\(UUID().uuidString.prefix(8))"
        defer { TmuxSession.tmux(outer, ["kill-server"]) }
        TmuxSession.tmux(
            outer,
            [
                "-f", "/dev/null", "new-session", "-d", "-s", "out", "-x", "100", "-y", "26",
                "env -u TMUX tmux -L \(t.socket) attach -t \(t.name)",
            ], capture: false)
        func runLines() -> [String] {
            ((try? String(contentsOf: runs, encoding: .utf8)) ?? "").split(
                separator: "\n", omittingEmptySubsequences: false
            ).dropLast().map(String.init)
        }
        /// Waits for the status script to report a run whose line satisfies `condition`.
        func waitForRun(_ what: String, _ condition: (String) -> Bool) -> Bool {
            if Eventually.wait(timeout: 90, { runLines().contains(where: condition) }) { return true }
            let screen = TmuxSession.tmux(outer, ["capture-pane", "-p", "-t", "out"])
            XCTFail("no status run showed \(what); runs:\n\(runLines().joined(separator: "\n"))\nscreen:\n\(screen)")
            return false
        }
        XCTAssertTrue(waitForRun("the attached client's first line") { $0.hasPrefix("note:") || $0.isEmpty })

        let push = try runProgram(
            TmuxSession.binary, ["push", "note", "--json", "-"], env: env,
            input: #"{"entries": [{"title": "Deploy 43 done"}], "policy": "never"}"#)
        XCTAssertEqual(push.status, 0, push.err)
        t.waitFor("the pushed note") { $0.contains("Deploy 43 done") }
        // Ten minutes before tmux would look again by itself: only swiftdash's request reruns it.
        XCTAssertTrue(waitForRun("the pushed value") { $0.contains("note: Deploy 43 done") })
    }
}
