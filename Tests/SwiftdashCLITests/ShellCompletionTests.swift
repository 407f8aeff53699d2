import XCTest
import Foundation
import DashTestSupport
@testable import swiftdash

/// The exit-0 messages of ArgumentParser (completion scripts, long help, the manual's JSON) come
/// out whole, the scripts parse in their shell, and completing a word asks swiftdash for the
/// subcommands, widget kinds and ids a command takes. A shell that is not installed is skipped.
final class ShellCompletionTests: XCTestCase {
    var dir: URL!
    var env: [String: String] {
        [
            "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path,
            "XDG_STATE_HOME": dir.appendingPathComponent("state").path,
        ]
    }

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-compl-\(UUID().uuidString)")
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // Tile t1 holds w1; the stack t2 holds w2 and w3.
        try """
        tiles:
          - clock
          - family: medium
            stack:
              - widget: crypto
              - widget: news
        """.write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { if let dir { try? FileManager.default.removeItem(at: dir) } }

    func installedShell(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Runs `shell` with `args`, in the test's folders, with the built swiftdash first on PATH.
    func runShell(_ shell: String, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let exe = try XCTUnwrap(builtProduct("swiftdash"))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: shell)
        p.arguments = args
        var vars = env
        vars["HOME"] = dir.path
        vars["PATH"] = exe.deletingLastPathComponent().path + ":/usr/bin:/bin"
        vars["LANG"] = "C.UTF-8"
        p.environment = vars
        p.standardInput = FileHandle.nullDevice
        return try runToEnd(p)
    }

    func script(_ shell: String) throws -> URL {
        let r = try runSwiftdash(["--generate-completion-script", shell], env: env)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.err, "")
        let file = dir.appendingPathComponent("completion.\(shell)")
        try r.out.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func testCompletionScriptsArePrintedWholeAndParseInTheirShell() throws {
        var checked: [String] = []
        for (shell, check) in [("bash", ["-n"]), ("zsh", ["-n"]), ("fish", ["--no-execute"])] {
            let file = try script(shell)
            let text = try String(contentsOf: file, encoding: .utf8)
            // Whole: longer than the 2,000 characters the sanitiser kept, and it ends where the
            // script ends (the bash one used to stop mid-line at `unset "u…`).
            XCTAssertGreaterThan(text.count, 2000, shell)
            XCTAssertTrue(text.hasSuffix("\n"), shell)
            XCTAssertFalse(text.contains("…"), shell)
            guard let path = installedShell(shell) else { continue }
            let r = try runShell(path, check + [file.path])
            XCTAssertEqual(r.status, 0, "\(shell) \(check) says: \(r.err)")
            checked.append(shell)
        }
        if checked.isEmpty { throw XCTSkip("none of bash, zsh, fish is installed") }
    }

