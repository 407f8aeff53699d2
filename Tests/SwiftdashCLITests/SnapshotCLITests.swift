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
}
