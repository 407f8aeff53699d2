import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// The shipped interactive widgets inside the app's core, on the virtual clock: buttons pressed
/// with keys, their actions and loads run for real (files in a temp folder), time moved on
/// deadline by deadline.
final class InteractiveWidgetDayTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-day-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    func iso(_ s: String) -> Date { try! Date(s, strategy: .iso8601) }

    var variables: [String: String] {
        ["HOME": folder.path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]
    }

    func harness(
        _ kind: String, family: WidgetFamily = .medium, at now: Date, zone: String = "UTC",
        config: [String: ConfigValue] = [:]
    ) async -> AppHarness {
        let instance = WidgetInstance(id: "w1", kind: kind, config: WidgetConfig(config))
        let home = HomeConfig(tiles: [TileInstance(id: "t1", family: family, items: [instance])])
        let h = AppHarness(
            widgets: BuiltinWidgets.bundle.widgets, home: home, now: now,
            timeZone: TimeZone(identifier: zone)!, environment: variables)
        await h.runLoads()
        return h
    }

    /// Moves the clock deadline by deadline up to `end`, running every load as it starts;
    /// returns when each load started and why.
    func run(_ h: AppHarness, until end: Date) async -> [(Date, LoadReason)] {
        var loads: [(Date, LoadReason)] = []
        while let next = h.state.nextDeadline, next <= end {
            h.advance(to: max(next, h.clock.now))
            for l in h.loads { loads.append((l.request.startedAt, l.request.reason)) }
            await h.runLoads()
        }
        h.advance(to: end)
        return loads
    }

    // MARK: - Water

    func testWaterAcrossTwoDaysReloadsOnlyAtWakingTimeNeverAtNight() async {
        let h = await harness("water", at: iso("2026-11-23T06:00:00Z"))
        XCTAssertTrue(h.screen.contains("Quiet till 08:00"), h.screen)
        let loads = await run(h, until: iso("2026-11-25T07:00:00Z"))
        XCTAssertEqual(
            loads.map(\.0), [iso("2026-11-23T08:00:00Z"), iso("2026-11-24T08:00:00Z")],
            "one reload a day, at waking time")
        XCTAssertEqual(loads.map(\.1), [.policy, .policy])
    }

    func testWaterShowsEachReminderExactlyWhenDue() async {
        let h = await harness("water", at: iso("2026-11-23T09:30:00Z"))
        XCTAssertTrue(h.screen.contains("Drink a glass"), "no glass yet today: due since waking\n\(h.screen)")
        h.press(.tab, .enter)
        await h.runActions()
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("Next at 11:30"), h.screen)
        h.advance(to: iso("2026-11-23T11:29:59Z"))
        XCTAssertFalse(h.screen.contains("Drink a glass"))
        h.advance(to: iso("2026-11-23T11:30:00Z"))
        XCTAssertTrue(h.screen.contains("Drink a glass"), h.screen)
        XCTAssertEqual(h.state.entry(ofInstance: "w1")?.relevance?.score, 0.9, "relevant when due")
        XCTAssertTrue(h.loads.isEmpty, "an entry, not a reload")
    }

    func testDrankThroughTheTileCountsAGlassAndUIndoesIt() async throws {
        let h = await harness("water", at: iso("2026-11-23T10:05:00Z"))
        h.press(.tab, .char(" "))
        XCTAssertTrue(h.screen.contains("[ Drank ⋯ ]"), h.screen)
        await h.runActions()
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("1 of 8 glasses"), h.screen)
        XCTAssertTrue(h.screen.contains("Next at 12:05"), "the interval starts again\n\(h.screen)")
        h.press(.char("u"))
        await h.runActions()
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("0 of 8 glasses"), h.screen)
        XCTAssertTrue(h.screen.contains("undone: Drank"), h.screen)
    }

    func testWaterAcrossDSTChangesInBerlin() async {
        for (start, wake1, wake2) in [
            ("2026-03-28T20:00:00Z", "2026-03-29T06:00:00Z", "2026-03-30T06:00:00Z"),
            ("2026-10-24T20:00:00Z", "2026-10-25T07:00:00Z", "2026-10-26T07:00:00Z"),
        ] {
            let h = await harness("water", at: iso(start), zone: "Europe/Berlin")
            let loads = await run(h, until: iso(wake2).addingTimeInterval(60))
            XCTAssertEqual(
                loads.map(\.0), [iso(wake1), iso(wake2)],
                "08:00 local on the day of the change and the next")
        }
    }

    // MARK: - Recipe timer

    func testRecipeTimerStartedFromTheTileShowsEachStepExactlyWhenItBegins() async throws {
        let t0 = iso("2026-11-23T18:00:00Z")
        let h = await harness("recipe", at: t0)
        XCTAssertTrue(h.screen.contains("[ Start ]"), h.screen)
        h.press(.tab, .enter)
        await h.runActions()
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("Preheat") && h.screen.contains("15:00"), h.screen)
        XCTAssertTrue(h.screen.contains("[ Pause ]"), h.screen)
        let loads = await run(h, until: t0.addingTimeInterval(15 * 60 - 1))
        XCTAssertTrue(loads.isEmpty, "no reloads while it runs")
        XCTAssertTrue(h.screen.contains("0:01"), "the countdown is live text\n\(h.screen)")
        h.advance(to: t0.addingTimeInterval(15 * 60))
        XCTAssertTrue(h.screen.contains("▶ Cook"), h.screen)
        XCTAssertTrue(h.screen.contains("30:00"), h.screen)
        XCTAssertEqual(h.state.scheduler.nextWake, t0.addingTimeInterval(45 * 60), "the next step change")
        let rest = await run(h, until: t0.addingTimeInterval(55 * 60))
        XCTAssertTrue(rest.isEmpty)
        XCTAssertTrue(h.screen.contains("Recipe done"), h.screen)
    }

    func testTheRecipeBellRingsOnceAtEachStepChangeWhenAskedFor() async throws {
        let t0 = iso("2026-11-23T18:00:00Z")
        let h = await harness("recipe", at: t0, config: ["bell": .bool(true)])
        h.press(.tab, .enter)
        await h.runActions()
        await h.runLoads()
        XCTAssertEqual(h.bells, 0, "starting rings nothing")
        _ = await run(h, until: t0.addingTimeInterval(15 * 60 + 30))
        XCTAssertEqual(h.bells, 1, "the cook step begins: one ring")
        _ = await run(h, until: t0.addingTimeInterval(45 * 60 + 30))
        XCTAssertEqual(h.bells, 2, "the rest step begins")
    }

    func testRecipeTimerPausedSurvivesARestartFromTheCache() async throws {
        let t0 = iso("2026-11-23T18:00:00Z")
        let h = await harness("recipe", at: t0)
        h.press(.tab, .enter)
        await h.runActions()
        await h.runLoads()
        h.advance(to: t0.addingTimeInterval(20 * 60))
        h.press(.enter)  // Pause: the highlight stayed on the first button
        await h.runActions()
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("25:00") && h.screen.contains("[ Resume ]"), h.screen)
        // A restart: the scheduler comes back from its cache record, and a fresh load reads the
        // state file; both show the pause.
        var written = h.state.scheduler
        let record = try XCTUnwrap(written.record("w1", at: h.clock.now))
        var restored = Scheduler()
        restored.restore(SchedulerSnapshot(records: ["w1": record]))
        let home = HomeConfig(tiles: [
            TileInstance(
                id: "t1", family: .medium,
                items: [WidgetInstance(id: "w1", kind: "recipe")])
        ])
        let again = AppHarness(
            widgets: BuiltinWidgets.bundle.widgets, home: home, now: t0.addingTimeInterval(3600),
            scheduler: restored, environment: variables)
        XCTAssertTrue(again.screen.contains("25:00") && again.screen.contains("paused"), again.screen)
        again.press(.char("r"))
        await again.runLoads()
        XCTAssertTrue(again.screen.contains("25:00") && again.screen.contains("[ Resume ]"), again.screen)
    }

    // MARK: - Reminders

    func testTickingAReminderWritesTheFileAndUndoPutsItBack() async throws {
        let file = folder.appendingPathComponent("todo.txt")
        let original = Data("(A) Call mom due:2026-11-23\r\nBuy milk due:2026-11-24\r\n\r\nid:7 Someday thing".utf8)
        try original.write(to: file)
        let h = await harness("reminders", at: iso("2026-11-23T09:00:00Z"), config: ["file": .string("~/todo.txt")])
        XCTAssertEqual(h.watchedFiles, [file.path], "the file is watched")
        XCTAssertTrue(h.screen.contains("[ ] Call mom"), h.screen)
        h.press(.tab, .char(" "))
        XCTAssertTrue(h.screen.contains("[x] Call mom ⋯"), h.screen)
        await h.runActions()
        XCTAssertEqual(
            try String(contentsOf: file, encoding: .utf8),
            "x 2026-11-23 Call mom due:2026-11-23 pri:A\r\n"
                + "Buy milk due:2026-11-24\r\n\r\nid:7 Someday thing")
        await h.runLoads()
        XCTAssertFalse(h.screen.contains("] Call mom"), "done tasks leave the list\n\(h.screen)")
        h.press(.char("u"))
        await h.runActions()
        XCTAssertEqual(try Data(contentsOf: file), original, "byte for byte")
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("[ ] Call mom"), h.screen)
    }

    func testAnOutsideEditReloadsTheWatchingInstanceFree() async throws {
        let file = folder.appendingPathComponent("todo.txt")
        try Data("Water the plants\n".utf8).write(to: file)
        let h = await harness("reminders", at: iso("2026-11-23T09:00:00Z"), config: ["file": .string(file.path)])
        try Data("Water the plants\nFeed the cat due:2026-11-23\n".utf8).write(to: file)
        h.send(.filesChanged([file.path]))
        XCTAssertEqual(h.loads.map(\.request.reason), [.widgetCenter])
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("Feed the cat"), h.screen)
        h.send(.filesChanged(["/elsewhere/todo.txt"]))
        XCTAssertTrue(h.loads.isEmpty, "another file: nothing to do")
    }
}

