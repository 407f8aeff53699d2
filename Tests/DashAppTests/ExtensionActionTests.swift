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

/// An external widget's toggle on a home screen: `perform` is sent, and its answer (nothing, a
/// timeline, an error, a broken timeline) decides what the tile shows, like a built-in action.
final class ExtensionActionTests: XCTestCase {
    var dir: URL!
    let log = LineLog()
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("extact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// A shell extension with a "Lights" toggle whose state is a file. Every request's method
    /// (and action) is appended to `requests`. The action says how `perform` answers: `flip`
    /// with `{}`, `carry` with the new timeline, `fail` with an error, `broken` with a timeline
    /// that breaks a rule, `slow` not in time.
    func lights() throws -> (Widget, ExtensionProcess) {
        let path = dir.appendingPathComponent("lights").path
        let state = dir.appendingPathComponent("on").path
        let requests = dir.appendingPathComponent("requests").path
        try """
        #!/bin/sh
        timeline() {
            if [ -e \(state) ]; then on=true; else on=false; fi
            echo '{"entries":[{"date":0,"summary":"lights '$on'","view":{"vstack":["Lights",'\\
        '{"toggle":"Lights","isOn":'$on',"action":"'$1'"}]}}],"policy":"never"}'
        }
        flip() { if [ -e \(state) ]; then rm \(state); else : > \(state); fi; }
        while IFS= read -r l; do
            id=${l#*\\"id\\":}; id=${id%%[,\\}]*}
            m=${l#*\\"method\\":\\"}; m=${m%%\\"*}
            a=${l#*\\"action\\":\\"}; a=${a%%\\"*}
            mode=${l#*\\"mode\\":\\"}; mode=${mode%%\\"*}
            case $m in
            describe)
                echo "$m" >> \(requests)
                echo '{"id":'$id',"result":{"protocol":1,"widgets":[{"kind":"lights","timeout":2,'\\
        '"parameters":[{"key":"mode","type":"enum","options":["flip","carry","fail","broken","slow"]}]}]}}' ;;
            timeline)
                echo "$m" >> \(requests)
                echo '{"id":'$id',"result":'"$(timeline "$mode")"'}' ;;
            perform)
                echo "$m $a" >> \(requests)
                case $a in
                flip) flip; echo '{"id":'$id',"result":{}}' ;;
                carry) flip; echo '{"id":'$id',"result":{"undo":"carry","timeline":'"$(timeline carry)"'}}' ;;
                fail) echo '{"id":'$id',"error":"the bridge is offline"}' ;;
                broken) flip; echo '{"id":'$id',"result":{"timeline":{"entries":[{"view":{"link":"file:///etc"}}]}}}' ;;
                slow) sleep 30 ;;
                esac ;;
            *) echo '{"id":'$id',"error":"no"}' ;;
            esac
        done
        """.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        var limits = ExtensionLimits()
        limits.restartBase = 0.1
        let p = ExtensionProcess(path: path, environment: ["PATH": "/usr/bin:/bin"], limits: limits, log: log.add)
        let d = try ExtensionWidgetDescription.parse(p.request("describe", timeout: 30))[0]
        return (Extensions.widget(d, process: p, placeholder: nil), p)
    }

    var requests: [String] {
        ((try? String(contentsOf: dir.appendingPathComponent("requests"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init).filter { $0 != "describe" }
    }

    func harness(_ w: Widget, mode: String) async -> AppHarness {
        var item = WidgetInstance(id: "w1", kind: "lights")
        item.config["mode"] = .string(mode)
        let h = AppHarness(
            widgets: [w], home: HomeConfig(tiles: [TileInstance(id: "t1", family: .small, items: [item])]), now: now)
        await h.runLoads()
        return h
    }

    func testATogglesPerformAnswerWithNothingReloadsTheTile() async throws {
        let (w, p) = try lights()
        defer { p.stop() }
        let h = await harness(w, mode: "flip")
        XCTAssertTrue(h.screen.contains("[ ] Lights"), h.screen)
        h.press(.tab, .char(" "))
        XCTAssertTrue(h.screen.contains("[x] Lights ⋯"), h.screen)
        await h.runActions()
        XCTAssertEqual(requests, ["timeline", "perform flip"])
        XCTAssertEqual(h.loads.first?.request.reason, .manual, "a reload the user asked for: not charged")
        XCTAssertTrue(h.screen.contains("[x] Lights ⋯"), "stays optimistic until the reload answers\n\(h.screen)")
        await h.runLoads()
        XCTAssertEqual(requests, ["timeline", "perform flip", "timeline"])
        XCTAssertTrue(h.screen.contains("[x] Lights"), h.screen)
        XCTAssertFalse(h.screen.contains("⋯"), h.screen)
        XCTAssertEqual(h.state.scheduler.lastError("w1"), nil)
        XCTAssertTrue(h.screen.contains("Lights: done"), h.screen)
        XCTAssertFalse(h.screen.contains("u undoes"), "no undo was named")
    }

    func testATimelineInThePerformAnswerIsShownWithoutAskingAgainAndUndoSendsTheUndoAction() async throws {
        let (w, p) = try lights()
        defer { p.stop() }
        let h = await harness(w, mode: "carry")
        h.press(.tab, .enter)
        await h.runActions()
        await h.runLoads()
        XCTAssertEqual(requests, ["timeline", "perform carry"], "the reload took the carried timeline")
        XCTAssertTrue(h.screen.contains("[x] Lights"), h.screen)
        XCTAssertTrue(h.screen.contains("Lights: done · u undoes"), h.screen)
        h.press(.char("u"))
        await h.runActions()
        await h.runLoads()
        XCTAssertEqual(requests, ["timeline", "perform carry", "perform carry"])
        XCTAssertTrue(h.screen.contains("[ ] Lights"), h.screen)
        // The carried timeline is used once: a later reload asks the extension.
        h.press(.char("r"))
        await h.runLoads()
        XCTAssertEqual(requests.last, "timeline")
    }

    func testAnErrorAnswerPutsTheToggleBackAndSaysWhy() async throws {
        let (w, p) = try lights()
        defer { p.stop() }
        let h = await harness(w, mode: "fail")
        h.press(.tab, .char(" "))
        XCTAssertTrue(h.screen.contains("[x] Lights ⋯"), h.screen)
        await h.runActions()
        XCTAssertTrue(h.screen.contains("[ ] Lights"), "back as it was\n\(h.screen)")
        XCTAssertTrue(h.screen.contains("Lights failed: lights: the bridge is offline"), h.screen)
        XCTAssertEqual(h.loads.count, 0, "a failed action does not reload")
        XCTAssertNotNil(p.processID, "an error answer does not end the process")
    }

    func testABrokenCarriedTimelineFailsThatReloadOnlyAndTheTileKeepsItsEntry() async throws {
        let (w, p) = try lights()
        defer { p.stop() }
        let h = await harness(w, mode: "broken")
        h.press(.tab, .char(" "))
        await h.runActions()
        await h.runLoads()
        let error = try XCTUnwrap(h.state.scheduler.lastError("w1"))
        XCTAssertTrue(error.hasPrefix("lights: perform: entries[0].view: view.link: not a swiftdash://"), error)
        XCTAssertEqual(h.state.entry(ofInstance: "w1")?.summary, "lights false", "the last good entry stays")
        XCTAssertEqual(requests, ["timeline", "perform broken"])
    }

    func testAPerformThatDoesNotAnswerTimesOutAndTheToggleGoesBack() async throws {
        let (w, p) = try lights()
        defer { p.stop() }
        let h = await harness(w, mode: "slow")
        h.press(.tab, .char(" "))
        // The extension's own timeout (2 s) ends it: the message names it (the script sleeps 30 s).
        await h.runActions()
        XCTAssertTrue(h.screen.contains("[ ] Lights"), h.screen)
        XCTAssertTrue(h.screen.contains("Lights failed: lights: did not answer perform within 2"), h.screen)
        // The action's deadline is in the state too: on the virtual clock it fires by itself.
        h.press(.char(" "))
        XCTAssertEqual(h.actionJobs.count, 1)
        h.advance(by: 5)
        XCTAssertTrue(h.screen.contains("[ ] Lights"), h.screen)
        XCTAssertTrue(h.screen.contains("timed out") || h.screen.contains("within"), h.screen)
        h.skipPendingWork()
    }
}
