import XCTest
import Foundation
import DashTestSupport

/// Live Activities end to end (issue 39.5): the real binary in tmux, a script starting, updating and
/// ending an activity with the home screen quit and started again in between; `swiftdash run` around
/// a command that prints percentages and exits 3, on a real terminal, seen by a running home screen.
final class ActivitiesTmuxTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    /// A shell in tmux whose environment reaches `dir`'s folders, with swiftdash on its PATH.
    func shell(_ dir: URL, width: Int = 80, height: Int = 24) throws -> TmuxSession {
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "tiles:\n  - {family: small, widget: clock}\n".write(
            to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        var env = TmuxSession.folders(in: dir)
        env["PATH"] = "\(URL(fileURLWithPath: TmuxSession.binary).deletingLastPathComponent().path):/usr/bin:/bin"
        env["PS1"] = "ready$ "
        let t = try TmuxSession(width: width, height: height, env: env, program: ["bash", "--norc", "--noprofile"])
        t.waitFor("the shell") { $0.contains("ready$") }
        return t
    }

    func swiftdash(_ t: TmuxSession, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
        var env = t.environment
        env["PATH"] = "\(URL(fileURLWithPath: TmuxSession.binary).deletingLastPathComponent().path):/usr/bin:/bin"
        return try runProgram(TmuxSession.binary, args, env: env, input: "")
    }

    func testAScriptStartsUpdatesAndEndsAnActivityWhileTheHomeScreenRestarts() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-act-\(UUID().uuidString)")
        let t = try shell(dir)
        defer {
            t.close()
            try? FileManager.default.removeItem(at: dir)
        }
        // Started while no home screen runs.
        let start = try swiftdash(t, [
            "activity", "start", "generic", "--attributes", #"{"title":"Deploy","url":"https://example.com/deploys/7"}"#,
            "--state", #"{"status":"uploading","progress":0.2}"#,
        ])
        XCTAssertEqual(start.status, 0, start.err)
        let id = start.out.trimmingCharacters(in: .whitespacesAndNewlines)
        t.keys("swiftdash", "Enter")
        t.waitFor("the strip with the activity") { $0.contains("● Deploy") && $0.contains("20%") }
        // An update with an alert reaches the running home screen at once, expanded.
        XCTAssertEqual(try swiftdash(t, [
            "activity", "update", id, "--state", #"{"status":"migrating","progress":0.6}"#, "--alert", "Halfway",
        ]).status, 0)
        t.waitFor("the alert") { $0.contains("🔔 Halfway") && $0.contains("60%") }
        // Quit; an update while none runs; start again: the activity is still there, updated.
        t.keys("q")
        t.waitFor("the shell again") { $0.contains("ready$") && !$0.contains("● Deploy") }
        XCTAssertEqual(try swiftdash(t, ["activity", "update", id, "--state", #"{"progress":"4 of 5"}"#]).status, 0)
        t.keys("swiftdash", "Enter")
        t.waitFor("the activity after the restart") { $0.contains("● Deploy") && $0.contains("4/5") }
        // ↑ from the top row focuses the strip; Enter opens the activity's detail pane with its link.
        t.keys("k", "Enter")
        t.waitFor("the activity pane") {
            $0.contains("Activity · Deploy") && $0.contains("4 of 5") && $0.contains("link: https://example.com/deploys/7")
        }
        t.keys("Escape", "j")
        t.waitFor("the pane closed") { !$0.contains("Activity · Deploy") && $0.contains("● Deploy") }
        XCTAssertEqual(try swiftdash(t, ["activity", "end", id, "--state", #"{"outcome":"success"}"#]).status, 0)
        t.waitFor("how it ended") { $0.contains("✓ Deploy") }
        let line = try swiftdash(t, ["snapshot", "--line", "{kind}", "--tmux", "--max", "60"])
        XCTAssertTrue(line.out.hasPrefix("✓ Deploy"), line.out)
        t.keys("q")
    }

    func testRunAroundACommandThatPrintsPercentagesAndExits3() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-run-\(UUID().uuidString)")
        let t = try shell(dir, height: 12)
        let home = try shell(dir)
        defer {
            t.close()
            home.close()
            try? FileManager.default.removeItem(at: dir)
        }
        home.keys("swiftdash", "Enter")
        home.waitFor("the home screen") { $0.contains("Clock") }
        // The command waits for a line typed on its terminal: what is typed reaches it through run.
        t.keys(
            "swiftdash run --title pct -- sh -c 'echo 10%; echo \"[40/100] half\"; read x; echo \"got $x\"; stty size; echo 70%; exit 3'; echo \"status=$?\"",
            "Enter")
        t.waitFor("the command's output") { $0.contains("[40/100] half") }
        home.waitFor("the running command in the strip") { $0.contains("▶ pct") && $0.contains("40/100") }
        // The window's new size reaches the command's own terminal.
        t.resize(70, 14)
        t.keys("go", "Enter")
        let out = t.waitFor("run's exit status") { $0.contains("status=3") }
        XCTAssertTrue(out.contains("got go"), out)
        XCTAssertTrue(out.contains("14 70"), out)
        home.waitFor("how it ended, alerting") { $0.contains("✗ pct") && $0.contains("🔔 pct failed, exit 3") }
        let list = try swiftdash(t, ["activity", "list", "--ended", "--json"])
        let ended = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual(ended["exitStatus"] as? Int, 3)
        XCTAssertEqual(ended["progress"] as? Double, 0.7)
        XCTAssertEqual(ended["line"] as? String, "70%")
        home.keys("q")
    }

    /// A `swiftdash run` killed by SIGKILL says nothing more; the running home screen follows its
    /// pid and shows the activity ended, lost, at once (not after the 8-hour limit).
    func testTheHomeScreenEndsTheActivityOfARunKilledBySIGKILL() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-kill-\(UUID().uuidString)")
        let home = try shell(dir)
        defer {
            home.close()
            try? FileManager.default.removeItem(at: dir)
        }
        home.keys("swiftdash", "Enter")
        home.waitFor("the home screen") { $0.contains("Clock") }
        let run = Process()
        run.executableURL = URL(fileURLWithPath: TmuxSession.binary)
        run.arguments = ["run", "--title", "doomed", "--", "sh", "-c", "echo started; read x"]
        run.environment = home.environment
        let input = Pipe()
        run.standardInput = input
        run.standardOutput = Pipe()
        try run.run()
        home.waitFor("the run in the strip") { $0.contains("▶ doomed") }
        kill(run.processIdentifier, SIGKILL)
        run.waitUntilExit()
        try input.fileHandleForWriting.close()
        home.waitFor("the activity ended, lost") { $0.contains("? doomed") }
        home.keys("q")
    }
}
