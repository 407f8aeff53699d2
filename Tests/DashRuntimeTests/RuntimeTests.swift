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

final class RuntimeTests: XCTestCase {
    var loads: [LoadRequest] = []

    func makeRuntime(size: Size = Size(width: 80, height: 24), tiles: [WidgetFamily] = [.medium, .medium]) -> (
        Runtime, HeadlessTerminal, VirtualClock, Box
    ) {
        let terminal = HeadlessTerminal(size: size)
        let clock = VirtualClock(now: start)
        let bundle = WidgetBundle([storyWidget])
        let home = HomeConfig(
            tiles: tiles.enumerated().map { i, f in
                TileInstance(id: "t\(i + 1)", family: f, items: [WidgetInstance(id: "w\(i + 1)", kind: "stories")])
            })
        let state = AppState(
            bundle: bundle, home: home, screen: size, theme: .dark, alternateTheme: .light,
            timeZone: TimeZone(identifier: "UTC")!, now: start)
        let box = Box()
        let inbox = Inbox(wake: {})
        let runtime = Runtime(
            state: state, terminal: terminal, clock: clock, inbox: inbox,
            services: RuntimeServices(startLoad: { job, _ in
                box.append(job.request)
                return nil
            }))
        return (runtime, terminal, clock, box)
    }

    final class Box: @unchecked Sendable {
        var requests: [LoadRequest] = []
        func append(_ r: LoadRequest) { requests.append(r) }
    }

    func finish(_ r: Runtime, _ req: LoadRequest, stories: [String], since: Date? = nil, at date: Date) {
        r.inbox.post(
            .loaded(
                id: req.id, token: req.token,
                result: .success(
                    AnyTimeline(
                        entries: [AnyEntry(StoryEntry(date: date, stories: stories, since: since))], policy: .never))))
    }

    /// Issue 24.2: the home screen started a thread per widget (10,836 threads in 34 s): at
    /// most `maxLoadsInFlight` loads run at once, the rest start as results come back.
    func testNoConfigurationCanExhaustTheMachineLoadsInFlightAreBounded() {
        let (r, _, clock, box) = makeRuntime(
            size: Size(width: 200, height: 60), tiles: Array(repeating: .small, count: 300))
        r.turn()
        XCTAssertEqual(box.requests.count, Runtime.maxLoadsInFlight)
        var finished = 0
        while finished < box.requests.count {
            finish(r, box.requests[finished], stories: ["s"], at: clock.now)
            finished += 1
            r.turn()
            XCTAssertLessThanOrEqual(box.requests.count - finished, Runtime.maxLoadsInFlight)
        }
        XCTAssertEqual(box.requests.count, 300, "every widget loaded in the end")
        XCTAssertEqual(r.stats.mostLoadsInFlight, Runtime.maxLoadsInFlight)
    }

    /// Issue 24.8: after a 10,000-key flood the app worked through queued keys (a frame each)
    /// for 13 s. Waiting keys are handled in one turn with one frame, and `q` behind them quits.
    func testKeysNeverPileUpAFloodIsOneFrameAndQQuits() {
        let (r, term, _, _) = makeRuntime(tiles: [.small, .small, .medium, .small])
        r.turn()
        let framesBefore = r.stats.frames
        let moves: [Key] = [.right, .down, .left, .up]
        term.events = (0..<10_000).map { .key(moves[$0 % 4]) } + [.key(.char("q"))]
        r.run()
        XCTAssertTrue(r.state.quitting)
        XCTAssertTrue(term.events.isEmpty)
        XCTAssertLessThanOrEqual(r.stats.frames - framesBefore, 3, "one frame per turn, not one per key")
        XCTAssertLessThanOrEqual(r.stats.turns, 5)
    }

    /// Ctrl-C quits at once whatever is queued before it (a flood of Enter and Escape).
    func testKeysNeverPileUpCtrlCQuitsBeforeWhatIsQueued() {
        let (r, term, _, box) = makeRuntime()
        r.turn()
        let loadsBefore = box.requests.count
        term.events =
            (0..<5_000).flatMap { _ in [InputEvent.key(.enter), .key(.char("r")), .key(.escape)] }
            + [.key(.ctrl("c"))]
        r.run()
        XCTAssertTrue(r.state.quitting)
        XCTAssertEqual(box.requests.count, loadsBefore, "nothing queued before Ctrl-C ran")
    }

