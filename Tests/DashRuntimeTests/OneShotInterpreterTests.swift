import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// Issue 36 point 3: the one-shot commands run effects through the one interpreter the home
/// screen uses; what they cannot run they refuse with a reason, never drop without a word.
final class OneShotInterpreterTests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_795_426_200)

    func state() -> AppState {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "fake")]),
            TileInstance(id: "t2", family: .medium, items: [WidgetInstance(id: "w2", kind: "fake")]),
        ])
        let environment = AppEnvironment(
            bundle: WidgetBundle([fakeWidget(script: FakeScript())]), timeZone: TimeZone(identifier: "UTC")!)
        return AppState(
            environment: environment, home: home, screen: Size(width: 80, height: 24), theme: .dark,
            alternateTheme: .light, now: at)
    }

    func testARunnerRefusesWhatNeedsTheLiveHomeScreenAndSaysWhy() {
        let runner = OneShotRunner(refuseLoad: { _ in nil })
        EffectInterpreter.run(
            [.redraw(full: false), .openURL("https://example.org/"), .writeHome(HomeConfig(tiles: [])), .bell, .quit],
            on: runner)
        XCTAssertEqual(
            runner.refused,
            [
                OneShot.Refusal(effect: "openURL(https://example.org/)", reason: "a one-shot command opens no browser"),
                OneShot.Refusal(effect: "writeHome()", reason: "a one-shot command never writes home.yaml"),
                OneShot.Refusal(effect: "bell", reason: "a one-shot command has no terminal to ring"),
            ])
        XCTAssertTrue(runner.loads.isEmpty)
    }

    func testTheLoadsATickAsksForAreCollectedOrRefusedWithTheCallersReason() {
        var s = state()
        let (jobs, refused) = OneShot.jobs(&s, after: .tick(at))
        XCTAssertEqual(Set(jobs.map(\.id)), ["w1", "w2"])
        XCTAssertTrue(refused.filter { $0.effect.hasPrefix("startLoad") }.isEmpty, "\(refused)")

        var t = state()
        let (none, said) = OneShot.jobs(&t, after: .tick(at)) { _ in "not wanted here" }
        XCTAssertTrue(none.isEmpty)
        XCTAssertEqual(said.filter { $0.reason == "not wanted here" }.count, 2, "\(said)")
    }

    func testASampleIsMarkedThroughUpdate() async {
        var s = state()
        s.focusedTile = nil
        await OneShot.load(&s, source: .sample)
        XCTAssertEqual(s.sampleInstances, ["w1", "w2"], "network widgets without a cache draw samples")
        XCTAssertTrue(AppView.render(s).buffer.textDump.contains("sample"))
    }
}
