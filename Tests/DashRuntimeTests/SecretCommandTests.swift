import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// Secrets from a command (issue 27.6, decision 48): how home.yaml writes one, how the pure core
/// waits for it, and how the runtime runs one (no shell, a timeout, first line, caps).
final class SecretCommandTests: XCTestCase {
    let bundle = BuiltinWidgets.bundle

    func parse(_ yaml: String) throws -> HomeConfig {
        try HomeConfig.parse(yaml: yaml, file: "home.yaml", bundle: bundle)
    }

    // MARK: home.yaml

    func testASecretSettingMayBeACommandInEveryForm() throws {
        let home = try parse(
            """
            tiles:
              - family: medium
                widget: news
                config:
                  source: newsapi
                  apiKey: { command: [secret-tool, lookup, service, "news api"] }
              - family: medium
                widget: news
                config:
                  source: newsapi
                  apiKey:
                    command: pass show news/key
                    timeout: 20
              - family: medium
                widget: crypto
                config:
                  apiKey: { command: "op read op://x/y | head -1", shell: true }
            """)
        let c = home.allInstances.map(\.config)
        XCTAssertEqual(
            c[0].secretCommands["apiKey"], SecretCommand(argv: ["secret-tool", "lookup", "service", "news api"]))
        XCTAssertEqual(c[0]["apiKey"], .string(""), "the value itself is never in the configuration")
        XCTAssertEqual(c[1].secretCommands["apiKey"], SecretCommand(argv: ["pass", "show", "news/key"], timeout: 20))
        let shell = try XCTUnwrap(c[2].secretCommands["apiKey"])
        XCTAssertEqual(shell.command, ["/bin/sh", "-c", "op read op://x/y | head -1"])
    }

    func testOnlySecretsTakeACommandAndMistakesNameTheirLine() {
        let cases: [(String, String)] = [
            (
                "feed: { command: [cat, x] }",
                "home.yaml:5: news: feed: takes a value, not a mapping; only a secret setting (here: apiKey)"
            ),
            ("apiKey: { run: [pass] }", "home.yaml:5: news: apiKey: unknown key `run` in a secret's command"),
            ("apiKey: { shell: true }", "home.yaml:5: news: apiKey: a secret's `command` is missing"),
            ("apiKey: { command: [pass], timeout: 0 }", "home.yaml:5: news: apiKey: `timeout` must be a whole number"),
            ("apiKey: { command: \"pass 'open\" }", "home.yaml:5: news: apiKey: `command`:"),
        ]
        for (line, want) in cases {
            let yaml = "tiles:\n  - family: medium\n    widget: news\n    config:\n      \(line)\n"
            XCTAssertThrowsError(try parse(yaml), line) { error in
                XCTAssertTrue("\(error)".hasPrefix(want), "\(line): \(error)")
            }
        }
    }

    func testEditsKeepTheCommandAndAValueTypedInReplacesIt() throws {
        let text = """
            tiles:
              # headlines
              - family: medium
                widget: news
                config:
                  source: newsapi
                  apiKey: { command: [pass, show, newsapi] }   # from my store
                  count: 2

            """
        let base = try parse(text)
        var changed = base
        changed.tiles[0].items[0].config["count"] = .int(3)
        let edited = try HomeText.edit(text, holding: base, to: changed, bundle: bundle)
        XCTAssertEqual(edited, text.replacingOccurrences(of: "count: 2", with: "count: 3"))

        var typed = base
        typed.tiles[0].items[0].config["apiKey"] = .string("sk-typed")
        typed.tiles[0].items[0].config.secretCommands["apiKey"] = nil
        let replaced = try HomeText.edit(text, holding: base, to: typed, bundle: bundle)
        XCTAssertFalse(replaced.contains("command"), replaced)
        XCTAssertEqual(try parse(replaced).allInstances[0].config["apiKey"], .string("sk-typed"))

        // A file written anew writes the command back.
        let fresh = HomeText.render(base, bundle: bundle)
        XCTAssertTrue(fresh.contains("apiKey: {command: [pass, show, newsapi]}"), fresh)
        XCTAssertTrue(try parse(fresh).sameContent(as: base))
    }

    // MARK: the pure core

    func secretWidget() -> Widget {
        let script = FakeScript()
        return Widget(
            kind: "fake", displayName: "Fake", description: "",
            schema: ConfigurationSchema([
                Parameter(key: "token", title: "Token", help: "", kind: .string(), default: .string(""), isSecret: true)
            ]),
            provider: FakeProvider(script: script), view: { entry, _ in Text(entry.value) })
    }

