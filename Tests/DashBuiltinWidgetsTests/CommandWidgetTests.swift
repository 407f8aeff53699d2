import Foundation
import Testing
import DashWidgets
import DashScheduler
import DashTestSupport
@testable import DashBuiltinWidgets

/// The command widget runs real small programs (echo, sh, sleep, yes, seq and the
/// scripts under Fixtures/command).
@Suite("command widget")
struct CommandWidgetTests {
    let widget = CommandWidget.make(runs: CommandRunRegistry())

    static let scripts = testsDirectory.appendingPathComponent("Fixtures/command")
    static func script(_ name: String) -> String { scripts.appendingPathComponent(name).path }

    func temp(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-cmd-\(UUID().uuidString)-\(name)").path
    }

    func run(
        _ config: [String: ConfigValue], _ family: WidgetFamily = .large,
        registry: CommandRunRegistry? = nil
    ) async throws -> CommandEntry {
        let w = registry.map { CommandWidget.make(runs: $0) } ?? widget
        let t = try await w.timeline(for: WidgetConfig(config), in: context(family))
        return try #require(t.entries.first?.base as? CommandEntry)
    }

    func failure(_ config: [String: ConfigValue]) async -> String? {
        await widget.timelineError(context(.small), WidgetConfig(config))
    }

    func texts(_ e: CommandEntry) -> [String] { e.lines.map(\.text) }

