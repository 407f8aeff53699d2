import XCTest
import Foundation
import DashTestSupport

/// The command line as a terminal tool: every usage error exits with status 2 and says what to
/// do, a mistyped command gets a suggestion, help text fits the terminal, and errors about sizes,
/// kinds, themes and parameters name what is allowed.
final class UsageErrorTests: XCTestCase {
    var home: URL!
    var config: URL { home.appendingPathComponent("swiftdash") }
    var env: [String: String] {
        ["XDG_CONFIG_HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("c").path]
    }

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-usage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { if let home { try? FileManager.default.removeItem(at: home) } }

    func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    func testVersionNamesTheProgramAndItsExtensionProtocol() throws {
        let r = try runSwiftdash(["--version"])
        XCTAssertEqual(r.status, 0, r.err)
        // A plain `swift build` knows no commit; `make` passes it (Tests/package/check.sh checks that).
        XCTAssertEqual(
            r.out.trimmingCharacters(in: .whitespacesAndNewlines),
            "swiftdash 0.5.0 (development build, commit unknown, extension protocol 1)")
    }

    /// Found by a new user: an unknown kind or id said "takes no pushes", and an unreadable
    /// file gave no reason.
    func testPushSaysWhatIsUnknownAndWhyAFileCannotBeRead() throws {
        let file = home.appendingPathComponent("t.json")
        try Data(#"{"entries": [{"title": "x"}]}"#.utf8).write(to: file)
        let unknown = try runSwiftdash(["push", "nope", "--json", file.path], env: env)
        XCTAssertEqual(unknown.status, 2, unknown.err)
        XCTAssertTrue(
            unknown.err.hasPrefix("swiftdash: error: no widget kind or id 'nope' on the home screen"), unknown.err)
        XCTAssertTrue(unknown.err.contains("widgets that take pushes: note"), unknown.err)
        let clock = try runSwiftdash(["push", "clock", "--json", file.path], env: env)
        XCTAssertTrue(clock.err.hasPrefix("swiftdash: error: 'clock' takes no pushes"), clock.err)
        let missing = try runSwiftdash(["push", "note", "--json", "/nonexistent.json"], env: env)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(
            missing.err.hasPrefix("swiftdash: error: cannot read /nonexistent.json: No such file"), missing.err)
    }

    func testArgumentParserUsageErrorsExitTwoAndEndWithWhatToDo() throws {
        let cases: [([String], String, String)] = [
            (["--nope"], "Unknown option '--nope'", "run `swiftdash help home` for every option"),
            (["render", "--bogus"], "Unknown option '--bogus'", "run `swiftdash help render` for every option"),
            (["render", "--size"], "Missing value for '--size <size>'", "run `swiftdash help render`"),
            (
                ["bench", "--frames", "abc"], "The value 'abc' is invalid for '--frames <frames>'",
                "run `swiftdash help bench`"
            ),
            (["preview"], "Missing expected argument '<kind>'", "run `swiftdash help preview` for every option"),
            (["config", "set", "w1", "--x"], "Unknown option '--x'", "run `swiftdash help config set`"),
        ]
        for (args, message, hint) in cases {
            let r = try runSwiftdash(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertTrue(r.err.hasPrefix("swiftdash: error: \(message)"), "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains("Usage: swiftdash"), "ArgumentParser's usage is kept: \(r.err)")
            XCTAssertTrue(lines(r.err).last?.hasPrefix(hint) == true, "\(args): \(r.err)")
            XCTAssertEqual(r.out, "")
        }
    }

    func testAMistypedCommandGetsASuggestionAndTheListOfCommands() throws {
        for (args, word, guess) in [
            (["widgts"], "widgts", "widgets"), (["previw", "clock"], "previw", "preview"),
            (["help", "rendr"], "rendr", "render"),
        ] {
            let r = try runSwiftdash(args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertEqual(
                lines(r.err),
                [
                    "swiftdash: error: unknown command '\(word)'; did you mean '\(guess)'?",
                    "commands: home, widgets, preview, render, timeline, reload, config, add, remove, push, snapshot, "
                        + "activity, run, bench, new-widget",
                    "run `swiftdash help` for what each does",
                ])
            XCTAssertFalse(r.err.contains("swiftdash home"), "not the home command's usage")
        }
        let nested = try runSwiftdash(["config", "chek"])
        XCTAssertEqual(nested.status, 2)
        XCTAssertEqual(
            lines(nested.err),
            [
                "swiftdash: error: unknown command 'chek' for `swiftdash config`; did you mean 'check'?",
                "commands: check, path, set, homes", "run `swiftdash help config` for what each does",
            ])
        let far = try runSwiftdash(["zzzzzz"])
        XCTAssertEqual(far.status, 2)
        XCTAssertTrue(far.err.hasPrefix("swiftdash: error: unknown command 'zzzzzz'\ncommands: home,"), far.err)
        let escaped = try runSwiftdash(["\u{1B}[31m"])
        XCTAssertTrue(
            escaped.err.hasPrefix("swiftdash: error: unknown command (empty after removing control characters)"),
            escaped.err)
        let ok = try runSwiftdash(["help", "config", "set"])
        XCTAssertEqual(ok.status, 0, ok.err)
        XCTAssertTrue(ok.out.hasPrefix("OVERVIEW: Set configuration values of one widget."), ok.out)
    }

    /// Every command's name, from the help's SUBCOMMANDS sections ("" for the root).
    func allCommands() throws -> [String] {
        var found: [String] = []
        var queue = [""]
        while let c = queue.first {
            queue.removeFirst()
            found.append(c)
            let help = try runSwiftdash(c.split(separator: " ").map(String.init) + ["--help"], env: ["COLUMNS": "200"])
            guard let start = help.out.range(of: "SUBCOMMANDS:\n") else { continue }
            for line in help.out[start.upperBound...].split(separator: "\n") {
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first,
                    !line.contains("See '")
                else { continue }
                queue.append(c.isEmpty ? String(name) : "\(c) \(name)")
            }
        }
        return found
    }

    func testEveryCommandsHelpFitsEightyColumnsAndNoSentenceIsBrokenByHand() throws {
        let commands = try allCommands()
        XCTAssertTrue(commands.contains("config set") && commands.contains("preview"), "\(commands)")
        for c in commands {
            let args = c.split(separator: " ").map(String.init) + ["--help"]
            let narrow = try runSwiftdash(args, env: ["COLUMNS": "80"])
            XCTAssertEqual(narrow.status, 0, narrow.err)
            for line in narrow.out.split(separator: "\n") where line.count > 80 {
                XCTFail("`swiftdash \(c) --help` at 80 columns has a line of \(line.count): \(line)")
            }
            // So wide that ArgumentParser wraps nothing: every newline left in the overview and
            // discussion is one the text put there, and may only end a sentence, a paragraph or
            // an example's line.
            let wide = try runSwiftdash(args, env: ["COLUMNS": "2000"])
            let text = wide.out.components(separatedBy: "\nUSAGE:")[0]
            let ls = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (line, next) in zip(ls, ls.dropFirst()) where !line.isEmpty && !next.isEmpty {
                let indented = line.hasPrefix(" "), nextIndented = next.hasPrefix(" ")
                if !indented && !nextIndented {
                    XCTFail("`swiftdash \(c) --help` breaks a paragraph by hand after: \(line)")
                } else if !indented && nextIndented && !line.hasSuffix(":") {
                    XCTFail("`swiftdash \(c) --help`: an example follows a line not ending in ':': \(line)")
                } else if indented && !nextIndented {
                    XCTFail("`swiftdash \(c) --help`: prose continues after an example without a blank line: \(next)")
                }
            }
        }
    }

    func testBadSizesSayWhatIsAllowed() throws {
        let allowed = "size must be COLSxROWS with 19..1000 columns and 8..1000 rows, e.g. 80x24"
        for size in ["-5x10", "0x0", "x", "99999x5", "big", "80x1001", ""] {
            let r = try runSwiftdash(["render", "--size", size])
            XCTAssertEqual(r.status, 2, size)
            XCTAssertEqual(r.err, "swiftdash: error: --size '\(size)'\(size.isEmpty ? " (empty)" : ""): \(allowed)\n")
        }
        let tiny = try runSwiftdash(["render", "--size", "10x5"])
        XCTAssertEqual(tiny.status, 2)
        XCTAssertEqual(
            tiny.err, "swiftdash: error: --size '10x5' is too small for one tile and the status bar; \(allowed)\n")
        let least = try runSwiftdash(["render", "--size", "19x8", "--at", "2026-11-23T09:30:00Z"])
        XCTAssertEqual(least.status, 0, least.err)
        XCTAssertEqual(least.out.split(separator: "\n").count, 8)
    }

    func testAKindThatSanitisesToNothingIsNamedSoAndTheKindsAreListed() throws {
        for args in [
            ["preview", "\u{1B}[31m"], ["timeline", "\u{1B}]0;x\u{07}"], ["reload", "\u{9B}2J"], ["add", "\u{1B}[0m"],
        ] {
            let r = try runSwiftdash(args, env: env)
            XCTAssertEqual(r.status, 2, "\(args.map(\.debugDescription))")
            XCTAssertEqual(
                lines(r.err),
                [
                    "swiftdash: error: unknown widget kind (empty after removing control characters); "
                        + "available: clock, calendar, system, weather, command, note, reminders, recipe, water, "
                        + "crypto, news, commits, api, chart, github"
                ], "\(args.map(\.debugDescription))")
        }
        let empty = try runSwiftdash(["preview", ""])
        XCTAssertTrue(
            empty.err.hasPrefix("swiftdash: error: unknown widget kind '' (empty); available: clock"), empty.err)
    }

    func testThemeErrorsSayWhatToDoLikeOtherConfigErrors() throws {
        let named = try runSwiftdash(["render", "--theme", "nope"], env: env)
        XCTAssertEqual(named.status, 2)
        XCTAssertEqual(lines(named.err).count, 2, named.err)
        XCTAssertTrue(named.err.hasPrefix("swiftdash: error: no theme named `nope`; built in: dark, light"), named.err)
        XCTAssertEqual(lines(named.err).last, "(run with --theme dark or --theme light instead)")

        let themes = config.appendingPathComponent("themes")
        try FileManager.default.createDirectory(at: themes, withIntermediateDirectories: true)
        try "name: broken\ndark: true\ncolors:\n  accent: notacolour\n".write(
            to: themes.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        let broken = try runSwiftdash(["render", "--theme", "broken"], env: env)
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.err.contains("broken.yaml:4: `notacolour` is not a colour"), broken.err)
        XCTAssertEqual(lines(broken.err).last, "(fix the file, or run with --theme dark; your file was not changed)")

        try "theme: nope\ntiles:\n  - family: small\n    widget: clock\n".write(
            to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let fromHome = try runSwiftdash(["render"], env: env)
        XCTAssertEqual(fromHome.status, 1)
        XCTAssertTrue(fromHome.err.contains("home.yaml:1: no theme named `nope`"), fromHome.err)
        XCTAssertEqual(lines(fromHome.err).last, "(fix the file, or run with --theme dark; your file was not changed)")
    }

    /// Issue 38.7: every `--theme` says the built-in themes, terminal and auto too.
    func testThemeHelpNamesEveryBuiltInTheme() throws {
        for command in [["home"], ["render"], ["preview"]] {
            let help = try runSwiftdash(command + ["--help"], env: env)
            XCTAssertEqual(help.status, 0, help.err)
            let text = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for name in ["dark", "light", "terminal", "auto"] {
                XCTAssertTrue(
                    text.contains("--theme <theme> Theme name:") && text.contains(name), "\(command): \(text)")
            }
        }
    }

    func testWidgetsPrintsAParameterWithoutHelpWithoutADanglingLabel() throws {
        let widgets = config.appendingPathComponent("widgets")
        try FileManager.default.createDirectory(at: widgets, withIntermediateDirectories: true)
        let describe = """
            {"protocol":1,"widgets":[{"kind":"bare","displayName":"Bare","description":"Parameters without help",\
            "families":["small"],"parameters":[{"key":"label","type":"string"},\
            {"key":"mode","type":"string","title":"Mode"},{"key":"size","type":"string","help":"How big"},\
            {"key":"unit","type":"string","title":"Unit","help":"km or mi"}]}]}
            """
        let script = widgets.appendingPathComponent("bare")
        try """
        #!/bin/sh
        while IFS= read -r line; do
            id=${line#*\\"id\\":}
            id=${id%%[,\\}]*}
            printf '{"id":%s,"result":%s}\\n' "$id" '\(describe)'
        done

        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let r = try runSwiftdash(["widgets"], env: env)
        XCTAssertEqual(r.status, 0, r.err)
        let shown = lines(r.out).filter { $0.hasPrefix("  --set ") }
        for expected in [
            "  --set label=…", "  --set mode=…  Mode", "  --set size=…  How big", "  --set unit=…  Unit: km or mi",
        ] {
            XCTAssertTrue(shown.contains(expected), "\(expected) in\n\(shown.joined(separator: "\n"))")
        }
        for line in shown {
            XCTAssertFalse(line.hasSuffix(":") || line.hasSuffix(" "), "a dangling label: \(line.debugDescription)")
        }
    }
}
