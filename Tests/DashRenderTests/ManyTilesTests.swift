import DashCore
import DashWidgets
import XCTest

@testable import DashRender

/// Issue 9, item 10: a 50,000-tile file took 15 s to render: every caller looked tiles up
/// with a scan of all pages. `HomeLayout.tile(_:)` is now one dictionary lookup.
final class ManyTilesTests: XCTestCase {
    func testFiftyThousandTilesTakeFifteenSecondsToRender_fixed() {
        let families: [WidgetFamily] = [.small, .medium, .small, .large]
        let slots = (0..<50_000).map {
            TileSlot(id: "t\($0)", family: families[$0 % families.count], fallbacks: [.small])
        }
        let layout = HomeLayout.compute(slots, screen: Size(width: 160, height: 48))
        XCTAssertEqual(layout.pages.reduce(0) { $0 + $1.count }, 50_000)
        XCTAssertGreaterThan(layout.pageCount, 1_000)
        // Every tile is found, on the page and at the place the pages hold it (50,000
        // lookups: with the old scan, over a billion comparisons).
        var expected: [String: PlacedTile] = [:]
        for page in layout.pages { for t in page { expected[t.id] = t } }
        for slot in slots { XCTAssertEqual(layout.tile(slot.id), expected[slot.id]) }
        XCTAssertNil(layout.tile("t50000"))
        // A layout whose pages were edited from outside still answers correctly.
        var edited = layout
        edited.pages[0].removeFirst()
        XCTAssertNil(edited.tile(layout.pages[0][0].id))
        XCTAssertEqual(edited.tile(layout.pages[0][1].id), layout.pages[0][1])
    }
}
