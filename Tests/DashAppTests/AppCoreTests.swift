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

/// The app's pure core through `AppHarness`: every event a message, every side effect a value.
final class AppCoreTests: XCTestCase {
    func harness(tiles: [WidgetFamily] = [.medium, .medium], size: Size = Size(width: 80, height: 24)) -> AppHarness {
        let home = HomeConfig(
            tiles: tiles.enumerated().map { i, f in
                TileInstance(id: "t\(i + 1)", family: f, items: [WidgetInstance(id: "w\(i + 1)", kind: "stories")])
            })
        return AppHarness(widgets: [storyWidget], home: home, size: size, now: start)
    }

    func testAProviderResultIsAMessageThatChangesWhatTheTileShows() {
        let h = harness()
        XCTAssertEqual(h.loads.map(\.id), ["w1", "w2"], "the first tick starts both loads as effects")
        XCTAssertTrue(h.screen.contains("▆▆▆▆▆▆ ▆▆▆"), "placeholders until a result arrives")
        _ = h.takeEffects()
        h.finish("w1", entries: [StoryEntry(date: start, stories: ["Fresh story", "b"])])
        let fx = h.takeEffects()
        XCTAssertTrue(fx.contains { if case .redraw = $0 { return true } else { return false } }, "\(fx)")
        XCTAssertTrue(
            fx.contains { if case .saveCache(let r) = $0 { return r.map(\.id) == ["w1"] } else { return false } },
            "the new timeline is saved through an effect: \(fx)")
        XCTAssertTrue(h.screen.contains("Fresh story"), h.screen)
        h.skipPendingWork()
    }

    func testALoadTimingOutIsAMessageAndKeepsTheLastGoodEntry() {
        let h = harness()
        h.finish("w1", entries: [StoryEntry(date: start, stories: ["Kept", "b"])])
        h.press(.char("r"))
        let job = h.load(of: "w1")!
        h.send(.loadTimedOut(id: "w1", token: job.token, after: 10))
        XCTAssertTrue(h.screen.contains("Kept"))
        XCTAssertTrue(h.screen.contains("⚠ stale"), h.screen)
        XCTAssertEqual(h.state.scheduler.lastError("w1"), "timed out after 10 s")
        h.skipPendingWork()
    }

    func testControlReloadUsesTheSchedulersVocabularyAndIsNotCharged() {
        let h = harness()
        h.finish("w1", entries: [StoryEntry(date: start, stories: ["a", "b"])])
        h.finish("w2", entries: [StoryEntry(date: start, stories: ["a", "b"])])
        _ = h.takeEffects()
        h.send(.widgetCenter(.reloadTimelines(kind: "stories")))
        XCTAssertEqual(h.loads.map(\.request.reason), [.widgetCenter, .widgetCenter])
        XCTAssertTrue(h.screen.contains("reloading stories"))
        XCTAssertEqual(h.state.scheduler.status("w1", at: h.clock.now)?.budget.used, 0)
        h.skipPendingWork()
    }

    func testTheStatusNoteExpiresOnItsOwnDeadline() {
        let h = harness()
        h.press(.char("R"))
        XCTAssertTrue(h.screen.contains("reloading all"))
        XCTAssertEqual(
            h.state.nextDeadline, h.clock.now.addingTimeInterval(StatusNote.lifetime),
            "the note's expiry is a deadline the loop sleeps until")
        h.advance(by: StatusNote.lifetime)
        XCTAssertFalse(h.screen.contains("reloading all"))
        h.skipPendingWork()
    }

    /// From the new-user review: the pane of a widget that failed said only "No data".
    func testADetailPaneOfAFailedWidgetSaysWhy() {
        let h = harness()
        h.fail("w1", URLError(.notConnectedToInternet))
        h.press(.enter)
        XCTAssertTrue(h.screen.contains("Failed to load"), h.screen)
        XCTAssertTrue(h.screen.contains("r retries now"), h.screen)
        h.skipPendingWork()
    }

    func testAClickOnALinkIsAMessageFromTheRuntime() {
        let h = harness()
        h.send(.click(tile: "t2", url: "swiftdash://stories/1"))
        XCTAssertEqual(h.state.focusedTile, "t2")
        guard let link = h.state.detailPane?.link else { return XCTFail("no pane") }
        XCTAssertEqual(link.url, "swiftdash://stories/1")
        h.skipPendingWork()
    }

    func testOpeningAWebLinkIsAnEffect() {
        let h = harness()
        h.finish("w1", entries: [StoryEntry(date: start, stories: ["a", "b"])])
        h.press(.enter)  // the tile's widgetURL: its detail pane
        h.press(.char("o"))
        XCTAssertEqual(h.opened, ["https://example.org/"])
        h.skipPendingWork()
    }

