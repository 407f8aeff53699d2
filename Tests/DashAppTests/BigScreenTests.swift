import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
@testable import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// Issue 23 point 1: a big terminal is used. The grid unit grows with the screen (decision 45);
/// 80x24 keeps the 10x4 grid exactly.
final class BigScreenTests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_795_426_200)  // 2026-11-23 09:30 UTC
    let sizes = [
        Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 160, height: 48),
        Size(width: 200, height: 60), Size(width: 300, height: 80),
    ]

    func defaultLayout(_ size: Size) -> HomeLayout {
        AppState(
            bundle: BuiltinWidgets.bundle, home: HomeConfig.defaultHome(bundle: BuiltinWidgets.bundle), screen: size,
            theme: .dark, alternateTheme: .light, timeZone: TimeZone(identifier: "UTC")!, now: at
        ).layout
    }

    /// The share of the screen the default home's tiles cover (frames included, gutters not).
    func share(_ l: HomeLayout) -> Double {
        let cells = (l.pages.first ?? []).reduce(0) { $0 + $1.rect.width * $1.rect.height }
        return Double(cells) / Double(l.screen.width * l.screen.height)
    }

    func testTheDefaultHomeCoversMostOfEveryScreen() {
        var table = "size     unit   share\n"
        var shares: [Size: Double] = [:]
        for size in sizes {
            let l = defaultLayout(size)
            XCTAssertEqual(l.pageCount, 1, "\(size)")
            XCTAssertTrue(l.hidden.isEmpty, "\(size)")
            shares[size] = share(l)
            table +=
                "\(size.width)x\(size.height)  \(l.unit.width)x\(l.unit.height)  \(Int((share(l) * 100).rounded()))%\n"
            for t in l.pages[0] {
                XCTAssertLessThanOrEqual(t.rect.maxX, size.width, "\(size) \(t.id)")
                XCTAssertLessThanOrEqual(t.rect.maxY, size.height - 1, "\(size) \(t.id): over the status bar")
            }
        }
        print(table)
        XCTAssertGreaterThanOrEqual(shares[Size(width: 200, height: 60)]!, 0.6, table)
        for (a, b) in zip(sizes, sizes.dropFirst()) {
            XCTAssertGreaterThan(shares[b]!, 0.5, "\(b) uses the room:\n\(table)")
            _ = a
        }
        XCTAssertEqual(defaultLayout(Size(width: 80, height: 24)).unit, GridMetrics.baseUnit)
    }

    /// 80 columns keep the 10x4 grid whatever the home: a few tiles do not grow taller.
    func testEightyColumnsKeepTheGrid() {
        let two = [TileSlot(id: "a", family: .small), TileSlot(id: "b", family: .medium)]
        let l = HomeLayout.compute(two, screen: Size(width: 80, height: 24))
        XCTAssertEqual(l.unit, GridMetrics.baseUnit)
        XCTAssertEqual(l.tile("a")?.rect, Rect(x: 0, y: 0, width: 19, height: 7))
        XCTAssertEqual(l.tile("b")?.rect, Rect(x: 20, y: 0, width: 39, height: 7))
        // A home that needs more than one page uses every column at the 10x4 unit, as before.
        let lots = (0..<80).map { TileSlot(id: "s\($0)", family: .small) }
        let full = HomeLayout.compute(lots, screen: Size(width: 200, height: 60))
        XCTAssertEqual(full.unit, GridMetrics.baseUnit)
        XCTAssertEqual(full.columns, 20)
    }

    /// The grown tiles keep the unit's proportions within a fifth: 2 to 3 cells wide per row.
    func testGrownTilesKeepTheirShape() {
        for size in sizes {
            let u = defaultLayout(size).unit
            XCTAssertGreaterThanOrEqual(u.width, 2 * u.height, "\(size)")
            XCTAssertLessThanOrEqual(u.width, 3 * u.height, "\(size)")
        }
    }

    /// Views use the room: a grown tile draws with its real size, so news lists more stories,
    /// the system tile more processes.
    func testViewsAreToldTheRoomTheyHave() {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .large, items: [WidgetInstance(id: "w1", kind: "news")])
        ])
        let h = AppHarness(
            widgets: BuiltinWidgets.bundle.widgets, home: home, size: Size(width: 200, height: 60), now: at)
        let placed = h.state.layout.tile("t1")!
        XCTAssertGreaterThan(placed.rect.height, GridMetrics.tileSize(.large).height)
        let entry = NewsSamples.entry(now: at, name: "Top stories")
        var ctx = h.state.context(for: .large)
        XCTAssertEqual(NewsViews.shownCount(entry, ctx), 5, "the 80x24 large tile")
        let room = Chrome.contentRect(placed.rect).size
        ctx.size = (room.width, room.height)
        XCTAssertGreaterThan(NewsViews.shownCount(entry, ctx), 5, "a grown large tile")
        h.skipPendingWork()
    }

    /// Resizing keeps the focused tile and never reloads: loads are for the configured
    /// family (decision 22), whatever the drawn size.
    func testResizingKeepsFocusAndNeverReloads() {
        let h = AppHarness(
            widgets: BuiltinWidgets.bundle.widgets, home: HomeConfig.defaultHome(bundle: BuiltinWidgets.bundle),
            size: Size(width: 80, height: 24), now: at)
        h.run {
            $0.focusedTile = "t5"
            return []
        }
        _ = h.takeEffects()
        for size in sizes.reversed() + sizes {
            let effects = h.send(.resize(size))
            XCTAssertEqual(h.state.focusedTile, "t5", "\(size)")
            XCTAssertFalse(
                effects.contains { if case .startLoad = $0 { return true } else { return false } }, "\(size)")
        }
        h.skipPendingWork()
    }
}
