import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome

/// The style layer of whole-screen snapshots: where the focus frame is and which colour role each
/// cell has are checked like the text, so a focus drawn on the wrong tile or in the wrong colour
/// fails a test even when every character is right.
final class StyleLayerTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_426_200)  // 2026-11-23 09:30 UTC

    func harness() -> AppHarness {
        let tiles = (1...3).map {
            TileInstance(id: "t\($0)", family: .small, items: [WidgetInstance(id: "w\($0)", kind: "clock")])
        }
        let h = AppHarness(widgets: [ClockWidget.widget], home: HomeConfig(tiles: tiles), now: now)
        return h
    }

    func testTheFocusFrameMovesWithTheFocusAndIsDrawnInTheFocusRole() throws {
        let h = harness()
        let first = h.frame.buffer
        assertSnapshot(StyleDump.dump(first, theme: h.state.theme), named: "styles-focus-first-tile")
        // The focused tile's top-left corner is drawn in the focus role; its neighbour's is not.
        XCTAssertEqual(first[0, 0].text, "┏", first.textDump)
        XCTAssertEqual(first[0, 0].style.foreground, h.state.theme[.focus])
        h.press(.right)
        let second = h.frame.buffer
        assertSnapshot(StyleDump.dump(second, theme: h.state.theme), named: "styles-focus-second-tile")
        XCTAssertEqual(h.state.focusedTile, "t2")
        XCTAssertNotEqual(first[0, 0].style, second[0, 0].style, "the first tile's frame lost the focus style")
        h.skipPendingWork()
    }

    func testTheLegendNamesThemeRoles() {
        let h = harness()
        let dump = StyleDump.dump(h.frame.buffer, theme: h.state.theme)
        XCTAssertTrue(dump.contains("fg focus"), dump)
        XCTAssertTrue(dump.contains("bg background"), dump)
        h.skipPendingWork()
    }

    /// An error means something by its colour: a tile whose load failed says so in the error role.
    func testAFailedLoadIsDrawnInTheErrorRole() throws {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "fake")])
        ])
        let h = AppHarness(widgets: [fakeWidget(script: FakeScript())], home: home, now: now)
        h.fail("w1", URLError(.notConnectedToInternet))
        let dump = StyleDump.dump(h.frame.buffer, theme: h.state.theme)
        assertSnapshot(dump, named: "styles-failed-load")
        XCTAssertTrue(dump.contains("fg negative"), dump)
        h.skipPendingWork()
    }

    /// A theme is colour: the light theme draws every role in its own colours.
    func testTheLightThemeDrawsItsOwnRoles() throws {
        let tiles = (1...2).map {
            TileInstance(id: "t\($0)", family: .small, items: [WidgetInstance(id: "w\($0)", kind: "clock")])
        }
        let h = AppHarness(widgets: [ClockWidget.widget], home: HomeConfig(tiles: tiles), now: now, theme: .light)
        let dump = StyleDump.dump(h.frame.buffer, theme: h.state.theme)
        assertSnapshot(dump, named: "styles-light-theme")
        XCTAssertTrue(dump.contains("fg focus"), dump)
        h.skipPendingWork()
    }

    /// The dark theme, the same home as the light one: its roles in its own colours.
    func testTheDarkThemeDrawsItsOwnRoles() throws {
        let tiles = (1...2).map {
            TileInstance(id: "t\($0)", family: .small, items: [WidgetInstance(id: "w\($0)", kind: "clock")])
        }
        let h = AppHarness(widgets: [ClockWidget.widget], home: HomeConfig(tiles: tiles), now: now, theme: .dark)
        assertSnapshot(h.styledScreen, named: "styles-dark-theme-80x24")
        XCTAssertEqual(h.frame.buffer[0, 0].style.foreground, Theme.dark[.focus])
        XCTAssertNotEqual(Theme.dark[.focus], Theme.light[.focus], "the two themes differ in the focus role")
        h.skipPendingWork()
    }
}
