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
}
