import XCTest
import Foundation
import DashWidgets
import DashScheduler
import DashTestSupport

final class PolicyTests: XCTestCase {
    func testAtEndReloadsWhenTheLastEntryBecomesCurrent() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript(fallback: { call in
            let base = call.now
            return .timeline((0..<3).map { FakeEntry(date: base + Double($0) * 600, value: "e\($0)") }, .atEnd)
        })
        h.add("t", script: script)
        XCTAssertEqual(h.scheduler.nextWake, t0 + 600)
        h.advance(to: t0 + 1199)
        XCTAssertEqual(h.loads.count, 1)
        h.advance(to: t0 + 1200)
        XCTAssertEqual(h.loads.map(\.reason), [.initial, .policy])
        XCTAssertEqual(h.loads.last?.startedAt, t0 + 1200)
        h.advance(to: t0 + 2400)
        XCTAssertEqual(h.loads.map { $0.startedAt.timeIntervalSince(t0) }, [0, 1200, 2400])
    }

    func testAfterReloadsAtItsDate() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript(fallback: { call in
            .timeline([FakeEntry(date: call.now, value: "x")], .after(call.now + 3600))
        })
        h.add("t", script: script)
        let status = h.scheduler.status("t", at: h.now)!
        XCTAssertEqual(status.nextReload, t0 + 3600)
        XCTAssertEqual(status.nextReloadReason, .policy(.after(t0 + 3600)))
        XCTAssertEqual(h.scheduler.nextWake, t0 + 3600)
        h.advance(to: t0 + 3599.5)
        XCTAssertEqual(h.loads.count, 1)
        h.advance(to: t0 + 3600)
        XCTAssertEqual(h.loads.map(\.reason), [.initial, .policy])
        XCTAssertEqual(h.loads.last?.startedAt, t0 + 3600)
    }

    func testNeverReloadsOnlyWhenAsked() {
        let h = SchedulerHarness(start: t0)
        h.add("t", script: FakeScript())
        h.advance(by: 48 * 3600)
        XCTAssertEqual(h.loads.count, 1)
        XCTAssertEqual(h.scheduler.status("t", at: h.now)?.nextReloadReason, .never)
        h.change { s, _ in s.reload("t") }
        XCTAssertEqual(h.loads.map(\.reason), [.initial, .manual])
        XCTAssertEqual(h.shown("t"), "v2")
    }

    func testPolicyReloadWaitsForTheMinimumInterval() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript(fallback: { call in
            .timeline([FakeEntry(date: call.now, value: "x")], .after(call.now + 60))
        })
        h.add("t", script: script)
        let status = h.scheduler.status("t", at: h.now)!
        XCTAssertEqual(status.nextReload, t0 + 300)
        XCTAssertEqual(status.nextReloadReason, .budget(requested: t0 + 60))
        h.advance(to: t0 + 299)
        XCTAssertEqual(h.loads.count, 1)
        h.advance(to: t0 + 300)
        XCTAssertEqual(h.loads.count, 2)
        h.advance(to: t0 + 1500)
        XCTAssertEqual(h.loads.map { $0.startedAt.timeIntervalSince(t0) }, [0, 300, 600, 900, 1200, 1500])
    }

    func testPolicyInThePastDoesNotSpin() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript(fallback: { call in
            .timeline([FakeEntry(date: call.now - 1000, value: "old")], .atEnd)
        })
        h.add("t", script: script)
        h.advance(by: 3600)
        XCTAssertEqual(h.loads.count, 13, "one at start, then one per 5 minutes")
    }

    func testLocalWidgetsHaveNoDailyCapButAMinimumInterval() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript(fallback: { call in
            .timeline([FakeEntry(date: call.now, value: "x")], .after(call.now + 1))
        })
        h.add("clock", cost: .local, script: script)
        h.advance(by: 3600)
        XCTAssertEqual(
            h.loads.count, 3601,
            "every 1 s (the local minimum; a system monitor samples every 2 s) for an hour, plus the first")
        let budget = h.scheduler.status("clock", at: h.now)!.budget
        XCTAssertNil(budget.limit)
        XCTAssertNil(budget.left)
        XCTAssertEqual(budget.minimumInterval, 1)
    }

    func testNextWakeIsTheEarliestOfEntryReloadAndRetry() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(.timeline(entries((0, "a"), (1000, "b")), .after(t0 + 400)))
        h.add("t", script: script)
        XCTAssertEqual(h.scheduler.nextWake, t0 + 400)
        script.enqueue(.failure("down"))
        h.advance(to: t0 + 400)
        XCTAssertEqual(h.scheduler.nextWake, t0 + 430, "retry before the next entry")
        script.enqueue(.manual)
        h.advance(to: t0 + 430)
        XCTAssertEqual(h.scheduler.nextWake, t0 + 440, "the timeout of the load in flight")
        h.finish("t", with: .timeline(entries((0, "a"), (1000, "b")), .never))
        XCTAssertEqual(h.scheduler.nextWake, t0 + 1000, "the next entry")
    }
}
