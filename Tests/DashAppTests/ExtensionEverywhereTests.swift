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

/// An external widget behaves like a built-in one everywhere on the home screen (issue 15,
/// point 3): the gallery, the Edit form with options from its `options` request, stacks and
/// Smart Rotate, and the reload budget. (`widgets`, `preview` and `timeline`: SwiftdashCLITests.)
final class ExtensionEverywhereTests: XCTestCase {
    var dir: URL!
    let log = LineLog()
    var processes: [ExtensionProcess] = []

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("extall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        processes.forEach { $0.stop() }
        try? FileManager.default.removeItem(at: dir)
    }

    /// A shell extension with one widget, `kind` ("Meter <kind>"): a `unit` dynamic enum whose
    /// `options` are kWh and MJ, sample data for previews, and a timeline of two entries (the second,
    /// 5 minutes on, relevant: "peak load") asking again after `after` seconds. Its requests are
    /// logged to `<kind>.requests`.
    func meter(_ kind: String, network: Bool, after: Int = 3600) throws -> Widget {
        let path = dir.appendingPathComponent(kind).path
        try """
        #!/bin/sh
        cd \(dir.path)
        while IFS= read -r l; do
        id=${l#*\\"id\\":}; id=${id%%[,\\}]*}
        m=${l#*\\"method\\":\\"}; m=${m%%\\"*}
        now=${l#*\\"now\\":}; now=${now%%[.,\\}]*}
        unit=kWh; case $l in *'"unit":"MJ"'*) unit=MJ ;; esac
        echo "$m" >> \(kind).requests
        case $m in
        describe) r='{"protocol":1,"widgets":[{"kind":"\(kind)","displayName":"Meter \(kind)",'\\
        '"description":"Power from the meter","families":["small","medium"],"network":\(network),'\\
        '"parameters":[{"key":"unit","type":"dynamicEnum","title":"Unit","default":"kWh"}]}]}' ;;
        placeholder) r='{"date":0,"view":"-- kWh"}' ;;
        snapshot) r='{"date":'$now',"summary":"sample 42 '$unit'","view":"sample 42 '$unit'"}' ;;
        options) r='{"options":["kWh",{"value":"MJ","title":"Megajoule"}]}' ;;
        timeline) r='{"entries":[{"date":'$now',"summary":"quiet 1 '$unit'","view":"quiet 1 '$unit'"},'\\
        '{"date":'$((now + 300))',"summary":"peak 9 '$unit'","view":"peak 9 '$unit'",'\\
        '"relevance":{"score":0.9,"reason":"peak load"}}],"policy":{"after":'$((now + \(after)))'}}' ;;
        *) echo '{"id":'$id',"error":"no"}'; continue ;;
        esac
        echo '{"id":'$id',"result":'"$r"'}'
        done
        """.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        let found = Extensions.discover(
            [path], builtin: [], environment: ["PATH": "/usr/bin:/bin"], limits: ExtensionLimits(), log: log.add)
        processes += found.processes
        XCTAssertEqual(found.problems, [])
        return try XCTUnwrap(found.widgets.first)
    }

