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
