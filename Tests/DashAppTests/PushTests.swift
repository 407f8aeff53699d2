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

/// `swiftdash push` as the running app sees it: the socket line, the message, the scheduler.
final class PushTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_426_230)

    func harness() -> AppHarness {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "note")]),
            TileInstance(id: "t2", family: .small, items: [WidgetInstance(id: "w2", kind: "fake")]),
        ])
        return AppHarness(
            widgets: [NoteWidget.widget, fakeWidget(script: FakeScript())], home: home,
            size: Size(width: 80, height: 24), now: now)
    }

    func pushLine(_ target: String, _ json: String) throws -> String {
        try ControlProtocol.pushLine(target: target, timeline: JSONValue.parse(Data(json.utf8)))
    }

    func testAPushShowsInTheNoteWithoutChargingTheBudget() async throws {
        let h = harness()
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("Nothing pushed yet"), h.screen)
        let line = try pushLine(
            "note",
            #"{"entries": [{"date": 1795426000, "title": "Build \u001b[31mpassed", "text": "main 3f2a1c"}], "policy": "never"}"#
        )
        let (answer, msg) = ControlProtocol.handlePush(line, home: h.state.home, bundle: h.state.bundle)
        XCTAssertEqual(answer, "ok 1")
        h.send(try XCTUnwrap(msg))
        XCTAssertTrue(h.screen.contains("Build passed"), h.screen)
        XCTAssertTrue(h.screen.contains("main 3f2a1c"), h.screen)
        XCTAssertFalse(h.screen.contains("\u{1b}"))
        XCTAssertEqual(h.state.scheduler.status("w1", at: h.state.now)?.budget.used, 0)
        XCTAssertEqual(h.loads.count, 0, "a push starts no load")
        // By id too.
        let (a2, m2) = ControlProtocol.handlePush(
            try pushLine("w1", #"{"entries": [{"title": "Second"}]}"#),
            home: h.state.home, bundle: h.state.bundle)
        XCTAssertEqual(a2, "ok 1")
        h.send(try XCTUnwrap(m2))
        XCTAssertTrue(h.screen.contains("Second"), h.screen)
    }

    func testBadPushesAreRefusedWithAClearError() throws {
        let h = harness()
        let home = h.state.home, bundle = h.state.bundle
        XCTAssertEqual(
            ControlProtocol.handlePush(try pushLine("fake", #"{"entries": []}"#), home: home, bundle: bundle).answer,
            "error: no widget on the home screen takes pushes as fake; these do: w1 note")
        let bad = ControlProtocol.handlePush(
            try pushLine("note", #"{"entries": [{"view": {"link": "file:///etc/passwd"}}]}"#),
            home: home, bundle: bundle)
        XCTAssertNil(bad.msg)
        XCTAssertTrue(bad.answer.hasPrefix("error: entries[0].view: view.link: not a swiftdash://"), bad.answer)
        XCTAssertEqual(
            ControlProtocol.handlePush("push note {nope", home: home, bundle: bundle).answer,
            "error: not valid JSON")
        // Issue 37 point 8: a number no Double holds is said, not "not valid JSON".
        XCTAssertEqual(
            ControlProtocol.handlePush(#"push note {"entries": [{"text": "a", "n": 1e400}]}"#, home: home, bundle: bundle)
                .answer,
            "error: JSON holding a number out of range (1e400): larger than any number swiftdash can hold")
        XCTAssertEqual(
            ControlProtocol.handlePush("push note", home: home, bundle: bundle).answer,
            "error: push needs a widget kind or id and a timeline")
        h.skipPendingWork()
    }

    func testAPushOvertakesALoadInFlight() async throws {
        let h = harness()
        XCTAssertNotNil(h.load(of: "w1"))
        let (_, msg) = ControlProtocol.handlePush(
            try pushLine("note", #"{"entries": [{"title": "Pushed"}]}"#),
            home: h.state.home, bundle: h.state.bundle)
        h.send(try XCTUnwrap(msg))
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("Pushed"), "the older load's result is dropped:\n\(h.screen)")
        h.skipPendingWork()
    }

    /// Found by a new user: `r` on a note (or a push without a policy, as `push --help` shows)
    /// put "Nothing pushed yet" back over what was pushed.
    func testAPushedNoteSurvivesReloadsAndARestart() async throws {
        let h = harness()
        await h.runLoads()
        let (_, msg) = ControlProtocol.handlePush(
            try pushLine("note", #"{"entries": [{"title": "Keep", "text": "me"}]}"#),
            home: h.state.home, bundle: h.state.bundle)
        h.send(try XCTUnwrap(msg))
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("Keep"), "no policy: nothing reloads it away\n\(h.screen)")
        h.press(.char("r"))
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("Keep"), "r keeps what was pushed\n\(h.screen)")
        XCTAssertFalse(h.screen.contains("Nothing pushed yet"), h.screen)
        // The cache remembers it was pushed: after a restart a reload keeps it too.
        var scheduler = h.state.scheduler
        let record = try XCTUnwrap(scheduler.record("w1", at: h.state.now))
        XCTAssertEqual(record.pushed, true)
        let decoded = try JSONDecoder().decode(InstanceRecord.self, from: JSONEncoder().encode(record))
        XCTAssertEqual(decoded.pushed, true)
        var fresh = Scheduler()
        fresh.restore(SchedulerSnapshot(records: ["w1": decoded]))
        let h2 = AppHarness(
            widgets: [NoteWidget.widget, fakeWidget(script: FakeScript())], home: h.state.home,
            size: Size(width: 80, height: 24), now: now, scheduler: fresh)
        h2.press(.char("r"))
        await h2.runLoads()
        XCTAssertTrue(h2.screen.contains("Keep"), h2.screen)
        h.skipPendingWork()
        h2.skipPendingWork()
    }

    func testSnapshotAsJSONAndAsATmuxLine() async throws {
        let h = harness()
        await h.runLoads()
        h.send(
            ControlProtocol.handlePush(
                try pushLine("note", #"{"entries": [{"title": "C# #1"}]}"#),
                home: h.state.home, bundle: h.state.bundle
            ).msg!)
        let tiles = HomeSnapshot.tiles(h.state)
        XCTAssertEqual(tiles.map(\.kind), ["note", "fake"])
        XCTAssertEqual(tiles[0].summary, "C# #1")
        XCTAssertEqual(tiles[1].summary, "v1")
        XCTAssertFalse(tiles[1].stale)
        XCTAssertEqual(
            HomeSnapshot.line(tiles, format: "{kind}: {summary}", tmux: true), "note: C#### ####1 | fake: v1")
        let json = HomeSnapshot.json(tiles, at: now, source: "cache")
        XCTAssertTrue(json.contains(#""summary":"C# #1""#), json)
        h.skipPendingWork()
    }
}
