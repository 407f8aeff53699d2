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

/// Issue 23 point 8: a calm first run offline. The default home has no widget twice, works
/// without a network, and a network tile with nothing to show says "offline" in one quiet line
/// and retries by itself.
final class FirstRunTests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_795_426_200)  // 2026-11-23 09:30 UTC
    let unreachable = DataSourceError(.unreachable, "cannot reach api.example.com: offline or the server is down")
    let offline = "cannot reach api.example.com"

    /// The default home with every load answered: local widgets with their preview data (the
    /// machine's /proc and todo.txt would make the screen differ between machines), network
    /// widgets with "no network".
    func offlineHome(_ size: Size) async -> AppHarness {
        let bundle = BuiltinWidgets.bundle
        let h = AppHarness(
            widgets: bundle.widgets, home: HomeConfig.defaultHome(bundle: bundle), size: size, now: at)
        h.run {
            $0.focusedTile = nil
            return []
        }
        while let job = h.loads.first {
            let widget = job.request.widget
            if widget.cost(for: job.request.configuration) == .budgeted {
                h.fail(job.id, unreachable)
            } else {
                var ctx = job.context
                ctx.isPreview = true
                let entry = await widget.snapshot(for: job.request.configuration, in: ctx)
                h.finish(job.id, entries: [entry.base])
            }
        }
        return h
    }

    func testTheDefaultHomeHasNoWidgetTwiceAndMostlyNeedsNoNetwork() {
        let bundle = BuiltinWidgets.bundle
        let home = HomeConfig.defaultHome(bundle: bundle)
        let kinds = home.tiles.flatMap { $0.items.map(\.kind) }
        XCTAssertEqual(kinds.count, Set(kinds).count, "no widget twice: \(kinds)")
        let local = home.tiles.flatMap(\.items).filter { bundle[$0.kind]?.cost(for: $0.config) != .budgeted }
        XCTAssertGreaterThan(local.count, kinds.count / 2, "most of it works offline: \(kinds)")
        for kind in ["clock", "calendar", "system", "reminders"] { XCTAssertTrue(kinds.contains(kind), kind) }
    }

    func testOfflineNetworkTilesSayOfflineInOneQuietLine() async {
        for size in [Size(width: 80, height: 24), Size(width: 200, height: 60)] {
            let h = await offlineHome(size)
            let screen = h.screen
            assertSnapshot(screen, named: "first-run-offline-\(size.width)x\(size.height)")
            XCTAssertFalse(screen.contains("Failed to load"), screen)
            XCTAssertFalse(screen.contains("server is down"), screen)
            XCTAssertEqual(screen.components(separatedBy: offline).count - 1, 2, screen)
            // The quiet line is in the secondary colour, not the error colour.
            let buffer = h.frame.buffer
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            let y = rows.firstIndex { $0.contains(offline) }!
            let x = DisplayWidth.of(String(rows[y].components(separatedBy: offline)[0]))
            XCTAssertNotEqual(buffer[x, y].style.foreground, Theme.dark[.negative])
        }
    }

    /// Issue 38.3: offline, a tile with nothing to show says why (which host it cannot
    /// reach) and when it tries again; one that had data keeps it, marked stale.
    func testOfflineATileSaysWhy() async throws {
        let h = await offlineHome(Size(width: 80, height: 24))
        let news = h.state.home.tiles.flatMap(\.items).first { $0.kind == "news" }!.id
        XCTAssertGreaterThan(try XCTUnwrap(h.state.scheduler.retryDate(news)), at)
        let rows = h.screen.split(separator: "\n").map(String.init)
        let y = try XCTUnwrap(rows.firstIndex { $0.contains(offline) }, h.screen)
        XCTAssertTrue(rows[y - 1].contains("offline · " + TileErrorText.retry(h.state, news)), h.screen)
        // It backs off: once the next try is minutes away, the tile says at what time.
        for _ in 0..<8 {
            guard let next = h.state.scheduler.retryDate(news), next.timeIntervalSince(h.state.now) < 60 else { break }
            h.advance(to: next)
            h.fail(news, unreachable)
        }
        let next = try XCTUnwrap(h.state.scheduler.retryDate(news))
        XCTAssertTrue(h.screen.contains("offline · retry at \(SmartStacks.clock(next, h.state))"), h.screen)
        // A tile that had data keeps showing it when a later load fails, marked stale.
        h.advance(by: 10 * 60)
        let job = try XCTUnwrap(h.load(of: news))
        var ctx = job.context
        ctx.isPreview = true
        let entry = await job.request.widget.snapshot(for: job.request.configuration, in: ctx)
        h.finish(news, entries: [entry.base])
        h.send(.widgetCenter(.reloadInstance(news)))
        XCTAssertNotNil(h.load(of: news))
        h.fail(news, unreachable)
        XCTAssertTrue(h.state.scheduler.isStale(news))
        let top = h.screen.split(separator: "\n").prefix(7).joined(separator: "\n")
        XCTAssertTrue(top.contains("News headlines ────────── ⚠ stale") && top.contains("Sample news"), h.screen)
        XCTAssertFalse(top.contains(offline), h.screen)
        h.skipPendingWork()
    }

    /// Nobody presses anything: the offline tiles load again by themselves, and show the
    /// news when the network is back.
    func testOfflineTilesRetryByThemselves() async {
        let h = await offlineHome(Size(width: 80, height: 24))
        let news = h.state.home.tiles.flatMap(\.items).first { $0.kind == "news" }!.id
        XCTAssertNil(h.load(of: news))
        h.advance(by: 10 * 60)
        guard let retry = h.load(of: news) else { return XCTFail("no retry within 10 minutes") }
        var ctx = retry.context
        ctx.isPreview = true
        let entry = await retry.request.widget.snapshot(for: retry.request.configuration, in: ctx)
        h.finish(news, entries: [entry.base])
        XCTAssertEqual(h.screen.components(separatedBy: offline).count - 1, 1, h.screen)
        h.skipPendingWork()
    }
}

