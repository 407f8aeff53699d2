import XCTest
import Foundation
import DashCore
import DashWidgets
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// A widget written with SwiftdashKit (Tests/KitFixture, built as `swiftdashkit-fixture`) on a home
/// screen, its own process answering: the Edit form lists its entity query's rooms, its toggle runs
/// the intent in the extension and the tile reloads, the state the intent stored is shown again by
/// a process started afresh, and an error names the file that configures the widget.
final class SwiftdashKitHomeTests: XCTestCase {
    var dir: URL!
    let log = LineLog()
    var processes: [ExtensionProcess] = []
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kithome-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        processes.forEach { $0.stop() }
        try? FileManager.default.removeItem(at: dir)
    }

    var state: URL { dir.appendingPathComponent("state") }

    /// The fixture's widgets, served by a new process whose state folder is `state`.
    func discover() throws -> [Widget] {
        let exe = try XCTUnwrap(builtProduct("swiftdashkit-fixture"), "swift build builds the fixture")
        let found = Extensions.discover(
            [exe.path], builtin: [],
            environment: [
                "PATH": "/usr/bin:/bin", "SWIFTDASH_STATE": state.path,
                "SWIFTDASH_CONTROL": dir.appendingPathComponent("nobody.sock").path,
            ],
            limits: ExtensionLimits(), log: log.add)
        processes += found.processes
        XCTAssertEqual(found.problems, [])
        XCTAssertEqual(found.widgets.map(\.kind), ["kit-lamp", "kit-echo", "kit-forecast", "kit-broken", "kit-tall"])
        return found.widgets
    }

    func harness(_ widgets: [Widget], room: String? = nil) async -> AppHarness {
        var item = WidgetInstance(id: "w1", kind: "kit-lamp")
        if let room { item.config["room"] = .string(room) }
        let h = AppHarness(
            widgets: widgets, home: HomeConfig(tiles: [TileInstance(id: "t1", family: .medium, items: [item])]),
            now: now)
        await h.runLoads()
        return h
    }

    func testTheEditFormListsTheEntityQuerysRoomsAndTheChosenOneIsDrawn() async throws {
        let h = await harness(try discover())
        XCTAssertTrue(h.screen.contains("No room"), h.screen)
        h.press(.char("e"))
        XCTAssertEqual(h.optionLoads.map(\.key), ["room"], "the form asks the extension for the room's choices")
        await h.runEdits()
        h.select("room")
        h.press(.enter)
        for room in ["kitchen · Kitchen room", "study · Study room", "attic · Attic room"] {
            XCTAssertTrue(h.screen.contains(room), "suggestedEntities() gives the choices\n\(h.screen)")
        }
        h.type("study")
        h.press(.enter)
        XCTAssertEqual(h.field("room")?.line.text, "study")
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.home.tiles[0].items[0].config["room"], .string("study"))
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("Study room"), "entities(for:) turned the id into the entity\n\(h.screen)")
        // The preview the form asked for before Save is answered after the form closed: nobody waits for it.
        h.skipPendingWork()
    }

    func testAToggleRunsItsIntentTheTileReloadsAndANewProcessShowsTheStoredState() async throws {
        let h = await harness(try discover(), room: "attic")
        XCTAssertTrue(h.screen.contains("Attic room"), h.screen)
        XCTAssertTrue(h.screen.contains("[ ] Light"), h.screen)
        XCTAssertTrue(h.screen.contains("run 1 · lamp drawn 1"), h.screen)
        h.press(.tab, .char(" "))
        await h.runActions()
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("[x] Light, flipped 1"), h.screen)
        XCTAssertTrue(
            h.screen.contains("run 1 · lamp drawn 2"), "the timeline was reloaded after perform()\n\(h.screen)")
        XCTAssertEqual(try String(contentsOf: state.appendingPathComponent("light"), encoding: .utf8), "on")

        // The process ends (swiftdash quit, or restarts it); the next one shows what the intent stored.
        processes.forEach { $0.stop() }
        processes = []
        let again = await harness(try discover(), room: "attic")
        XCTAssertTrue(again.screen.contains("[x] Light, flipped 1"), "UserDefaults(suiteName:) kept\n\(again.screen)")
        XCTAssertTrue(again.screen.contains("run 2 · lamp drawn 1"), "a new process\n\(again.screen)")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: state.appendingPathComponent("UserDefaults/group.x.plist").path),
            "UserDefaults(suiteName:) keeps its suite in the extension's state folder")
    }

    func testAThrowingEntityQueryNamesTheWidgetsFileAndTheReason() async throws {
        let h = await harness(try discover(), room: "cellar")
        let error = try XCTUnwrap(h.state.scheduler.lastError("w1"))
        XCTAssertTrue(error.contains("swiftdashkit_fixture/KitFixture.swift:"), error)
        XCTAssertTrue(error.contains("room: there is no room `cellar` in this house"), error)
    }

    func testACrashedWidgetsTileSaysTheFileAndTheFatalError() async throws {
        let h = await harness(try discover(), room: "basement")
        let error = try XCTUnwrap(h.state.scheduler.lastError("w1"))
        XCTAssertTrue(error.contains("crashed: KitFixture.swift:"), error)
        XCTAssertTrue(error.contains(": Fatal error: no lamp in the basement"), error)
        XCTAssertFalse(error.contains("\n"), error)
    }

    /// The fixture's line that holds `text`, as a crash report names it (`KitFixture.swift:N`).
    func fixtureLine(_ text: String) throws -> String {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../KitFixture/KitFixture.swift")
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        let n = try XCTUnwrap(lines.firstIndex { $0.contains(text) }, text) + 1
        return "KitFixture.swift:\(n)"
    }

    /// One widget's fault costs one widget (decision 60): each kind of the bundle has its own
    /// process, so a trap in a provider (`try!`), a view (an index out of range), a query
    /// (`fatalError`) or a parameter's default (a force unwrap) fails that widget's tile with the
    /// file, line and message, while the bundle's other widgets keep drawing from their processes.
    func testATrapFailsOnlyItsWidgetNamingTheFileLineAndMessageAndTheOthersKeepDrawing() async throws {
        let widgets = try discover()
        let traps = [
            ("basement", try fixtureLine("no lamp in the basement"), "Fatal error: no lamp in the basement"),
            ("shed", try fixtureLine("/no/such/shed/lamp"), "Fatal error: 'try!' expression unexpectedly raised"),
            ("garage", try fixtureLine("switches[entry.room.count]"), "Fatal error: Index out of range"),
        ]
        for (n, (room, place, message)) in traps.enumerated() {
            var lamp = WidgetInstance(id: "w1", kind: "kit-lamp")
            lamp.config["room"] = .string(room)
            let h = AppHarness(
                widgets: widgets,
                home: HomeConfig(tiles: [
                    TileInstance(id: "t1", family: .medium, items: [lamp]),
                    TileInstance(id: "t2", family: .medium, items: [WidgetInstance(id: "w2", kind: "kit-echo")]),
                    TileInstance(id: "t3", family: .medium, items: [WidgetInstance(id: "w3", kind: "kit-broken")]),
                ]),
                now: now)
            await h.runLoads()
            let error = try XCTUnwrap(h.state.scheduler.lastError("w1"), room)
            XCTAssertTrue(error.contains("crashed: \(place): \(message)"), "\(room): \(error)")
            XCTAssertFalse(error.contains("\n"), error)
            XCTAssertNil(h.state.scheduler.lastError("w2"))
            // The same echo process drew each time: the lamp's crashes did not end it.
            XCTAssertTrue(h.screen.contains("echo drawn \(n + 1)"), "\(room)\n\(h.screen)")
            let broken = try XCTUnwrap(h.state.scheduler.lastError("w3"))
            XCTAssertTrue(
                broken.contains(
                    "crashed: \(try fixtureLine("Int(\"high\")!")): Fatal error: Unexpectedly found nil while unwrapping"),
                broken)
        }
        // The lamp's next load starts its process again, and a room without a trap draws.
        let again = await harness(widgets, room: "attic")
        XCTAssertTrue(again.screen.contains("Attic room"), again.screen)
        XCTAssertTrue(
            Eventually.wait { self.log.lines.contains { $0.contains("Fatal error: no lamp in the basement") } },
            "the extension's log keeps what the kind's process printed")
    }
}