    func harness(_ command: SecretCommand, tiles: Int) -> AppHarness {
        var config = WidgetConfig(["token": .string("")])
        config.secretCommands["token"] = command
        let home = HomeConfig(
            tiles: (1...tiles).map {
                TileInstance(
                    id: "t\($0)", family: .small, items: [WidgetInstance(id: "w\($0)", kind: "fake", config: config)])
            })
        return AppHarness(widgets: [secretWidget()], home: home, now: Date(timeIntervalSince1970: 1_800_000_000))
    }

    func testLoadsWaitForTheCommandWhichRunsOnceAndItsValueIsKeptForTheSession() {
        let command = SecretCommand(argv: ["pass", "show", "x"])
        let h = harness(command, tiles: 2)
        XCTAssertEqual(h.state.secrets.running, [command], "one run for the two tiles that use it")
        XCTAssertTrue(h.loads.isEmpty, "no load goes out without its secret")
        XCTAssertEqual(h.state.secrets.waitingLoads, 2)

        h.send(.secretCommandFinished(command, .success(SecretText("s3cret"))))
        XCTAssertEqual(h.loads.map(\.id).sorted(), ["w1", "w2"])
        XCTAssertEqual(h.loads.map { $0.request.configuration["token"] }, [.string("s3cret"), .string("s3cret")])
        var scheduler = h.state.scheduler
        XCTAssertEqual(
            scheduler.record("w1", at: h.clock.now)?.configuration["token"], .string(""),
            "the scheduler (and so the cache) never holds the value")
        XCTAssertFalse("\(h.takeEffects())".contains("s3cret"), "effects say nothing of it")
        XCTAssertEqual(
            "\(Msg.secretCommandFinished(command, .success(SecretText("s3cret"))))".contains("s3cret"), false)

        // A manual reload uses the value kept: the command does not run again.
        h.finish("w1", entries: [FakeEntry(date: h.clock.now, value: "a")])
        h.send(.widgetCenter(.reloadAllTimelines))
        XCTAssertFalse(
            h.takeEffects().contains { if case .runSecretCommand = $0 { return true } else { return false } })
        h.skipPendingWork()
    }

    func testAFailingCommandCostsOnlyItsTilesWithAMessageThatNamesTheSetting() {
        let command = SecretCommand(argv: ["pass", "show", "x"])
        let h = harness(command, tiles: 1)
        h.send(
            .secretCommandFinished(command, .failure(SecretCommandFailure("exited with status 1 (not in the store)"))))
        XCTAssertTrue(h.loads.isEmpty)
        XCTAssertEqual(
            h.state.scheduler.lastError("w1"),
            "token: the command `pass show x` exited with status 1 (not in the store); run it in a terminal to check it, then press r"
        )
        // The next load (here a manual reload) runs it again: a failure is not kept.
        h.send(.widgetCenter(.reloadAllTimelines))
        XCTAssertTrue(h.takeEffects().contains { if case .runSecretCommand = $0 { return true } else { return false } })
    }

    // MARK: the runner

    func run(_ argv: [String], shell: Bool = false, timeout: Double = 10) -> Result<SecretText, SecretCommandFailure> {
        SecretCommandRunner.run(
            SecretCommand(argv: argv, shell: shell, timeout: timeout), environment: ["PATH": "/usr/bin:/bin"])
    }

    func testTheFirstLineTrimmedIsTheValueAndNoShellReadsTheArguments() {
        XCTAssertEqual(try run(["printf", "  tok-1 \\r\\nsecond line\\n"]).get().value, "tok-1")
        XCTAssertEqual(try run(["echo", "$HOME;", "*"]).get().value, "$HOME; *", "no shell: words as written")
        XCTAssertEqual(try run(["echo a | tr a b"], shell: true).get().value, "b")
    }

    func testACommandThatPrintsNothingFailsOrIsMissing() {
        XCTAssertEqual(run(["true"]).failure, "printed nothing")
        XCTAssertEqual(run(["sh", "-c", "echo 'no such key' >&2"]).failure, "printed nothing (no such key)")
        XCTAssertEqual(
            run(["sh", "-c", "echo leaked; echo 'locked' >&2; exit 3"]).failure, "exited with status 3 (locked)")
        XCTAssertEqual(
            run(["no-such-program-swiftdash"]).failure, "could not start: no such program (check the name and PATH)")
    }

