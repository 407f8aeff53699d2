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

/// A checklist widget for tests: a toggle per task, a button, a count marked invalidatable and
/// a link, so Tab has links and controls to walk. Its actions are answered by the test.
struct ChecklistEntry: TimelineEntry, Hashable {
    var date: Date
    var tasks: [String]
    var done: Set<String>
}

enum ChecklistAction: Codable, Sendable, Hashable {
    case set(String, done: Bool)
    case clear
}

struct ChecklistProvider: TimelineProvider {
    func placeholder(in context: TimelineContext) -> ChecklistEntry {
        ChecklistEntry(date: context.now, tasks: ["Milk", "Bread"], done: [])
    }
    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> ChecklistEntry {
        placeholder(in: context)
    }
    func timeline(
        for configuration: WidgetConfig,
        in context: TimelineContext
    ) async throws -> Timeline<ChecklistEntry> {
        Timeline(entries: [placeholder(in: context)], policy: .never)
    }
}

let checklistWidget = Widget(
    kind: "checklist", displayName: "Checklist", description: "test", supportedFamilies: [.small, .medium],
    provider: ChecklistProvider(),
    view: { e, ctx in
        VStack {
            Text("\(e.tasks.count - e.done.count) left").invalidatable()
            if ctx.family != .small { Text("All tasks").link("swiftdash://checklist/all") }
            for t in e.tasks {
                Toggle(isOn: e.done.contains(t), t, action: ChecklistAction.set(t, done: !e.done.contains(t)))
            }
            Button("Clear", action: ChecklistAction.clear)
        }
    }
)
.actions(ChecklistAction.self, timeout: 5) { _, _, _ in nil }

