import XCTest
import Foundation
import DashCore
import DashWidgets
import DashTestSupport
import DashActivities
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// A widget bundle's own Live Activity views on the home screen (decision 68), its process
/// answering: the SwiftdashKit fixture (Tests/KitFixture) declares `KitParcelActivity`, whose
/// compact trailing view traps past three stops. The home screen asks off the loop; until the
/// answer comes the built-in face shows; a trap costs that activity's drawing alone: the built-in
/// face, the reason in its detail pane, and the bundle's widget and its other activity draw on.
final class ActivityBundleHomeTests: XCTestCase {
    var dir: URL!
    var processes: [ExtensionProcess] = []
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let log = LineLog()

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("actbundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        processes.forEach { $0.stop() }
        try? FileManager.default.removeItem(at: dir)
    }

    func discover() throws -> Extensions.Discovery {
        let exe = try XCTUnwrap(builtProduct("swiftdashkit-fixture"), "swift build builds the fixture")
        let found = Extensions.discover(
            [exe.path], builtin: [],
            environment: [
                "PATH": "/usr/bin:/bin", "SWIFTDASH_STATE": dir.appendingPathComponent("state").path,
                "SWIFTDASH_CONTROL": dir.appendingPathComponent("nobody.sock").path,
            ],
            limits: ExtensionLimits(), log: log.add)
        processes += found.processes
        XCTAssertEqual(found.activities.map(\.kind), ["kit-parcel-attributes"])
        return found
    }

    func parcel(_ id: String, _ name: String, stops: Int) -> Activity {
        Activity(
            id: id, kind: "kit-parcel-attributes", attributes: .object(["parcel": .string(name)]),
            content: ActivityContent(state: .object(["stopsLeft": .number(Double(stops))]), relevanceScore: Double(stops)),
            started: now)
    }

    func harness(_ found: Extensions.Discovery, book: ActivityBook) async -> AppHarness {
        let h = AppHarness(
            widgets: found.widgets,
            home: HomeConfig(tiles: [
                TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "kit-forecast")])
            ]), now: now)
        h.send(
            .extensionsScanned(
                ExtensionCatalog(
                    widgets: found.widgets, versions: Dictionary(uniqueKeysWithValues: found.widgets.map { ($0.kind, 1) }),
                    activities: found.activities, activityVersions: ["kit-parcel-attributes": 1])))
        await h.runLoads()
        h.send(.activitiesChanged(book))
        return h
    }

    func testTheStripAndThePaneDrawTheBundlesOwnViews() async throws {
        var book = ActivityBook()
        try book.start(parcel("p1", "Books", stops: 2), at: now)
        let h = await harness(try discover(), book: book)
        XCTAssertEqual(h.activityViewJobs.map(\.key.id), ["p1"], "asked once, off the loop")
        XCTAssertTrue(h.screen.contains("● kit-parcel"), "the built-in face until it answers\n\(h.screen)")
        h.runActivityViews()
        XCTAssertTrue(h.screen.contains("Kit Books") && h.screen.contains("two stops"), h.screen)
        // The same content is never asked again; an update is.
        h.advance(by: 5)
        XCTAssertEqual(h.activityViewJobs.count, 0)
        try book.update("p1", content: ActivityContent(state: .object(["stopsLeft": .number(1)])), at: h.state.now)
        h.send(.activitiesChanged(book))
        XCTAssertTrue(h.screen.contains("two stops"), "the last drawing shows while the next is drawn\n\(h.screen)")
        let line = App.lineSignature(h.state)
        h.runActivityViews()
        XCTAssertTrue(h.screen.contains("one stop"), h.screen)
        XCTAssertNotEqual(App.lineSignature(h.state), line, "the tmux line shows the bundle's new compact text")
        // Focused: the expanded regions; Enter: the Lock Screen view.
        h.press(.up)
        XCTAssertTrue(h.screen.contains("Kit parcel") && h.screen.contains("Ring twice"), h.screen)
        h.press(.enter)
        XCTAssertTrue(h.screen.contains("Parcel Books: one stop left"), h.screen)
        assertSnapshot(h.screen, named: "activity-bundle-pane")
    }

    func testATrapInTheViewsCostsThatActivitysDrawingAlone() async throws {
        var book = ActivityBook()
        try book.start(parcel("p1", "Books", stops: 2), at: now)
        try book.start(parcel("p9", "Piano", stops: 9), at: now)
        let h = await harness(try discover(), book: book)
        XCTAssertEqual(Set(h.activityViewJobs.map(\.key.id)), ["p1", "p9"])
        h.runActivityViews()
        let problem = try XCTUnwrap(h.state.activities.drawings.views.problems["p9"])
        XCTAssertTrue(problem.contains("crashed:") && problem.contains("Index out of range"), problem)
        XCTAssertNotNil(h.state.activities.drawings.views.drawn["p1"], "the other activity of the kind is drawn")
        XCTAssertTrue(h.screen.contains("● kit-parcel"), "the built-in face for p9\n\(h.screen)")
        XCTAssertTrue(h.screen.contains("Rain "), "the bundle's widget draws on\n\(h.screen)")
        h.press(.up, .enter)
        XCTAssertTrue(h.screen.contains("views could not draw it:") && h.screen.contains("Index out of range"), h.screen)
        // The trap is not asked again for the same content; the widget's tile has no error.
        h.advance(by: 2)
        XCTAssertEqual(h.activityViewJobs.count, 0)
        XCTAssertNil(h.state.scheduler.lastError("w1"))
        // A record its types cannot decode (a script wrote it by hand) costs that activity alone too.
        var bad = parcel("px", "Lamp", stops: 1)
        bad.content.state = .object(["stopsLeft": .string("many")])
        try book.start(bad, at: h.state.now)
        h.send(.activitiesChanged(book))
        h.runActivityViews()
        let why = try XCTUnwrap(h.state.activities.drawings.views.problems["px"])
        XCTAssertTrue(why.contains("the state is not a KitParcelAttributes.ContentState") && why.contains("stopsLeft"), why)
        XCTAssertNotNil(h.state.activities.drawings.views.drawn["p1"])
    }
}
