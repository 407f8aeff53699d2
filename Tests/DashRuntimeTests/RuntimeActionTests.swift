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

/// The runtime's side of a widget's actions: a press on a control becomes an action run on its
/// own thread, and `concurrentPerform` runs the widget's `perform` under its deadline.
final class RuntimeActionTests: XCTestCase {
    func testTheRuntimeTurnsAPressOnAControlIntoAnActionOnItsOwnThread() throws {
        let terminal = HeadlessTerminal(size: Size(width: 80, height: 24))
        let clock = VirtualClock(now: start)
        let home = HomeConfig(tiles: [
            TileInstance(
                id: "t1", family: .medium,
                items: [WidgetInstance(id: "w1", kind: "checklist")])
        ])
        let state = AppState(
            bundle: WidgetBundle([checklistWidget]), home: home, screen: terminal.size, theme: .dark,
            alternateTheme: .light, timeZone: TimeZone(identifier: "UTC")!, now: start)
        final class Box: @unchecked Sendable {
            let lock = NSLock()
            var jobs: [ActionJob] = []
            var loads: [LoadJob] = []
        }
        let box = Box()
        var services = RuntimeServices(startLoad: { job, _ in
            box.lock.withLock { box.loads.append(job) }
            return nil
        })
        services.perform = { job, inbox in
            box.lock.withLock { box.jobs.append(job) }
            inbox.post(.performed(id: job.instanceID, actionID: job.id, result: .success(nil)))
        }
        let r = Runtime(state: state, terminal: terminal, clock: clock, inbox: Inbox(wake: {}), services: services)
        r.turn()
        let first = try XCTUnwrap(box.loads.first)
        r.inbox.post(
            .loaded(
                id: "w1", token: first.token,
                result: .success(
                    AnyTimeline(
                        entries: [AnyEntry(ChecklistEntry(date: start, tasks: ["Milk"], done: []))], policy: .never))))
        r.turn()
        let region = try XCTUnwrap(r.lastFrame?.controlRegions["t1"]?.first { $0.control.title == "Milk" })
        r.handle(.mouse(MouseEvent(kind: .press, point: Point(x: region.rect.x + 1, y: region.rect.y))))
        XCTAssertEqual(box.jobs.count, 1)
        XCTAssertEqual(try box.jobs[0].action.decode(ChecklistAction.self), .set("Milk", done: true))
        r.turn()
        XCTAssertEqual(box.loads.last?.request.reason, .manual, "the answer came through the inbox and reloads")
    }

    func testConcurrentPerformRunsTheWidgetsPerformAndPostsTheResult() throws {
        let slow = checklistWidget.actions(ChecklistAction.self, timeout: 0.2) { _, _, _ in
            try await Task.sleep(nanoseconds: 5_000_000_000)
            return nil
        }
        let quick = checklistWidget.actions(ChecklistAction.self, timeout: 5) { action, _, _ in
            if case .set(let t, let done) = action { return .set(t, done: !done) }
            return nil
        }
        let posted = expectation(description: "two results")
        posted.expectedFulfillmentCount = 2
        let inbox = Inbox(wake: { posted.fulfill() })
        let ctx = TimelineContext(family: .medium, now: start)
        for (i, w) in [quick, slow].enumerated() {
            let milk = ActionPayload(ChecklistAction.set("Milk", done: true))
            let job = ActionJob(
                id: UInt64(i), instanceID: "w\(i)", widget: w, configuration: WidgetConfig(),
                action: milk, title: "Milk", context: ctx)
            Runtime.concurrentPerform(job, inbox)
        }
        wait(for: [posted], timeout: 60)
        var byID: [String: Result<ActionPayload?, any Error>] = [:]
        for m in inbox.drainForTests() { if case .performed(let id, _, let r) = m { byID[id] = r } }
        XCTAssertEqual(try byID["w0"]?.get()?.decode(ChecklistAction.self), .set("Milk", done: false))
        guard case .failure(let e)? = byID["w1"] else { return XCTFail("the slow action should time out") }
        XCTAssertEqual("\(e)", "timed out after 0.2 s")
    }
}

extension Inbox {
    func drainForTests() -> [Msg] { drain() }
}