/// The inotify watcher itself: a real file, a real write, no polling.
final class FileWatcherTests: XCTestCase {
    func testAnAtomicReplaceAndAnInPlaceWriteAreSeenOtherFilesAreNot() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("todo.txt")
        try Data("a\n".utf8).write(to: file)
        final class Seen: @unchecked Sendable {
            let lock = NSLock()
            var paths: [String] = []
            var next: XCTestExpectation?
            func saw(_ p: [String]) {
                let e = lock.withLock { () -> XCTestExpectation? in
                    paths += p
                    defer { next = nil }
                    return next
                }
                e?.fulfill()
            }
        }
        let seen = Seen()
        let watcher = FileWatcher()
        defer { watcher.stop() }
        watcher.watch([file.path]) { seen.saw($0) }
        XCTAssertEqual(watcher.watchedDirectories, [dir.path])
        try Data("noise".utf8).write(to: dir.appendingPathComponent("other.txt"))
        let replaced = expectation(description: "an atomic replace")
        seen.lock.withLock { seen.next = replaced }
        try Data("b\n".utf8).write(to: file, options: .atomic)  // temp file + rename, as editors do
        wait(for: [replaced], timeout: 60)
        let appended = expectation(description: "a write in place")
        seen.lock.withLock { seen.next = appended }
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("c\n".utf8))
        try handle.close()
        wait(for: [appended], timeout: 60)
        XCTAssertEqual(Set(seen.lock.withLock { seen.paths }), [file.path])
        watcher.watch([]) { _ in }
        XCTAssertEqual(watcher.watchedDirectories, [])
    }
}