    func testACommandThatHangsIsStoppedAtItsTimeoutWithWhatItStarted() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftdash-hang-\(UUID().uuidString)")
        let r = run(["sleep 60 & echo $! > \(marker.path); wait"], shell: true, timeout: 1)
        XCTAssertEqual(
            r.failure,
            "did not finish within 1 s (it may be waiting for a passphrase: unlock your keyring or agent first)")
        let child = try XCTUnwrap(
            Int32(try String(contentsOf: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        try? FileManager.default.removeItem(at: marker)
        // Gone, or a zombie its new parent has not reaped yet: not running either way.
        let stat = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8)) ?? ""
        XCTAssertTrue(stat.isEmpty || stat.contains(") Z "), "the sleep it started was ended too: \(stat)")
    }

    /// Issue 37 point 8: a secret's command still running at quit (waiting for a passphrase) was
    /// left behind. `stopAll` (the runtime's last step) ends it and what it started.
    func testASecretCommandStillRunningAtQuitIsEndedWithItsGroup() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-quit-\(UUID().uuidString)")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let reader = open(fifo.path, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let groups = RunningGroups()
        let finished = expectation(description: "the runner returned")
        let result = Locked<Result<SecretText, SecretCommandFailure>?>(nil)
        // The command and the child it leaves waiting hold the FIFO open: it ends when both are gone.
        let command = SecretCommand(
            argv: ["exec 3> \(fifo.path); echo up >&3; sleep 100 & wait"], shell: true, timeout: 3600)
        Thread {
            result.set(SecretCommandRunner.run(command, environment: ["PATH": "/usr/bin:/bin"], groups: groups))
            finished.fulfill()
        }.start()
        var p = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&p, 1, 60_000), 1, "the command never started")
        var bytes = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(read(reader, &bytes, bytes.count), 3)
        XCTAssertEqual(groups.count, 1)

        groups.stopAll()  // what quitting does (Runtime.run's last step, on RuntimeServices.secretCommands)
        wait(for: [finished], timeout: 60)
        XCTAssertEqual(result.get()?.failure, "was ended by signal 9")
        XCTAssertEqual(groups.count, 0)
        // Every writer of the FIFO is gone (the command and its child): end of file.
        var hup = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&hup, 1, 60_000), 1, "the command's child outlived it")
        XCTAssertEqual(read(reader, &bytes, bytes.count), 0, "end of file: no process holds the FIFO")
        // A command started after quitting is ended at once.
        let late = SecretCommandRunner.run(
            SecretCommand(argv: ["sleep", "100"], timeout: 3600), environment: ["PATH": "/usr/bin:/bin"], groups: groups)
        XCTAssertEqual(late.failure, "was ended by signal 9")
    }

    /// The same through a runtime: a secret's command started by `runSecretCommand` and still
    /// running when `q` quits is ended with everything it started by the time `run()` returns.
    func testASecretCommandStillRunningWhenTheRuntimeQuitsIsEndedWithItsGroup() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-rt-\(UUID().uuidString)")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let reader = open(fifo.path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let size = Size(width: 80, height: 24)
        let terminal = HeadlessTerminal(size: size)
        let state = AppState(
            bundle: WidgetBundle([storyWidget]), home: HomeConfig(tiles: []), screen: size, theme: .dark,
            alternateTheme: .light, timeZone: TimeZone(identifier: "UTC")!, now: start)
        let services = RuntimeServices(startLoad: { _, _ in nil })
        let r = Runtime(
            state: state, terminal: terminal, clock: VirtualClock(now: start), inbox: Inbox(wake: {}),
            services: services)
        // The command and the child it leaves waiting hold the FIFO open: it ends when both are gone.
        services.runSecretCommand(
            SecretCommand(argv: ["exec 3> \(fifo.path); echo up >&3; sleep 100 & wait"], shell: true, timeout: 3600),
            r.inbox)
        var p = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&p, 1, 60_000), 1, "the command never started")
        var bytes = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(read(reader, &bytes, bytes.count), 3)

        terminal.events = [.key(.char("q"))]
        r.run()
        XCTAssertTrue(r.state.quitting)
        // Every writer of the FIFO is gone: end of file, not a hang until the 30 s bound.
        var hup = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&hup, 1, 60_000), 1, "the command or its child outlived the quit")
        XCTAssertEqual(read(reader, &bytes, bytes.count), 0, "end of file: no process holds the FIFO")
    }

    func testACommandThatPrintsTenMegabytesIsRefused() {
        let r = run(["head -c 10000000 /dev/zero | tr '\\0' a"], shell: true, timeout: 60)
        XCTAssertEqual(r.failure, "printed more than 64 KB; a secret is one line")
    }
}

extension Result where Failure == SecretCommandFailure {
    var failure: String? {
        if case .failure(let f) = self { return f.message }
        return nil
    }
}

/// A value one thread sets and another reads.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ v: Value) { lock.withLock { value = v } }
    func get() -> Value { lock.withLock { value } }
}
