import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// `swiftdash snapshot` as the running home screen answers it: what the scheduler shows now (pushed
/// entries, stale and failed tiles with their reasons), within the control socket's caps.
final class HomeSnapshotTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_426_230)

    func harness(_ tiles: [TileInstance], script: FakeScript = FakeScript()) -> AppHarness {
        AppHarness(
            widgets: [NoteWidget.widget, fakeWidget(script: script)], home: HomeConfig(tiles: tiles),
            size: Size(width: 80, height: 24), now: now)
    }

    func tile(_ n: Int, _ kind: String, _ family: WidgetFamily = .small) -> TileInstance {
        TileInstance(id: "t\(n)", family: family, items: [WidgetInstance(id: "w\(n)", kind: kind)])
    }

    func push(_ h: AppHarness, _ target: String, _ json: String) throws {
        let line = try ControlProtocol.pushLine(target: target, timeline: JSONValue.parse(Data(json.utf8)))
        let (answer, msg) = ControlProtocol.handlePush(line, home: h.state.home, bundle: h.state.bundle)
        XCTAssertTrue(answer.hasPrefix("ok"), answer)
        h.send(try XCTUnwrap(msg))
    }

    /// What the loop answers a `snapshot` request with (the harness runs `Effect.reply` like the runtime).
    func ask(_ h: AppHarness) throws -> String {
        let reply = ControlReply()
        let fx = h.send(.snapshotRequested(reply))
        XCTAssertEqual(fx.count, 1, "one effect: the reply; nothing else changes")
        return try XCTUnwrap(reply.current)
    }

    func testTheRunningAnswerHasPushedEntriesAndStaleAndFailedTilesWithTheirReasons() throws {
        let h = harness([tile(1, "note", .medium), tile(2, "fake"), tile(3, "fake")])
        h.finish("w2", entries: [FakeEntry(date: now, value: "v1")])
        h.fail("w3", FakeError("HTTP 503 from example.org: down for maintenance"))
        // w2 reloads by hand and fails: its entry stays, stale, with the reason.
        h.send(.widgetCenter(.reloadTimelines(kind: "fake")))
        h.fail("w2", FakeError("connection refused"))
        h.advance(by: 5)
        try push(h, "note", #"{"entries": [{"date": 1795426200, "title": "Build 41", "text": "passed"}]}"#)

        let answer = try ask(h)
        XCTAssertFalse(answer.contains("\n"), "one line")
        let doc = try HomeSnapshot.parseAnswer(answer).get()
        XCTAssertEqual(doc.source, "running")
        XCTAssertEqual(doc.now, now.timeIntervalSince1970 + 5)
        XCTAssertEqual(doc.tiles.map(\.tile), ["t1", "t2", "t3"])
        let note = doc.tiles[0]
        XCTAssertEqual(note.kind, "note")
        XCTAssertTrue(note.summary.contains("Build 41"), note.summary)
        XCTAssertEqual(note.state, "ok")
        XCTAssertEqual(note.date, 1_795_426_200)
        XCTAssertEqual(doc.tiles[1].summary, "v1")
        XCTAssertTrue(doc.tiles[1].stale)
        XCTAssertEqual(doc.tiles[1].state, "stale")
        XCTAssertEqual(doc.tiles[1].error, "connection refused")
        XCTAssertEqual(doc.tiles[2].summary, "")
        XCTAssertFalse(doc.tiles[2].stale, "no entry to be stale")
        XCTAssertEqual(doc.tiles[2].state, "failed")
        XCTAssertEqual(doc.tiles[2].error, "HTTP 503 from example.org: down for maintenance")
        // The answer is what `HomeSnapshot.tiles` says of the same state: one computation, pure.
        XCTAssertEqual(doc.tiles, HomeSnapshot.tiles(h.state))
        h.skipPendingWork()
    }

    func testAStackAnswersWithItsShownItemAndATileWaitingForItsFirstLoadSaysSo() throws {
        let stack = TileInstance(
            id: "s", family: .small,
            items: [WidgetInstance(id: "a", kind: "fake"), WidgetInstance(id: "b", kind: "note")])
        let h = harness([stack])
        let doc = try HomeSnapshot.parseAnswer(try ask(h)).get()
        XCTAssertEqual(doc.tiles.count, 1)
        XCTAssertEqual(doc.tiles[0].instance, "a")
        XCTAssertEqual(doc.tiles[0].state, "waiting")
        XCTAssertNil(doc.tiles[0].error)
        h.skipPendingWork()
    }

    func testHostileTextIsCleanedAndCappedInTheAnswer() throws {
        let h = harness([tile(1, "note", .medium)])
        let long = String(repeating: "word ", count: 2_000)
        let hostile = #"evil \u001b]52;c;aGk=\u0007\u009b2J\u202eright\nnext line #[fg=red]"# + long
        try push(h, "note", #"{"entries": [{"title": "\#(hostile)", "text": "x"}]}"#)
        let answer = try ask(h)
        XCTAssertFalse(
            answer.unicodeScalars.contains {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
            }, answer)
        XCTAssertFalse(answer.contains("\\u001b") || answer.contains("\\n"), "no escaped controls either")
        let doc = try HomeSnapshot.parseAnswer(answer).get()
        XCTAssertTrue(doc.tiles[0].summary.hasPrefix("evil right next line #[fg=red]word word"), doc.tiles[0].summary)
        XCTAssertLessThanOrEqual(doc.tiles[0].summary.count, HomeSnapshot.maxTextCharacters)
        XCTAssertTrue(doc.tiles[0].summary.hasSuffix("…"))
        h.skipPendingWork()
    }

    /// A client cleans what it reads too: an answer from something else on the socket cannot print
    /// escapes through `swiftdash snapshot`.
    func testAnAnswerIsCleanedAgainWhenRead() throws {
        let forged =
            #"{"now": 1, "source": "running\u001b[2J", "tiles": [{"tile": "t\u009b1", "instance": "i", "#
            + #""kind": "k\u202e", "family": "small", "summary": "a\u001b]0;title\u0007b\nc", "stale": false, "#
            + #""state": "ok"}]}"#
        let doc = try HomeSnapshot.parseAnswer(forged).get()
        XCTAssertEqual(doc.source, "running")
        XCTAssertEqual(doc.tiles[0].tile, "t")
        XCTAssertEqual(doc.tiles[0].kind, "k")
        XCTAssertEqual(doc.tiles[0].summary, "ab c")
        XCTAssertEqual(
            try HomeSnapshot.parseAnswer("error: the snapshot of 9 tiles\u{1b}[2J is big").mapError { $0 }.errorText(),
            "error: the snapshot of 9 tiles is big")
        XCTAssertEqual(
            try HomeSnapshot.parseAnswer("{nope").mapError { $0 }.errorText(), "the answer is not a snapshot")
    }

    /// 500 tiles whose summaries are as long and as heavy as outside text may be still answer within
    /// the client's cap; past the cap the answer is a clear error, not a cut document.
    func testFiveHundredTilesAnswerAndOneTooLargeFailsClearly() throws {
        // A family emoji is 18 bytes of UTF-8 in one character: the heaviest summary there is.
        let heavy = String(repeating: "👨‍👩‍👧", count: 400)
        let h = harness((1...500).map { tile($0, "fake") })
        // Every tile's timeline, straight into the scheduler (500 loads through `update` take seconds).
        let timeline = AnyTimeline(entries: [AnyEntry(FakeEntry(date: now, value: heavy))], policy: .never)
        h.run { s in
            for n in 1...500 { s.scheduler.push("w\(n)", timeline: timeline, at: s.now) }
            return []
        }
        // The pass over every tile that follows a message sees the entries first (their baseline
        // for attention; pushed behind the app's back, they are not among the touched tiles).
        h.run { App.smartStacks(&$0) }
        let t0 = Date()
        let answer = try ask(h)
        let ms = Date().timeIntervalSince(t0) * 1000
        let doc = try HomeSnapshot.parseAnswer(answer).get()
        XCTAssertEqual(doc.tiles.count, 500)
        XCTAssertTrue(doc.tiles.allSatisfy { $0.state == "ok" && $0.summary.count == HomeSnapshot.maxTextCharacters })
        XCTAssertLessThan(answer.utf8.count, ControlSocket.maxAnswer)
        print("snapshot of 500 heavy tiles: \(answer.utf8.count / 1024) KB in \(Int(ms)) ms")
        // The same state with a smaller cap: one clear line.
        XCTAssertEqual(
            HomeSnapshot.answer(h.state, maxBytes: 1 << 20),
            "error: the snapshot of 500 tiles is \(answer.utf8.count / 1024) KB; an answer may be at most 1024 KB")
        h.skipPendingWork()
    }

    // MARK: - One line for a status bar

    func tiles(_ summaries: [String], stale: Set<Int> = []) -> [TileSnapshot] {
        summaries.enumerated().map { i, s in
            TileSnapshot(
                tile: "t\(i)", instance: "w\(i)", kind: "k\(i)", family: "small", summary: s, date: 0,
                stale: stale.contains(i), state: stale.contains(i) ? "stale" : "ok", error: nil, relevance: nil)
        }
    }

    func testPlaceholdersAreFilledInOnePass() {
        let t = tiles(["{tile} {stale} {nope}"])
        XCTAssertEqual(
            HomeSnapshot.line(t, format: "{kind}: {summary} {x", tmux: false), "k0: {tile} {stale} {nope} {x")
        XCTAssertEqual(
            HomeSnapshot.line(tiles(["a", "", "c"], stale: [2]), format: "{summary}{stale}/{state}", tmux: false),
            "a/ok | c⚠/stale", "a tile with nothing to say is left out")
        XCTAssertEqual(
            HomeSnapshot.line(tiles(["a"]), format: "\u{1b}[31m{summary}\u{202e}\n", tmux: false), "a ",
            "the format is cleaned too")
    }

    func testAFailedTileShowsAsAWarningAndItsKind() {
        var t = tiles(["a", "", ""])
        t[1].state = "failed"
        t[1].error = "offline"
        XCTAssertEqual(
            HomeSnapshot.line(t, format: "{kind} {summary}", tmux: false), "k0 a | ⚠ k1", "waiting k2 is left out")
        XCTAssertEqual(
            HomeSnapshot.line(t, format: "{summary}", tmux: true), "a | #[fg=red]⚠ k1#[default]")
    }

    func testMaxCutsTheLineAtAWord() {
        let t = tiles(["12:04 Tokyo", "rain 14°C", "3 todo"])
        let full = HomeSnapshot.line(t, format: "{summary}", tmux: false)
        XCTAssertEqual(full, "12:04 Tokyo | rain 14°C | 3 todo")
        XCTAssertEqual(HomeSnapshot.line(t, format: "{summary}", tmux: false, max: 40), full, "it fits")
        XCTAssertEqual(HomeSnapshot.line(t, format: "{summary}", tmux: false, max: 20), "12:04 Tokyo | rain…")
        XCTAssertEqual(
            HomeSnapshot.line(t, format: "{summary}", tmux: false, max: 16), "12:04 Tokyo…", "no dangling separator")
        XCTAssertEqual(
            HomeSnapshot.line(t, format: "{summary}", tmux: false, max: 4), "12:…", "one long word is cut inside")
        for n in 1...40 {
            let cut = HomeSnapshot.line(t, format: "{summary}", tmux: false, max: n)
            XCTAssertLessThanOrEqual(DisplayWidth.of(cut), n, cut)
        }
        // A stale tile's colour is not counted and is closed when the cut falls inside it.
        let stale = tiles(["ok", "rain 14°C"], stale: [1])
        XCTAssertEqual(
            HomeSnapshot.line(stale, format: "{summary}", tmux: true, max: 10), "ok | #[fg=yellow]rain…#[default]")
    }

    func testUnknownFieldsAreFoundButTmuxFormatsAndPlainBracesAreNot() {
        XCTAssertEqual(HomeSnapshot.unknownFields(in: "{kind} {summary} {stale}{state} {tile}/{instance}"), [])
        XCTAssertEqual(
            HomeSnapshot.unknownFields(in: "{kind} {sumary} {x {a b} {} {sumary} {name}"), ["sumary", "name"])
        XCTAssertEqual(HomeSnapshot.unknownFields(in: "#{session_name} #{?client_prefix,#{pane_id},{x}} {kind}"), [])
    }

    func testTilesAreChosenByIdOrInstanceAndByKind() {
        let t = tiles(["a", "b", "c"])
        XCTAssertEqual(HomeSnapshot.select(t, ids: ["t0", "w2"], kinds: nil).map(\.tile), ["t0", "t2"])
        XCTAssertEqual(HomeSnapshot.select(t, ids: nil, kinds: ["k1"]).map(\.tile), ["t1"])
        XCTAssertEqual(HomeSnapshot.select(t, ids: ["t0"], kinds: ["k1"]).map(\.tile), [])
        XCTAssertEqual(HomeSnapshot.select(t, ids: nil, kinds: nil), t)
    }

    /// tmux expands `#()` output as a format once, then draws it: `#[…]` is a style, `##` one `#`,
    /// `#S` the session name, and a run of `#` not before `[` is drawn by halves (see `tmuxLine`).
    /// The end-to-end test draws these lines in a real tmux status bar.
    func testTmuxLinesShowTextAsItIsAndNeverAStyleAFormatOrACommand() {
        let cases: [(String, String)] = [
            ("#[fg=red]x", "##[fg=red]x"),
            ("#(touch /tmp/x)", "####(touch /tmp/x)"),
            ("#S #{pane_id} #H", "####S ####{pane_id} ####H"),
            ("C# ## 50%", "C#### ######## 50%"),
            ("###[", "######["),
            ("end#", "end####"),
        ]
        for (text, escaped) in cases {
            XCTAssertEqual(HomeSnapshot.line(tiles([text]), format: "{summary}", tmux: true), escaped, text)
        }
        // What follows a value decides: the stale colour's `#[default]`, or the format's own `[`.
        XCTAssertEqual(
            HomeSnapshot.line(tiles(["a#"], stale: [0]), format: "{summary}", tmux: true),
            "#[fg=yellow]a###[default]")
        XCTAssertEqual(HomeSnapshot.line(tiles(["a#"]), format: "{summary}[{kind}]", tmux: true), "a##[k0]")
        XCTAssertEqual(HomeSnapshot.line(tiles(["a#"]), format: "{summary}#[bold]", tmux: true), "a###[bold]")
        // The format is the user's tmux format: its own styles stay.
        XCTAssertEqual(
            HomeSnapshot.line(tiles(["#x"]), format: "#[fg=blue]{kind}#[default] {summary}", tmux: true),
            "#[fg=blue]k0#[default] ####x")
    }
}

extension Result {
    /// The error's description, or a failure naming the unexpected success.
    func errorText() throws -> String {
        switch self {
        case .success(let v): throw FakeError("expected an error, got \(v)")
        case .failure(let e): return "\(e)"
        }
    }
}

/// The control socket's `snapshot` end to end inside the process: a real socket server, the real
/// runtime on a loop thread of its own (as in the home screen), a client.
final class SnapshotSocketTests: XCTestCase {
    final class Loop: @unchecked Sendable {
        let wake = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var stopped = false
        private let done = DispatchSemaphore(value: 0)
        var runtime: Runtime!

        func start() {
            let t = Thread { [self] in
                while !lock.withLock({ stopped }) {
                    _ = wake.wait(timeout: .now() + 0.05)
                    runtime.turn()
                }
                done.signal()
            }
            t.start()
        }

        func stop() {
            lock.withLock { stopped = true }
            wake.signal()
            done.wait()
        }
    }

    func serve(tiles n: Int, loop: Loop?, wait: Double = ControlProtocol.snapshotWait) throws -> (
        ControlSocket.Server, String, URL
    ) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sd-snap-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let bundle = WidgetBundle([NoteWidget.widget])
        let home = HomeConfig(
            tiles: (1...n).map {
                TileInstance(id: "t\($0)", family: .small, items: [WidgetInstance(id: "w\($0)", kind: "note")])
            })
        let state = AppState(
            bundle: bundle, home: home, screen: Size(width: 80, height: 24), theme: .dark, alternateTheme: .light,
            timeZone: TimeZone(identifier: "UTC")!, now: Date())
        let inbox = Inbox(wake: { loop?.wake.signal() })
        let runtime = Runtime(
            state: state, terminal: HeadlessTerminal(size: Size(width: 80, height: 24)), clock: SystemClock(),
            inbox: inbox, services: RuntimeServices(startLoad: { _, _ in nil }))
        loop?.runtime = runtime
        loop?.start()
        let path = dir.appendingPathComponent("s").path
        // The same dispatch as the home screen's (Commands.swift).
        let server = try ControlSocket.Server(path: path) { ControlProtocol.serve($0, wait: wait, post: inbox.post) }
        return (server, path, dir)
    }

    func testASnapshotThroughTheSocketShowsWhatWasPushedAMomentAgo() throws {
        let loop = Loop()
        let (server, path, dir) = try serve(tiles: 3, loop: loop)
        defer {
            server.stop()
            loop.stop()
            try? FileManager.default.removeItem(at: dir)
        }
        let timeline = try JSONValue.parse(Data(#"{"entries": [{"title": "Deployed", "text": "v2.1"}]}"#.utf8))
        XCTAssertEqual(
            try ControlSocket.send(ControlProtocol.pushLine(target: "w2", timeline: timeline), to: path), "ok 1")
        let doc = try HomeSnapshot.parseAnswer(try ControlSocket.send("snapshot", to: path)).get()
        XCTAssertEqual(doc.source, "running")
        XCTAssertEqual(doc.tiles.count, 3)
        XCTAssertTrue(doc.tiles[1].summary.contains("Deployed"), "\(doc.tiles[1])")
        XCTAssertEqual(doc.tiles[1].state, "ok")
        XCTAssertEqual(doc.tiles[0].state, "waiting", "its load never answers here")
        // The socket still answers other commands afterwards.
        XCTAssertEqual(try ControlSocket.send("ping", to: path), "pong")
    }

    func testFiveHundredTilesThroughTheSocket() throws {
        let loop = Loop()
        let (server, path, dir) = try serve(tiles: 500, loop: loop)
        defer {
            server.stop()
            loop.stop()
            try? FileManager.default.removeItem(at: dir)
        }
        let long = String(repeating: "Ünïcödé text ", count: 200)
        let timeline = try JSONValue.parse(Data(#"{"entries": [{"title": "\#(long)", "text": "x"}]}"#.utf8))
        XCTAssertEqual(
            try ControlSocket.send(ControlProtocol.pushLine(target: "note", timeline: timeline), to: path), "ok 500")
        let t0 = Date()
        let answer = try ControlSocket.send("snapshot", to: path)
        let ms = Date().timeIntervalSince(t0) * 1000
        let doc = try HomeSnapshot.parseAnswer(answer).get()
        XCTAssertEqual(doc.tiles.count, 500)
        XCTAssertTrue(doc.tiles.allSatisfy { $0.summary.count == HomeSnapshot.maxTextCharacters }, "capped, all there")
        print("snapshot of 500 tiles through the socket: \(answer.utf8.count / 1024) KB in \(Int(ms)) ms")
    }

    func testALoopThatDoesNotAnswerGivesAClearErrorAndTheSocketGoesOn() throws {
        let (server, path, dir) = try serve(tiles: 1, loop: nil, wait: 0.2)
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: dir)
        }
        XCTAssertEqual(
            try ControlSocket.send("snapshot", to: path), "error: the home screen did not answer within 0.2 s")
        XCTAssertEqual(try ControlSocket.send("ping", to: path), "pong")
    }
}
