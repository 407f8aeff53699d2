import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// Issue 23 point 9: `render` without `--live` draws what the home screen cached, and says
/// "sample" on a tile it drew from a preview snapshot.
final class RenderCacheTests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_795_426_200)

    func state(_ scheduler: Scheduler = Scheduler()) -> AppState {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "fake")]),
            TileInstance(id: "t2", family: .medium, items: [WidgetInstance(id: "w2", kind: "fake")]),
        ])
        let environment = AppEnvironment(
            bundle: WidgetBundle([fakeWidget(script: FakeScript())]), timeZone: TimeZone(identifier: "UTC")!)
        var s = AppState(
            environment: environment, home: home, screen: Size(width: 80, height: 24), theme: .dark,
            alternateTheme: .light, now: at, scheduler: scheduler)
        s.focusedTile = nil
        return s
    }

    func testRenderDrawsTheCachedTimelineAndMarksSamples() async {
        // What a home screen cached an hour ago: w1 has a timeline, w2 none.
        var before = state()
        let cached = AnyTimeline(entries: [AnyEntry(FakeEntry(date: at, value: "cached headline"))], policy: .atEnd)
        XCTAssertTrue(before.scheduler.push("w1", timeline: cached, at: at))
        var scheduler = Scheduler()
        scheduler.restore(before.scheduler.snapshot(at: at))

        var s = state(scheduler)
        await OneShot.load(&s, source: .sample)
        let screen = AppView.render(s).buffer.textDump
        XCTAssertTrue(screen.contains("cached headline"), screen)
        XCTAssertEqual(s.sampleInstances, ["w2"])
        let rows = screen.split(separator: "\n")
        XCTAssertEqual(rows.filter { $0.contains("· sample") }.count, 1, screen)
        XCTAssertFalse(rows.first { $0.contains("cached headline") }!.contains("sample"), screen)
    }

    /// Issue 38.2: after the home screen ran (its cache holds timelines dated today), `render
    /// --at` an earlier time draws the local widgets' real timelines, and loads again a
    /// network widget whose cached timeline has nothing to show then, instead of placeholders.
    func testRenderDrawsWhatTheReadmeShowsAfterTheAppHasRun() async {
        let later = at.addingTimeInterval(13 * 86400)
        let local = fakeWidget(kind: "local", cost: .local, script: FakeScript())
        let network = fakeWidget(script: FakeScript())
        let bundle = WidgetBundle([local, network])
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "local")]),
            TileInstance(id: "t2", family: .medium, items: [WidgetInstance(id: "w2", kind: "fake")]),
        ])
        func state(_ scheduler: Scheduler, now: Date) -> AppState {
            var s = AppState(
                environment: AppEnvironment(bundle: bundle, timeZone: TimeZone(identifier: "UTC")!), home: home,
                screen: Size(width: 80, height: 24), theme: .dark, alternateTheme: .light, now: now,
                scheduler: scheduler)
            s.focusedTile = nil
            return s
        }
        // The home screen ran 13 days later and cached both tiles' timelines.
        var ran = state(Scheduler(), now: later)
        _ = App.update(&ran, .tick(later))
        for id in ["w1", "w2"] {
            let t = AnyTimeline(entries: [AnyEntry(FakeEntry(date: later, value: "cached \(id)"))], policy: .never)
            XCTAssertTrue(ran.scheduler.push(id, timeline: t, at: later))
        }
        let cache = ran.scheduler.snapshot(at: later)
        XCTAssertEqual(Set(cache.records.keys), ["w1", "w2"])

        // render restores only the network widget's record.
        let restored = OneShot.networkRecords(cache, bundle: bundle)
        XCTAssertEqual(Array(restored.records.keys), ["w2"])
        var scheduler = Scheduler()
        scheduler.restore(restored)
        var s = state(scheduler, now: at)
        await OneShot.load(&s, source: .sample)
        let screen = AppView.render(s).buffer.textDump
        XCTAssertTrue(screen.contains("v1"), screen)  // the local widget's real timeline
        XCTAssertTrue(screen.contains("snapshot"), screen)  // nothing cached for then: the sample
        XCTAssertFalse(screen.contains("placeholder"), screen)
        XCTAssertFalse(screen.contains("cached"), screen)
    }
}
