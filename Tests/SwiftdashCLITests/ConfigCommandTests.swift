import XCTest
import Foundation
import DashTestSupport
import DashFiles

/// `swiftdash config check|path|set`, `add` and `remove`, through the real binary, on a file
/// with comments; and the file's safety when writers are killed or run at once.
final class ConfigCommandTests: XCTestCase {
    var home: URL!
    var dir: URL { home.appendingPathComponent("swiftdash") }
    var file: URL { dir.appendingPathComponent("home.yaml") }
    var env: [String: String] { ["XDG_CONFIG_HOME": home.path] }

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-cfgcmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: home) }

    let commented = """
        # my tiles
        tiles:
          # the time
          - family: small
            widget: clock
            config:
              label: Home   # shown under the time

          - family: medium   # news
            widget: news

        """

    func put(_ text: String) throws { try Data(text.utf8).write(to: file) }
    func contents() throws -> String { try String(contentsOf: file, encoding: .utf8) }
    func run(_ args: String...) throws -> (status: Int32, out: String, err: String) { try runSwiftdash(args, env: env) }

    func testPathAndCheckWithoutAFile() throws {
        let p = try run("config", "path")
        XCTAssertEqual(p.status, 0)
        XCTAssertEqual(p.out, file.path + "\n")
        let c = try run("config", "check")
        XCTAssertEqual(c.status, 0, c.err)
        XCTAssertEqual(c.out, "\(file.path): no file yet; swiftdash shows the built-in default home (6 tiles)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "checking writes nothing")
    }

    /// Issue 24.1: `config set` and `--set` spell a list in YAML flow syntax, so an argument
    /// can hold a comma or be empty; the file gets the list byte for byte; `--help` says so.
    func testCommandRunsWithExactlyTheArgumentsWrittenThroughConfigSet() throws {
        try put(commented)
        let a = try run("add", "command", "--set", #"command=[cut, "-d,", -f1, ""]"#)
        XCTAssertEqual(a.status, 0, a.err)
        var text = try contents()
        XCTAssertTrue(text.contains(#"command: [cut, "-d,", "-f1", ""]"#), text)
        let s = try run("config", "set", "w3", #"command=[rm, 'old,file']"#)
        XCTAssertEqual(s.status, 0, s.err)
        XCTAssertEqual(s.out, "w3 command: command = [rm, \"old,file\"]\n")
        text = try contents()
        XCTAssertTrue(text.contains(#"command: [rm, "old,file"]"#), text)
        let line = try run("config", "set", "w3", "command=echo a, b", "shell=true")
        XCTAssertEqual(line.status, 0, line.err)
        text = try contents()
        XCTAssertTrue(text.contains(#"command: ["echo a, b"]"#), text)
        let bad = try run("config", "set", "w3", #"command=[rm, "old"#)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.err.contains("an item has no closing \""), bad.err)
        for help in [try run("config", "set", "--help"), try run("add", "--help")] {
            XCTAssertTrue(help.out.contains(#"key='[a, "b,c", ""]'"#), help.out)
        }
    }

    /// Issue 24.5: `config set` on a value written under a YAML anchor edits it where it is
    /// written, for every widget that shares it, and says which; an alias user gets its own value.
    func testConfigSetOfAnAnchoredValueEditsItForAllAndSaysSo() throws {
        let shared = """
            tiles:
              - family: small
                widget: clock
                config: { label: &city Paris, timeZone: Europe/Paris }
              - family: small
                widget: clock
                config: { label: *city }
              - family: small
                widget: clock
                config:
                  label: *city

            """
        try put(shared)
        let s = try run("config", "set", "w1", "label=Lyon")
        XCTAssertEqual(s.status, 0, s.err)
        XCTAssertEqual(
            s.out,
            "w1 clock: label = Lyon\nlabel is shared through &city (line 4): 2 other widgets changed too (w2, w3)\n")
        XCTAssertEqual(try contents(), shared.replacingOccurrences(of: "&city Paris", with: "&city Lyon"))
        let own = try run("config", "set", "w3", "label=Nice")
        XCTAssertEqual(own.status, 0, own.err)
        XCTAssertEqual(own.out, "w3 clock: label = Nice\n", "an alias user's own value: nothing else changes")
        XCTAssertEqual(
            try contents(),
            shared.replacingOccurrences(of: "&city Paris", with: "&city Lyon")
                .replacingOccurrences(of: "      label: *city", with: "      label: Nice"))
    }

    /// Issue 24.7: a folder swiftdash may not write in says "permission denied" (it said "No such
    /// file or directory"). Run as nobody when the tests run as root, who may write anywhere.
    func testAReadOnlyFolderSaysPermissionDenied() throws {
        try put(commented)
        let lock = dir.appendingPathComponent(".home.yaml.lock")
        try Data().write(to: lock)
        chmod(lock.path, 0o666)
        chmod(file.path, 0o666)
        chmod(dir.path, 0o555)
        defer { chmod(dir.path, 0o755) }
        var args = ["config", "set", "w1", "label=Office"]
        let exe = try XCTUnwrap(builtProduct("swiftdash"))
        let p = Process()
        if getuid() == 0 {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            args = ["--reuid=65534", "--regid=65534", "--clear-groups", exe.path] + args
        } else {
            p.executableURL = exe
        }
        p.arguments = args
        p.environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertNotEqual(p.terminationStatus, 0)
        XCTAssertTrue(said.contains("permission denied"), said)
        XCTAssertFalse(said.contains("No such file"), said)
        XCTAssertEqual(try contents(), commented)
    }

    func testAddSetAndRemoveChangeOnlyTheirLines() throws {
        try put(commented)
        let a = try run("add", "clock", "--family", "medium", "--set", "timeZone=Asia/Tokyo", "--set", "label=Tokyo")
        XCTAssertEqual(a.status, 0, a.err)
        XCTAssertEqual(a.out, "added w3 clock in t3 (medium)\n")
        let afterAdd = try contents()
        XCTAssertEqual(
            afterAdd,
            commented + """

                  - family: medium
                    widget: clock
                    config:
                      timeZone: Asia/Tokyo
                      label: Tokyo

                """)
        let s = try run("config", "set", "w1", "label=Office")
        XCTAssertEqual(s.status, 0, s.err)
        XCTAssertEqual(s.out, "w1 clock: label = Office\n")
        XCTAssertEqual(try contents(), afterAdd.replacingOccurrences(of: "label: Home   #", with: "label: Office   #"))
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("home.yaml.bak"), encoding: .utf8), afterAdd)
        let t = try run("config", "set", "t2", "count=3")
        XCTAssertEqual(t.status, 0, t.err)
        XCTAssertTrue(try contents().contains("    widget: news\n    config:\n      count: 3\n"))
        let r = try run("remove", "t2")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.out, "removed t2 (news, medium)\n")
        XCTAssertEqual(
            try contents(),
            """
            # my tiles
            tiles:
              # the time
              - family: small
                widget: clock
                config:
                  label: Office   # shown under the time

              - family: medium
                widget: clock
                config:
                  timeZone: Asia/Tokyo
                  label: Tokyo

            """)
        let c = try run("config", "check")
        XCTAssertEqual(c.status, 0)
        XCTAssertEqual(
            c.out, "\(file.path): ok — 2 tiles, 2 widgets: w1 clock in t1 (small); w3 clock in t3 (medium)\n",
            "ids stay when an earlier tile goes (decision 41)")
    }

    /// One id, one widget (decision 41): an id stays with its widget when an earlier one goes, the next
    /// one is new, and an id that is gone is refused with the ids there are, by every command.
    func testIDsStayWithTheirWidgetsAndAGoneIDListsTheOthers() throws {
        try put(commented)
        XCTAssertEqual(try run("remove", "w1").out, "removed t1 (clock, small)\n")
        let a = try run("add", "note")
        XCTAssertEqual(a.out, "added w3 note in t3 (small)\n", a.err)
        let c = try run("config", "check")
        XCTAssertTrue(c.out.hasSuffix(": w2 news in t2 (medium); w3 note in t3 (small)\n"), c.out)
        XCTAssertEqual(try run("config", "set", "w2", "count=2").out, "w2 news: count = 2\n")
        let cases: [([String], String)] = [
            (
                ["config", "set", "w1", "label=x"],
                "no widget 'w1'; the widgets are: w2 news in t2 (medium); w3 note in t3"
            ),
            (["remove", "w1"], "no tile or widget 'w1'; the home screen has: w2 news in t2 (medium); w3 note in t3"),
            (
                ["reload", "w1"],
                "swiftdash: error: no widget 'w1' on the home screen; its widgets: w2 news, w3 note\n"
            ),
            (["reload", "t3"], "swiftdash: error: 't3' is a tile; reload its widgets by id: w3 note\n"),
        ]
        for (args, message) in cases {
            let r = try runSwiftdash(args, env: env)
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains(message), "\(args): \(r.err)")
        }
        let json = home.appendingPathComponent("t.json")
        try Data(#"{"entries": []}"#.utf8).write(to: json)
        let push = try runSwiftdash(["push", "w1", "--json", json.path], env: env)
        XCTAssertEqual(push.status, 2, push.err)
        XCTAssertEqual(
            push.err,
            "swiftdash: error: no widget kind or id 'w1' on the home screen; ids that take pushes: w3 note "
                + "(`swiftdash config check` lists every id); widgets that take pushes: note\n")
        // A known id goes to the running swiftdash (none runs here).
        let reload = try run("reload", "w3")
        XCTAssertEqual(reload.status, 1)
        XCTAssertTrue(reload.err.hasPrefix("swiftdash: error: no running swiftdash found"), reload.err)
        // The record beside the file holds no configuration, only fingerprints.
        let record = try String(contentsOf: dir.appendingPathComponent(".home.yaml.ids"), encoding: .utf8)
        XCTAssertFalse(record.contains("count"), record)
    }

    func testFirstAddWritesTheDefaultHomeWithAHeader() throws {
        let a = try run("add", "crypto", "--set", "coin=LTC")
        XCTAssertEqual(a.status, 0, a.err)
        XCTAssertEqual(a.out, "added w7 crypto in t7 (small)\n")
        let text = try contents()
        XCTAssertTrue(text.hasPrefix("# swiftdash home screen"), text)
        XCTAssertTrue(text.hasSuffix("  - family: small\n    widget: crypto\n    config:\n      coin: LTC\n"), text)
    }

    func testUsageErrorsExitTwoAreCleanAndChangeNothing() throws {
        try put(commented)
        let cases: [([String], String)] = [
            (
                ["add", "clo\u{1B}[2Jck"],
                "unknown widget 'clock'; available: clock, calendar, system, weather, command, note, reminders, recipe, water, crypto, news, commits, api, chart, github"
            ),
            (["add", "clock", "--family", "huge"], "unknown family 'huge'; use small, medium, large or extraLarge"),
            (
                ["add", "clock", "--family", "extraLarge"],
                "clock has no extraLarge size; it supports small, medium, large"
            ),
            (
                ["add", "clock", "--set", "colour=red"],
                "clock: colour: no such parameter; this widget has: timeZone, label"
            ),
            (["add", "clock", "--set", "novalue"], "'novalue' is not key=value; parameters of clock: timeZone, label"),
            (
                ["config", "set", "w1", "timeZone=Not a zone"],
                "clock: timeZone: 'Not a zone' is not one of UTC or a time zone name such as Europe/Paris"
            ),
            (
                ["config", "set", "w1", "timeZone=Paris\u{1B}]0;x\u{07}"],
                "timeZone: control characters are not allowed in a value"
            ),
            (["config", "set", "w1", "label=\u{1B}[31mred"], "label: control characters are not allowed in a value"),
            (
                ["config", "set", "w9", "label=x"],
                "no widget 'w9'; the widgets are: w1 clock in t1 (small); w2 news in t2 (medium)"
            ),
            (["remove", "t9"], "no tile or widget 't9'; the home screen has: w1 clock in t1 (small)"),
            (["config", "set", "w1"], "give at least one key=value"),
        ]
        for (args, message) in cases {
            let r = try runSwiftdash(args, env: env)
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains(message), "\(args.debugDescription): \(r.err)")
            XCTAssertFalse(r.err.contains("\u{1B}") || r.err.contains("\u{07}"), "no escape sequence echoed: \(args)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, "one line: \(r.err)")
        }
        XCTAssertEqual(try contents(), commented, "nothing was written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("home.yaml.bak").path))
    }

    func testABrokenFileIsReportedAndNeverOverwritten() throws {
        let broken = """
            tiles:
              - family: small
                widget: clok
              - family: medium
                widget: news
                config:
                  count: 99
                  feed: "ftp://\\e[2Jnope"

            """
        try put(broken)
        let c = try run("config", "check")
        XCTAssertEqual(c.status, 1)
        XCTAssertEqual(
            c.out,
            """
            \(file.path):3: unknown widget `clok`; available: clock, calendar, system, weather, command, note, reminders, recipe, water, crypto, news, commits, api, chart, github
            \(file.path):7: news: count: 99 is out of range; allowed: a whole number from 0 to 20
            \(file.path):8: news: feed: 'ftp://nope' is not an http:// or https:// address

            """)
        for args in [["add", "clock"], ["remove", "t1"], ["config", "set", "w2", "count=1"]] {
            let r = try runSwiftdash(args, env: env)
            XCTAssertEqual(r.status, 1, "\(args)")
            XCTAssertTrue(r.err.contains("home.yaml:3: unknown widget `clok`"), r.err)
        }
        XCTAssertEqual(try contents(), broken)
        let other = home.appendingPathComponent("other.yaml")
        try Data("tiles: []\n".utf8).write(to: other)
        let o = try run("config", "check", other.path)
        XCTAssertEqual(o.status, 0)
        XCTAssertEqual(o.out, "\(other.path): ok — 0 tiles, 0 widgets: \n")
        XCTAssertEqual(try run("config", "check", home.appendingPathComponent("none.yaml").path).status, 1)
    }

    func testWritersAtOnceLoseNothing() throws {
        try put(commented)
        guard let exe = builtProduct("swiftdash") else { throw XCTSkip("swiftdash not built") }
        var procs: [Process] = []
        for i in 0..<10 {
            let p = Process()
            p.executableURL = exe
            p.arguments = ["add", "clock", "--set", "label=p\(i)"]
            p.environment = env.merging(["HOME": home.path, "PATH": "/usr/bin:/bin"]) { $1 }
            p.standardOutput = FileHandle.nullDevice
            procs.append(p)
        }
        for p in procs { try p.run() }
        for p in procs {
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0)
        }
        let text = try contents()
        XCTAssertTrue(text.hasPrefix(commented), "the file's own lines are untouched")
        for i in 0..<10 { XCTAssertTrue(text.contains("label: p\(i)\n"), "p\(i) is there") }
        XCTAssertEqual(try run("config", "check").status, 0)
    }

    /// `kill -9` of `swiftdash config set` at every moment of its write, and at random moments:
    /// the file is always exactly the old or the new content, never a mix, never empty;
    /// home.yaml.bak likewise.
    func testAWriterKilledAtAnyMomentLeavesTheOldOrTheNewFile() throws {
        guard let exe = builtProduct("swiftdash") else { throw XCTSkip("swiftdash not built") }
        let bak = dir.appendingPathComponent("home.yaml.bak")
        try put("# killed writers\ntiles:\n  - family: small\n    widget: clock\n    config:\n      label: v0\n")
        func start(_ label: String, stopAt moment: AtomicFile.Moment? = nil) throws -> (Process, Pipe) {
            let p = Process()
            p.executableURL = exe
            p.arguments = ["config", "set", "w1", "label=\(label)"]
            var environment = env.merging(["HOME": home.path, "PATH": "/usr/bin:/bin"]) { $1 }
            if let moment { environment["SWIFTDASH_TEST_STOP_WRITE"] = "\(moment.rawValue):home.yaml" }
            p.environment = environment
            p.standardOutput = FileHandle.nullDevice
            let err = Pipe()
            p.standardError = err
            try p.run()
            return (p, err)
        }
        var label = "v0"
        var i = 0
        func tempLeft(by pid: Int32) -> Bool {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.contains { $0.hasPrefix(".home.yaml.tmp-\(pid)-") }
        }

        // Killed at each moment of the write, reported by the writer itself: what is on disk is
        // known exactly.
        var outcomes = (old: 0, new: 0, midWrite: 0, afterBackup: 0)
        for round in 0..<3 {
            for moment in AtomicFile.Moment.allCases {
                i += 1
                let old = try contents()
                let oldBak = try? String(contentsOf: bak, encoding: .utf8)
                let new = old.replacingOccurrences(of: "label: \(label)\n", with: "label: v\(i)\n")
                let (p, err) = try start("v\(i)", stopAt: moment)
                // Block until the writer says where it stopped (or ends without saying so).
                var said = Data()
                while !String(decoding: said, as: UTF8.self).contains("\n") {
                    let chunk = err.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    said.append(chunk)
                }
                let report = String(decoding: said, as: UTF8.self)
                XCTAssertEqual(
                    report, "swiftdash-test: stopped writing home.yaml at \(moment.rawValue)\n", "round \(round)")
                kill(p.processIdentifier, SIGKILL)
                p.waitUntilExit()
                let now = try contents()
                let nowBak = try? String(contentsOf: bak, encoding: .utf8)
                switch moment {
                case .written:
                    XCTAssertEqual(now, old, "killed with only the temporary file written: the old file stays")
                    XCTAssertEqual(nowBak, oldBak, "and the backup is untouched")
                    XCTAssertTrue(tempLeft(by: p.processIdentifier), "the temporary file it wrote is left behind")
                    outcomes.old += 1
                    outcomes.midWrite += 1
                case .backedUp:
                    XCTAssertEqual(now, old, "killed after the backup: the old file stays")
                    XCTAssertEqual(nowBak, old, "and the backup is the old file")
                    outcomes.old += 1
                    if oldBak != old { outcomes.afterBackup += 1 }
                case .renamed:
                    XCTAssertEqual(now, new, "killed after the rename: the new file is there")
                    XCTAssertEqual(nowBak, old, "and the backup is the old file")
                    outcomes.new += 1
                    label = "v\(i)"
                }
            }
        }
        XCTAssertGreaterThan(outcomes.old, 0, "some writers were killed before they finished")
        XCTAssertGreaterThan(outcomes.new, 0, "some finished")
        XCTAssertGreaterThan(outcomes.midWrite + outcomes.afterBackup, 0, "some were killed in the middle of writing")

        // Killed at random moments of a whole run (which may fall before, inside or after the
        // write): never a mix.
        var generator = SystemRandomNumberGenerator()
        for _ in 1...60 {
            i += 1
            let old = try contents()
            let oldBak = try? String(contentsOf: bak, encoding: .utf8)
            let new = old.replacingOccurrences(of: "label: \(label)\n", with: "label: v\(i)\n")
            XCTAssertNotEqual(old, new)
            let (p, _) = try start("v\(i)")
            usleep(useconds_t.random(in: 0...150_000, using: &generator))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let now = try contents()
            let nowBak = try? String(contentsOf: bak, encoding: .utf8)
            XCTAssertTrue(
                now == old || now == new, "kill \(i): the file is neither the old nor the new version:\n\(now)")
            XCTAssertTrue(
                nowBak == oldBak || nowBak == old, "kill \(i): the backup is neither its old version nor the old file")
            if now == new { label = "v\(i)" }
        }
        // The next write cleans up what killed writers left.
        let last = try run("config", "set", "w1", "label=final")
        XCTAssertEqual(last.status, 0, last.err)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(left, [])
    }
}