    func testLongHelpAndTheManualsJSONArePrintedWhole() throws {
        let dump = try runSwiftdash(["--experimental-dump-help"], env: env)
        XCTAssertEqual(dump.status, 0, dump.err)
        XCTAssertGreaterThan(dump.out.count, 2000)
        let json = try JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any]
        let command = try XCTUnwrap(json?["command"] as? [String: Any])
        let names = (command["subcommands"] as? [[String: Any]])?.compactMap { $0["commandName"] as? String }
        XCTAssertEqual(names?.contains("render"), true)
        let help = try runSwiftdash(["help", "config", "check"], env: env)
        XCTAssertEqual(help.status, 0, help.err)
        XCTAssertTrue(help.out.contains("--help"), help.out)
    }

    /// bash: what `_swiftdash` puts in COMPREPLY for the words typed so far.
    func bashCompletions(_ words: [String]) throws -> [String] {
        guard let bash = installedShell("bash") else { throw XCTSkip("bash is not installed") }
        let file = try script("bash")
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let r = try runShell(
            bash,
            [
                "-c",
                """
                source '\(file.path)'
                COMP_WORDS=(\(quoted)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
                COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                _swiftdash swiftdash "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """,
            ])
        XCTAssertEqual(r.status, 0, r.err)
        return r.out.split(separator: "\n").map(String.init)
    }

    func testBashCompletesSubcommandsKindsAndIds() throws {
        XCTAssertEqual(try bashCompletions(["swiftdash", "re"]).sorted(), ["reload", "remove", "render"])
        let config = try bashCompletions(["swiftdash", "config", ""])
        for word in ["check", "path", "set"] { XCTAssertTrue(config.contains(word), "\(config)") }
        XCTAssertEqual(try bashCompletions(["swiftdash", "preview", "cl"]), ["clock"])
        XCTAssertEqual(try bashCompletions(["swiftdash", "add", "cr"]), ["crypto"])
        // The ids `config check` prints: config set takes widgets and single-widget tiles.
        let check = try runSwiftdash(["config", "check"], env: env)
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertEqual(try bashCompletions(["swiftdash", "config", "set", ""]), ["t1", "w1", "w2", "w3"])
        XCTAssertEqual(try bashCompletions(["swiftdash", "remove", "t"]), ["t1", "t2"])
        XCTAssertEqual(
            try bashCompletions(["swiftdash", "reload", "w"]), ["water", "weather", "w1", "w2", "w3"].sorted())
    }

    /// fish: `complete -C` lists what fish would offer for a command line.
    func fishCompletions(_ line: String) throws -> [String] {
        guard let fish = installedShell("fish") else { throw XCTSkip("fish is not installed") }
        let file = try script("fish")
        let r = try runShell(fish, ["-c", "source '\(file.path)'; complete -C '\(line)'"])
        XCTAssertEqual(r.status, 0, r.err)
        return r.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    /// Subcommands through `complete -C`. The kinds and ids: fish's `complete -C` gives a
    /// completion function no command line to read (`commandline -t` is empty outside an
    /// interactive line), so the test makes the call the script's `__swiftdash_custom_completion`
    /// makes for `swiftdash preview cl`, and checks the script makes it for those commands.
    func testFishCompletesSubcommandsKindsAndIds() throws {
        // Skipped, not failed, without fish (the skip thrown inside an assertion counts as a failure).
        guard installedShell("fish") != nil else { throw XCTSkip("fish is not installed") }
        XCTAssertEqual(try fishCompletions("swiftdash re").sorted(), ["reload", "remove", "render"])
        XCTAssertEqual(
            try fishCompletions("swiftdash config ").filter { ["check", "path", "set"].contains($0) }.count, 3)
        let text = try String(contentsOf: try script("fish"), encoding: .utf8)
        for command in ["preview", "add", "config set", "remove", "reload", "push"] {
            XCTAssertTrue(
                text.contains("(__swiftdash_custom_completion ---completion \(command) -- positional@0 "), command)
        }
        func ask(_ words: [String]) throws -> [String] {
            let r = try runSwiftdash(
                ["---completion"] + words.prefix(while: { $0 != "swiftdash" }) + ["--", "positional@0"]
                    + ["\(words.split(separator: "swiftdash")[1].count)", "\(words.last!.count)"]
                    + ["swiftdash"] + words.split(separator: "swiftdash")[1],
                env: env.merging(["SAP_SHELL": "fish", "SAP_SHELL_VERSION": "3.6.0"]) { $1 })
            XCTAssertEqual(r.status, 0, r.err)
            return r.out.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try ask(["preview", "swiftdash", "preview", "cl"]), ["clock"])
        XCTAssertEqual(try ask(["config", "set", "swiftdash", "config", "set", "w"]), ["w1", "w2", "w3"])
        XCTAssertEqual(try ask(["remove", "swiftdash", "remove", "t"]), ["t1", "t2"])
    }

    /// A completion's candidates are the one exit-0 message with outside text in it: only plain
    /// words come back (an extension's kind, an id from the ids file beside home.yaml).
    func testCustomCompletionAnswersArePlainWords() throws {
        XCTAssertEqual(
            ShellCompletion.words(
                ["clock", "w2", "w1", "w1", "x\u{1b}]52;c;eA==\u{07}", "a b", "$(rm)", "é", "t1"], prefix: ""),
            ["clock", "t1", "w1", "w2"])
        XCTAssertEqual(ShellCompletion.words(["w1", "w12", "t1"], prefix: "w1"), ["w1", "w12"])
        // Through the binary, as a shell asks: `---completion preview -- positional@0 INDEX CURSOR WORD`.
        let all = try runSwiftdash(["---completion", "preview", "--", "positional@0", "0", "1", "n"], env: env)
        XCTAssertEqual(all.status, 0, all.err)
        XCTAssertEqual(all.out.split(separator: "\n").map(String.init), ["news", "note"])
    }
}
