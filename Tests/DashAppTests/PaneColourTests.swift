import XCTest
import Foundation
import DashCore
import DashWidgets
import DashRender
import DashTestSupport
@testable import DashApp
@testable import DashHome

/// Panes and tiles whose colour says something (issue 36.4): what failed, and the light theme on
/// the panes (the home screen's light snapshot covers only tiles). Each is a whole screen as text
/// and style together; the cells that carry the meaning are checked by role, so a failure drawn
/// in the plain colour fails like a wrong word.
final class PaneColourTests: XCTestCase {
    /// Two story tiles in `theme`, the `loaded` ones with their stories.
    func stories(theme: Theme = .dark, loaded: [String] = ["w1", "w2"]) -> AppHarness {
        let home = HomeConfig(
            tiles: (1...2).map {
                TileInstance(id: "t\($0)", family: .medium, items: [WidgetInstance(id: "w\($0)", kind: "stories")])
            })
        let h = AppHarness(widgets: [storyWidget], home: home, now: start, theme: theme)
        for id in loaded {
            h.finish(id, entries: [StoryEntry(date: start, stories: ["Story of \(id)", "Another of \(id)"])])
        }
        return h
    }

    /// A widget whose preview failed says so in the gallery in the negative role.
    func testTheGallerysFailedPreviewIsNegative() {
        let h = editHarness()
        h.press(.char("a"))
        for r in h.previewLoads {
            h.send(.edit(.previewLoaded(token: r.token, result: .failure(FakeError("the sample would not load")))))
        }
        XCTAssertTrue(h.screen.contains("preview failed"), h.screen)
        assertSnapshot(h.styledScreen, named: "styles-gallery-preview-failed-80x24")
        XCTAssertEqual(h.style(of: "preview failed")?.foreground, h.state.theme[.negative])
        XCTAssertEqual(h.style(of: "▸ Probe")?.foreground, h.state.theme[.focus], "the chosen widget")
        h.skipPendingWork()
    }

    /// A tile whose widget is not in the bundle says so in the negative role.
    func testAnUnknownWidgetsTileIsNegative() {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "stories")]),
            TileInstance(id: "t2", family: .medium, items: [WidgetInstance(id: "w2", kind: "gone")]),
        ])
        let h = AppHarness(widgets: [storyWidget], home: home, now: start)
        h.finish("w1", entries: [StoryEntry(date: start, stories: ["Story of w1", "Another of w1"])])
        assertSnapshot(h.styledScreen, named: "styles-unknown-widget-80x24")
        XCTAssertEqual(h.style(of: "Unknown widget")?.foreground, h.state.theme[.negative])
        XCTAssertEqual(h.style(of: "Story of w1")?.foreground, h.state.theme[.text], "a loaded tile stays plain")
        h.skipPendingWork()
    }

    /// The detail pane of a widget that failed before any data: "Failed to load" in the negative
    /// role, why in plain text, what to do in the secondary role.
    func testTheDetailPanesFailedToLoadIsNegative() {
        let h = stories(loaded: ["w2"])
        h.fail("w1", FakeError("HTTP 503 from example.org: the server is busy"))
        // Its tile on the home screen says so first.
        assertSnapshot(h.styledScreen, named: "styles-tile-failed-80x24")
        XCTAssertEqual(h.style(of: "Failed to load")?.foreground, h.state.theme[.negative])
        XCTAssertEqual(h.style(of: "Story of w2")?.foreground, h.state.theme[.text], "a loaded tile stays plain")
        h.press(.enter)
        XCTAssertEqual(h.state.pane.kind, .detail)
        assertSnapshot(h.styledScreen, named: "styles-detail-failed-80x24")
        XCTAssertEqual(h.style(of: "Failed to load")?.foreground, h.state.theme[.negative])
        XCTAssertEqual(h.style(of: "r retries now")?.foreground, h.state.theme[.secondaryText])
        h.skipPendingWork()
    }

    /// The form's choices that could not load: a warning in the row, and in the picker's status.
    func testTheFormsFailedChoicesAreWarnings() {
        let h = editHarness()
        h.press(.char("e"))
        h.answerOptions(.failure(FakeError("HTTP 429: rate limited")))
        h.select("symbol")
        XCTAssertEqual(h.style(of: "⚠ more choices")?.foreground, h.state.theme[.warning], "in the row")
        h.press(.enter)
        h.answerOptions(.failure(FakeError("HTTP 429: rate limited")))
        assertSnapshot(h.styledScreen, named: "styles-form-picker-failed-80x24")
        XCTAssertEqual(h.style(of: "⚠ HTTP 429")?.foreground, h.state.theme[.warning], "in the picker")
        h.skipPendingWork()
    }

    // MARK: - The light theme on the panes

    func testTheLightThemeOnTheDetailPane() {
        let h = stories(theme: .light)
        h.press(.enter)
        h.press(.tab)  // the pane's first link, highlighted in the focus role
        assertSnapshot(h.styledScreen, named: "styles-light-detail-link-80x24")
        XCTAssertEqual(h.state.theme.name, "light")
        XCTAssertEqual(h.style(of: "Read on the web")?.background, Theme.light[.focus])
        XCTAssertNotEqual(h.style(of: "Read on the web"), h.style(of: "Next story"), "the highlighted link stands out")
        h.skipPendingWork()
    }

    func testTheLightThemeOnHelp() {
        let h = stories(theme: .light)
        h.press(.char("?"))
        assertSnapshot(h.styledScreen, named: "styles-light-help-80x24")
        XCTAssertEqual(h.style(of: "Move")?.foreground, Theme.light[.accent])
        XCTAssertEqual(h.style(of: "previous / next page")?.foreground, Theme.light[.secondaryText])
        h.skipPendingWork()
    }

    func testTheLightThemeOnTheFormWithAnError() {
        let h = editHarness(theme: .light)
        h.press(.char("e"))
        XCTAssertEqual(h.state.pane.kind, .form)
        h.answerOptions(.success([ParameterOption("LTC", title: "Litecoin")]))
        h.select("name")
        h.type("X")
        assertSnapshot(h.styledScreen, named: "styles-light-form-error-80x24")
        XCTAssertEqual(h.style(of: "▸ Name")?.foreground, Theme.light[.focus], "the focused field")
        XCTAssertEqual(h.style(of: "Source")?.foreground, Theme.light[.text])
        XCTAssertEqual(h.style(of: "✗ must be lower-case")?.foreground, Theme.light[.negative])
        XCTAssertEqual(h.style(of: "✗ Name must be lower-case")?.foreground, Theme.light[.negative])
        h.skipPendingWork()
    }
}
