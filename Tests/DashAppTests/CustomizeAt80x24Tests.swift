import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// The customize screens at the smallest supported terminal, 80x24, as a user sees them: the
/// Edit Widget form keeps its buttons and key hints, the gallery never shows an empty box, status
/// lines keep what to do, and help speaks words, never a regular expression.
final class CustomizeAt80x24Tests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_795_426_200)  // 2026-11-23 09:30 UTC
    let small = Size(width: 80, height: 24)
    let big = Size(width: 200, height: 60)

    func builtin(_ kind: String, _ family: WidgetFamily, size: Size) -> AppHarness {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: family, items: [WidgetInstance(id: "w1", kind: kind)])
        ])
        return AppHarness(widgets: BuiltinWidgets.bundle.widgets, home: home, size: size, now: at)
    }

    /// `[ Save ]` and `[ Cancel ]`, or their short forms.
    func buttons(_ screen: String) -> Bool {
        (screen.contains("[ Save ]") || screen.contains("[Save]"))
            && (screen.contains("[ Cancel ]") || screen.contains("[Cancel]"))
    }

    // MARK: - The form

    /// The weather form on a large tile: its Cancel button was cut to "[ Cance" beside the large
    /// preview; the buttons now move to the rows' left edge.
    func testTheFormOfALargeTileShowsBothButtonsAt80x24() async {
        let h = builtin("weather", .large, size: small)
        h.press(.char("e"))
        await h.runPreviews()
        let screen = h.screen
        XCTAssertTrue(screen.contains("│   [ Save ]  [ Cancel ]"), screen)
        assertSnapshot(screen, named: "customize-form-weather-large-80x24")
        h.send(.resize(big))
        XCTAssertTrue(buttons(h.screen), h.screen)
        assertSnapshot(h.screen, named: "customize-form-weather-large-200x60")
        h.skipPendingWork()
    }

    /// Every shipped widget, in every size, with every row selected in turn: both buttons and the
    /// key hints (the footer ends with Esc) are on screen, and no help shows a pattern.
    func testEveryFormKeepsItsButtonsAndKeyHintsOnEveryRow() {
        for size in [small, big] {
            for widget in BuiltinWidgets.bundle.widgets where !widget.schema.parameters.isEmpty {
                for family in widget.supportedFamilies {
                    let h = builtin(widget.kind, family, size: size)
                    h.press(.char("e"))
                    let rows = widget.schema.parameters.count + 2
                    for row in 0..<rows {
                        let screen = h.screen
                        let what = "\(widget.kind) \(family) \(size) row \(row)"
                        XCTAssertTrue(buttons(screen), "\(what)\n\(screen)")
                        XCTAssertTrue(screen.contains("Esc cancel ─╯"), "\(what)\n\(screen)")
                        for p in widget.schema.parameters {
                            if let pattern = Self.pattern(p) { XCTAssertFalse(screen.contains(pattern), "\(what)") }
                        }
                        h.press(.down)
                    }
                    h.press(.escape)
                    h.skipPendingWork()
                }
            }
        }
    }

    static func pattern(_ p: Parameter) -> String? {
        switch p.kind {
        case .string(let pattern): return pattern
        case .dynamicEnumeration(_, let pattern): return pattern
        case .list(let pattern): return pattern
        default: return nil
        }
    }

    /// A form taller than the screen scrolls its rows; the buttons stay pinned under them.
    func testATallFormScrollsItsRowsAndKeepsItsButtons() {
        let params = (1...16).map { i in
            Parameter(
                key: "p\(i)", title: "Setting \(i)", help: "The setting number \(i)", kind: .integer(0...99),
                default: .int(i))
        }
        let tall = Widget(
            kind: "tall", displayName: "Tall", description: "Many settings", supportedFamilies: [.medium],
            schema: ConfigurationSchema(params), cost: .local, provider: ProbeProvider(label: "tall"),
            view: probeView)
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "tall")])
        ])
        let h = AppHarness(widgets: [tall], home: home, now: at)
        answerAll(h)
        h.press(.char("e"))
        var screen = h.screen
        XCTAssertTrue(buttons(screen), screen)
        XCTAssertTrue(screen.contains("↓ more"), screen)
        XCTAssertFalse(screen.contains("Setting 16"), screen)
        assertSnapshot(screen, named: "customize-form-tall-80x24")
        for _ in 0..<15 { h.press(.down) }
        screen = h.screen
        XCTAssertTrue(screen.contains("▸ Setting 16"), screen)
        XCTAssertTrue(screen.contains("↑ more"), screen)
        XCTAssertTrue(buttons(screen), screen)
        h.press(.down, .down)  // to Cancel: the last rows stay, the buttons under them
        screen = h.screen
        XCTAssertEqual(h.state.form?.selected, 17)
        XCTAssertTrue(screen.contains("Setting 16"), screen)
        let buttonLine = screen.split(separator: "\n").first { $0.contains("[ Save ]") } ?? ""
        XCTAssertTrue(buttonLine.hasPrefix("│ ▸ "), screen)
        assertSnapshot(screen, named: "customize-form-tall-cancel-80x24")
    }

    /// Help and errors speak words: every pattern of a shipped widget has them.
    func testEveryPatternOfAShippedWidgetIsSaidInWords() {
        for widget in BuiltinWidgets.bundle.widgets {
            for p in widget.schema.parameters where Self.pattern(p) != nil {
                XCTAssertNotNil(p.patternWords, "\(widget.kind).\(p.key) needs words for its pattern")
                XCTAssertFalse(p.allowed.contains(Self.pattern(p)!), p.allowed)
            }
        }
        let coin = BuiltinWidgets.bundle["crypto"]!.schema.parameter("coin")!
        XCTAssertEqual(coin.allowed, "one of BTC, ETH, LTC or another coin symbol such as SOL")
        let steps = RecipeTimerWidget.widget.schema.parameter("steps")!
        XCTAssertEqual(steps.allowed, "a comma-separated list, each a step as name:minutes, such as Cook:30")
        XCTAssertThrowsError(try RecipeTimerWidget.widget.schema.parse(key: "steps", text: "Cook, Rest:10")) { e in
            XCTAssertEqual("\(e)", "steps: item 'Cook' is not a step as name:minutes, such as Cook:30")
        }
    }

    /// The clock's zone row said "Allowed: text matching [A-Za-z0-9_+\-/]*"; it now says what a
    /// zone looks like, and a wrong one is refused in the same words.
    func testTheClockFormSaysWhatAZoneLooksLike() {
        let h = builtin("clock", .small, size: small)
        h.press(.char("e"))
        h.type("Not a zone!")
        let screen = h.screen
        // The zone is now a list of the system's zones (issue 23): a wrong one matches none and
        // is not offered to take.
        XCTAssertTrue(screen.contains("Allowed: one of UTC or a time zone name such as Europe/Paris"), screen)
        XCTAssertTrue(screen.contains("nothing matches “Not a zone!”"), screen)
        XCTAssertFalse(screen.contains("use “Not a zone!”"), screen)
        XCTAssertFalse(screen.contains("[A-Za-z"), screen)
        assertSnapshot(screen, named: "customize-form-clock-zone-80x24")
        h.skipPendingWork()
    }

    // MARK: - The gallery

    func gallery(_ kind: String, family: WidgetFamily, size: Size) async -> AppHarness {
        let h = builtin("clock", .small, size: size)
        h.press(.char("a"))
        h.type(kind)
        await h.runEdits()
        let widget = BuiltinWidgets.bundle[kind]!
        for _ in 0..<(widget.supportedFamilies.firstIndex(of: family) ?? 0) { h.press(.right) }
        await h.runEdits()
        return h
    }

    /// The extra-large preview was an empty box at 80x24; the gallery now says it is too big
    /// here and how big a terminal shows it (which is then checked: it does, and one less does not).
    func testTheGallerySaysHowBigATerminalShowsTheExtraLargePreview() async {
        let h = await gallery("calendar", family: .extraLarge, size: small)
        let screen = h.screen
        XCTAssertTrue(screen.contains("Extra Large (79x15) is too big to preview here."), screen)
        XCTAssertTrue(screen.contains("A terminal 112 columns wide shows it."), screen)
        XCTAssertTrue(screen.contains("Enter adds it all the same."), screen)
        assertSnapshot(screen, named: "customize-gallery-xl-80x24")
        h.send(.resize(Size(width: 111, height: 24)))
        XCTAssertTrue(h.screen.contains("A terminal 112 columns wide shows it."), h.screen)
        h.send(.resize(Size(width: 112, height: 24)))
        XCTAssertTrue(h.screen.contains("╭─ Extra Large ─"), h.screen)
        XCTAssertFalse(h.screen.contains("too big"), h.screen)
        h.send(.resize(big))
        XCTAssertTrue(h.screen.contains("╭─ Extra Large ─"), h.screen)
        assertSnapshot(h.screen, named: "customize-gallery-xl-200x60")
        h.skipPendingWork()
    }

    /// Issue 38.7: at 200x60 the preview (drawn at the 80x24 grid) says how big the tile really
    /// is on this home screen.
    func testTheGalleryLabelSaysTheRealSizeOnABigScreen() async {
        let h = await gallery("calendar", family: .extraLarge, size: big)
        let real = GridMetrics.tileSize(.extraLarge, unit: h.state.layout.unit)
        XCTAssertNotEqual(real, GridMetrics.tileSize(.extraLarge))
        XCTAssertTrue(h.screen.contains("Extra Large 79x15 · sample · \(real) on your home"), h.screen)
        h.skipPendingWork()
    }

    /// The large preview lost its caption at 80x24; the blank line above the sizes gives way.
    func testTheGalleryShowsTheLargePreviewWithItsCaptionAt80x24() async {
        let h = await gallery("calendar", family: .large, size: small)
        let screen = h.screen
        XCTAssertTrue(screen.contains("╭─ Large ─"), screen)
        XCTAssertTrue(screen.contains("◂ 3 of 4 ▸  Large 39x15 · sample"), screen)
        assertSnapshot(screen, named: "customize-gallery-large-80x24")
        h.skipPendingWork()
    }

    /// A terminal too short (not too narrow) says how many rows; the preview then shows without its caption.
    func testATerminalTooShortForThePreviewSaysHowManyRows() async {
        let h = await gallery("calendar", family: .large, size: Size(width: 80, height: 20))
        XCTAssertTrue(h.screen.contains("Large (39x15) is too big to preview here."), h.screen)
        XCTAssertTrue(h.screen.contains("A terminal 21 rows high shows it."), h.screen)
        h.send(.resize(Size(width: 80, height: 21)))
        XCTAssertTrue(h.screen.contains("╭─ Large ─"), h.screen)
        h.skipPendingWork()
    }

    // MARK: - Status lines

    /// A failed tile's status line was cut mid-word at the key hint ("api.coingeck…"); it is now
    /// cut at a word and what to do (r retries) stays.
    func testAFailureOnTheStatusLineKeepsWhatToDo() {
        let h = builtin("crypto", .medium, size: small)
        h.fail("w1", DataSourceError(.unreachable, "cannot reach api.coingecko.com: offline or the server is down"))
        let screen = h.screen
        // One line (issue 38): shortened at a word, what to do kept whole, the key that shows
        // all of it after it; the row above is the tiles'.
        let rows = screen.split(separator: "\n").suffix(2).map(String.init)
        XCTAssertFalse(rows[0].contains("⚠"), screen)
        XCTAssertTrue(rows[1].contains("⚠ crypto: cannot reach"), rows[1])
        XCTAssertTrue(rows[1].hasSuffix("· r retries  Ctrl-G whole"), rows[1])
        assertSnapshot(screen, named: "customize-status-failure-80x24")
    }

    /// Arrange mode's key hints ran past 80 columns ("u und…"); whole hints now give way, and
    /// a note comes first, whole.
    func testArrangeHintsGiveWayWholeAndANoteStaysWhole() {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "clock")]),
            TileInstance(id: "t2", family: .small, items: [WidgetInstance(id: "w2", kind: "clock")]),
        ])
        let h = AppHarness(widgets: BuiltinWidgets.bundle.widgets, home: home, now: at)
        h.press(.char("m"), .enter)
        var status = h.screen.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(status.hasSuffix("u undo · Esc done"), status)
        XCTAssertFalse(status.contains("…"), status)
        h.press(.char("f"))  // a note: the clock is now medium
        status = h.screen.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(status.contains("Clock is now medium"), status)
        XCTAssertTrue(status.hasSuffix(" · Esc done"), status)
        XCTAssertFalse(status.contains("…"), status)
        assertSnapshot(h.screen, named: "customize-arrange-note-80x24")
        h.skipPendingWork()
    }
}
