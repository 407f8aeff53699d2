import XCTest
import Foundation
import DashTestSupport

/// Issue 37.6, "every output is sanitised, every command": a home.yaml (and its folder's name, a
/// named home's name, the arguments) full of escape sequences — a clipboard write (OSC 52), a
/// screen clear (CSI 2J), C1 introducers (0x9b, 0x9d), BEL, DEL — and every subcommand run
/// over it: nothing it writes to standard output or error holds a control character but a
/// newline or a tab (`render --ansi` holds its own colour sequences, and only those).
final class OutputSanitisingTests: XCTestCase {
    /// Every kind of sequence a terminal acts on, as YAML's double-quoted escapes write them.
    static let nasty = #"A\e]52;c;aGVsbG8=\aB\e[2JC\e[31mD\x9b2JE\x9d0;title\x9cF\x07G\x7fH\e]0;win\e\\I"#
    /// The same as raw characters (arguments, file names).
    static let raw =
        "A\u{1B}]52;c;aGVsbG8=\u{07}B\u{1B}[2JC\u{1B}[31mD\u{9B}2JE\u{9D}0;title\u{9C}F\u{07}G\u{7F}H\u{1B}]0;win\u{1B}\\I"

    var root: URL!
    var config: URL { root.appendingPathComponent("config") }
    var file: URL { config.appendingPathComponent("swiftdash/home.yaml") }
    var env: [String: String] {
        [
            "XDG_CONFIG_HOME": config.path, "XDG_STATE_HOME": root.appendingPathComponent("state").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
            // No running home screen: push, reload and snapshot find no socket here.
            "XDG_RUNTIME_DIR": root.appendingPathComponent("run").path,
        ]
    }

