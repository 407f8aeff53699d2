import XCTest
import Foundation
import DashTestSupport

/// `--home NAME` and `--config FILE` (issue 27.7, decision 47): each command that reads or changes
/// the home screen, or talks to a running one, takes them; an unknown name says which homes exist.
final class NamedHomesCLITests: XCTestCase {
    var root: URL!
    var dir: URL { root.appendingPathComponent("config/swiftdash") }
    var env: [String: String] {
        [
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
            "XDG_STATE_HOME": root.appendingPathComponent("state").path,
            "XDG_RUNTIME_DIR": root.appendingPathComponent("run").path,
        ]
    }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-homes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("tiles:\n  - clock\n".utf8).write(to: dir.appendingPathComponent("home.yaml"))
        try Data("# work\ntiles:\n  - family: medium\n    widget: news\n".utf8)
            .write(to: dir.appendingPathComponent("home-work.yaml"))
    }

    override func tearDownWithError() throws { if let root { try? FileManager.default.removeItem(at: root) } }

    func run(_ args: String..., extra: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        try runSwiftdash(args, env: env.merging(extra) { $1 })
    }

    func text(_ name: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
    }

    func testANamedHomeIsItsOwnFileForEveryCommand() throws {
        let path = try run("config", "path", "--home", "work")
        XCTAssertEqual(path.out, dir.appendingPathComponent("home-work.yaml").path + "\n", path.err)
        let check = try run("config", "check", "--home", "work")
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.out.hasSuffix("home-work.yaml: ok — 1 tile, 1 widget: w1 news in t1 (medium)\n"), check.out)
        // The environment variable chooses the same, and --home default the usual file.
        XCTAssertEqual(try run("config", "path", extra: ["SWIFTDASH_HOME": "work"]).out, path.out)
        XCTAssertEqual(
            try run("config", "path", "--home", "default", extra: ["SWIFTDASH_HOME": "work"]).out,
            dir.appendingPathComponent("home.yaml").path + "\n")

        let set = try run("config", "set", "--home", "work", "w1", "count=3")
        XCTAssertEqual(set.status, 0, set.err)
        XCTAssertEqual(
            try text("home-work.yaml"),
            "# work\ntiles:\n  - family: medium\n    widget: news\n    config:\n      count: 3\n")
        let add = try run("add", "--home", "work", "clock")
        XCTAssertEqual(add.status, 0, add.err)
        XCTAssertEqual(add.out, "added w2 clock in t2 (small)\n")
        let remove = try run("remove", "--home", "work", "t1")
        XCTAssertEqual(remove.status, 0, remove.err)
        XCTAssertEqual(try text("home.yaml"), "tiles:\n  - clock\n", "the default home is not touched")

        let snapshot = try run("snapshot", "--json", "--home", "work")
        XCTAssertEqual(snapshot.status, 0, snapshot.err)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(snapshot.out.utf8)) as? [String: Any])
        XCTAssertEqual((doc["tiles"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }, ["clock"])
        let render = try run("render", "--home", "work", "--size", "80x24", "--at", "2026-11-23T09:30:00Z")
        XCTAssertEqual(render.status, 0, render.err)
        // Nothing runs for this home: reload asks its own socket and says so.
        let reload = try run("reload", "--home", "work")
        XCTAssertEqual(reload.status, 1)
        XCTAssertFalse(reload.err.isEmpty)
    }

    func testAnUnknownNameSaysWhichHomesExistAndAddStartsOne() throws {
        for args in [
            ["config", "check"], ["render"], ["snapshot"], ["config", "set", "w1", "count=2"], ["remove", "t1"],
            ["reload"], ["timeline"],
        ] {
            let r = try runSwiftdash(args + ["--home", "wrok"], env: env)
            // Issue 38.7: a home no one made is a usage mistake (2), as a bad name is.
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains("no home 'wrok'"), "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains("homes: default (home.yaml), work"), "\(args): \(r.err)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("home-wrok.yaml").path))
        let add = try run("add", "--home", "play", "clock")
        XCTAssertEqual(add.status, 0, add.err)
        XCTAssertEqual(add.out, "added w1 clock in t1 (small)\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("home-play.yaml").path))
        let homes = try run("config", "homes")
        XCTAssertEqual(homes.status, 0, homes.err)
        XCTAssertEqual(
            homes.out,
            "default\t\(dir.path)/home.yaml\nplay\t\(dir.path)/home-play.yaml\nwork\t\(dir.path)/home-work.yaml\n")
    }

    /// Issue 38.7: `add --home NAME` on a home that does not exist yet starts it with the one
    /// tile added, not the default home's six plus it.
    func testAddOnANewHomeStartsWithWhatTheUserAdded() throws {
        let add = try run("add", "--home", "fresh", "weather", "--family", "medium")
        XCTAssertEqual(add.status, 0, add.err)
        XCTAssertEqual(add.out, "added w1 weather in t1 (medium)\n")
        let check = try run("config", "check", "--home", "fresh")
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.out.hasSuffix(": ok — 1 tile, 1 widget: w1 weather in t1 (medium)\n"), check.out)
        XCTAssertEqual(try text("home.yaml"), "tiles:\n  - clock\n", "the default home is not touched")
    }

    func testBadNamesAndTwoChoicesAreUsageErrors() throws {
        let bad = try run("config", "check", "--home", "../etc")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.err.contains("a home's name is 1 to 40 letters"), bad.err)
        let both = try run("config", "check", "--home", "work", "--config", "x.yaml")
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.err.contains("--home and --config name two home screens"), both.err)
        let env = try run("config", "check", extra: ["SWIFTDASH_HOME": "a/b"])
        XCTAssertEqual(env.status, 2, env.err)
        XCTAssertTrue(env.err.contains("SWIFTDASH_HOME='a/b'"), env.err)
    }

    /// Issue 37 point 8: `add` wrote the default home under an invalid SWIFTDASH_HOME, where every
    /// other command refuses it.
    func testAddRefusesAnInvalidSwiftdashHomeLikeEveryOtherCommand() throws {
        let before = try Data(contentsOf: dir.appendingPathComponent("home.yaml"))
        for value in ["a/b", "../etc", "no such home!"] {
            let r = try run("add", "clock", extra: ["SWIFTDASH_HOME": value])
            XCTAssertEqual(r.status, 2, "\(value): \(r.out) \(r.err)")
            XCTAssertTrue(r.err.contains("SWIFTDASH_HOME='\(value)'"), r.err)
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("home.yaml")), before, value)
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["home-work.yaml", "home.yaml"])
        // A valid name still creates its home.
        XCTAssertEqual(try run("add", "clock", extra: ["SWIFTDASH_HOME": "fresh"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("home-fresh.yaml").path))
    }

    func testConfigTakesAnyFile() throws {
        let file = root.appendingPathComponent("elsewhere.yaml")
        try Data("tiles:\n  - family: medium\n    widget: crypto\n".utf8).write(to: file)
        let check = try run("config", "check", "--config", file.path)
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.out.contains("w1 crypto in t1 (medium)"), check.out)
        let path = try run("config", "path", "--config", file.path)
        XCTAssertEqual(path.out, file.path + "\n")
        let missing = try run("config", "check", "--config", root.appendingPathComponent("nope.yaml").path)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.err.contains("no file"), missing.err)
    }
}

/// A secret written as a command in home.yaml (decision 48), through the command line.
final class SecretCommandCLITests: XCTestCase {
    func testConfigCheckAcceptsACommandAndConfigSetReplacesIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-sc-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("swiftdash")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = dir.appendingPathComponent("home.yaml")
        try Data(
            "tiles:\n  - family: medium\n    widget: crypto\n    config:\n      apiKey: { command: [pass, show, cg] }\n"
                .utf8
        ).write(to: file)
        let env = ["XDG_CONFIG_HOME": root.path]
        let check = try runSwiftdash(["config", "check"], env: env)
        XCTAssertEqual(check.status, 0, check.out + check.err)
        let set = try runSwiftdash(["config", "set", "w1", "apiKey=typed-key"], env: env)
        XCTAssertEqual(set.status, 0, set.err)
        XCTAssertEqual(set.out, "w1 crypto: apiKey = ••••••\n")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertFalse(text.contains("command"), text)
        XCTAssertTrue(text.contains("apiKey: typed-key"), text)
    }
}
