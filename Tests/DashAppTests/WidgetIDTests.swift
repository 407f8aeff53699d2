import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles
@testable import DashRuntime

/// One id, one widget, whatever process is asked (decision 41): the running home screen (here the
/// harness over a real home.yaml) and the command line (`HomeFile.load`, `modify`, as `swiftdash
/// config check`, `add`, `push` use them) give the file's widgets the same ids, also after the app
/// removed or added tiles.
final class WidgetIDTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_426_230)
    let bundle = WidgetBundle([NoteWidget.widget])
    let text = """
        tiles:
          - family: small
            widget: note
            config: { title: one }
          - family: small
            widget: note
            config: { title: two }
          - family: small
            widget: note
            config: { title: three }

        """

    /// A home.yaml holding `text` in a folder of its own, and the app started on it as `swiftdash`
    /// starts (load, record what it shows, write and read through `HomeFile`).
    func start(_ text: String? = nil) throws -> (AppHarness, HomeFile) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-ids-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("home.yaml")
        try Data((text ?? self.text).utf8).write(to: url)
        let file = HomeFile(url: url, bundle: bundle)
        let h = try app(file)
        return (h, file)
    }

    func app(_ file: HomeFile) throws -> AppHarness {
        let (home, state) = try file.load()
        let h = AppHarness(widgets: [NoteWidget.widget], home: home, size: Size(width: 100, height: 30), now: now)
        h.useHomeFile(state)
        file.showing(state)
        h.homeWriter = { file.write($0, over: $1) }
        h.homeReader = { file.currentMessage() }
        return h
    }

    /// What the command line sees: `swiftdash config check`'s ids.
    func commandLineIDs(_ file: HomeFile) throws -> [String] {
        try file.load().home.allInstances.map(\.id)
    }

    func titles(_ home: HomeConfig) -> [String] { home.allInstances.map { "\($0.id) \($0.config.string("title"))" } }

    /// `swiftdash add note --set title=…` as the command does it; the id it prints.
    func add(_ file: HomeFile, title: String) throws -> String {
        let change = try file.modify { home in
            home.tiles.append(
                TileInstance(
                    id: home.nextTileID(), family: .small,
                    items: [
                        WidgetInstance(
                            id: home.nextInstanceID(), kind: "note", config: WidgetConfig(["title": .string(title)]))
                    ]))
        }
        return try XCTUnwrap(change.after.tiles.last?.items.first?.id)
    }

    func push(_ h: AppHarness, _ target: String, _ title: String) throws -> String? {
        let reply = ControlReply()
        let line = try ControlProtocol.pushLine(
            target: target, timeline: JSONValue.parse(Data(#"{"entries": [{"title": "\#(title)"}]}"#.utf8)))
        h.send(.controlRequested(line, reply))
        return reply.current
    }

    /// The tester's case: the app had removed a tile, `swiftdash add` printed one id and the running
    /// app gave the new widget another, so `swiftdash push ID` reached the wrong tile.
    func testAWidgetAddedFromTheCommandLineHasTheIDItPrintedInTheRunningApp() throws {
        let (h, file) = try start()
        h.press(.char("d"))  // removes the first tile, in the app
        XCTAssertEqual(titles(h.state.home), ["w2 two", "w3 three"])
        XCTAssertEqual(try commandLineIDs(file), ["w2", "w3"], "the command line sees the app's ids")
        let printed = try add(file, title: "four")
        XCTAssertEqual(printed, "w4")
        // The file watcher's report comes in.
        h.send(HomeFile(url: file.url, bundle: bundle).changeMessage(try file.read()))
        XCTAssertEqual(titles(h.state.home), ["w2 two", "w3 three", "w4 four"])
        XCTAssertEqual(try push(h, printed, "Deployed"), "ok 1")
        let tile = try XCTUnwrap(h.state.home.tiles.first { $0.items[0].id == printed })
        XCTAssertEqual(tile.items[0].config.string("title"), "four")
        XCTAssertEqual(h.state.entry(ofInstance: printed)?.summary, "Deployed")
        XCTAssertNotEqual(h.state.entry(ofInstance: "w2")?.summary, "Deployed", "not the old first note")
        h.skipPendingWork()
    }

    /// The same after adds in the app: it never reuses an id it gave before, the command line follows it.
    func testWidgetsAddedInTheAppKeepTheirIDsOnTheCommandLineAndAfterARestart() throws {
        let (h, file) = try start()
        var home = h.state.home
        home.tiles.removeLast()
        h.run { Editing.changeHome(&$0, to: home, what: "a change", focus: nil) }
        home.tiles.append(
            TileInstance(
                id: "t9", family: .small,
                items: [WidgetInstance(id: "w9", kind: "note", config: WidgetConfig(["title": .string("nine")]))]))
        h.run { Editing.changeHome(&$0, to: home, what: "a change", focus: nil) }
        XCTAssertEqual(titles(h.state.home), ["w1 one", "w2 two", "w9 nine"])
        XCTAssertEqual(try commandLineIDs(file), ["w1", "w2", "w9"])
        XCTAssertEqual(try file.load().home.tiles.map(\.id), ["t1", "t2", "t9"])
        let restarted = try app(file)
        XCTAssertEqual(titles(restarted.state.home), ["w1 one", "w2 two", "w9 nine"])
        restarted.skipPendingWork()
        h.skipPendingWork()
    }

    /// `swiftdash add` then at once `swiftdash push ID`: the push comes before the watcher's report.
    func testAPushForAnIDAddedAMomentAgoReachesIt() throws {
        let (h, file) = try start()
        h.press(.char("d"))
        let printed = try add(file, title: "four")
        XCTAssertEqual(try push(h, printed, "Deployed"), "ok 1", "the app read home.yaml before answering")
        XCTAssertEqual(titles(h.state.home), ["w2 two", "w3 three", "w4 four"])
        XCTAssertEqual(h.state.entry(ofInstance: "w4")?.summary, "Deployed")
        XCTAssertTrue(h.screen.contains("Deployed"), h.screen)
        h.skipPendingWork()
    }

    func testAnIDThatIsGoneSaysSoAndListsTheOnesThereAre() async throws {
        let (h, _) = try start()
        await h.runLoads()
        h.press(.char("d"))
        XCTAssertEqual(
            try push(h, "w1", "x"),
            "error: no widget kind or id w1 on the home screen; these do: w2 note, w3 note")
        let reply = ControlReply()
        h.send(.controlRequested("reload w1", reply))
        XCTAssertEqual(
            reply.current, "error: no widget kind or id w1 on the home screen; its widgets: w2 note, w3 note")
        let ok = ControlReply()
        _ = h.takeEffects()
        h.send(.controlRequested("reload w3", ok))
        XCTAssertEqual(ok.current, "ok")
        XCTAssertEqual(h.load(of: "w3")?.request.reason, .manual, "one widget, reloaded by hand (not charged)")
        XCTAssertNil(h.load(of: "w2"))
        h.skipPendingWork()
    }

    /// An editor (or another machine) changed the file while nothing ran: every process aligns the
    /// file with the recorded ids the same way, so the widgets that stayed keep theirs.
    func testAnOutsideEditWhileNothingRunsKeepsTheIDsOfTheWidgetsThatStayed() throws {
        let (h, file) = try start()
        let edited =
            text.replacingOccurrences(of: "  - family: small\n    widget: note\n    config: { title: one }\n", with: "")
            + "  - family: medium\n    widget: note\n    config: { title: four }\n"
        try Data(edited.utf8).write(to: file.url)
        XCTAssertEqual(try commandLineIDs(file), ["w2", "w3", "w4"])
        XCTAssertEqual(try file.load().home.tiles.map(\.id), ["t2", "t3", "t4"])
        h.send(file.changeMessage(edited))
        XCTAssertEqual(titles(h.state.home), ["w2 two", "w3 three", "w4 four"])
        let again = try app(file)
        XCTAssertEqual(titles(again.state.home), ["w2 two", "w3 three", "w4 four"])
        again.skipPendingWork()
        h.skipPendingWork()
    }

    /// A write made over another program's change (a three-way merge, issue 24.4) takes that
    /// program's ids.
    func testAChangeMergedWithAnotherProgramsTakesItsIDs() throws {
        let (h, file) = try start()
        h.press(.char("d"))
        _ = try add(file, title: "four")  // the watcher has not said so yet
        var home = h.state.home
        home.tiles[0].items[0].config["title"] = .string("TWO")
        h.run { Editing.changeHome(&$0, to: home, what: "a change", focus: nil) }
        XCTAssertEqual(titles(h.state.home), ["w2 TWO", "w3 three", "w4 four"])
        XCTAssertEqual(try commandLineIDs(file), ["w2", "w3", "w4"])
        h.skipPendingWork()
    }

    func testTheRecordKeepsNoSecretAndIgnoresWhatItDidNotWrite() throws {
        let (h, file) = try start(
            text.replacingOccurrences(of: "title: one", with: "title: sk-live-0123456789abcdef"))
        let record = try String(contentsOf: file.idsURL, encoding: .utf8)
        XCTAssertFalse(record.contains("sk-live"), record)
        XCTAssertTrue(record.contains(#""id":"w3""#), record)
        let item = #"{"id": "w1", "kind": "note", "config": "1"}"#
        for garbage in [
            "not json", #"{"tiles": [{"id": "t1", "items": [{"id": "w1", "kind": "note", "config": "1"}]}"#,
            #"{"tiles": [{"id": "t1", "items": ["# + item + "," + item + "]}]}",
            #"{"tiles": [{"id": "t1", "items": [{"id": "w\u001b[2J", "kind": "note", "config": "1"}]}]}"#,
            #"{"tiles": [{"id": "x1", "items": []}]}"#,
        ] {
            try Data(garbage.utf8).write(to: file.idsURL)
            XCTAssertNil(file.recordedIDs(), garbage)
            XCTAssertEqual(try commandLineIDs(file), ["w1", "w2", "w3"], "by position without a record")
        }
        h.skipPendingWork()
    }

    func testAlignmentOfAThousandTilesIsQuick() throws {
        func home(_ titles: [String]) -> HomeConfig {
            HomeConfig(
                tiles: titles.enumerated().map { i, t in
                    TileInstance(
                        id: "t\(i + 1)", family: .small,
                        items: [
                            WidgetInstance(id: "w\(i + 1)", kind: "note", config: WidgetConfig(["title": .string(t)]))
                        ]
                    )
                })
        }
        let old = (0..<ConfigLimits.maxTiles).map { "n\($0)" }
        var previous = home(old)
        for i in previous.tiles.indices {
            previous.tiles[i].id = "t\(i + 5)"
            previous.tiles[i].items[0].id = "w\(i + 5)"
        }
        // Reversed: no common start or end, the whole table.
        let adopted = home(old.reversed()).adoptingIDs(from: HomeIDs(previous))
        XCTAssertEqual(Set(adopted.allInstances.map(\.id)).count, old.count, "no id twice")
        XCTAssertEqual(adopted.tiles.first?.items.first?.config.string("title"), "n999")
        // A removal at the start: a common end, nothing else to align.
        let dropped = home(Array(old.dropFirst())).adoptingIDs(from: HomeIDs(previous))
        XCTAssertEqual(dropped.allInstances.first?.id, "w6")
        XCTAssertEqual(dropped.tiles.last?.id, "t\(old.count + 4)")
    }
}