    override func setUpWithError() throws {
        // The folder's own name carries a sequence too: `config path` and every message that
        // names the file print it.
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftdash-out-\(UUID().uuidString)-\u{1B}]52;c;Zm9v\u{07}-\u{1B}[2J")
        for d in ["swiftdash/homes", "../run", "../state", "../cache"] {
            try FileManager.default.createDirectory(
                at: config.appendingPathComponent(d).standardizedFileURL, withIntermediateDirectories: true)
        }
        let n = Self.nasty
        try Data(
            """
            tiles:
              - widget: note
                config: { title: "\(n)" }
              - widget: api
                config:
                  title: "\(n)"
                  url: "http://127.0.0.1:1/x"
                  headers: ["X-A: \(n)"]
                  fields: ["\(n) = a.b | number"]
              - widget: chart
                config: { title: "\(n)", source: command, command: "printf '\(n)'", unit: "\(n)" }
              - widget: command
                config: { command: "printf '\(n)'", label: "\(n)", interval: 0 }
              - stack:
                  - widget: clock
                    config: { label: "\(n)" }
                  - widget: reminders
                    config: { label: "\(n)", file: "/nonexistent/\(n)" }

            """.utf8
        ).write(to: file)
        // A named home whose name is a sequence, and a broken one whose errors quote them.
        try Data("tiles:\n  - clock\n".utf8).write(
            to: config.appendingPathComponent("swiftdash/homes/x\u{1B}[2Jy\u{07}.yaml"))
        try Data("tiles:\n  - widget: \"\(n)\"\n    config: { \"\(n)\": \"\(n)\" }\n\"\(n)\": 1\n".utf8).write(
            to: config.appendingPathComponent("swiftdash/homes/broken.yaml"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    /// What a terminal would act on: C0 controls but newline and tab, DEL, C1.
    static func controls(_ s: String) -> [String] {
        s.unicodeScalars.filter { s in
            (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value)
        }.map { String(format: "U+%04X", $0.value) }
    }

    func assertClean(
        _ args: [String], ansi: Bool = false, stdin: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let r = try runSwiftdash(args, env: env)
        var out = r.out
        if ansi {
            // Our own colour sequences (SGR), and nothing else.
            out = out.replacingOccurrences(of: #"\x1B\[[0-9;]*m"#, with: "", options: .regularExpression)
        }
        let shown = args.map { $0.unicodeScalars.map { $0.value < 0x20 ? "^" : String($0) }.joined() }
        XCTAssertEqual(Self.controls(out), [], "stdout of \(shown): \(out.debugDescription)", file: file, line: line)
        XCTAssertEqual(Self.controls(r.err), [], "stderr of \(shown): \(r.err.debugDescription)", file: file, line: line)
        XCTAssertFalse(out.isEmpty && r.err.isEmpty, "\(shown) said nothing", file: file, line: line)
    }

    func testEverySubcommandsOutputIsSanitised_overAHomeFullOfEscapes() throws {
        let raw = Self.raw
        let broken = ["--home", "broken"]
        let runs: [[String]] = [
            ["--help"], ["help"], ["help", "config", "set"], ["--version"], [raw],
            ["widgets"], ["widgets", "--\(raw)"],
            ["preview", "note", "--set", "title=\(raw)"], ["preview", "api", "--set", "title=\(raw)"],
            ["preview", raw], ["preview", "note", "--set", "\(raw)=1"],
            ["render", "--size", "120x40"], ["render", "--size", "120x40", "--live"], ["render", "--size", raw],
            ["timeline"], ["timeline", "note"], ["timeline", raw],
            ["config", "check"], ["config", "path"], ["config", "homes"], ["config", "set", "w1", "title=\(raw)"],
            ["config", "set", "w1", "\(raw)=1"], ["config", "set", raw, "a=b"], ["config", "check"] + broken,
            ["render", "--size", "120x40"] + broken, ["timeline"] + broken, ["config", "check", "--home", raw],
            ["add", "note", "--set", "title=\(raw)"], ["add", raw], ["remove", "w1"], ["remove", raw],
            ["push", "note", "--file", "/nonexistent/\(raw)"], ["push", raw],
            ["reload"], ["reload", raw], ["snapshot"], ["snapshot", "--line", raw], ["snapshot", "--kinds", raw],
            ["new-widget", "--help"], ["new-widget", raw], ["bench", "--help"], ["home", "--theme", raw],
            ["preview", "note", "--placeholder"], ["render", "--size", "120x40", "--theme", raw],
        ]
        for args in runs { try assertClean(args) }
        try assertClean(["render", "--size", "120x40", "--ansi"], ansi: true)
        try assertClean(["preview", "note", "--set", "title=\(raw)", "--ansi"], ansi: true)
    }

    /// The timeline report quoted a setting raw where `render` and `config check` did not: the
    /// report's case, byte for byte.
    func testEverySubcommandsOutputIsSanitised_timelineQuotesASettingWithoutItsEscapes() throws {
        let r = try runSwiftdash(["timeline", "note"], env: env)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains("\u{1B}"), r.out.debugDescription)
        XCTAssertTrue(r.out.contains("note"), r.out)
    }

    /// The one writer: nothing in the command-line target prints but through `Output.swift`.
    func testEverySubcommandsOutputIsSanitised_noOtherWriter() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/swiftdash").standardizedFileURL
        // Subfolders too (Activities/): `run`'s pass-through of a command's own bytes writes to a
        // descriptor it was handed, never to a literal 1 or 2.
        let files = (FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? []).filter {
            $0.hasSuffix(".swift")
        }
        XCTAssertTrue(files.contains("Output.swift"))
        let writers = try NSRegularExpression(
            pattern: #"(?<![\w.])(print|debugPrint|dump|fputs|putchar|puts)\(|FileHandle\.standard(Output|Error)|\bwrite\((1|2|STDOUT_FILENO|STDERR_FILENO),"#)
        for name in files where name != "Output.swift" {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let l = String(line)
                if l.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                let hit = writers.firstMatch(in: l, range: NSRange(l.startIndex..., in: l)) != nil
                // The test hook that stops a write mid-way says so with write(2) (no outside text).
                if hit && !l.contains("swiftdash-test: stopped writing") && !l.contains("Glibc.write(2, $0.baseAddress") {
                    XCTFail("\(name):\(i + 1) writes around printOut/printError: \(l)")
                }
            }
        }
    }
}
