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
        XCTAssertEqual(found.widgets.map(\.kind), ["kit-lamp", "kit-echo", "kit-forecast"])
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
}