    @Test func schema() {
        let s = CommandWidget.schema
        #expect(
            s.parameters.map(\.key)
                == ["command", "shell", "interval", "timeout", "outputLimit", "colors", "tail", "directory", "label"])
        #expect(s.defaults.list("command") == ["uptime"] && !s.defaults.bool("shell"))
        #expect(s.defaults.int("interval") == 60 && s.defaults.int("timeout") == 10)
        #expect(!s.validate(WidgetConfig(["timeout": .int(0)])).isEmpty)
        #expect(CommandWidget.widget.cost == .local)
    }

    @Test func wordsSplitLikeAShellWithoutExpanding() throws {
        #expect(try CommandSpec.words("git -C ~/src status") == ["git", "-C", "~/src", "status"])
        #expect(try CommandSpec.words(#"printf '%s|' "a b" c\ d ''"#) == ["printf", "%s|", "a b", "c d", ""])
        #expect(try CommandSpec.words(#"echo "say \"hi\"" $HOME"#) == ["echo", #"say "hi""#, "$HOME"])
        #expect(throws: CommandError.self) { try CommandSpec.words("echo 'open") }
    }

    @Test func argvRunsWithoutAShell() async throws {
        let e = try await run(["command": .list(["echo", "$HOME", "|", "cat", ";", "rm"])])
        #expect(texts(e) == ["$HOME | cat ; rm"])
        #expect(e.exitStatus == 0 && e.label == "echo '$HOME' '|' cat ';' rm")
        let one = try await run(["command": .list(["printf '%s|' 'a b' c"])])
        #expect(texts(one) == ["a b|c|"])
        #expect(one.label == "printf '%s|' 'a b' c")
    }

    @Test func shellOnlyWhenAsked() async throws {
        let e = try await run(["command": .list(["echo $((1+2)) | tr 3 X"]), "shell": .bool(true)])
        #expect(texts(e) == ["X"])
        // Further items are the script's arguments, as they are.
        let args = try await run(["command": .list([#"printf '%s|' "$@""#, "a, b", ""]), "shell": .bool(true)])
        #expect(texts(args) == ["a, b||"])
    }

    /// Issue 24.1: `[argv.sh, "a,b", "c, d", "", "x"]` ran `argv.sh a b c d x`; `echo a, b`
    /// with shell ran `echo a,b`. The list is the argv byte for byte, from home.yaml and `--set`.
    @Test func commandRunsWithExactlyTheArgumentsWritten() async throws {
        let printf = #"printf '<%s>' "$@""#
        let argv = try await run(["command": .list(["sh", "-c", printf, "sh", "a,b", "c, d", "", "x", " y "])])
        #expect(texts(argv) == ["<a,b><c, d><><x>< y >"])
        let schema = CommandWidget.schema
        // `--set`/`config set`: YAML flow syntax carries commas and empty items.
        let set = try schema.parse(key: "command", text: #"[sh, -c, "printf '<%s>' \"$@\"", sh, "a,b", 'c, d', "", x]"#)
        #expect(set == .list(["sh", "-c", printf, "sh", "a,b", "c, d", "", "x"]))
        let fromSet = try await run(["command": set])
        #expect(texts(fromSet) == ["<a,b><c, d><><x>"])
        // A text without brackets is one line: with shell: true, the shell sees it whole.
        let line = try schema.parse(key: "command", text: "echo a, b")
        #expect(line == .list(["echo a, b"]))
        #expect(texts(try await run(["command": line, "shell": .bool(true)])) == ["a, b"])
        #expect(texts(try await run(["command": line])) == ["a, b"])
        // The value shown reads back the same.
        #expect(try schema.parse(key: "command", text: set.description) == set)
        #expect(try schema.parse(key: "command", text: line.description) == line)
        #expect(throws: ConfigError.self) { try schema.parse(key: "command", text: #"[a, "b"#) }
    }

    @Test func stdinIsClosedAndTheEnvironmentKnowsTheTileSize() async throws {
        let e = try await run(["command": .list(["sh", "-c", #"read x; echo "got:$x:$?""#])])
        #expect(texts(e) == ["got::1"])
        let size = WidgetConfig(["command": .list(["sh", "-c", "echo $COLUMNS $LINES"])])
        let cols = try await widget.timeline(for: size, in: context(.small))
        #expect(texts(try #require(cols.entries.first?.base as? CommandEntry)) == ["15 5"])
    }

    @Test func exitStatusAndFailures() async throws {
        let e = try await run(["command": .list(["sh", "-c", "echo oops; echo err >&2; exit 3"])], .medium)
        #expect(texts(e) == ["oops", "err"] && e.exitStatus == 3)
        let tile = render(widget, AnyEntry(e), .medium).text
        #expect(tile.contains("exit 3"))
        #expect(e.relevance?.score == 0.8)
        #expect(e.summary == "sh -c 'echo oops; echo err >&2; exit 3': oops (exit 3)")

        #expect(await failure(["command": .list(["false"])]) == "false exited with status 1 and printed nothing")
        #expect(
            await failure(["command": .list(["no-such-program-swiftdash"])])
                == "cannot run no-such-program-swiftdash: no such program (check the name and PATH)")
        #expect(await failure(["command": .list([])]) == "no command set: give the program and its arguments")
        #expect(await failure(["command": .list(["sh", "-c", "kill -9 $$"])]) == "sh was killed by signal 9")
        #expect(
            await failure(["command": .list(["pwd"]), "directory": .string("/nonexistent-swiftdash")])
                == "cannot run pwd: no folder /nonexistent-swiftdash")
        let dir = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
        #expect(texts(try await run(["command": .list(["pwd"]), "directory": .string(dir)])) == [dir])
    }

    /// /proc/PID/stat says the process is still there and not a zombie.
    func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    @Test func timeoutKillsTheWholeProcessGroup() async throws {
        let pidFile = temp("pid")
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let message = await failure(["command": .list([Self.script("group.sh"), pidFile]), "timeout": .int(1)])
        #expect(message == "\(Self.script("group.sh")) did not finish within 1 s: it and its process group were killed")
        let pid = try #require(
            Int32(
                (try String(contentsOfFile: pidFile, encoding: .utf8))
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        // The background sleep was in the group: gone too, not orphaned.
        #expect(Eventually.wait { !alive(pid) })
    }

    @Test func outputCapStopsTheCommand() async throws {
        // Stopped at the cap (an entry, cut), not at the 10 s timeout (which fails the tile).
        let e = try await run(["command": .list(["yes"]), "outputLimit": .int(4)])
        #expect(e.truncated && e.exitStatus == 0)
        #expect(e.lines.count == 500 && e.omittedLines == 1548)  // 4096 bytes of "y\n"
        let tile = render(widget, AnyEntry(e), .large).text
        #expect(tile.contains("… 2037 more lines, cut at 4 KB"))
    }

    @Test func hugeOutputKeepsTheStartOrTheEnd() async throws {
        let head = try await run(["command": .list(["seq", "1", "100000"]), "outputLimit": .int(1024)])
        #expect(!head.truncated && head.lines.count == 500 && head.omittedLines == 99500)
        #expect(texts(head).first == "1")
        let tail = try await run(
            [
                "command": .list(["seq", "1", "100000"]), "outputLimit": .int(1024),
                "tail": .bool(true),
            ], .medium)
        #expect(texts(tail).last == "100000")
        let tile = render(widget, AnyEntry(tail), .medium).text
        assertSnapshot(tile, named: "command-medium-tail")
        #expect(tile.contains("99997 more lines above") && tile.contains("100000"))
    }

    @Test func escapeSequencesAreStrippedOrKeptAsStyles() async throws {
        let plain = try await run(["command": .list([Self.script("escapes.sh")])])
        #expect(
            texts(plain) == [
                "red ok", "bold green and dim text", "cleared", "link here", "100% done", "a       b       c",
                "orange azure red2", "back", "bidi evil end", "c1", "bell and nul!",
            ])
        #expect(plain.lines.allSatisfy { $0.runs.allSatisfy { $0.color == nil && !$0.bold && isClean($0.text) } })

        let styled = try await run([
            "command": .list([Self.script("escapes.sh")]), "colors": .bool(true),
            "label": .string("escapes"),
        ])
        #expect(texts(styled) == texts(plain))
        func runs(_ i: Int) -> [String] {
            styled.lines[i].runs.map { "\($0.text)|\($0.color ?? "-")\($0.bold ? "|b" : "")" }
        }
        #expect(runs(0) == ["red|negative", " ok|-"])
        #expect(runs(1) == ["bold green|positive|b", " and |-", "dim|secondary", " text|-"])
        #expect(runs(6) == ["orange|warning", " |-", "azure|accent", " |-", "red2|negative"])
        #expect(runs(9) == ["c1|negative"])
        let tile = render(widget, AnyEntry(styled), .large)
        // The first row shows the command, an absolute path that differs from checkout to checkout.
        let rows = tile.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.first?.hasPrefix("$ /") == true)
        assertSnapshot(rows.dropFirst().joined(separator: "\n"), named: "command-large-escapes")
        #expect(isClean(tile.text))
    }

    @Test func sgrMapping() {
        var s = TerminalOutput.Style()
        TerminalOutput.applySGR("1;38;5;196", to: &s)
        #expect(s.color == .negative && s.bold)
        TerminalOutput.applySGR("22;48;2;0;255;0;34", to: &s)  // a green background is not taken
        #expect(s.color == .accent && !s.bold)
        TerminalOutput.applySGR("", to: &s)
        #expect(s == TerminalOutput.Style())
        TerminalOutput.applySGR("?25", to: &s)
        #expect(s == TerminalOutput.Style())
        #expect(TerminalOutput.indexed(46) == .positive && TerminalOutput.indexed(240) == .secondary)
        #expect(TerminalOutput.rgbColor(250, 250, 250) == .primary && TerminalOutput.rgbColor(255, 200, 0) == .warning)
    }

    @Test func runsNeverOverlap() async throws {
        let registry = CommandRunRegistry()
        let log = temp("log")
        defer { try? FileManager.default.removeItem(atPath: log) }
        let config: [String: ConfigValue] = ["command": .list([Self.script("overlap.sh"), log])]
        async let a = run(config, registry: registry)
        async let b = run(config, registry: registry)
        let (first, second) = try await (a, b)
        #expect(texts(first) == ["ran"] && texts(second) == ["ran"])
        #expect(await registry.runsStarted == 1)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("start") && lines[1].hasPrefix("end"))
        // Once it has ended, the next load runs it again.
        _ = try await run(config, registry: registry)
        #expect(await registry.runsStarted == 2)
    }

    @Test func reloadPolicy() async throws {
        let t = try await widget.timeline(
            for: WidgetConfig(["command": .list(["true"]), "interval": .int(30)]),
            in: context(.small))
        #expect(t.policy == .after(testNow.addingTimeInterval(30)))
        let onDemand = try await widget.timeline(
            for: WidgetConfig(["command": .list(["true"]), "interval": .int(0)]),
            in: context(.small))
        #expect(onDemand.policy == .never)
        let e = try #require(onDemand.entries.first?.base as? CommandEntry)
        #expect(e.lines.isEmpty && render(widget, AnyEntry(e), .small).text.contains("(no output)"))
    }

    /// On the scheduler's virtual clock: the command runs at its interval, and when a run
    /// fails the last good output stays, marked stale, with the reason.
    @Test func failedRunKeepsTheLastGoodOutput() async throws {
        let flag = temp("flag")
        defer { try? FileManager.default.removeItem(atPath: flag) }
        let config = WidgetConfig(["command": .list([Self.script("flaky.sh"), flag]), "interval": .int(5)])
        var scheduler = Scheduler()
        scheduler.register("cmd", widget: widget, configuration: config, family: .small, at: testNow)
        var now = testNow
        for req in scheduler.process(now: now) {
            scheduler.loadFinished(req.id, token: req.token, result: await req.perform(), at: now)
        }
        now = try #require(scheduler.nextWake)
        #expect(now == testNow.addingTimeInterval(5))
        _ = FileManager.default.createFile(atPath: flag, contents: Data())
        for req in scheduler.process(now: now) {
            scheduler.loadFinished(req.id, token: req.token, result: await req.perform(), at: now)
        }
        #expect(scheduler.isStale("cmd"))
        #expect(scheduler.lastError("cmd") == "\(Self.script("flaky.sh")) exited with status 2 and printed nothing")
        let shown = try #require(scheduler.currentEntry("cmd", at: now)?.entry.base as? CommandEntry)
        #expect(shown.lines.map(\.text) == ["all good"])
    }

    static let sample = CommandEntry(
        date: testNow, label: "git status", commandLine: "git status --short",
        lines: [
            OutputLine([StyledRun(" M Sources/App/main.swift", color: .warning)]),
            OutputLine([StyledRun("?? notes.txt", color: .negative)]),
            OutputLine([StyledRun(" D old.txt")]), OutputLine([StyledRun("A  new.swift", color: .positive)]),
            OutputLine([StyledRun(" M README.md", color: .warning)]), OutputLine([StyledRun(" M Package.swift")]),
        ],
        omittedLines: 0, truncated: false, outputLimit: 256 * 1024, exitStatus: 0, duration: 0.042, interval: 60,
        showsTail: false, isPlaceholder: false)

    @Test func tilesAndDetail() throws {
        for family in [WidgetFamily.small, .medium, .large, .extraLarge] {
            let tile = render(widget, AnyEntry(Self.sample), family)
            assertSnapshot(tile.text, named: "command-\(family.rawValue)")
            #expect(tile.widgetURL == "swiftdash://command/output")
        }
        let small = render(widget, AnyEntry(Self.sample), .small).text
        #expect(small.contains("… 3 more lines") && !small.contains("README"))
        #expect(render(widget, AnyEntry(Self.sample), .large).text.contains("Package.swift"))
        var failed = Self.sample
        failed.exitStatus = 128
        #expect(render(widget, AnyEntry(failed), .small).text.contains("✗128"))

        var pane = context(.large)
        pane.size = (60, 16)
        let detail = render(
            widget.detail(for: DeepLink(CommandWidget.link)!, entry: AnyEntry(Self.sample), in: pane),
            width: 60, height: 16
        ).text
        assertSnapshot(detail, named: "command-detail")
        #expect(detail.contains("$ git status --short") && detail.contains("ran for 0.04 s · every 60 s"))
        let empty = widget.detail(for: DeepLink(CommandWidget.link)!, entry: nil, in: pane)
        let none = render(empty, width: 60, height: 16)
        #expect(none.text.contains("Not run yet"))
    }

    @Test func previewNeverRunsTheCommand() async throws {
        let marker = temp("marker")
        let config = WidgetConfig(["command": .list(["touch", marker]), "label": .string("Touch")])
        let snap = await widget.snapshot(for: config, in: context(.medium, preview: true))
        #expect((snap.base as? CommandEntry)?.label == "Touch")
        #expect(render(widget, snap, .medium).text.contains("$ touch"))
        #expect(!FileManager.default.fileExists(atPath: marker))
        let placeholder = render(widget, widget.placeholder(in: context(.small)), .small).text
        #expect(placeholder.contains("▆") && !placeholder.contains("uptime"))

        let e = try await run(["command": .list([Self.script("escapes.sh")]), "colors": .bool(true)])
        let back = try widget.decodeEntries(try widget.encodeEntries([AnyEntry(e)]))
        #expect((back.first?.base as? CommandEntry) == e)
    }
}