    /// Issue 37.7: `q` behind a flood of keys that only move quits in the turn that reads it;
    /// the keys after it (a `d` would remove a tile) never run.
    func testKeysNeverPileUpQBehindMovesQuitsAndWhatFollowsNeverRuns() {
        let (r, term, _, _) = makeRuntime(tiles: [.small, .small, .medium, .small])
        r.turn()
        let moves: [Key] = [.char("h"), .char("j"), .char("k"), .char("l"), .right, .pageDown, .char("g")]
        term.events = (0..<5_000).map { .key(moves[$0 % moves.count]) } + [.key(.char("q")), .key(.char("d"))]
        r.run()
        XCTAssertTrue(r.state.quitting)
        XCTAssertEqual(r.state.home.tiles.count, 4, "the d after q was not handled")
        XCTAssertEqual(term.events, [], "everything was read")
    }

    func testPlaceholderFirstThenRealEntryThenStaleMarkKeepsTheEntry() {
        let (r, term, clock, box) = makeRuntime()
        r.turn()
        XCTAssertEqual(box.requests.count, 2, "both instances load at start")
        XCTAssertTrue(
            term.screen.textDump.contains("▆▆▆▆▆▆ ▆▆▆"), "placeholder drawn redacted:\n\(term.screen.textDump)")
        finish(r, box.requests[0], stories: ["Real news", "More news"], at: start)
        r.turn()
        XCTAssertTrue(term.screen.textDump.contains("Real news"))
        // A manual reload that fails keeps the last good entry and marks it stale.
        r.handle(.key(.char("r")))
        r.turn()
        XCTAssertEqual(box.requests.count, 3)
        r.inbox.post(
            .loaded(id: "w1", token: box.requests[2].token, result: .failure(URLError(.notConnectedToInternet))))
        clock.advance(by: 1)
        r.turn()
        let screen = term.screen.textDump
        XCTAssertTrue(screen.contains("Real news"), screen)
        XCTAssertTrue(screen.contains("⚠ stale"), screen)
        // The status bar says why once the "reloading" note has expired (a deadline, not polling).
        clock.advance(by: StatusNote.lifetime)
        r.turn()
        XCTAssertTrue(term.screen.textDump.contains("⚠ stories: "), term.screen.textDump)
        XCTAssertTrue(term.screen.textDump.contains("r retries"))
    }

    func testIdleLoopSleepsUntilTheNextVisibleChangeAndDrawsNothingMeanwhile() {
        let (r, term, clock, box) = makeRuntime()
        r.turn()
        for req in box.requests { finish(r, req, stories: ["A", "B"], at: start) }
        let wait = r.turn()!
        // Nothing but the status bar clock changes: the next wake is the next minute.
        XCTAssertEqual(wait, 29.5, accuracy: 0.6)
        let frames = r.stats.frames
        r.turn()
        r.turn()
        XCTAssertEqual(r.stats.frames, frames, "a turn with nothing due draws nothing")
        let cells = term.cellsWritten
        clock.advance(to: start.addingTimeInterval(30))
        r.turn()
        XCTAssertEqual(r.stats.frames, frames + 1)
        XCTAssertLessThanOrEqual(term.cellsWritten - cells, 2, "only the changed minute digits are sent")
        XCTAssertTrue(term.screen.textDump.contains("09:31"))
    }

    func testLiveTimerWakesEverySecondWithoutTheProvider() {
        let (r, term, clock, box) = makeRuntime()
        r.turn()
        finish(r, box.requests[0], stories: ["A", "B"], since: start.addingTimeInterval(-5), at: start)
        XCTAssertEqual(r.turn()!, 1, accuracy: 0.01)
        XCTAssertTrue(term.screen.textDump.contains("0:05"))
        clock.advance(by: 1)
        r.turn()
        XCTAssertTrue(term.screen.textDump.contains("0:06"))
        XCTAssertEqual(box.requests.count, 2, "no provider call for live text")
    }