/// Issue 23: what a first run shows is calm (no attention marks before anything changed), and
/// a reminders tile with no file yet says how to start one.
extension FirstRunTests {
    func testAFirstRunHasNoAttentionMarksUntilSomethingChanges() async throws {
        let h = await offlineHome(Size(width: 80, height: 24))
        XCTAssertFalse(h.screen.contains("◆"), h.screen)
        XCTAssertTrue(h.state.smart.attention.isEmpty, "\(h.state.smart.attention)")
        // What changes after that is marked: the standup ends, and at 12:30 lunch begins.
        h.advance(by: 3600)
        h.advance(by: 2 * 3600)
        let calendar = h.state.home.tiles.flatMap(\.items).first { $0.kind == "calendar" }!.id
        if h.load(of: calendar) == nil { h.send(.widgetCenter(.reloadInstance(calendar))) }
        let job = try XCTUnwrap(h.load(of: calendar))
        var ctx = job.context
        ctx.isPreview = true
        let entry = await job.request.widget.snapshot(for: job.request.configuration, in: ctx)
        h.finish(calendar, entries: [entry.base])
        XCTAssertTrue(h.screen.contains("◆ Calendar"), h.screen)
        h.skipPendingWork()
    }

    func testRemindersWithNoFileSaysHowToStartAList() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("calm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let widget = BuiltinWidgets.bundle["reminders"]!
        var ctx = TimelineContext(family: .medium, size: (37, 5), now: at)
        ctx.environment = ["HOME": dir.path]
        let timeline = try await widget.timeline(for: WidgetConfig(), in: ctx)
        let entry = try XCTUnwrap(timeline.entries.first)
        XCTAssertEqual(entry.base.summary, "no ~/todo.txt yet")
        for (family, size) in [(WidgetFamily.small, (17, 5)), (.medium, (37, 5)), (.large, (37, 13))] {
            let text = drawnText(
                widget.view(for: entry, in: TimelineContext(family: family, size: size, now: at)), width: size.0,
                height: size.1)
            XCTAssertTrue(text.contains("No todo.txt yet"), text)
            XCTAssertTrue(text.contains("press e to"), text)
            XCTAssertFalse(text.contains("Failed"), text)
        }
    }
}
