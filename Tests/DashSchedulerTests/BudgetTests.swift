import XCTest
import Foundation
import DashWidgets
import DashScheduler
import DashTestSupport

final class BudgetTests: XCTestCase {
    /// A provider that always asks to be reloaded in 5 minutes: 288 reloads a day wanted.
    func eager() -> FakeScript {
        FakeScript(fallback: { call in
            .timeline([FakeEntry(date: call.now, value: "x")], .after(call.now + 300))
        })
    }

    func testBudgetRunsOutWithin24HoursAndRecovers() {
        let h = SchedulerHarness(start: t0)
        h.add("news", script: eager())
        h.advance(by: 24 * 3600 - 1)
        let charged = h.loads(of: "news", reason: .policy)
        XCTAssertEqual(charged.count, 70, "the daily budget")
        XCTAssertEqual(h.loads(of: "news", reason: .initial).count, 1)
        XCTAssertEqual(charged.first?.startedAt, t0 + 300)
        XCTAssertEqual(charged.last?.startedAt, t0 + 300 * 70)

        let status = h.scheduler.status("news", at: h.now)!
        XCTAssertEqual(status.budget.used, 70)
        XCTAssertEqual(status.budget.left, 0)
        XCTAssertEqual(status.budget.limit, 70)
        XCTAssertEqual(status.nextReload, t0 + 300 + 24 * 3600, "when the first charge leaves the window")
        XCTAssertEqual(status.nextReloadReason, .budget(requested: t0 + 300 * 71))

        // Recovery: budget frees one reload at a time, as old charges leave the window.
        h.advance(to: t0 + 300 + 24 * 3600)
        XCTAssertEqual(h.loads(of: "news", reason: .policy).count, 71)
        h.advance(to: t0 + 300 * 3 + 24 * 3600)
        XCTAssertEqual(h.loads(of: "news", reason: .policy).count, 73)
        XCTAssertEqual(h.scheduler.status("news", at: h.now)!.budget.used, 70)
    }

    func testNotChargedReloadsWorkWithTheBudgetSpentAndDoNotCount() {
        let h = SchedulerHarness(start: t0)
        h.add("news", kind: "news", script: eager())
        h.add("other", kind: "other", script: FakeScript())
        h.advance(by: 24 * 3600 - 1)
        XCTAssertEqual(h.scheduler.status("news", at: h.now)!.budget.left, 0)
        let before = h.loads.count

        h.change { s, _ in s.reload("news") }
        h.change { s, _ in s.reloadTimelines(ofKind: "news") }
        h.change { s, _ in s.reloadAllTimelines() }
        h.change { s, now in s.update("news", configuration: WidgetConfig(["country": .string("de")]), at: now) }
        let extra = h.loads[before...].map { "\($0.id):\($0.reason)" }
        XCTAssertEqual(
            extra,
            [
                "news:manual", "news:widgetCenter", "news:widgetCenter", "other:widgetCenter",
                "news:configurationChanged",
            ])
        let status = h.scheduler.status("news", at: h.now)!
        XCTAssertEqual(status.budget.used, 70, "none of those was charged")
        XCTAssertEqual(h.scheduler.status("other", at: h.now)!.budget.used, 0)
    }

    func testTheFirstLoadIsNotCharged() {
        let h = SchedulerHarness(start: t0)
        h.add("news", script: eager())
        XCTAssertEqual(h.scheduler.status("news", at: h.now)!.budget.used, 0)
        h.advance(by: 300)
        XCTAssertEqual(h.scheduler.status("news", at: h.now)!.budget.used, 1)
    }

    func testBudgetIsConfigurable() {
        let h = SchedulerHarness(start: t0, policy: SchedulerPolicy(dailyBudget: 3, minimumInterval: 60))
        let script = FakeScript(fallback: { call in
            .timeline([FakeEntry(date: call.now, value: "x")], .after(call.now + 60))
        })
        h.add("t", script: script)
        h.advance(by: 3600)
        XCTAssertEqual(h.loads.map { $0.startedAt.timeIntervalSince(t0) }, [0, 60, 120, 180])
    }
}