    func testTabWalksLinksEnterOpensDetailEscReturnsFocus() {
        let (r, term, _, box) = makeRuntime()
        r.turn()
        for req in box.requests { finish(r, req, stories: ["First", "Second"], at: start) }
        r.turn()
        r.handle(.key(.right))
        XCTAssertEqual(r.state.focusedTile, "t2")
        r.handle(.key(.tab))
        r.handle(.key(.tab))
        XCTAssertEqual(r.state.highlightedLink, "swiftdash://stories/1")
        r.handle(.key(.enter))
        r.turn()
        XCTAssertTrue(term.screen.textDump.contains("Detail of 1"), term.screen.textDump)
        r.handle(.key(.escape))
        r.turn()
        XCTAssertFalse(term.screen.textDump.contains("Detail of"))
        XCTAssertEqual(r.state.focusedTile, "t2")
        // Enter with no link highlighted follows the tile's widgetURL.
        XCTAssertEqual(r.state.highlightedLink, "swiftdash://stories/1", "closing the pane keeps the highlight")
        r.handle(.key(.tab))
        XCTAssertNil(r.state.highlightedLink, "Tab past the last link clears the highlight")
        r.handle(.key(.enter))
        if let link = r.state.detailPane?.link {
            XCTAssertEqual(link.url, "swiftdash://stories")
        } else {
            XCTFail("no pane")
        }
    }

