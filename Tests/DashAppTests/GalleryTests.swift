import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// The widget gallery (`a`) through the `AppHarness`.
final class GalleryTests: XCTestCase {
    func testTheGalleryShowsEveryWidgetWithItsPreviewInEachFamilyAndTypingFilters() async {
        let h = editHarness()
        h.press(.char("a"))
        XCTAssertEqual(h.state.pane.kind, .gallery)
        for name in ["Probe", "Remote", "Dot", "Stories"] { XCTAssertTrue(h.screen.contains(name), name) }
        XCTAssertTrue(h.screen.contains("4 widgets"))
        let previews = h.previewLoads
        XCTAssertEqual(previews.map { $0.context.family }, [.small, .medium, .large], "the chosen widget in each size")
        XCTAssertTrue(
            previews.allSatisfy { $0.context.isPreview && !$0.live },
            "snapshots with sample data, no network")
        await h.runEdits()
        XCTAssertTrue(h.screen.contains("sample"), h.screen)
        h.type("rem")
        XCTAssertTrue(h.screen.contains("1 of 4 widgets"), h.screen)
        XCTAssertTrue(h.screen.contains("From the network"), "the description")
        XCTAssertFalse(h.screen.contains("Stories"))
        h.type("x")
        XCTAssertTrue(h.screen.contains("No widget matches “remx”"), h.screen)
        h.press(.enter)
        XCTAssertEqual(h.state.pane.kind, .gallery, "nothing to add")
        h.press(.backspace, .backspace, .backspace, .backspace)
        XCTAssertTrue(h.screen.contains("4 widgets"))
        XCTAssertFalse(h.state.quitting, "q typed into the filter would not quit either")
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertEqual(h.state.home.tiles.count, 2, "Esc adds nothing")
        h.skipPendingWork()
    }

    func testEnterAddsTheWidgetAfterTheFocusedTileFocusesItAndOpensEdit() {
        let h = editHarness([("stories", .medium), ("stories", .medium)])
        h.press(.char("a"))
        h.press(.right)  // Probe: small → medium
        h.press(.enter)
        XCTAssertEqual(h.state.home.tiles.map(\.id), ["t1", "t3", "t2"], "after the focused tile, with a new id")
        let added = h.state.home.tiles[1]
        XCTAssertEqual(added.family, .medium)
        XCTAssertEqual(added.items.map(\.kind), ["probe"])
        XCTAssertEqual(added.items[0].id, "w4", "instance ids never repeat a tile's or another instance's")
        XCTAssertEqual(h.state.focusedTile, "t3")
        XCTAssertEqual(h.state.pane.kind, .form, "a widget with settings opens in the form")
        XCTAssertEqual(h.state.form?.instanceID, "w4")
        XCTAssertEqual(h.written.last?.tiles.count, 3, "written at once")
        XCTAssertEqual(h.load(of: "w4")?.request.reason, .initial, "registered with the scheduler")
        h.press(.escape)
        h.press(.char("u"))
        XCTAssertEqual(h.state.home.tiles.map(\.id), ["t1", "t2"], "u undoes the add")
        XCTAssertFalse(h.state.scheduler.contains("w4"))
        h.skipPendingWork()
    }

    func testAWidgetWithNothingToSetIsAddedWithoutTheForm() {
        let h = editHarness()
        h.press(.char("a"))
        h.type("dot")
        XCTAssertTrue(h.screen.contains("[Small]"), h.screen)
        h.press(.right)
        XCTAssertEqual(h.state.gallery?.family, .small, "a widget with one size keeps it")
        h.press(.enter)
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertEqual(h.state.tile(h.state.focusedTile!)?.items.first?.kind, "dot")
        XCTAssertTrue(h.screen.contains("added Dot"), h.screen)
        h.skipPendingWork()
    }

    func testAnEmptyHomeScreenSaysHowToAddAndTheGalleryAddsTheFirstTile() {
        let h = AppHarness(widgets: editWidgets, home: HomeConfig(tiles: []), now: start)
        XCTAssertTrue(h.screen.contains("Press a to add a widget"), h.screen)
        h.press(.char("m"))
        XCTAssertTrue(h.screen.contains("no tile to arrange"), h.screen)
        h.press(.char("a"))
        h.type("dot")
        h.press(.enter)
        XCTAssertEqual(h.state.home.tiles.count, 1)
        XCTAssertEqual(h.state.focusedTile, h.state.home.tiles.first?.id)
        h.skipPendingWork()
    }

    func testAddingTwiceGivesUniqueIds() {
        let h = editHarness()
        for _ in 0..<2 {
            h.press(.char("a"))
            h.type("dot")
            h.press(.enter)
        }
        let ids = h.state.home.tiles.map(\.id) + h.state.home.allInstances.map(\.id)
        XCTAssertEqual(Set(ids).count, ids.count, "\(ids)")
        h.skipPendingWork()
    }

    func testScreenGallery80x24() async {
        let h = editHarness()
        h.press(.char("a"))
        await h.runEdits()
        h.press(.right)
        await h.runEdits()
        assertSnapshot(h.screen, named: "gallery-80x24")
        assertSnapshot(h.styledScreen, named: "styles-gallery-80x24")
        XCTAssertEqual(h.style(of: "▸ Probe")?.foreground, h.state.theme[.focus], "the chosen widget")
        XCTAssertEqual(h.style(of: "Remote")?.foreground, h.state.theme[.text])
    }

    func testScreenGallery200x60() async {
        let h = editHarness(size: Size(width: 200, height: 60))
        h.press(.char("a"))
        await h.runEdits()
        h.press(.right)
        assertSnapshot(h.screen, named: "gallery-200x60")
    }
}
