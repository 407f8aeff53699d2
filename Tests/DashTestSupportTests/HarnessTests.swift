import XCTest
import Foundation
import DashCore
import DashWidgets
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles
@testable import DashRuntime

/// The harness itself: it drives the real runtime (one effect interpreter), its fake services
/// record what the app hands out, and it is exhaustive about that work.
final class HarnessTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_795_426_230)

    func harness() -> AppHarness {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .medium, items: [WidgetInstance(id: "w1", kind: "fake")]),
            TileInstance(id: "t2", family: .small, items: [WidgetInstance(id: "w2", kind: "fake")]),
        ])
        return AppHarness(widgets: [fakeWidget(script: FakeScript())], home: home, now: now)
    }

    func testLoadsAreStartedByTheRuntimeAndListedUntilAnswered() {
        let h = harness()
        XCTAssertEqual(h.runtime.stats.loadsStarted, 2, "the runtime's startLoads handed them to the service")
        XCTAssertEqual(h.pendingWork, ["load of w1", "load of w2"])
        h.finish("w1", entries: [])
        XCTAssertEqual(h.pendingWork, ["load of w2"], "an answered load is no longer pending")
        let token = h.load(of: "w2")!.token
        h.send(.loaded(id: "w2", token: token, result: .failure(FakeError("offline"))))
        XCTAssertEqual(h.pendingWork, [], "a load answered by a message of the test's own is answered")
    }

    func testSkippingPendingWorkSaysTheTestLeavesItRunning() {
        let h = harness()
        XCTAssertFalse(h.pendingWork.isEmpty)
        h.skipPendingWork()
        XCTAssertEqual(h.pendingWork, [])
    }

    /// A write goes through the runtime's file work (inline in the harness) to the in-memory
    /// home.yaml, and its outcome comes back as the message the real program gets.
    func testAWriteRunsThroughTheRuntimesFileWorkAndComesBackAsAMessage() throws {
        let text = """
            tiles:
              - family: medium
                widget: fake
              - family: small
                widget: fake
            """
        let h = harness()
        let bundle = h.state.bundle
        let home = try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle)
        h.useHomeFile(HomeFileState(path: "/nowhere/home.yaml", text: text, home: home))
        var smaller = h.state.home
        smaller.tiles.removeLast()
        h.run { Editing.changeHome(&$0, to: smaller, what: "remove", focus: nil) }
        XCTAssertEqual(h.homeWrites.count, 1)
        XCTAssertEqual(h.state.homeFile?.text.map { $0.contains("t2") }, false, "the outcome reached the state")
        h.skipPendingWork()
    }
}
