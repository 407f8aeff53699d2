import XCTest
import Foundation
import DashCore
import DashWidgets
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome

/// Issue 9, item 10: the 50,000-tile file is refused with a message naming the limit.
final class ManyTilesConfigTests: XCTestCase {
    func testFiftyThousandTilesTakeFifteenSecondsToRender_capped() throws {
        let compact = "tiles:\n" + String(repeating: "  - {widget: clock}\n", count: 50_000)
        XCTAssertThrowsError(try HomeConfig.parse(yaml: compact, file: "home.yaml", bundle: BuiltinWidgets.bundle)) {
            e in
            XCTAssertEqual("\(e)", "home.yaml:1: `tiles` lists 50,000 tiles; at most 1,000")
        }
        let full = "tiles:\n" + String(repeating: "  - family: small\n    widget: clock\n", count: 50_000)
        XCTAssertThrowsError(
            try HomeConfig.parse(data: Data(full.utf8), file: "home.yaml", bundle: BuiltinWidgets.bundle)
        ) { e in
            XCTAssertEqual("\(e)", "home.yaml: the file is 1.7 MB; home.yaml may be at most 1.0 MB")
        }
        // At the limit, the home screen draws and every tile gets its data.
        let tiles = (0..<ConfigLimits.maxTiles).map {
            TileInstance(id: "t\($0)", family: .small, items: [WidgetInstance(id: "w\($0)", kind: "clock")])
        }
        var state = AppState(
            bundle: BuiltinWidgets.bundle, home: HomeConfig(tiles: tiles), screen: Size(width: 160, height: 48),
            theme: .dark, alternateTheme: .light, timeZone: TimeZone(identifier: "UTC")!,
            now: Date(timeIntervalSince1970: 1_795_426_200))
        XCTAssertEqual(state.layout.pages.reduce(0) { $0 + $1.count }, ConfigLimits.maxTiles)
        let frame = AppView.render(state).buffer
        XCTAssertTrue(frame.textDump.contains("Clock"))
        state.relayout()
        XCTAssertEqual(state.focusedTile, "t0")
    }
}
