import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles
@testable import DashRuntime

/// Extensions that arrive in, change in or leave the widgets folder while the home screen runs
/// (issue 23, point 6): the folder watcher's report goes through `update`, which asks for a scan;
/// the catalog the scan posts changes the bundle the gallery and the tiles use.
final class ExtensionArrivalTests: XCTestCase {
    struct HelloEntry: TimelineEntry {
        var date: Date
        var text: String
        var summary: String { text }
    }

    struct HelloProvider: TimelineProvider {
        var word: String
        func placeholder(in context: TimelineContext) -> HelloEntry { HelloEntry(date: context.now, text: "…") }
        func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> HelloEntry {
            HelloEntry(date: context.now, text: word)
        }
        func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<
            HelloEntry
        > {
            Timeline(entries: [HelloEntry(date: context.now, text: word)], policy: .never)
        }
    }

    /// The widget an extension `hello` would describe (version `word`).
    static func hello(_ word: String = "hi") -> Widget {
        Widget(
            kind: "hello", displayName: "Hello", description: "Says hello", provider: HelloProvider(word: word),
            view: { e, _ in Text(e.text) })
    }

    let clock = Widget(
        kind: "clock", displayName: "Clock", description: "test", provider: HelloProvider(word: "09:30"),
        view: { e, _ in Text(e.text) })

    func harness(_ yaml: String) throws -> AppHarness {
        let home = try HomeConfig.parse(yaml: yaml, file: "home.yaml", bundle: WidgetBundle([clock]))
        let h = AppHarness(widgets: [clock], home: home, now: start)
        h.useHomeFile(HomeFileState(path: "/cfg/home.yaml", text: yaml, home: home))
        h.finish("w1", entries: [HelloEntry(date: start, text: "09:30")])
        return h
    }

    func testAnExtensionThatArrivesIsInTheGalleryAndItsRefusedTileLoadsThenGoesWhenRemoved() throws {
        let h = try harness("tiles:\n  - {family: small, widget: clock}\n")
        // The folder changed: the report goes through update, which asks for a scan off the loop.
        let fx = h.send(.extensionsFolderChanged)
        XCTAssertEqual(fx.map(\.description), ["scanExtensions"])
        XCTAssertEqual(h.extensionScans, 1)

        // home.yaml names `hello` before its extension is there: refused, the last good home stays.
        let named = "tiles:\n  - {family: small, widget: clock}\n  - {family: small, widget: hello}\n"
        h.send(.homeFileChanged(text: named))
        XCTAssertNotNil(h.state.homeFile?.problem)
        XCTAssertEqual(h.state.home.tiles.count, 1)

        // The scan found it: the refused file is read again, its tile loads at once.
        h.send(.extensionsScanned(ExtensionCatalog(widgets: [Self.hello()], versions: ["hello": 1])))
        XCTAssertNil(h.state.homeFile?.problem, "the file is good now")
        XCTAssertEqual(h.state.home.tiles.map { $0.items[0].kind }, ["clock", "hello"])
        XCTAssertEqual(h.loads.map(\.id), ["w2"], "the new tile starts loading")
        XCTAssertTrue(h.screen.contains("new widget: Hello (a adds)"), h.screen)
        h.finish("w2", entries: [HelloEntry(date: start, text: "hi there")])
        XCTAssertTrue(h.screen.contains("hi there"), h.screen)

        // The gallery lists it.
        h.press(.char("a"))
        XCTAssertTrue(h.screen.contains("Hello"), h.screen)
        XCTAssertTrue(h.screen.contains("2 widgets"), h.screen)
        h.skipPendingWork()  // the gallery's previews
        h.press(.escape)

        // Replaced by a new version: its tile starts afresh with the new process.
        h.send(.extensionsScanned(ExtensionCatalog(widgets: [Self.hello("hey")], versions: ["hello": 2])))
        XCTAssertEqual(h.loads.map(\.id), ["w2"])
        h.finish("w2", entries: [HelloEntry(date: start, text: "hey you")])
        XCTAssertTrue(h.screen.contains("hey you"), h.screen)

        // Removed: the tile says its widget is unknown, nothing loads, nothing crashes.
        h.send(.extensionsScanned(ExtensionCatalog()))
        XCTAssertTrue(h.screen.contains("│ Unknown widget  │"), h.screen)
        XCTAssertTrue(h.screen.contains("removed: hello"), h.screen)
        XCTAssertNil(h.state.bundle["hello"])
        XCTAssertFalse(h.state.scheduler.instanceIDs.contains("w2"), "no more loads for it")
        h.press(.right)
        h.press(.char("r"))
        XCTAssertEqual(h.loads.map(\.id), [])
    }

    func testTheSameCatalogAgainChangesNothing() throws {
        let h = try harness("tiles:\n  - {family: small, widget: clock}\n")
        let catalog = ExtensionCatalog(widgets: [Self.hello()], versions: ["hello": 1])
        h.send(.extensionsScanned(catalog))
        XCTAssertEqual(h.send(.extensionsScanned(catalog)).map(\.description), [], "a scan that found nothing new")
    }

    func testABrokenExtensionIsListedInTheGalleryWithTheReason() throws {
        let h = try harness("tiles:\n  - {family: small, widget: clock}\n")
        let broken = ExtensionCatalog.Problem(
            name: "weather.sh", path: "/cfg/widgets/weather.sh", reason: "describe: timed out after 5 s")
        h.send(.extensionsScanned(ExtensionCatalog(problems: [broken])))
        XCTAssertTrue(h.screen.contains("⚠ weather.sh: describe: timed out after 5 s"), h.screen)
        h.press(.char("a"))
        XCTAssertTrue(h.screen.contains("⚠ weather.sh"), h.screen)
        XCTAssertTrue(h.screen.contains("1 widget · 1 broken"), h.screen)
        h.skipPendingWork()
        h.press(.down)
        XCTAssertTrue(h.screen.contains("weather.sh cannot be used"), h.screen)
        XCTAssertTrue(h.screen.contains("describe: timed out after 5 s"), h.screen)
        h.press(.enter)
        XCTAssertEqual(h.state.home.tiles.count, 1, "nothing to add")
        XCTAssertEqual(h.state.pane.kind, .gallery)
    }
}