    func testTilesThatFitNowhereAreSaid() {
        // A large tile needs 15 rows of tiles: at 80x12 it falls back; an extraLarge-only widget does not fit.
        let wide = Widget(
            kind: "wide", displayName: "Wide", description: "", supportedFamilies: [.extraLarge],
            cost: .local, provider: StoryProvider(), view: { _, _ in Text("w") })
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "stories")]),
            TileInstance(id: "t2", family: .extraLarge, items: [WidgetInstance(id: "w2", kind: "wide")]),
            TileInstance(id: "t3", family: .extraLarge, items: [WidgetInstance(id: "w3", kind: "wide")]),
        ])
        let h = AppHarness(widgets: [storyWidget, wide], home: home, size: Size(width: 60, height: 24), now: start)
        XCTAssertEqual(h.state.layout.hidden, ["t2", "t3"])
        XCTAssertEqual(h.state.statusText, "2 tiles don't fit — widen the terminal")
        XCTAssertTrue(h.screen.contains("2 tiles don't fit"), h.screen)
        h.skipPendingWork()
    }

    func testACacheWrittenOnANarrowScreenIsRecognisedAtAnySize() throws {
        let narrow = harness(tiles: [.medium], size: Size(width: 25, height: 10))
        XCTAssertEqual(narrow.state.layout.tile("t1")?.family, .small, "drawn small on a narrow screen")
        narrow.finish("w1", entries: [StoryEntry(date: start, stories: ["Cached", "b"])])
        var written = narrow.state.scheduler
        let record = try XCTUnwrap(written.record("w1", at: start))
        XCTAssertEqual(record.family, .medium, "loaded and cached for the family in home.yaml")
        var restored = Scheduler()
        restored.restore(SchedulerSnapshot(records: ["w1": record]))
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "stories")])
        ])
        let wide = AppHarness(
            widgets: [storyWidget], home: home, size: Size(width: 200, height: 60), now: start + 5,
            scheduler: restored)
        XCTAssertTrue(wide.loads.isEmpty, "the cached timeline is used, not reloaded")
        XCTAssertTrue(wide.screen.contains("Cached"))
    }

    func testATimeZoneChangeReloadsClocksWithoutARestart() async {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "c", kind: "clock")])
        ])
        let h = AppHarness(widgets: BuiltinWidgets.bundle.widgets, home: home, now: start)
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("09:30"), h.screen)
        h.send(.timeZone(TimeZone(identifier: "Asia/Tokyo")!))
        XCTAssertEqual(h.loads.map(\.request.reason), [.widgetCenter], "local widgets reload, free")
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("18:30"), h.screen)
    }

    func testTheClockGoingBackRedraws() {
        let h = harness()
        h.advance(by: 600)
        let before = h.redraws
        h.send(.tick(start - 3600))
        XCTAssertGreaterThan(h.redraws, before)
        XCTAssertEqual(h.state.now, start - 3600)
        h.skipPendingWork()
    }

    func testACalendarOfURLsIsBudgetedAndOneOfFilesIsFree() {
        let home = HomeConfig(tiles: [
            TileInstance(
                id: "t1", family: .small,
                items: [
                    WidgetInstance(
                        id: "web", kind: "calendar",
                        config: WidgetConfig(["files": .list(["https://example.org/c.ics"])]))
                ]),
            TileInstance(
                id: "t2", family: .small,
                items: [
                    WidgetInstance(id: "file", kind: "calendar", config: WidgetConfig(["files": .list(["/tmp/c.ics"])]))
                ]),
        ])
        let h = AppHarness(widgets: BuiltinWidgets.bundle.widgets, home: home, now: start)
        XCTAssertEqual(h.state.scheduler.status("web", at: start)?.budget.cost, .budgeted)
        XCTAssertEqual(h.state.scheduler.status("file", at: start)?.budget.cost, .local)
        h.skipPendingWork()
    }

    // MARK: - Keys by layer, from one table

    func testEveryBoundKeyIsInTheHelpAndEveryHelpRowDispatches() {
        let help = AppView.keyHelp.flatMap { $0.1.map(\.0) }
        for b in KeyTable.bindings {
            XCTAssertTrue(help.contains(b.label), "\(b.label) is missing from the help")
            for (key, command) in b.keys {
                for layer in b.layers {
                    XCTAssertEqual(KeyTable.command(for: key, in: layer), command, "\(key) in \(layer)")
                }
            }
        }
        // The keys the review found working but unlisted.
        for label in ["Enter Space", "Esc Backspace", "q Ctrl-C"] { XCTAssertTrue(help.contains(label), label) }
    }

    func testNoKeyMeansTwoThingsInOneLayer() {
        for layer in Layer.allCases {
            var seen: [Key: Command] = [:]
            for b in KeyTable.bindings where b.layers.contains(layer) {
                for (k, c) in b.keys {
                    XCTAssertNil(seen[k], "\(k) bound twice in \(layer)")
                    seen[k] = c
                }
            }
        }
    }

    func testTheReadmeListsEveryKey() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for b in KeyTable.bindings {
            for word in b.label.split(separator: " ") where word.count > 1 && word != "/" {
                XCTAssertTrue(readme.contains(word), "README does not mention \(word) (\(b.help))")
            }
        }
    }

    func testPanesAreModalButGlobalKeysStillWork() {
        let h = harness()
        h.press(.char("?"))
        XCTAssertEqual(h.state.pane.kind, .help)
        h.press(.char("j"))
        XCTAssertEqual(h.state.pane.kind, .help, "a pane takes the keys it does not bind away from the home screen")
        XCTAssertEqual(h.state.focusedTile, "t1")
        h.press(.char("t"))
        XCTAssertEqual(h.state.theme.name, "light", "t works everywhere")
        h.press(.backspace)
        XCTAssertEqual(h.state.pane.kind, .none)
        h.press(.ctrl("c"))
        XCTAssertTrue(h.state.quitting)
        XCTAssertTrue(h.effects.contains { if case .quit = $0 { return true } else { return false } })
        h.skipPendingWork()
    }

    func testSpaceOpensLikeEnter() {
        let h = harness()
        h.press(.char(" "))
        guard let tile = h.state.detailPane?.tileID else { return XCTFail("no pane") }
        XCTAssertEqual(tile, "t1")
        h.skipPendingWork()
    }

    // MARK: - Whole screens

    func finished() -> AppHarness {
        let h = harness(tiles: [.small, .small, .medium, .large])
        for id in ["w1", "w2", "w3", "w4"] {
            h.finish(id, entries: [StoryEntry(date: start, stories: ["Story of \(id)", "Another of \(id)"])])
        }
        return h
    }

    func testScreenHome80x24() {
        assertSnapshot(finished().screen, named: "home-80x24")
    }

    func testScreenDetailPane80x24() {
        let h = finished()
        h.press(.tab, .enter)
        assertSnapshot(h.screen, named: "detail-80x24")
        // Tab highlights the pane's first link: focus means something by its colour.
        h.press(.tab)
        assertSnapshot(h.styledScreen, named: "styles-detail-link-80x24")
        XCTAssertNotEqual(
            h.style(of: "Read on the web"), h.style(of: "Next story"), "the highlighted link stands out")
        XCTAssertEqual(h.style(of: "Read on the web")?.background, h.state.theme[.focus])
    }

    func testScreenHelp80x24() {
        let h = finished()
        h.press(.char("?"))
        assertSnapshot(h.screen, named: "help-80x24")
        assertSnapshot(h.styledScreen, named: "styles-help-80x24")
        // Group headings in the accent role, keys in bold, what they do in the secondary role.
        XCTAssertEqual(h.style(of: "Move")?.foreground, h.state.theme[.accent])
        XCTAssertEqual(h.style(of: "PgUp PgDn")?.attributes.contains(.bold), true)
        XCTAssertEqual(h.style(of: "previous / next page")?.foreground, h.state.theme[.secondaryText])
    }

    func testTheHelpScrollsWhenLongerThanTheScreenAndFitsWhenWide() {
        let h = finished()
        h.press(.char("?"))
        let limit = AppView.helpScrollLimit(h.state.screen)
        if limit > 0 {
            XCTAssertTrue(h.screen.contains("↑↓ scroll"), h.screen)
            for _ in 0...(limit / 10 + 1) { h.press(.pageDown) }
            XCTAssertEqual(h.state.helpPane?.scroll, limit, "scrolling stops at the end")
            XCTAssertTrue(h.screen.contains("wheel"), "the last row shows at the end:\n\(h.screen)")
            h.press(.char("k"))
            XCTAssertEqual(h.state.helpPane?.scroll, limit - 1)
        }
        h.send(.resize(Size(width: 200, height: 60)))
        XCTAssertEqual(AppView.helpScrollLimit(h.state.screen), 0)
        for b in KeyTable.bindings { XCTAssertTrue(h.screen.contains(b.label), "\(b.label) not on the wide help") }
        assertSnapshot(h.screen, named: "help-200x60")
    }

    func testScreenTooSmall() {
        let h = finished()
        h.send(.resize(Size(width: 16, height: 6)))
        assertSnapshot(h.screen, named: "too-small-16x6")
    }
}

/// The repository's root (for README checks).
let packageRoot: URL = {
    var u = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { u.deleteLastPathComponent() }
    return u
}()
