import XCTest
import Foundation
import DashTestSupport

/// `swiftdash push` and `swiftdash snapshot` against the real binary running in tmux: what is pushed
/// shows on screen and in the running instance's snapshot; bad pushes exit 2 with one line; the git
/// hook from the docs pushes a commit; a `--tmux` line drawn in a real tmux status bar shows text as
/// it is.
final class PushSnapshotTmuxTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    /// A home screen with a note beside a clock, in a folder of its own.
    func start() throws -> (TmuxSession, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-push-\(UUID().uuidString)")
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try """
        tiles:
          - {family: medium, widget: note}
          - {family: small, widget: clock}
        """.write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(
            width: 80, height: 24,
            env: TmuxSession.folders(in: dir))
        t.waitFor("the first frame") { $0.contains("Nothing pushed yet") }
        return (t, dir)
    }

    /// The environment a command needs to reach the instance `t` runs (and find swiftdash on $PATH).
    func environment(_ t: TmuxSession) -> [String: String] {
        var env = t.environment
        let bin = URL(fileURLWithPath: TmuxSession.binary).deletingLastPathComponent().path
        env["PATH"] = "\(bin):/usr/local/bin:/usr/bin:/bin"
        return env
    }

    func swiftdash(_ t: TmuxSession, _ args: [String], input: String = "") throws -> (
        status: Int32, out: String, err: String
    ) {
        try runProgram(TmuxSession.binary, args, env: environment(t), input: input)
    }

    struct Doc: Decodable {
        struct Tile: Decodable {
            var tile: String
            var kind: String
            var summary: String
            var state: String
            var stale: Bool
        }
        var source: String
        var tiles: [Tile]
    }

    func snapshot(_ t: TmuxSession) throws -> Doc {
        let r = try swiftdash(t, ["snapshot", "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.out.split(separator: "\n").count, 1, "one line of JSON")
        return try JSONDecoder().decode(Doc.self, from: Data(r.out.utf8))
    }

    func testAPushShowsOnScreenAndInTheRunningSnapshotAndBadPushesExit2() throws {
        let (t, dir) = try start()
        defer {
            t.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let push = try swiftdash(
            t, ["push", "note", "--json", "-"],
            input: #"{"entries": [{"title": "Deploy 42 done", "text": "green on main"}], "policy": "never"}"#)
        XCTAssertEqual(push.status, 0, push.err)
        XCTAssertEqual(push.out, "pushed to note\n")
        t.waitFor("the pushed note") { $0.contains("Deploy 42 done") && $0.contains("green on main") }

        // The running instance answers with what it shows now, the pushed entry included.
        let doc = try snapshot(t)
        XCTAssertEqual(doc.source, "running")
        XCTAssertEqual(doc.tiles.map(\.tile), ["t1", "t2"])
        XCTAssertEqual(doc.tiles[0].summary, "Deploy 42 done")
        XCTAssertEqual(doc.tiles[0].state, "ok")
        let line = try swiftdash(t, ["snapshot", "--line", "{kind}: {summary}"])
        XCTAssertTrue(line.out.hasPrefix("note: Deploy 42 done | clock: "), line.out)

        // By id, from a file.
        let file = dir.appendingPathComponent("t.json")
        try #"{"entries": [{"title": "From a file"}]}"#.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try swiftdash(t, ["push", "w1", "--json", file.path]).status, 0)
        t.waitFor("the second push") { $0.contains("From a file") }

        // Bad pushes: exit status 2, one clear line, and the screen keeps what it showed.
        let bad: [([String], String, String)] = [
            (["push", "note"], "{not json", "swiftdash: error: standard input: "),
            (
                ["push", "clock"], #"{"entries": []}"#,
                "swiftdash: error: 'clock' takes no pushes; widgets that do: note"
            ),
            (
                ["push", "note"], #"{"entries": [{"view": {"link": "file:///etc/passwd"}}]}"#,
                "swiftdash: error: entries[0].view: view.link: not a swiftdash://"
            ),
            (["push", "note", "--json", "/nonexistent.json"], "", "swiftdash: error: cannot read /nonexistent.json"),
        ]
        for (args, input, message) in bad {
            let r = try swiftdash(t, args, input: input)
            XCTAssertEqual(r.status, 2, "\(args) \(input): \(r.err)")
            XCTAssertTrue(r.err.hasPrefix(message), "\(args) \(input): \(r.err)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, "one line: \(r.err)")
            XCTAssertEqual(r.out, "")
        }
        XCTAssertTrue(t.screen().contains("From a file"))

        // After quitting, a snapshot comes from the cache and says so.
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
        XCTAssertEqual(try snapshot(t).source, "cache")
        let gone = try swiftdash(t, ["push", "note"], input: #"{"entries": [{"title": "late"}]}"#)
        XCTAssertEqual(gone.status, 1, "no running swiftdash is not a usage error")
        XCTAssertTrue(gone.err.contains("no running swiftdash found"), gone.err)
    }

    /// The docs' git hook is `examples/hooks/post-commit`, word for word.
    func testTheDocsShowTheTestedHook() throws {
        let hook = try String(
            contentsOf: Self.repo.appendingPathComponent("examples/hooks/post-commit"), encoding: .utf8)
        let docs = try String(contentsOf: Self.repo.appendingPathComponent("docs/extensions.md"), encoding: .utf8)
        XCTAssertTrue(docs.contains("```sh\n" + hook + "```"), "docs/extensions.md shows another hook")
    }

    func testTheGitPostCommitHookPushesTheCommitToTheRunningNote() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is not installed")
        let (t, dir) = try start()
        defer {
            t.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let repo = dir.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
        var env = environment(t)
        for k in ["GIT_AUTHOR", "GIT_COMMITTER"] {
            env["\(k)_NAME"] = "Test"
            env["\(k)_EMAIL"] = "test@example.org"
        }
        XCTAssertEqual(try runProgram("/usr/bin/git", ["init", "-q"], env: env, in: repo).status, 0)
        let hooks = repo.appendingPathComponent(".git/hooks")
        try FileManager.default.createDirectory(at: hooks, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.repo.appendingPathComponent("examples/hooks/post-commit"),
            to: hooks.appendingPathComponent("post-commit"))
        // Quotes and a backslash in the subject: the hook drops them so its JSON stays valid.
        let commit = try runProgram(
            "/usr/bin/git", ["commit", "-q", "--allow-empty", "-m", #"Say "hello" to C:\temp"#], env: env, in: repo)
        XCTAssertEqual(commit.status, 0, commit.err)
        XCTAssertTrue((commit.out + commit.err).contains("pushed to note"), commit.out + commit.err)
        let hash = try runProgram("/usr/bin/git", ["log", "-1", "--format=%h"], env: env, in: repo).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        t.waitFor("the commit in the note") { $0.contains("Say hello to C:temp") && $0.contains("commit \(hash)") }
        XCTAssertEqual(try snapshot(t).tiles[0].summary, "Say hello to C:temp")
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
        // With no swiftdash running the commit still succeeds.
        let later = try runProgram(
            "/usr/bin/git", ["commit", "-q", "--allow-empty", "-m", "offline"], env: env, in: repo)
        XCTAssertEqual(later.status, 0, later.err)
        XCTAssertTrue(later.err.contains("no running swiftdash found"), later.err)
    }

    /// `snapshot --line … --tmux` drawn by a real tmux in its status bar: a second tmux server's
    /// client runs in a pane of the first, whose capture shows the inner status line as drawn.
    func testATmuxStatusLineShowsHostileTextAsItIs() throws {
        let (t, dir) = try start()
        defer {
            t.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let marker = dir.appendingPathComponent("PWNED").path
        let title = "#[fg=red]red #(touch \(marker)) #S #{session_name} ## 50% C# \u{1B}[31mend#"
        let json = try JSONSerialization.data(withJSONObject: ["entries": [["title": title]]])
        XCTAssertEqual(try swiftdash(t, ["push", "note"], input: String(decoding: json, as: UTF8.self)).status, 0)
        t.waitFor("the push") { $0.contains("50% C#") }
        let shown = "#[fg=red]red #(touch \(marker)) #S #{session_name} ## 50% C# end#"

        // The script tmux runs for its status line: swiftdash with the running instance's environment.
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = dir.appendingPathComponent("status.sh")
        let env = environment(t).map { "\($0.key)=\($0.value)" }.sorted().map(quote).joined(separator: " ")
        try "exec env -i \(env) \(quote(TmuxSession.binary)) snapshot --line '{kind}: {summary}' --tmux\n"
            .write(to: script, atomically: true, encoding: .utf8)

        let inner = "swiftdash-e2e-status-\(UUID().uuidString.prefix(8))"
        let outer = "swiftdash-e2e-outer-\(UUID().uuidString.prefix(8))"
        defer {
            TmuxSession.tmux(outer, ["kill-server"])
            TmuxSession.tmux(inner, ["kill-server"])
        }
        TmuxSession.tmux(
            inner, ["-f", "/dev/null", "new-session", "-d", "-s", "SDSESSION", "-x", "150", "-y", "5", "sleep 120"],
            capture: false)
        for (option, value) in [
            ("status", "on"), ("status-left", ""), ("window-status-format", ""), ("window-status-current-format", ""),
            ("status-right-length", "200"), ("status-interval", "1"), ("status-right", "#(/bin/sh \(script.path))"),
        ] {
            TmuxSession.tmux(inner, ["set-option", "-g", option, value])
        }
        TmuxSession.tmux(
            outer,
            [
                "-f", "/dev/null", "new-session", "-d", "-s", "out", "-x", "150", "-y", "5",
                "env -u TMUX tmux -L \(inner) attach -t SDSESSION",
            ], capture: false)
        var status = ""
        Eventually.wait {
            let screen = TmuxSession.tmux(outer, ["capture-pane", "-p", "-t", "out"])
            status = screen.split(separator: "\n").last.map(String.init) ?? ""
            return status.contains("clock:")
        }
        XCTAssertTrue(status.contains("note: \(shown) | clock: "), "the status line:\n\(status)")
        XCTAssertFalse(status.contains("SDSESSION"), "#S and #{session_name} are text, not the session's name")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "#(…) ran a command")
        let styled =
            TmuxSession.tmux(outer, ["capture-pane", "-p", "-e", "-t", "out"]).split(separator: "\n").last ?? ""
        XCTAssertFalse(styled.contains("\u{1B}[31m") || styled.contains("\u{1B}[91m"), "red from the text: \(styled)")
    }
}
