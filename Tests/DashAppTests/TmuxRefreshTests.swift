import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// Inside tmux the home screen asks tmux to redraw its status line when a value `snapshot --line`
/// shows changed (issue 23, point 7; decision 51): on a change only, never outside tmux, at most
/// once a second on the virtual clock, a change within the second sent when it is over; only once a
/// status line has asked, only for what it shows, and once per run of the line (issue 35.1).
final class TmuxRefreshTests: XCTestCase {
    /// The status line runs `snapshot --line --tmux` (showing `watch`).
    func lineRuns(_ h: AppHarness, _ watch: TmuxLineWatch = TmuxLineWatch()) {
        h.send(.snapshotRequested(ControlReply(), watch: watch))
    }

    func harness(inTmux: Bool, lineAsked: Bool = true) throws -> AppHarness {
        let yaml = "tiles:\n  - {family: small, widget: note}\n  - {family: small, widget: note}\n"
        let home = try HomeConfig.parse(yaml: yaml, file: "home.yaml", bundle: WidgetBundle([noteWidget]))
        let h = AppHarness(widgets: [noteWidget], home: home, now: start)
        h.finish("w1", entries: [NoteEntry(date: start, text: "one"), NoteEntry(date: start + 10, text: "two")])
        h.finish("w2", entries: [NoteEntry(date: start, text: "sky")])
        // What the runtime does at start with $TMUX (and no --no-tmux-refresh); the first look
        // only records what shows.
        h.run { s in
            s.tmuxRefresh.enabled = inTmux
            return App.tmuxRefresh(&s, after: [.redraw(full: false)])
        }
        if lineAsked { lineRuns(h) }
        _ = h.takeEffects()
        return h
    }

    func refreshes(_ fx: [Effect]) -> Int {
        fx.filter { if case .refreshTmuxStatus = $0 { true } else { false } }.count
    }

    func testAChangedSummaryRefreshesTmuxAndARedrawWithoutChangeDoesNot() throws {
        let h = try harness(inTmux: true)
        XCTAssertEqual(refreshes(h.takeEffects()), 0, "nothing changed yet")
        h.press(.right)  // redraws; no value changed
        XCTAssertEqual(refreshes(h.takeEffects()), 0)

        // A load result with a new summary: sent within the second (the values are looked at
        // once a second at most, and the reload's own redraw was looked at, unchanged).
        h.send(.widgetCenter(.reloadInstance("w2")))
        h.finish("w2", entries: [NoteEntry(date: start, text: "rain")])
        XCTAssertEqual(refreshes(h.takeEffects()), 0, "not looked at again within the second")
        XCTAssertEqual(h.state.nextDeadline, start + 1, "the loop wakes to look")
        h.advance(to: start + 1)
        XCTAssertEqual(refreshes(h.takeEffects()), 1, "sky → rain")
        lineRuns(h)

        // The same summary loaded again a while later: no refresh.
        h.advance(by: 5)
        h.send(.widgetCenter(.reloadInstance("w2")))
        h.finish("w2", entries: [NoteEntry(date: start, text: "rain")])
        XCTAssertEqual(refreshes(h.takeEffects()), 0, "rain → rain")

        // A timeline's next entry coming due changes the value too.
        h.advance(to: start + 10)
        XCTAssertEqual(refreshes(h.takeEffects()), 1, "one → two at its date")
    }

    func testAtMostOnceASecondAndTheChangeInBetweenIsSentWhenTheSecondIsOver() throws {
        let h = try harness(inTmux: true)
        h.send(.widgetCenter(.reloadInstance("w2")))
        h.finish("w2", entries: [NoteEntry(date: start, text: "rain")])
        h.advance(to: start + 1)
        XCTAssertEqual(refreshes(h.takeEffects()), 1)
        lineRuns(h)
        h.advance(by: 0.3)
        h.send(.widgetCenter(.reloadInstance("w2")))
        h.finish("w2", entries: [NoteEntry(date: start, text: "snow")])
        XCTAssertEqual(refreshes(h.takeEffects()), 0, "a second has not passed")
        XCTAssertEqual(h.state.nextDeadline, start.addingTimeInterval(2), "the loop wakes when it has")
        h.advance(to: start.addingTimeInterval(2))
        XCTAssertEqual(refreshes(h.takeEffects()), 1, "rain → snow, sent at the second")
        h.advance(by: 5)
        XCTAssertEqual(refreshes(h.takeEffects()), 0, "nothing more to send")
    }

    /// Issue 25: redraws that change nothing the line shows (a thousand tiles' loads) are looked
    /// at once a second, not once each.
    func testRedrawsThatChangeNothingAreLookedAtOnceASecond() throws {
        let h = try harness(inTmux: true)
        var looks: [Date?] = []
        for i in 0..<20 {
            h.advance(to: start + Double(i) * 0.1)
            h.send(.widgetCenter(.reloadInstance("w2")))
            h.finish("w2", entries: [NoteEntry(date: start, text: "sky")])
            looks.append(h.state.tmuxRefresh.lastLook)
        }
        XCTAssertEqual(Set(looks.compactMap { $0 }), [start, start + 1], "two looks in two seconds")
        XCTAssertEqual(refreshes(h.takeEffects()), 0)
    }

