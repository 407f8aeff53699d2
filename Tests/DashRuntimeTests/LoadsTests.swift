import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

final class LoadsTests: XCTestCase {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// The one provider runner: the scheduler's request, the state's context (family, now, the
    /// user's zone), the widget's timeout.
    func testRunUsesTheRequestsContextAndReportsFailures() async {
        let script = FakeScript()
        script.enqueue(.timeline([FakeEntry(date: t0, value: "a")], .atEnd), .failure("boom"))
        let widget = fakeWidget(script: script)
        let home = HomeConfig(tiles: [
            TileInstance(
                id: "t", family: .large,
                items: [
                    WidgetInstance(id: "t", kind: "fake", config: WidgetConfig(["k": .string("v")]))
                ])
        ])
        let paris = TimeZone(identifier: "Europe/Paris")!
        var state = AppState(
            environment: AppEnvironment(bundle: WidgetBundle([widget]), timeZone: paris), home: home,
            screen: Size(width: 80, height: 24), theme: .dark, alternateTheme: .light, now: t0)
        let job = try! XCTUnwrap(
            App.update(&state, .tick(t0)).compactMap { e -> LoadJob? in
                if case .startLoad(let j) = e { return j } else { return nil }
            }.first)
        XCTAssertEqual(job.context.timeZone, paris, "providers get the user's zone")
        let result = await Loads.run(job)
        XCTAssertEqual(try result.get().entries.map(\.summary), ["a"])
        XCTAssertEqual(script.calls.first?.family, .large)
        XCTAssertEqual(script.calls.first?.now, t0)
        XCTAssertEqual(script.calls.first?.configuration, WidgetConfig(), "resolved by the (empty) schema")
        _ = App.update(&state, .loaded(id: job.id, token: job.token, result: result))
        state.scheduler.reload("t")
        let second = try! XCTUnwrap(
            App.update(&state, .tick(t0 + 2)).compactMap { e -> LoadJob? in
                if case .startLoad(let j) = e { return j } else { return nil }
            }.first)
        let failed = await Loads.run(second)
        XCTAssertEqual(
            state.scheduler.loadFinished(second.id, token: second.token, result: failed, at: t0 + 3),
            .failed(message: "boom"))
    }

    func testATimeoutIsALoadTimeoutError() async {
        let slow = Widget(
            kind: "slow", displayName: "Slow", description: "", supportedFamilies: [.small],
            cost: .local, timeout: 0.05, provider: SlowProvider(), view: { _, _ in Text("x") })
        let ctx = TimelineContext(family: .small, now: t0)
        let r = await Loads.run(slow, configuration: WidgetConfig(), in: ctx)
        guard case .failure(let e) = r, let t = e as? LoadTimeoutError else { return XCTFail("no timeout: \(r)") }
        XCTAssertEqual(t.timeout, 0.05)
    }
}

struct SlowProvider: TimelineProvider {
    func placeholder(in context: TimelineContext) -> FakeEntry { FakeEntry(date: context.now, value: "p") }
    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> FakeEntry {
        placeholder(in: context)
    }
    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<FakeEntry> {
        try await Task.sleep(nanoseconds: 5_000_000_000)
        return Timeline(entries: [], policy: .never)
    }
}

/// A provider that blocks its thread, as a hung synchronous subprocess read does, until the test
/// opens its gate.
struct BlockingProvider: TimelineProvider {
    let gate: DispatchSemaphore
    func placeholder(in context: TimelineContext) -> FakeEntry { FakeEntry(date: context.now, value: "p") }
    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> FakeEntry {
        placeholder(in: context)
    }
    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<FakeEntry> {
        gate.wait()  // blocks its thread, on purpose
        gate.signal()
        return Timeline(entries: [], policy: .never)
    }
}

struct QuickProvider: TimelineProvider {
    func placeholder(in context: TimelineContext) -> FakeEntry { FakeEntry(date: context.now, value: "p") }
    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> FakeEntry {
        placeholder(in: context)
    }
    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<FakeEntry> {
        Timeline(entries: [FakeEntry(date: context.now, value: "quick")], policy: .never)
    }
}

final class HungLoadTests: XCTestCase {
    /// The hardening issue's item 5: a clock with five hung network tiles timed out.
    func testAHungLoadNeverTakesAThreadAnotherLoadNeeds() throws {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        // The hung loads hold their threads until the quick one has answered: had it waited for a
        // thread they hold, it would never answer.
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        let hung = Widget(
            kind: "hung", displayName: "Hung", description: "", supportedFamilies: [.small],
            timeout: 600, provider: BlockingProvider(gate: gate), view: { e, _ in Text(e.value) })
        let quick = Widget(
            kind: "quick", displayName: "Quick", description: "", supportedFamilies: [.small],
            cost: .local, timeout: 60, provider: QuickProvider(), view: { e, _ in Text(e.value) })
        let inbox = Inbox(wake: {})
        func job(_ w: Widget, _ id: String, _ token: UInt64) -> LoadJob {
            var s = Scheduler()
            s.register(id, widget: w, family: .small, at: t0)
            let r = s.process(now: t0)[0]
            return LoadJob(request: r, context: TimelineContext(family: .small, now: t0))
        }
        for i in 0..<5 { _ = Runtime.concurrentLoad(job(hung, "h\(i)", 1), inbox) }
        _ = Runtime.concurrentLoad(job(quick, "q", 1), inbox)
        var answer: Msg?
        Eventually.wait {
            answer = inbox.drain().first {
                if case .loaded(let id, _, _) = $0 { return id == "q" } else { return false }
            }
            return answer != nil
        }
        guard case .loaded(_, _, .success(let t))? = answer else {
            return XCTFail("the quick load did not finish: \(String(describing: answer))")
        }
        XCTAssertEqual(t.entries.first?.summary, "quick")
    }
}