final class ActionTests: XCTestCase {
    func harness(family: WidgetFamily = .medium) -> AppHarness {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: family, items: [WidgetInstance(id: "w1", kind: "checklist")]),
            TileInstance(id: "t2", family: .medium, items: [WidgetInstance(id: "w2", kind: "stories")]),
        ])
        let h = AppHarness(widgets: [checklistWidget, storyWidget], home: home, now: start)
        h.finish("w1", entries: [ChecklistEntry(date: start, tasks: ["Milk", "Bread"], done: [])])
        h.finish("w2", entries: [StoryEntry(date: start, stories: ["a", "b"])])
        _ = h.takeEffects()
        return h
    }

    /// The cell style at the first occurrence of `text` on screen.
    func style(of text: String, in h: AppHarness) -> Style? {
        let b = h.frame.buffer
        for y in 0..<b.height {
            let row = b.rowText(y)
            if let r = row.range(of: text) {
                let x = DisplayWidth.of(String(row[..<r.lowerBound]))
                return b[x, y].style
            }
        }
        return nil
    }

    func testTabWalksLinksAndControlsTogetherInReadingOrder() {
        let h = harness()
        XCTAssertEqual(h.state.targets(ofTile: "t1").count, 4, "a link, two toggles, a button")
        h.press(.tab)
        XCTAssertEqual(h.state.highlightedLink, "swiftdash://checklist/all")
        h.press(.tab)
        XCTAssertEqual(h.state.highlightedControl?.title, "Milk")
        XCTAssertNil(h.state.highlightedLink)
        h.press(.tab, .tab)
        XCTAssertEqual(h.state.highlightedControl?.title, "Clear")
        h.press(.backTab)
        XCTAssertEqual(h.state.highlightedControl?.title, "Bread")
        // The highlight is drawn on the control in the focus colour.
        XCTAssertEqual(style(of: "[ ] Bread", in: h)?.background, Theme.dark[.focus])
    }

    func testSpaceOnAToggleFlipsItAtOnceAndRunsTheAction() throws {
        let h = harness()
        h.press(.tab, .tab, .char(" "))
        let job = try XCTUnwrap(h.actionJob(of: "w1"))
        XCTAssertEqual(try job.action.decode(ChecklistAction.self), .set("Milk", done: true))
        XCTAssertTrue(h.screen.contains("[x] Milk ⋯"), "optimistic: flipped and pending\n\(h.screen)")
        XCTAssertTrue(h.screen.contains("[ ] Bread"))
        let count = try XCTUnwrap(style(of: "2 left", in: h))
        XCTAssertTrue(count.attributes.contains(.dim), "invalidatable content is drawn pending")
        XCTAssertEqual(count.foreground, Theme.dark[.secondaryText])
        XCTAssertTrue(h.state.pane.kind == .none, "a control does not open the detail pane")
        h.skipPendingWork()
    }

    func testSuccessReloadsTheTimelineUnchargedAndKeepsTheLookUntilItArrives() throws {
        let h = harness()
        h.press(.tab, .tab, .enter)
        h.finishAction("w1", inverse: ChecklistAction.set("Milk", done: false))
        let reload = try XCTUnwrap(h.load(of: "w1"), "a successful action reloads the instance")
        XCTAssertEqual(reload.request.reason, .manual)
        XCTAssertTrue(h.screen.contains("[x] Milk ⋯"), "still optimistic until the reload answers\n\(h.screen)")
        XCTAssertTrue(h.screen.contains("Milk: done · u undoes"), h.screen)
        h.finish("w1", entries: [ChecklistEntry(date: start, tasks: ["Milk", "Bread"], done: ["Milk"])])
        XCTAssertTrue(h.screen.contains("[x] Milk "), h.screen)
        XCTAssertFalse(h.screen.contains("⋯"), "settled\n\(h.screen)")
        XCTAssertEqual(h.state.scheduler.status("w1", at: h.clock.now)?.budget.used, 0, "not charged")
        XCTAssertEqual(style(of: "1 left", in: h)?.attributes.contains(.dim), false, "no longer pending")
    }

    func testFailureRevertsTheTileAndSaysWhy() {
        let h = harness()
        h.press(.tab, .tab, .char(" "))
        XCTAssertTrue(h.screen.contains("[x] Milk ⋯"))
        h.failAction("w1", ActionError("the disk is full"))
        XCTAssertTrue(h.screen.contains("[ ] Milk"), h.screen)
        XCTAssertFalse(h.screen.contains("⋯"))
        XCTAssertTrue(h.screen.contains("Milk failed: the disk is full"), h.screen)
        XCTAssertNil(h.load(of: "w1"), "nothing to reload after a failure")
        XCTAssertFalse(h.state.actions.history.canUndo)
    }

    func testUUndoesTheLastActionWithItsInverse() throws {
        let h = harness()
        h.press(.tab, .tab, .char(" "))
        h.finishAction("w1", inverse: ChecklistAction.set("Milk", done: false))
        h.finish("w1", entries: [ChecklistEntry(date: start, tasks: ["Milk", "Bread"], done: ["Milk"])])
        h.press(.char("u"))
        let job = try XCTUnwrap(h.actionJob(of: "w1"))
        XCTAssertEqual(try job.action.decode(ChecklistAction.self), .set("Milk", done: false))
        XCTAssertTrue(
            h.screen.contains("[ ] Milk ⋯"),
            "the undo is optimistic too: the toggle's action is the inverse\n\(h.screen)")
        h.finishAction("w1", inverse: ChecklistAction.set("Milk", done: true))
        XCTAssertTrue(h.screen.contains("undone: Milk"), h.screen)
        XCTAssertFalse(h.state.actions.history.canUndo, "an undo is not itself recorded")
        h.press(.char("u"))
        XCTAssertTrue(h.screen.contains("nothing to undo"), h.screen)
        XCTAssertNil(h.actionJob(of: "w1"))
        h.skipPendingWork()
    }

    func testAnActionThatTakesTooLongFailsAtItsDeadlineAndItsLateAnswerIsIgnored() {
        let h = harness()
        h.press(.tab, .tab, .char(" "))
        XCTAssertEqual(
            h.state.nextDeadline, start.addingTimeInterval(5),
            "the timeout is a deadline the loop sleeps until")
        h.advance(by: 4.9)
        XCTAssertTrue(h.screen.contains("[x] Milk ⋯"))
        h.advance(by: 0.1)
        XCTAssertTrue(h.screen.contains("[ ] Milk"), h.screen)
        XCTAssertTrue(h.screen.contains("Milk failed: timed out after 5 s"), h.screen)
        h.finishAction("w1", inverse: ChecklistAction.set("Milk", done: false))
        XCTAssertNil(h.load(of: "w1"), "the late answer is ignored")
        XCTAssertFalse(h.state.actions.history.canUndo)
    }

    func testActionsOnOneInstanceRunOneAtATimeInOrder() throws {
        let h = harness()
        h.press(.tab, .tab, .char(" "), .tab, .char(" "), .tab, .char(" "))
        XCTAssertEqual(h.actionJobs.count, 1, "one at a time")
        XCTAssertTrue(h.screen.contains("[x] Milk ⋯") && h.screen.contains("[x] Bread ⋯"), h.screen)
        XCTAssertTrue(h.screen.contains("[ Clear ⋯ ]"), h.screen)
        XCTAssertEqual(try h.actionJobs[0].action.decode(ChecklistAction.self), .set("Milk", done: true))
        h.failAction("w1", ActionError("nope"))
        XCTAssertEqual(
            try h.actionJob(of: "w1")?.action.decode(ChecklistAction.self), .set("Bread", done: true),
            "the next starts when the one before answered")
        h.finishAction("w1", inverse: ChecklistAction.set("Bread", done: false))
        XCTAssertEqual(try h.actionJob(of: "w1")?.action.decode(ChecklistAction.self), .clear)
        h.skipPendingWork()
    }

    func testPressingAControlWhoseActionIsOnItsWayDoesNotRunItTwice() {
        let h = harness()
        h.press(.tab, .tab, .char(" "), .char(" "))
        XCTAssertEqual(h.actionJobs.count, 1)
        XCTAssertTrue(h.screen.contains("“Milk” is on its way"), h.screen)
        h.skipPendingWork()
    }

    func testAClickOnAControlActivatesItAndFocusesItsTile() throws {
        let h = harness()
        h.press(.right)
        XCTAssertEqual(h.state.focusedTile, "t2")
        h.click(tile: "t1", control: "Bread")
        XCTAssertEqual(h.state.focusedTile, "t1")
        XCTAssertEqual(try h.actionJob(of: "w1")?.action.decode(ChecklistAction.self), .set("Bread", done: true))
        h.skipPendingWork()
    }

    func testSmallTilesMayCarryControls() throws {
        let h = harness(family: .small)
        XCTAssertEqual(h.state.targets(ofTile: "t1").count, 3, "no link in the small view; its controls stay")
        h.press(.tab, .enter)
        XCTAssertEqual(try h.actionJob(of: "w1")?.action.decode(ChecklistAction.self), .set("Milk", done: true))
        h.skipPendingWork()
    }

    func testUIsBoundOnTheHomeScreenAndListedInTheHelp() {
        // One `u` undoes the last change of any kind (decision 36).
        XCTAssertEqual(KeyTable.command(for: .char("u"), in: .home), .edit(.undo))
        XCTAssertTrue(AppView.keyHelp.flatMap { $0.1.map(\.0) }.contains("u Ctrl-R"))
    }

    // MARK: - The runtime's side

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
