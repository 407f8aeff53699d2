import XCTest
import Foundation
import DashTestSupport

/// `swiftdash snapshot` with no swiftdash running: the saved timelines, and it says so.
final class SnapshotCLITests: XCTestCase {
    func testWithNoInstanceRunningTheSnapshotComesFromTheCache() throws {
        let r = try runSwiftdash(["snapshot", "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.err, "", "no instance running is not worth a warning")
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        XCTAssertEqual(doc["source"] as? String, "cache")
        let tiles = try XCTUnwrap(doc["tiles"] as? [[String: Any]])
        XCTAssertEqual(tiles.first?["kind"] as? String, "clock")
        XCTAssertEqual(tiles.first?["state"] as? String, "waiting", "nothing saved yet")
    }

    func testFlagsThatDoNotGoTogetherExit2() throws {
        let tmux = try runSwiftdash(["snapshot", "--tmux"])
        XCTAssertEqual(tmux.status, 2)
        XCTAssertEqual(tmux.err, "swiftdash: error: --tmux goes with --line FORMAT\n")
        let both = try runSwiftdash(["snapshot", "--json", "--line", "{kind}"])
        XCTAssertEqual(both.status, 2)
        XCTAssertEqual(both.err, "swiftdash: error: --json and --line exclude each other\n")
    }

    func testAnUnknownFieldIsRefusedWithTheListOfFields() throws {
        let r = try runSwiftdash(["snapshot", "--line", "{kind} {sumary} #{session_name}"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(
            r.err,
            "swiftdash: error: unknown field {sumary} in --line; the fields are"
                + " {kind} {summary} {tile} {instance} {stale} {state}\n")
        let tmux = try runSwiftdash(["snapshot", "--line", "#{session_name} {kind}", "--tmux", "--max", "40"])
        XCTAssertEqual(tmux.status, 0, tmux.err)
    }

    func testMaxGoesWithLineAndMustBePositive() throws {
        let alone = try runSwiftdash(["snapshot", "--max", "10"])
        XCTAssertEqual(alone.status, 2)
        XCTAssertEqual(alone.err, "swiftdash: error: --max goes with --line FORMAT\n")
        let zero = try runSwiftdash(["snapshot", "--line", "{kind}", "--max", "0"])
        XCTAssertEqual(zero.status, 2)
        XCTAssertEqual(zero.err, "swiftdash: error: --max must be at least 1, got 0\n")
    }

    func testTileAndKindChooseTheTiles() throws {
        func kinds(_ args: [String]) throws -> [String] {
            let r = try runSwiftdash(["snapshot", "--json"] + args)
            XCTAssertEqual(r.status, 0, r.err)
            let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
            return try XCTUnwrap(doc["tiles"] as? [[String: Any]]).compactMap { $0["kind"] as? String }
        }
        let all = try kinds([])
        XCTAssertGreaterThan(all.count, 2)
        XCTAssertEqual(try kinds(["--kind", "clock"]), ["clock"])
        XCTAssertEqual(try kinds(["--kind", "clock,\(all[1])"]), ["clock", all[1]])
        let first = try runSwiftdash(["snapshot", "--json"])
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(first.out.utf8)) as? [String: Any])
        let ids = try XCTUnwrap(doc["tiles"] as? [[String: Any]]).compactMap { $0["tile"] as? String }
        XCTAssertEqual(try kinds(["--tile", ids[1]]), [all[1]])
        XCTAssertEqual(try kinds(["--tile", "nope"]), [])
    }
}
