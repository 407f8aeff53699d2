import XCTest
import Foundation
import DashTestSupport

/// Two homes at once (issue 27.7, decision 47): `swiftdash --home work` runs beside the default
/// home on its own socket; `push` and `snapshot` with `--home` reach the one they name.
final class NamedHomesTmuxTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    func testTwoHomesRunAtOnceAndEachCommandReachesTheOneItNames() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-homes-\(UUID().uuidString)")
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "tiles:\n  - {family: medium, widget: note}\n".write(
            to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        try "tiles:\n  - {family: medium, widget: note}\n  - clock\n".write(
            to: config.appendingPathComponent("home-work.yaml"), atomically: true, encoding: .utf8)
        // Both share the configuration, cache, state and runtime folders; only the home differs.
        var env = TmuxSession.folders(in: dir)
        env["XDG_RUNTIME_DIR"] = dir.path
        let standard = try TmuxSession(width: 80, height: 24, env: env)
        defer { standard.close() }
        let work = try TmuxSession(width: 80, height: 24, args: ["--home", "work"], env: env)
        defer { work.close() }
        standard.waitFor("the default home") { $0.contains("Nothing pushed yet") }
        work.waitFor("the work home") { $0.contains("Nothing pushed yet") && $0.contains("Clock") }

        var cli = standard.environment
        cli["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        func swiftdash(_ args: [String], input: String = "") throws -> (status: Int32, out: String, err: String) {
            try runProgram(TmuxSession.binary, args, env: cli, input: input)
        }
        let push = try swiftdash(
            ["push", "--home", "work", "note", "--json", "-"],
            input: #"{"entries": [{"title": "Only at work"}], "policy": "never"}"#)
        XCTAssertEqual(push.status, 0, push.err)
        work.waitFor("the push in the work home") { $0.contains("Only at work") }
        XCTAssertFalse(standard.screen().contains("Only at work"), standard.screen())

        struct Doc: Decodable {
            struct Tile: Decodable { var kind: String }
            var source: String
            var tiles: [Tile]
        }
        for (args, kinds) in [(["--home", "work"], ["note", "clock"]), ([], ["note"])] {
            let r = try swiftdash(["snapshot", "--json"] + args)
            XCTAssertEqual(r.status, 0, r.err)
            let doc = try JSONDecoder().decode(Doc.self, from: Data(r.out.utf8))
            XCTAssertEqual(doc.source, "running", "\(args)")
            XCTAssertEqual(doc.tiles.map(\.kind), kinds, "\(args)")
        }
    }
}
