import XCTest
import Foundation
import DashCore
import DashWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// Counts the loads running at once.
final class LoadGauge: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private(set) var most = 0
    private(set) var done = 0
    func enter() {
        lock.withLock {
            now += 1
            most = max(most, now)
        }
    }
    func leave() {
        lock.withLock {
            now -= 1
            done += 1
        }
    }
}

struct GaugeEntry: TimelineEntry {
    var date: Date
    var summary: String { "gauge" }
}

struct GaugeProvider: TimelineProvider {
    let gauge: LoadGauge
    func placeholder(in context: TimelineContext) -> GaugeEntry { GaugeEntry(date: context.now) }
    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> GaugeEntry {
        GaugeEntry(date: context.now)
    }
    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<GaugeEntry> {
        gauge.enter()
        // Suspends a few times, so loads that were all started would overlap.
        for _ in 0..<20 { await Task.yield() }
        gauge.leave()
        return Timeline(entries: [GaugeEntry(date: context.now)], policy: .never)
    }
}

/// Issue 24.2: `render` ran every load of the file at once (a command widget is a process
/// each); it runs at most `Runtime.maxLoadsInFlight`, as the home screen does.
final class OneShotBoundTests: XCTestCase {
    func testNoConfigurationCanExhaustTheMachineRenderLoadsAreBounded() async {
        let gauge = LoadGauge()
        let widget = Widget(
            kind: "gauge", displayName: "Gauge", description: "test", cost: .local,
            provider: GaugeProvider(gauge: gauge),
            view: { _, _ in Text("g") })
        let tiles = (0..<40).map { t in
            TileInstance(
                id: "t\(t)", family: .small,
                items: (0..<8).map { WidgetInstance(id: "w\(t)-\($0)", kind: "gauge") })
        }
        var state = AppState(
            bundle: WidgetBundle([widget]), home: HomeConfig(tiles: tiles), screen: Size(width: 80, height: 24),
            theme: .dark, alternateTheme: .light, timeZone: TimeZone(identifier: "UTC")!,
            now: Date(timeIntervalSince1970: 1_795_426_200))
        await OneShot.load(&state, source: .sample)
        XCTAssertEqual(gauge.done, 320, "every widget loaded")
        XCTAssertLessThanOrEqual(gauge.most, Runtime.maxLoadsInFlight)
    }
}
