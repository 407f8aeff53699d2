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

/// Issue 38, point 4, "One message at a time, whole": the status line, arrange mode's bar and
/// the Edit form each show one message in one line; a long one is shortened at a word, what it
/// says to do kept, with the key that shows it whole (Ctrl-G) after it; messages queue, and the
/// newest of the most important shows.
final class OneMessageAtATimeTests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_795_426_200)  // 2026-11-23 09:30 UTC
    let offline = DataSourceError(.unreachable, "cannot reach api.open-meteo.com: offline or the server is down")

    func rows(_ h: AppHarness) -> [String] { h.screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The two tiles of the screen: a failed Weather and a Clock beside it, both small.
    func twoTiles() -> AppHarness {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "weather")]),
            TileInstance(id: "t2", family: .small, items: [WidgetInstance(id: "w2", kind: "clock")]),
        ])
        let h = AppHarness(widgets: BuiltinWidgets.bundle.widgets, home: home, size: Size(width: 80, height: 24), now: at)
        h.fail("w1", offline)
        return h
    }

    /// The first-run home with Weather for News (the screen): its tiles reach the row
    /// above the status line.
    func fullHome() -> AppHarness {
        var home = HomeConfig.defaultHome(bundle: BuiltinWidgets.bundle)
        home.tiles[2].items[0].kind = "weather"
        let h = AppHarness(widgets: BuiltinWidgets.bundle.widgets, home: home, size: Size(width: 80, height: 24), now: at)
        h.fail(home.tiles[2].items[0].id, offline)
        return h
    }

    /// The screen: the weather tile's problem on the status line, then arrange mode
    /// with the tile lifted over another of its size.
    func testOneMessageAtATimeOnAFullHomeInArrangeMode() {
        let h = fullHome()
        _ = h.run { s in
            s.focusedTile = "t3"
            return []
        }
        var r = rows(h)
        XCTAssertTrue(r.last!.contains("⚠ weather: cannot reach"), h.screen)
        XCTAssertFalse(r[r.count - 2].contains("⚠"), h.screen)
        assertSnapshot(h.screen, named: "one-message-full-home-80x24")
        h.press(.char("m"), .down)
        r = rows(h)
        XCTAssertEqual(h.state.pane.kind, .arrange)
        XCTAssertFalse(h.screen.contains("⚠"), h.screen)
        XCTAssertTrue(r.last!.contains("ARRANGE"), h.screen)
        assertSnapshot(h.screen, named: "one-message-full-home-arrange-80x24")
        h.skipPendingWork()
    }

    /// In arrange mode the home screen's message stayed on the row above the bar, under the
    /// "⊕ stack here" label (`⚠ weather: cannot reach …: offline  ⊕ stack here is`): now the bar
    /// is the one message line and the row above it is the tiles'.
    func testOneMessageAtATimeWholeInArrangeMode() {
        let h = twoTiles()
        h.press(.char("g"))  // the weather tile, whose problem the status line says
        XCTAssertTrue(rows(h).last!.contains("⚠ weather"), h.screen)
        h.press(.char("m"), .right)  // lifted over the clock
        let screen = h.screen
        let r = rows(h)
        XCTAssertTrue(screen.contains("⊕ stack here"), screen)
        XCTAssertFalse(screen.contains("⚠"), "the home screen's message does not stay under arrange mode:\n\(screen)")
        XCTAssertTrue(r.last!.contains("ARRANGE"), screen)
        XCTAssertEqual(r.filter { $0.contains("Esc done") }.count, 1, screen)
        assertSnapshot(screen, named: "one-message-arrange-80x24")
        h.skipPendingWork()
    }

    /// A message longer than its line is shortened at a word, what it says to do (`· r retries`)
    /// kept, `Ctrl-G whole` after it; Ctrl-G lists it whole, Esc closes.
    func testALongMessageIsShortenedAtAWordAndShownWholeWithAKey() {
        let h = twoTiles()
        h.press(.char("g"))
        let r = rows(h)
        let status = r.last!
        XCTAssertTrue(status.contains("…"), status)
        XCTAssertTrue(status.contains("· r retries"), status)
        XCTAssertTrue(status.hasSuffix("Ctrl-G whole"), status)
        XCTAssertFalse(r[r.count - 2].contains("⚠"), "one row: the row above is the tiles':\n\(h.screen)")
        assertSnapshot(h.screen, named: "one-message-shortened-80x24")
        assertSnapshot(h.styledScreen, named: "styles-status-warning-80x24")
        XCTAssertEqual(h.style(of: "⚠", onRowWith: "Ctrl-G whole")?.foreground, h.state.theme[.warning])
        h.press(.ctrl("g"))
        let whole = h.screen
        XCTAssertTrue(whole.contains("Messages"), whole)
        // The pane's inside, its rows joined: the message reads whole.
        let pane = AppView.paneRect(h.state.screen).inset(top: 1, left: 2, bottom: 1, right: 2)
        let joined = rows(h)[pane.y..<pane.maxY].map { row in
            String(Array(row).dropFirst(pane.x).prefix(pane.width)).split(separator: " ").joined(separator: " ")
        }.joined(separator: " ")
        for part in ["now ⚠ weather: cannot reach api.open-meteo.com: offline or the server is down · r retries"] {
            XCTAssertTrue(joined.contains(part), "\(part) in\n\(whole)")
        }
        assertSnapshot(whole, named: "one-message-whole-80x24")
        assertSnapshot(h.styledScreen, named: "styles-messages-80x24")
        XCTAssertEqual(h.style(of: "⚠ weather")?.foreground, h.state.theme[.warning], "a problem is listed as one")
        h.press(.escape)
        XCTAssertFalse(h.screen.contains("Messages"), h.screen)
        XCTAssertFalse(h.state.messages.shown)
        h.skipPendingWork()
    }

    /// The help lists the key, from the key table.
    func testTheMessagesKeyIsInTheHelp() {
        XCTAssertTrue(
            AppView.helpLines().contains { $0.key == "Ctrl-G" && $0.text.contains("every message") },
            "\(AppView.helpLines())")
        XCTAssertEqual(App.wholeMessageHint, "Ctrl-G whole")
    }

    /// The Edit form showed only the tail of a wrapped message (`02:41   down · r retries`):
    /// now the status line under it is one whole message line.
    func testTheFormShowsOneMessageLine() {
        let h = twoTiles()
        h.press(.char("g"), .char("e"))
        XCTAssertEqual(h.state.pane.kind, .form)
        let status = rows(h).last!
        XCTAssertTrue(status.contains("⚠ weather: cannot reach"), status)
        XCTAssertTrue(status.hasSuffix("Ctrl-G whole"), status)
        assertSnapshot(h.screen, named: "one-message-form-80x24")
        // Ctrl-G over the form keeps it under the list.
        h.press(.ctrl("g"))
        XCTAssertTrue(h.screen.contains("Messages"), h.screen)
        h.press(.escape)
        XCTAssertEqual(h.state.pane.kind, .form, "Esc closes the messages, not the form")
        h.skipPendingWork()
    }

    /// A warning said while a hint shows replaces it; a hint said while a warning shows waits
    /// for it to be seen; of several waiting, the newest of the most important comes next.
    func testTheNewestImportantMessageWins() {
        let h = twoTiles()
        _ = h.run { s in
            s.say("reloading all")
            return []
        }
        XCTAssertEqual(h.state.statusText, "reloading all")
        _ = h.run { s in
            s.say("cannot open https://example.com")
            s.say("theme dark")  // less important: waits
            s.say("reloading weather")  // newer, as important: comes first
            return []
        }
        XCTAssertEqual(h.state.statusText, "cannot open https://example.com")
        _ = h.run { s in
            s.say("⚠ theme x: unknown colour; keeping theme dark")  // newest warning wins
            return []
        }
        XCTAssertEqual(h.state.statusText, "⚠ theme x: unknown colour; keeping theme dark")
        h.advance(by: StatusNote.lifetime)
        XCTAssertEqual(h.state.statusText, "reloading weather")
        h.advance(by: StatusNote.lifetime)
        XCTAssertEqual(h.state.statusText, "theme dark")
        h.advance(by: StatusNote.lifetime)
        XCTAssertNil(h.state.note)
        // Every one of them is listed, newest first.
        XCTAssertEqual(h.state.messages.recent.last?.text, "⚠ theme x: unknown colour; keeping theme dark")
        XCTAssertEqual(h.state.messages.recent.count, 5)
        h.skipPendingWork()
    }

    /// A note waiting too long is dropped (the messages pane still lists it).
    func testAnExpiredWaitingMessageIsDropped() {
        let h = twoTiles()
        _ = h.run { s in
            s.say("undone: moved Clock")
            s.say("reloading all")
            s.now = s.now.addingTimeInterval(StatusNote.waitsAtMost + 1)
            s.nextNote()
            return []
        }
        XCTAssertNil(h.state.note)
        XCTAssertEqual(h.state.messages.recent.map(\.text), ["undone: moved Clock", "reloading all"])
        h.skipPendingWork()
    }

    /// The fitting itself: whole when it fits; else cut at a word with an ellipsis, the end that
    /// says what to do kept, the key after it.
    func testMessageFitLineCutsAtAWord() {
        let text = "⚠ weather: cannot reach api.open-meteo.com: offline or the server is down · r retries"
        XCTAssertEqual(MessageFit.line(text, width: 200, whole: "Ctrl-G whole"), text)
        let line = MessageFit.line(text, width: 60, whole: "Ctrl-G whole")
        XCTAssertLessThanOrEqual(DisplayWidth.of(line), 60)
        XCTAssertTrue(line.hasSuffix("· r retries  Ctrl-G whole"), line)
        XCTAssertTrue(line.contains("…"), line)
        // Every word kept is whole.
        let words = Set(text.split(separator: " ").map(String.init))
        for w in line.replacingOccurrences(of: "  Ctrl-G whole", with: "").split(separator: " ") {
            let bare = w.replacingOccurrences(of: "…", with: "")
            XCTAssertTrue(bare.isEmpty || words.contains(String(w)) || words.contains { $0.hasSuffix(bare) || $0.hasPrefix(bare) }, "\(w) in \(line)")
        }
    }
}
