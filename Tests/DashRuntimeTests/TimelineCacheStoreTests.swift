import XCTest
import Foundation
import DashApp
import DashHome
import DashRuntime
import DashWidgets
import DashScheduler
import DashTestSupport

final class TimelineCacheStoreTests: XCTestCase {
    var root: URL!
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    func testXDGPaths() throws {
        XCTAssertEqual(
            try TimelineCacheStore.cacheDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]).path,
            "/x/cache/swiftdash")
        XCTAssertEqual(
            try TimelineCacheStore.cacheDirectory(environment: ["HOME": "/home/u"]).path, "/home/u/.cache/swiftdash")
        XCTAssertEqual(
            try TimelineCacheStore.cacheDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]).path,
            "/home/u/.cache/swiftdash", "a relative XDG path is ignored")
        XCTAssertThrowsError(try TimelineCacheStore.cacheDirectory(environment: [:]))
        XCTAssertEqual(TimelineCacheStore.fileName(for: "tile-3"), "tile-3.json")
        XCTAssertEqual(TimelineCacheStore.fileName(for: "../a b"), "%2E%2E%2Fa%20b.json")
    }

    /// A scheduler with one loaded instance, one failed one and a spent budget.
    func makeScheduler(widget: Widget) -> Scheduler {
        var s = Scheduler()
        s.register(
            "tile-1", widget: widget, configuration: WidgetConfig(["coin": .string("BTC")]), family: .small, at: t0)
        s.register("tile-2", widget: widget, family: .medium, at: t0)
        for r in s.process(now: t0) {
            if r.id == "tile-1" {
                s.loadFinished(
                    r.id, token: r.token,
                    result: .success(
                        AnyTimeline(
                            entries: [
                                AnyEntry(FakeEntry(date: t0, value: "one")),
                                AnyEntry(FakeEntry(date: t0 + 60, value: "two")),
                            ],
                            policy: .after(t0 + 600))), at: t0)
            } else {
                s.loadFinished(r.id, token: r.token, result: .failure(FakeError("no network")), at: t0)
            }
        }
        _ = s.process(now: t0 + 600)  // a charged reload of tile-1 (left in flight)
        return s
    }

    func testRoundTripThroughFiles() throws {
        let widget = fakeWidget(script: FakeScript())
        var s = makeScheduler(widget: widget)
        let store = try TimelineCacheStore(environment: ["XDG_CACHE_HOME": root.path, "HOME": "/nonexistent"])
        try store.save(s.snapshot(at: t0 + 600))
        let files = try FileManager.default.contentsOfDirectory(atPath: store.timelinesDirectory.path).sorted()
        XCTAssertEqual(files, ["tile-1.json", "tile-2.json"], "no temp files left behind")

        let (snapshot, warnings) = store.load()
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(snapshot, s.snapshot(at: t0 + 600))

        var restarted = Scheduler()
        restarted.restore(snapshot)
        restarted.register(
            "tile-1", widget: widget, configuration: WidgetConfig(["coin": .string("BTC")]), family: .small,
            at: t0 + 700)
        restarted.register("tile-2", widget: widget, family: .medium, at: t0 + 700)
        XCTAssertEqual((restarted.currentEntry("tile-1", at: t0 + 700)?.entry.base as? FakeEntry)?.value, "two")
        XCTAssertEqual(restarted.status("tile-1", at: t0 + 700)?.budget.used, 1, "the ledger survives the restart")
        XCTAssertTrue(restarted.isStale("tile-2"))
        XCTAssertEqual(restarted.lastError("tile-2"), "no network")
        XCTAssertEqual(restarted.currentEntry("tile-2", at: t0 + 700)?.isPlaceholder, true)
    }

    func testSavingReplacesAndPrunes() throws {
        let widget = fakeWidget(script: FakeScript())
        var s = makeScheduler(widget: widget)
        let store = TimelineCacheStore(directory: root.appendingPathComponent("swiftdash"))
        try store.save(s.snapshot(at: t0))
        s.unregister("tile-2")
        try store.save(s.snapshot(at: t0 + 1))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: store.timelinesDirectory.path), ["tile-1.json"])
        XCTAssertEqual(store.load().snapshot.records["tile-1"]?.savedAt, t0 + 1)
        store.remove("tile-1")
        XCTAssertEqual(store.load().snapshot.records.count, 0)
    }

    func testCorruptAndForeignFilesAreSkippedWithOneLineEach() throws {
        let widget = fakeWidget(script: FakeScript())
        var s = makeScheduler(widget: widget)
        let store = TimelineCacheStore(directory: root.appendingPathComponent("swiftdash"))
        try store.save(s.snapshot(at: t0))
        let dir = store.timelinesDirectory
        try Data("{\"format\": \"swiftdash.timeline-cache\", \"version\": 1, \"id\": ".utf8)
            .write(to: dir.appendingPathComponent("truncated.json"))
        try Data("{\"name\": \"someone else's file\"}".utf8).write(to: dir.appendingPathComponent("foreign.json"))
        try Data([0xFF, 0xFE, 0x00, 0x01]).write(to: dir.appendingPathComponent("binary.json"))
        try Data("ignored: not a .json file".utf8).write(to: dir.appendingPathComponent("notes.txt"))

        var lines: [String] = []
        let snapshot = store.load { lines.append($0) }
        XCTAssertEqual(Set(snapshot.records.keys), ["tile-1", "tile-2"], "the good files still load")
        XCTAssertEqual(lines.count, 3, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.contains("truncated.json") })
        XCTAssertTrue(lines.contains { $0.contains("foreign.json") && $0.contains("not a swiftdash timeline cache") })
        XCTAssertTrue(lines.contains { $0.contains("binary.json") })
        XCTAssertTrue(lines.allSatisfy { !$0.contains("\n") })
    }

    func testSaveChangesWritesOnlyChangedInstances() throws {
        let widget = fakeWidget(script: FakeScript())
        var s = makeScheduler(widget: widget)
        let store = TimelineCacheStore(directory: root.appendingPathComponent("swiftdash"))
        XCTAssertEqual(try store.saveChanges(of: &s, at: t0 + 600), 2)
        XCTAssertEqual(try store.saveChanges(of: &s, at: t0 + 601), 0, "nothing changed since")
        _ = s.process(now: t0 + 605)  // nothing due
        XCTAssertEqual(try store.saveChanges(of: &s, at: t0 + 605), 0)
        _ = s.process(now: t0 + 610)  // both loads started at 600 time out
        XCTAssertEqual(try store.saveChanges(of: &s, at: t0 + 610), 2)
        XCTAssertEqual(store.load().snapshot.records["tile-1"]?.lastError, "timed out after 10 s")
    }

    func testMissingDirectoryIsAnEmptyCache() {
        let store = TimelineCacheStore(directory: root.appendingPathComponent("nothing-here"))
        let (snapshot, warnings) = store.load()
        XCTAssertEqual(snapshot.records.count, 0)
        XCTAssertEqual(warnings, [])
    }
}
