import XCTest
import Foundation
import DashTestSupport

/// `swiftdash activity …` and `swiftdash run` from a script, with no home screen running (issue 39.3).
final class ActivityCLITests: XCTestCase {
    var home: URL!

    override func setUp() {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-act-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: home) }

    func sd(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try runSwiftdash(args, env: ["HOME": home.path])
    }

    func list(_ args: [String] = []) throws -> [[String: Any]] {
        let r = try sd(["activity", "list", "--json"] + args)
        XCTAssertEqual(r.status, 0, r.err)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]])
    }

    func testStartUpdateEndListFromAScript() throws {
        let start = try sd([
            "activity", "start", "generic", "--attributes", #"{"title":"Deploy"}"#,
            "--state", #"{"status":"uploading","progress":0.25}"#, "--relevance", "5", "--stale-date", "+10m",
        ])
        XCTAssertEqual(start.status, 0, start.err)
        let id = start.out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(id.count, 8)
        var shown = try list()
        XCTAssertEqual(shown.first?["compact"] as? String, "● Deploy 25%")
        XCTAssertEqual(shown.first?["phase"] as? String, "active")
        let update = try sd(["activity", "update", id, "--state", #"{"status":"migrating","progress":"3 of 5"}"#, "--alert", "half way"])
        XCTAssertEqual(update.status, 0, update.err)
        shown = try list()
        XCTAssertEqual(shown.first?["compact"] as? String, "● Deploy 3/5")
        XCTAssertEqual(shown.first?["relevanceScore"] as? Double, 5, "an update keeps the score")
        let line = try sd(["snapshot", "--line", "{kind}"])
        XCTAssertTrue(line.out.hasPrefix("● Deploy 3/5"), line.out)
        let end = try sd(["activity", "end", id, "--state", #"{"outcome":"failure"}"#])
        XCTAssertEqual(end.status, 0, end.err)
        let ended = try list(["--ended"])
        XCTAssertEqual(ended.first?["outcome"] as? String, "failure")
        let again = try sd(["activity", "end", id])
        XCTAssertEqual(again.status, 2)
        XCTAssertEqual(again.err, "swiftdash: error: activity '\(id)' has ended\n")
        let json = try sd(["snapshot", "--json"])
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        XCTAssertEqual((doc["activities"] as? [[String: Any]])?.first?["id"] as? String, id)
    }

    func testBadInputIsAUsageErrorAndTheSixthActiveIsRefused() throws {
        let bad = try sd(["activity", "start", "generic", "--state", "[1]"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.err, "swiftdash: error: --state must be a JSON object ({…})\n")
        let timer = try sd(["activity", "start", "timer"])
        XCTAssertEqual(timer.status, 2)
        XCTAssertTrue(timer.err.contains("a timer needs the date"), timer.err)
        for _ in 1...5 { XCTAssertEqual(try sd(["activity", "start", "timer", "--state", #"{"end":"+5m"}"#]).status, 0) }
        let sixth = try sd(["activity", "start", "generic"])
        XCTAssertEqual(sixth.status, 2)
        XCTAssertTrue(sixth.err.contains("5 activities are active"), sixth.err)
        // `run` still runs the command, without an activity.
        let run = try sd(["run", "--", "sh", "-c", "echo ran; exit 4"])
        XCTAssertEqual(run.status, 4)
        XCTAssertEqual(run.out, "ran\n")
        XCTAssertTrue(run.err.contains("warning: no activity for this run"), run.err)
    }

    func testRunPassesOutputAndStatusThroughAndEndsWithTheOutcome() throws {
        let r = try sd([
            "run", "--title", "pct", "--", "sh", "-c", "echo 10%; echo '[12/80] b' ; printf 'half 50%%\\n'; echo oops >&2; exit 3",
        ])
        XCTAssertEqual(r.status, 3)
        XCTAssertEqual(r.out, "10%\n[12/80] b\nhalf 50%\n", "standard output byte for byte")
        XCTAssertEqual(r.err, "oops\n", "standard error kept apart")
        let a = try XCTUnwrap(try list(["--ended"]).first)
        XCTAssertEqual(a["title"] as? String, "pct")
        XCTAssertEqual(a["outcome"] as? String, "failure")
        XCTAssertEqual(a["exitStatus"] as? Int, 3)
        XCTAssertEqual(a["progress"] as? Double, 0.5)
        XCTAssertEqual(a["line"] as? String, "oops")
    }

    func testARunWhoseReaderGoesEndsItsActivityAsTheCommandEnds() throws {
        // run in a pipe whose reader leaves after a line: the command dies of SIGPIPE, as it would
        // bare, and the activity says so (run must not die first, leaving it active).
        guard let exe = builtProduct("swiftdash") else { throw CocoaError(.fileNoSuchFile) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "'\(exe.path)' run -- seq 100000000 | head -1"]
        p.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let r = try runToEnd(p)
        XCTAssertEqual(r.out, "1\n")
        let ended = try XCTUnwrap(try list(["--ended"]).first)
        XCTAssertEqual(ended["signal"] as? Int, 13, "SIGPIPE, as the bare command")
        XCTAssertTrue(try list().allSatisfy { $0["phase"] as? String != "active" }, "nothing left active")
    }

    func testRunDiesOfTheSignalThatKilledTheCommand() throws {
        let r = try sd(["run", "--", "sh", "-c", "kill -TERM $$"])
        XCTAssertEqual(r.status, 15, "Process reports a death by signal N as N")
        XCTAssertEqual(try list(["--ended"]).first?["signal"] as? Int, 15)
        let missing = try sd(["run", "--", "no-such-command-here"])
        XCTAssertEqual(missing.status, 127)
        XCTAssertEqual(missing.err, "swiftdash: no-such-command-here: command not found\n")
    }

    /// A process whose parent (this test) has not collected it yet: its status is read from /proc.
    func testWatchReadsTheStatusOfAProcessItsParentHasNotCollected() throws {
        var pid: pid_t = 0
        let words: [String] = ["/bin/sh", "-c", "read x; exit 5"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        // Only the test keeps the write end: the shell reads EOF when the test closes it.
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        XCTAssertEqual(posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ), 0)
        posix_spawn_file_actions_destroy(&actions)
        close(fds[0])
        guard let exe = builtProduct("swiftdash") else { throw CocoaError(.fileNoSuchFile) }
        let watch = Process()
        watch.executableURL = exe
        watch.arguments = ["activity", "watch", "\(pid)", "--title", "five"]
        watch.environment = ["HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        watch.standardOutput = Pipe()
        try watch.run()
        Eventually.wait { (try? self.list())?.first?["title"] as? String == "five" }
        close(fds[1])  // the shell reads EOF and exits 5; nobody collects it until watch is done
        watch.waitUntilExit()
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let ended = try XCTUnwrap(try list(["--ended"]).first)
        XCTAssertEqual(ended["outcome"] as? String, "failure")
        XCTAssertEqual(ended["exitStatus"] as? Int, 5)
    }

    func testWatchEndsWhenTheProcessExits() throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sh")
        sleeper.arguments = ["-c", "read x; exit 0"]
        let input = Pipe()
        sleeper.standardInput = input
        try sleeper.run()
        guard let exe = builtProduct("swiftdash") else { throw CocoaError(.fileNoSuchFile) }
        let watch = Process()
        watch.executableURL = exe
        watch.arguments = ["activity", "watch", "\(sleeper.processIdentifier)", "--title", "sleeper"]
        watch.environment = ["HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let out = Pipe()
        watch.standardOutput = out
        try watch.run()
        Eventually.wait { (try? self.list())?.first?["title"] as? String == "sleeper" }
        XCTAssertEqual(try list().first?["phase"] as? String, "active")
        try input.fileHandleForWriting.close()
        sleeper.waitUntilExit()
        watch.waitUntilExit()
        XCTAssertEqual(watch.terminationStatus, 0)
        let ended = try XCTUnwrap(try list(["--ended"]).first)
        XCTAssertEqual(ended["title"] as? String, "sleeper")
        // Our own child here: collected by Process, so its status is gone from /proc; either way
        // the activity says what the system told.
        XCTAssertTrue(["success", "unknown"].contains(ended["outcome"] as? String ?? ""), "\(ended)")
    }

    /// `run` killed by SIGKILL cannot end its activity: the next reader does, as lost.
    func testARunKilledBySIGKILLIsEndedAsLostByTheNextReader() throws {
        guard let exe = builtProduct("swiftdash") else { throw CocoaError(.fileNoSuchFile) }
        let run = Process()
        run.executableURL = exe
        run.arguments = ["run", "--title", "doomed", "--", "sh", "-c", "echo started; read x"]
        run.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let input = Pipe()
        run.standardInput = input
        run.standardOutput = Pipe()
        try run.run()
        Eventually.wait { (try? self.list())?.first?["line"] as? String == "started" }
        XCTAssertEqual(try list().first?["phase"] as? String, "active")
        kill(run.processIdentifier, SIGKILL)
        run.waitUntilExit()
        try input.fileHandleForWriting.close()  // the command reads EOF and ends
        let shown = try XCTUnwrap(try list().first)
        XCTAssertEqual(shown["title"] as? String, "doomed")
        XCTAssertEqual(shown["phase"] as? String, "ended")
        XCTAssertEqual(shown["outcome"] as? String, "lost")
    }
}
