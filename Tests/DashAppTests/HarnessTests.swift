import XCTest
import Foundation
import DashCore
import DashWidgets
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles
@testable import DashRuntime

/// The harness itself: it drives the real runtime (one effect interpreter), its fake services
/// record what the app hands out, and it is exhaustive about that work.
final class HarnessTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_426_230)

    func harness() -> AppHarness {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "fake")]),
            TileInstance(id: "t2", family: .small, items: [WidgetInstance(id: "w2", kind: "fake")]),
        ])
        return AppHarness(widgets: [fakeWidget(script: FakeScript())], home: home, now: now)
    }

    func testLoadsAreStartedByTheRuntimeAndListedUntilAnswered() {
        let h = harness()
        XCTAssertEqual(h.runtime.stats.loadsStarted, 2, "the runtime's startLoads handed them to the service")
        XCTAssertEqual(h.pendingWork, ["load of w1", "load of w2"])
        h.finish("w1", entries: [])
        XCTAssertEqual(h.pendingWork, ["load of w2"], "an answered load is no longer pending")
        let token = h.load(of: "w2")!.token
        h.send(.loaded(id: "w2", token: token, result: .failure(FakeError("offline"))))
        XCTAssertEqual(h.pendingWork, [], "a load answered by a message of the test's own is answered")
    }

    func testSkippingPendingWorkSaysTheTestLeavesItRunning() {
        let h = harness()
        XCTAssertFalse(h.pendingWork.isEmpty)
        h.skipPendingWork()
        XCTAssertEqual(h.pendingWork, [])
    }

    /// A write goes through the runtime's file work (inline in the harness) to the in-memory
    /// home.yaml, and its outcome comes back as the message the real program gets.
    func testAWriteRunsThroughTheRuntimesFileWorkAndComesBackAsAMessage() throws {
        let text = """
            tiles:
              - family: medium
                widget: fake
              - family: small
                widget: fake
            """
        let h = harness()
        let bundle = h.state.bundle
        let home = try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle)
        h.useHomeFile(HomeFileState(path: "/nowhere/home.yaml", text: text, home: home))
        var smaller = h.state.home
        smaller.tiles.removeLast()
        h.run { Editing.changeHome(&$0, to: smaller, what: "remove", focus: nil) }
        XCTAssertEqual(h.homeWrites.count, 1)
        XCTAssertEqual(h.state.homeFile?.text.map { $0.contains("t2") }, false, "the outcome reached the state")
        h.skipPendingWork()
    }
}

/// A chart of an api widget's field (issue 27.2): the home screen gives the chart's load that
/// api widget's request and the field's path when it starts (`AppState.job`, `Widget.borrows`).
final class BorrowedSettingsTests: XCTestCase {
    func testAChartsLoadCarriesTheAPIWidgetsRequestAndFieldPath() {
        let api = WidgetInstance(
            id: "w1", kind: APIWidget.kind,
            config: WidgetConfig([
                "url": .string("http://127.0.0.1:9/status"), "fields": .list(["p95 = metrics.p95_ms | number"]),
            ]))
        let chart = WidgetInstance(
            id: "w2", kind: ChartWidget.kind,
            config: WidgetConfig(["source": .string("api"), "api": .string("w1"), "field": .string("p95")]))
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [api]),
            TileInstance(id: "t2", family: .medium, items: [chart]),
        ])
        let h = AppHarness(
            widgets: [APIWidget.make(), ChartWidget.make()], home: home,
            now: Date(timeIntervalSince1970: 1_795_426_230))
        let job = h.load(of: "w2")
        XCTAssertEqual(job?.request.configuration.string("url"), "http://127.0.0.1:9/status")
        XCTAssertEqual(job?.request.configuration.string("path"), "metrics.p95_ms")
        XCTAssertEqual(h.state.home.instance("w2")?.config.string("url"), "", "home.yaml's chart is unchanged")
        h.skipPendingWork()
    }
}
