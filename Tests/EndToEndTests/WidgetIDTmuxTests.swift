import XCTest
import Foundation
import DashTestSupport

/// One id, one widget (decision 41), with the real binary in tmux: after a tile is removed in the
/// app, the id `swiftdash add` prints is the one the running app gives the new widget, so `swiftdash
/// push ID` reaches that tile; `config check` and the running snapshot list the same ids; an id that
/// is gone is refused with the ids there are.
final class WidgetIDTmuxTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    struct Doc: Decodable {
        struct Tile: Decodable {
            var tile: String
            var instance: String
            var summary: String
        }
        var source: String
        var tiles: [Tile]
    }

    func run(_ t: TmuxSession, _ args: [String], input: String = "") throws -> (
        status: Int32, out: String, err: String
    ) {
        try runProgram(TmuxSession.binary, args, env: t.environment, input: input)
    }

    func testTheIDAddPrintsReachesTheNewTileAfterARemovalInTheApp() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-ids-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try """
        tiles:
          - {family: small, widget: note, config: {title: First}}
          - {family: small, widget: note, config: {title: Second}}
          - {family: small, widget: clock}
        """.write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(
            width: 80, height: 24,
            env: TmuxSession.folders(in: dir))
        defer { t.close() }
        t.waitFor("the first frame") { $0.contains("First") && $0.contains("Second") }
        t.keys("d")  // the first tile has the focus: removed in the app
        t.waitFor("the removal") { !$0.contains("First") && $0.contains("Second") }

        let add = try run(t, ["add", "note", "--set", "title=Third"])
        XCTAssertEqual(add.status, 0, add.err)
        let id = try XCTUnwrap(add.out.split(separator: " ").dropFirst().first.map(String.init), add.out)
        // At once, before the file watcher's report (50 ms): the app reads home.yaml before it answers.
        let push = try run(t, ["push", id], input: #"{"entries": [{"title": "Pushed here"}], "policy": "never"}"#)
        XCTAssertEqual(push.status, 0, push.err)
        t.waitFor("the push") { $0.contains("Pushed here") }

        let snap = try run(t, ["snapshot", "--json"])
        XCTAssertEqual(snap.status, 0, snap.err)
        let doc = try JSONDecoder().decode(Doc.self, from: Data(snap.out.utf8))
        XCTAssertEqual(doc.source, "running")
        XCTAssertEqual(doc.tiles.count, 3)
        XCTAssertEqual(doc.tiles[2].instance, id, "\(add.out) \(doc.tiles)")
        XCTAssertEqual(doc.tiles[2].summary, "Pushed here", "the new tile got the push: \(doc.tiles)")
        XCTAssertNotEqual(doc.tiles[0].summary, "Pushed here", "not the Second note: \(doc.tiles)")

        // `config check` lists the running app's ids.
        let check = try run(t, ["config", "check"])
        XCTAssertEqual(check.status, 0, check.err)
        let listed = doc.tiles.map { "\($0.instance) " }
        XCTAssertTrue(listed.allSatisfy { check.out.contains($0) }, "\(check.out) \(listed)")

        // The removed tile's id is gone: refused, with the ids there are; nothing changes on screen.
        let gone = try run(t, ["push", "w1"], input: #"{"entries": [{"title": "Lost"}]}"#)
        XCTAssertEqual(gone.status, 2, gone.out + gone.err)
        XCTAssertTrue(
            gone.err.hasPrefix(
                "swiftdash: error: no widget kind or id 'w1' on the home screen; ids that take pushes: "
                    + "\(doc.tiles[0].instance) note, \(id) note"), gone.err)
        let reload = try run(t, ["reload", id])
        XCTAssertEqual(reload.status, 0, reload.err)
        XCTAssertEqual(reload.out, "asked swiftdash to reload \(id) (note)\n")
        let reloadGone = try run(t, ["reload", "w1"])
        XCTAssertEqual(reloadGone.status, 2, reloadGone.out + reloadGone.err)
        XCTAssertTrue(reloadGone.err.hasPrefix("swiftdash: error: no widget 'w1' on the home screen"), reloadGone.err)
        XCTAssertFalse(t.screen().contains("Lost"))
    }
}
