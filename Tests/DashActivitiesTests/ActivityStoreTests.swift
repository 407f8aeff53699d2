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

    /// An activity whose reporter (`swiftdash run`, `watch`) died without ending it is ended, `lost`,
    /// by the next reader; one whose reporter lives, or that has none, is left alone.
    func testAnActivityWhoseOwnerIsGoneEndsAsLostWhenReadOrChanged() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let dead = ActivityOwner(pid: 41, startTicks: 7, boot: "b")
        let store = ActivityStore(directory: dir, isGone: { $0 == dead })
        try store.modify(now: { now }) { (book, at) throws(ActivityError) in
            for (id, owner) in [("orphan", dead), ("alive", ActivityOwner(pid: 42, startTicks: 7, boot: "b"))] {
                var a = Activity(id: id, kind: "command", attributes: .object([:]),
                    content: ActivityContent(state: .object(["line": .string("compiling")])), started: at)
                a.owner = owner
                try book.start(a, at: at)
            }
            try book.start(Activity(id: "script", kind: "generic", attributes: .object([:]),
                content: ActivityContent(state: .object([:])), started: at), at: at)
        }
        let later = now.addingTimeInterval(60)
        let read = try store.load(at: later)
        XCTAssertEqual(read.active.map(\.id), ["alive", "script"])
        let orphan = try XCTUnwrap(read["orphan"])
        XCTAssertEqual(orphan.ended, later)
        XCTAssertEqual(ActivityOutcome.of(orphan), .lost)
        XCTAssertEqual(orphan.content.state["line"]?.string, "compiling", "its last line stays")
        XCTAssertEqual(ActivityOutcome.lost.words, "lost: its reporter was killed")
        // A change writes it down.
        try store.modify(now: { later }) { _, _ in }
        XCTAssertEqual(try ActivityStore(directory: dir, isGone: { _ in false }).load(at: later)["orphan"]?.ended, later)
    }

    /// The real check: a process that exited is gone; this one is not; another boot's is gone.
    func testProcessIdentityTellsAnExitedProcessFromALiveOne() throws {
        let me = try XCTUnwrap(ProcessIdentity.current())
        XCTAssertFalse(ProcessIdentity.isGone(me))
        var other = me
        other.boot = "another boot"
        XCTAssertTrue(ProcessIdentity.isGone(other))
        var reused = me
        reused.startTicks += 1
        XCTAssertTrue(ProcessIdentity.isGone(reused), "the same pid started at another time is another process")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "read x"]
        let input = Pipe()
        child.standardInput = input
        try child.run()
        let owner = try XCTUnwrap(ProcessIdentity.of(child.processIdentifier))
        XCTAssertFalse(ProcessIdentity.isGone(owner))
        try input.fileHandleForWriting.close()
        child.waitUntilExit()
        XCTAssertTrue(ProcessIdentity.isGone(owner))
    }

    /// The file every change reads holds only what is shown: at most 5 ended stay shown, and what
    /// leaves the screen goes to a history file of its own, which `load(history:)` adds back.
    func testWhatEndedLongAgoMovesToAHistoryFileOfItsOwn() throws {
        let store = ActivityStore(directory: dir)
        var t = Date(timeIntervalSince1970: 1_800_000_000)
        for i in 0..<12 {
            try store.modify(now: { t }) { (book, at) throws(ActivityError) in
                try book.start(Activity(id: "r\(i)", kind: "command", attributes: .object([:]),
                    content: ActivityContent(state: .object([:])), started: at), at: at)
                try book.end("r\(i)", content: ActivityContent(state: .object(["exit": .number(0)])), at: at)
            }
            t = t.addingTimeInterval(1)
        }
        let hot = try ActivityBook.decode(Data(contentsOf: store.file))
        XCTAssertEqual(hot.activities.map(\.id), ["r7", "r8", "r9", "r10", "r11"], "the 5 newest ended stay shown")
        XCTAssertEqual(hot.history, [], "the history is not in the file every change reads")
        XCTAssertEqual(try store.load(at: t).history, [])
        let all = try store.load(at: t, history: true)
        XCTAssertEqual(all.history.map(\.id), ["r6", "r5", "r4", "r3", "r2", "r1", "r0"], "newest first")
        XCTAssertEqual(all.endedList(at: t).count, 12)
        XCTAssertThrowsError(try store.modify(now: { t }) { (book, at) throws(ActivityError) in
            try book.update("r0", content: ActivityContent(state: .object([:])), at: at)
        }) { XCTAssertEqual($0 as? ActivityError, .alreadyEnded("r0"), "ended, not unknown") }
    }

    /// A file of the earlier format, history inside, is read whole and split at the next change.
    func testAnEarlierFileWithItsHistoryInsideIsSplitAtTheNextChange() throws {
        let t = Date(timeIntervalSince1970: 1_800_000_000)
        var old = ActivityBook()
        old.history = [Activity(id: "past", kind: "generic", attributes: .object([:]),
            content: ActivityContent(state: .object([:])), started: t)]
        old.history[0].ended = t
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = ActivityStore(directory: dir)
        try old.encoded().write(to: store.file)
        XCTAssertEqual(try store.load(at: t, history: true).history.map(\.id), ["past"])
        try start(store, "new", at: t)
        XCTAssertEqual(try ActivityBook.decode(Data(contentsOf: store.file)).history, [])
        XCTAssertEqual(try store.load(at: t, history: true).history.map(\.id), ["past"])
    }
}