    /// The runtime's side: `tmux refresh-client -S` from `$PATH`, argv only, nothing in or out;
    /// nothing at all without $TMUX.
    func testTheRuntimeRunsTmuxRefreshClientWithArgvOnly() throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("swiftdash-tmuxbin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let record = dir.appendingPathComponent("args").path
        let fake = dir.appendingPathComponent("tmux").path
        try "#!/bin/sh\nprintf '%s|' \"$@\" > \(record)\nread -r x && echo stdin >> \(record)\necho noise\n".write(
            toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        XCTAssertNil(TmuxStatus.refresh(environment: ["PATH": dir.path]), "no $TMUX: nothing runs")
        let inTmux = ["PATH": dir.path, "TMUX": "/tmp/tmux-0/default,1,0"]
        let done = try XCTUnwrap(TmuxStatus.refresh(environment: inTmux))
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(try String(contentsOfFile: record, encoding: .utf8), "refresh-client|-S|")
    }

    /// Issue 35.1: no line has asked (no status line shows swiftdash, or no client is attached):
    /// one refresh finds that out, then nothing more is sent.
    func testWithoutALineOneRefreshIsSentAndNoMore() throws {
        let h = try harness(inTmux: true, lineAsked: false)
        h.send(.widgetCenter(.reloadInstance("w2")))
        h.finish("w2", entries: [NoteEntry(date: start, text: "rain")])
        h.advance(to: start + 10)
        XCTAssertEqual(refreshes(h.takeEffects()), 1, "sky → rain, the first change")
        h.advance(to: start + 20)
        XCTAssertEqual(refreshes(h.takeEffects()), 0, "no line ran: one → two is not sent")
        XCTAssertNil(h.state.tmuxRefresh.nextRefresh, "nothing wakes the loop for it")
        lineRuns(h)
        h.send(.widgetCenter(.reloadInstance("w2")))
        h.finish("w2", entries: [NoteEntry(date: start, text: "snow")])
        h.advance(by: 1)
        XCTAssertEqual(refreshes(h.takeEffects()), 1, "once a line asked, its change is sent")
    }

    /// Issue 35.1: a refresh that reached no client (a detached session) makes the line run no
    /// more, so the next change sends nothing until the line runs again.
    func testAfterARefreshTheNextWaitsForTheLineToRunAgain() throws {
        let h = try harness(inTmux: true)
        for (i, text) in ["rain", "snow", "hail", "fog"].enumerated() {
            h.advance(by: 2)
            h.send(.widgetCenter(.reloadInstance("w2")))
            h.finish("w2", entries: [NoteEntry(date: start, text: text)])
            h.advance(by: 1)
            XCTAssertEqual(refreshes(h.takeEffects()), i == 0 ? 1 : 0, text)
        }
        XCTAssertNil(h.state.tmuxRefresh.nextRefresh)
        lineRuns(h)
        h.send(.widgetCenter(.reloadInstance("w2")))
        h.finish("w2", entries: [NoteEntry(date: start, text: "sun")])
        h.advance(by: 1)
        XCTAssertEqual(refreshes(h.takeEffects()), 1, "the line ran again: fog → sun is sent")
    }

    /// Issue 35.1: a line that shows tile t1 is not refreshed when only t2 changes.
    func testOnlyWhatTheLineShowsCounts() throws {
        let h = try harness(inTmux: true)
        lineRuns(h, TmuxLineWatch(tiles: ["t1"]))
        h.send(.widgetCenter(.reloadInstance("w2")))
        h.finish("w2", entries: [NoteEntry(date: start, text: "rain")])
        h.advance(by: 2)
        XCTAssertEqual(refreshes(h.takeEffects()), 0, "t2 is not on the line")
        h.advance(to: start + 10)
        XCTAssertEqual(refreshes(h.takeEffects()), 1, "t1: one → two at its date")
        // The control line round-trips, `-` for all.
        XCTAssertEqual(TmuxLineWatch(tiles: ["t1", "w3"]).controlLine, "snapshot tmux t1,w3 -")
        XCTAssertEqual(TmuxLineWatch.parse("snapshot tmux t1,w3 -"), TmuxLineWatch(tiles: ["t1", "w3"]))
        XCTAssertEqual(TmuxLineWatch.parse("snapshot tmux - clock"), TmuxLineWatch(kinds: ["clock"]))
        XCTAssertNil(TmuxLineWatch.parse("snapshot"))
    }

    func testNeverOutsideTmux() throws {
        let h = try harness(inTmux: false)
        h.send(.widgetCenter(.reloadInstance("w2")))
        h.finish("w2", entries: [NoteEntry(date: start, text: "rain")])
        h.advance(to: start + 10)
        XCTAssertEqual(refreshes(h.takeEffects()), 0)
        XCTAssertNil(h.state.tmuxRefresh.nextRefresh)
    }
}