    func testDetailPaneLinksTabEnterAndO() {
        final class Opened: @unchecked Sendable { var urls: [String] = [] }
        let opened = Opened()
        let terminal = HeadlessTerminal(size: Size(width: 80, height: 24))
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "stories")])
        ])
        let state = AppState(
            bundle: WidgetBundle([storyWidget]), home: home, screen: terminal.size, theme: .dark,
            alternateTheme: .light, timeZone: TimeZone(identifier: "UTC")!, now: start)
        let box = Box()
        let r = Runtime(
            state: state, terminal: terminal, clock: VirtualClock(now: start), inbox: Inbox(wake: {}),
            services: RuntimeServices(
                openURL: {
                    opened.urls.append($0)
                    return nil
                },
                startLoad: { job, _ in
                    box.append(job.request)
                    return nil
                }))
        r.turn()
        finish(r, box.requests[0], stories: ["First", "Second"], at: start)
        r.turn()
        r.handle(.key(.enter))
        r.turn()
        XCTAssertTrue(terminal.screen.textDump.contains("o browser"), terminal.screen.textDump)
        r.handle(.key(.char("o")))
        XCTAssertEqual(opened.urls, ["https://example.org/"], "o opens the pane's web link")
        r.handle(.key(.tab))
        r.handle(.key(.tab))
        XCTAssertEqual(r.state.highlightedPaneLink, "swiftdash://stories/9")
        r.handle(.key(.enter))
        r.turn()
        XCTAssertTrue(terminal.screen.textDump.contains("Detail of 9"), "Enter follows a deep link inside the pane")
        r.handle(.key(.tab))
        r.handle(.key(.enter))
        r.turn()
        if case .external(let l) = r.state.pane, case let link = l.link {
            XCTAssertEqual(link.url, "https://example.org/9")
        } else {
            XCTFail("no web pane")
        }
    }

    func testMouseClickOnALinkOpensIt() {
        let (r, _, _, box) = makeRuntime()
        r.turn()
        for req in box.requests { finish(r, req, stories: ["First", "Second"], at: start) }
        r.turn()
        let second = r.state.layout.tile("t2")!.rect
        r.handle(.mouse(MouseEvent(kind: .press, point: Point(x: second.x + 3, y: second.y + 2))))
        XCTAssertEqual(r.state.focusedTile, "t2")
        if let link = r.state.detailPane?.link {
            XCTAssertEqual(link.url, "swiftdash://stories/1")
        } else {
            XCTFail("no pane")
        }
    }

    func testResizeKeepsFocusAndTooSmallRecovers() {
        let (r, term, _, _) = makeRuntime(tiles: [.small, .small, .small, .medium, .small])
        r.turn()
        r.handle(.key(.right))
        r.handle(.key(.right))
        let focused = r.state.focusedTile
        term.resize(to: Size(width: 200, height: 60))
        r.handle(term.readEvent(timeout: 0)!)
        r.turn()
        XCTAssertEqual(r.state.focusedTile, focused)
        term.resize(to: Size(width: 12, height: 5))
        r.handle(term.readEvent(timeout: 0)!)
        r.turn()
        XCTAssertTrue(term.screen.textDump.contains("Too small"))
        term.resize(to: Size(width: 40, height: 16))
        r.handle(term.readEvent(timeout: 0)!)
        r.turn()
        XCTAssertEqual(r.state.focusedTile, focused)
        XCTAssertEqual(r.state.page, r.state.layout.tile(focused!)!.page, "the page follows the focused tile")
    }

    func testResizeToASmallerFamilyKeepsTheDataAndDoesNotReload() {
        let (r, term, _, box) = makeRuntime(tiles: [.medium])
        r.turn()
        finish(r, box.requests[0], stories: ["Kept story", "Other"], at: start)
        r.turn()
        term.resize(to: Size(width: 25, height: 10))
        r.handle(term.readEvent(timeout: 0)!)
        r.turn()
        XCTAssertEqual(r.state.layout.tile("t1")?.family, .small)
        XCTAssertTrue(term.screen.textDump.contains("Kept story"), term.screen.textDump)
        term.resize(to: Size(width: 80, height: 24))
        r.handle(term.readEvent(timeout: 0)!)
        r.turn()
        XCTAssertTrue(term.screen.textDump.contains("Kept story"))
        XCTAssertEqual(box.requests.count, 1, "no reload because of a resize")
    }

    func testFocusMovesByGeometry() {
        // 80x24: row 0 holds s s m(4); below: s.
        let (r, _, _, _) = makeRuntime(tiles: [.small, .small, .medium, .small])
        r.turn()
        XCTAssertEqual(r.state.focusedTile, "t1")
        r.handle(.key(.char("l")))
        XCTAssertEqual(r.state.focusedTile, "t2")
        r.handle(.key(.char("l")))
        XCTAssertEqual(r.state.focusedTile, "t3")
        r.handle(.key(.char("j")))
        XCTAssertEqual(r.state.focusedTile, "t4", "nothing overlaps below: the nearest tile below")
        r.handle(.key(.char("k")))
        XCTAssertEqual(r.state.focusedTile, "t1", "up prefers the tile that overlaps sideways")
        r.handle(.key(.char("l")))
        r.handle(.key(.char("j")))
        XCTAssertEqual(r.state.focusedTile, "t4")
        r.handle(.key(.char("k")))
        XCTAssertEqual(r.state.focusedTile, "t1")
    }

    func testWebLinkOpensAPaneAndOOpensTheBrowser() {
        let terminal = HeadlessTerminal(size: Size(width: 80, height: 24))
        let clock = VirtualClock(now: start)
        let web = Widget(
            kind: "web", displayName: "Web", description: "test", supportedFamilies: [.medium],
            provider: StoryProvider(),
            view: { e, _ in VStack { Text(e.stories[0]).link("https://example.org/story?id=1") } })
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "web")])
        ])
        let state = AppState(
            bundle: WidgetBundle([web]), home: home, screen: terminal.size, theme: .dark, alternateTheme: .light,
            timeZone: TimeZone(identifier: "UTC")!, now: start)
        final class Opened: @unchecked Sendable { var urls: [String] = [] }
        let opened = Opened()
        let box = Box()
        let r = Runtime(
            state: state, terminal: terminal, clock: clock, inbox: Inbox(wake: {}),
            services: RuntimeServices(
                openURL: {
                    opened.urls.append($0)
                    return "opened"
                },
                startLoad: { job, _ in
                    box.append(job.request)
                    return nil
                }))
        r.turn()
        finish(r, box.requests[0], stories: ["A web story", "x"], at: start)
        r.turn()
        r.handle(.key(.tab))
        r.handle(.key(.enter))
        r.turn()
        XCTAssertTrue(terminal.screen.textDump.contains("https://example.org/story?id=1"), terminal.screen.textDump)
        XCTAssertTrue(terminal.screen.textDump.contains("o open in browser"))
        let linked = terminal.screen.cells.filter { $0.style.hyperlink == "https://example.org/story?id=1" }.map(\.text)
            .joined()
        XCTAssertEqual(linked, "https://example.org/story?id=1", "the URL is drawn as an OSC 8 hyperlink")
        r.handle(.key(.char("o")))
        XCTAssertEqual(opened.urls, ["https://example.org/story?id=1"])
        r.handle(.key(.escape))
        r.turn()
        XCTAssertFalse(terminal.screen.textDump.contains("o open in browser"))
    }

    func testQuitAndThemeSwitch() {
        let (r, _, _, _) = makeRuntime()
        r.handle(.key(.char("t")))
        XCTAssertEqual(r.state.theme.name, "light")
        r.handle(.key(.char("q")))
        XCTAssertTrue(r.state.quitting)
    }
}