    func requests(_ kind: String) -> [String] {
        ((try? String(contentsOf: dir.appendingPathComponent("\(kind).requests"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    // MARK: - Gallery and Edit form

    func testTheGalleryShowsAnExternalWidgetWithItsSnapshotInEachFamily() async throws {
        let meter = try meter("meter", network: true)
        let h = AppHarness(
            widgets: [signalWidget, meter],
            home: HomeConfig(tiles: [
                TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "signal")])
            ]), now: start)
        h.press(.char("a"))
        h.type("meter")
        XCTAssertTrue(h.screen.contains("Meter meter"), h.screen)
        XCTAssertTrue(h.screen.contains("Power from the meter"), h.screen)
        let previews = h.previewLoads.filter { $0.widget.kind == "meter" }
        XCTAssertEqual(previews.map(\.context.family), [.small, .medium], "the sizes it supports")
        XCTAssertTrue(previews.allSatisfy { $0.context.isPreview && !$0.live }, "snapshots, no network")
        await h.runEdits()
        XCTAssertTrue(h.screen.contains("sample 42 kWh"), h.screen)
        XCTAssertEqual(requests("meter").filter { $0 == "snapshot" }.count, 2)
        XCTAssertFalse(requests("meter").contains("timeline"), "a gallery preview asks no timeline")
        h.press(.enter)
        XCTAssertEqual(h.state.pane.kind, .form, "it has a setting: the form opens")
        XCTAssertEqual(h.state.home.tiles.last?.items.first?.kind, "meter")
        h.skipPendingWork()
    }

    func testTheEditFormGetsADynamicEnumsChoicesFromTheOptionsRequest() async throws {
        let meter = try meter("meter", network: false)
        let h = AppHarness(
            widgets: [meter],
            home: HomeConfig(tiles: [
                TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "meter")])
            ]), now: start)
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("quiet 1 kWh"), h.screen)
        h.press(.char("e"))
        XCTAssertEqual(h.state.pane.kind, .form)
        XCTAssertEqual(h.optionLoads.map(\.key), ["unit"], "loading starts when the form opens")
        await h.runEdits()
        XCTAssertEqual(requests("meter").filter { $0 == "options" }.count, 1)
        h.select("unit")
        h.press(.enter)
        XCTAssertTrue(h.screen.contains("MJ · Megajoule"), h.screen)
        h.type("MJ")
        h.press(.enter)
        XCTAssertEqual(h.field("unit")?.line.text, "MJ")
        await h.runEdits()
        XCTAssertTrue(
            h.screen.contains("quiet 1 MJ") || h.screen.contains("sample 42 MJ"),
            "the live preview asks the extension\n\(h.screen)")
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertEqual(h.state.home.tiles[0].items[0].config["unit"], .string("MJ"))
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("quiet 1 MJ"), "saved and reloaded with the new value\n\(h.screen)")
    }

    // MARK: - Stacks and Smart Rotate

    func testSmartRotateBringsAnExternalWidgetForwardByItsEntrysRelevance() async throws {
        let meter = try meter("meter", network: false)
        var usage = UsageHistory()
        usage.stacks["t1"] = StackMemory(shown: "w1", since: start)
        let h = AppHarness(
            widgets: [signalWidget, meter],
            home: HomeConfig(tiles: [
                // Focused: Smart Rotate never turns a stack under the user's focus.
                TileInstance(id: "t0", family: .small, items: [WidgetInstance(id: "w0", kind: "signal")]),
                TileInstance(
                    id: "t1", family: .small,
                    items: [WidgetInstance(id: "w1", kind: "signal"), WidgetInstance(id: "w2", kind: "meter")]),
            ]), now: start, usage: usage)
        h.finish("w0", entries: [SignalEntry(date: start, text: "Focused")])
        h.finish("w1", entries: [SignalEntry(date: start, text: "Alpha")])
        await h.runLoads()
        XCTAssertEqual(h.state.focusedTile, "t0")
        XCTAssertEqual(h.state.shownInstance("t1")?.id, "w1")
        h.advance(to: start + 5 * 60)
        XCTAssertEqual(h.state.shownInstance("t1")?.id, "w1", "relevant, but the dwell is not over")
        h.advance(to: start + 15 * 60)
        XCTAssertEqual(h.state.shownInstance("t1")?.id, "w2")
        XCTAssertTrue(h.screen.contains("peak 9 kWh"), h.screen)
        XCTAssertTrue(
            SmartStacks.sentence(h.state, tile: "t1")?.hasPrefix("shown because: peak load (relevance 0.90)") == true,
            SmartStacks.sentence(h.state, tile: "t1") ?? "nil")
        // By hand: `<` `>` rotate it like any stack.
        h.press(.char("l"), .char("<"))
        XCTAssertEqual(h.state.shownInstance("t1")?.id, "w1")
    }

    // MARK: - Budget

    func testANetworkExtensionIsBudgetedAndALocalOneIsNot() async throws {
        let net = try meter("net", network: true, after: 60)
        let local = try meter("local", network: false, after: 60)
        XCTAssertEqual(net.cost, .budgeted)
        XCTAssertEqual(local.cost, .local)
        let h = AppHarness(
            widgets: [net, local],
            home: HomeConfig(tiles: [
                TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "net")]),
                TileInstance(id: "t2", family: .small, items: [WidgetInstance(id: "w2", kind: "local")]),
            ]), now: start)
        await h.runLoads()
        // Both asked to reload after a minute: the local one may, the network one waits for the
        // minimum interval (5 min) like a built-in network widget.
        h.advance(to: start + 61)
        XCTAssertEqual(h.loads.map(\.id), ["w2"])
        await h.runLoads()
        h.advance(to: start + 300)
        XCTAssertEqual(h.load(of: "w1")?.request.reason, .policy)
        await h.runLoads()
        let netBudget = try XCTUnwrap(h.state.scheduler.status("w1", at: h.clock.now)).budget
        XCTAssertEqual(netBudget.used, 1, "the policy reload was charged")
        XCTAssertEqual(netBudget.limit, 70)
        XCTAssertNil(try XCTUnwrap(h.state.scheduler.status("w2", at: h.clock.now)).budget.limit, "no daily cap")
        // A reload the user asks for is free.
        h.press(.char("r"))
        await h.runLoads()
        XCTAssertEqual(h.state.scheduler.status("w1", at: h.clock.now)?.budget.used, 1)
        XCTAssertEqual(requests("net").filter { $0 == "timeline" }.count, 3)
    }
}
