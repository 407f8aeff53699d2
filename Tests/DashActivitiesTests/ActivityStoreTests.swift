import XCTest
import DashActivities
import DashActivityFiles
import DashWidgets

/// The state folder's activities.json: changes under a lock, written atomically, read without one.
final class ActivityStoreTests: XCTestCase {
    var dir: URL!

    override func setUp() {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("activities-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func start(_ store: ActivityStore, _ id: String, at now: Date) throws {
        try store.modify(now: { now }) { (book, at) throws(ActivityError) in
            try book.start(
                Activity(id: id, kind: "generic", attributes: .object([:]), content: ActivityContent(state: .object([:])), started: at),
                at: at)
        }
    }

    func testAStartWithNoFolderMakesTheFileAndALaterStoreReadsIt() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try start(ActivityStore(directory: dir), "a", at: now)
        let attrs = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("activities.json").path)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let again = try ActivityStore(directory: dir).load(at: now)
        XCTAssertEqual(again.active.map(\.id), ["a"])
        XCTAssertEqual(try ActivityStore(directory: dir).load(at: now.addingTimeInterval(9 * 3600)).active, [],
            "read later, the 8-hour end has happened")
    }

    func testChangesFromManyThreadsAreNeverLost() throws {
        let store = ActivityStore(directory: dir)
        try start(store, "n", at: Date(timeIntervalSince1970: 1_800_000_000))
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            _ = try? store.modify(durable: false, now: { Date(timeIntervalSince1970: 1_800_000_001) }) {
                (book, at) throws(ActivityError) in
                let count = book["n"]?.content.state["count"]?.number ?? 0
                try book.update("n", content: ActivityContent(state: .object(["count": .number(count + 1)])), at: at)
            }
        }
        let book = try store.load(at: Date(timeIntervalSince1970: 1_800_000_002))
        XCTAssertEqual(book["n"]?.content.state["count"]?.number, 40)
    }

    func testABrokenFileIsReportedAndNotOverwritten() throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("activities.json")
        try Data("not json".utf8).write(to: file)
        let store = ActivityStore(directory: dir)
        XCTAssertThrowsError(try start(store, "x", at: Date())) {
            XCTAssertTrue("\($0)".contains("remove it to start afresh"), "\($0)")
        }
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "not json")
    }
}
