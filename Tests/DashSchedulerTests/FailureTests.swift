import XCTest
import Foundation
import DashWidgets
import DashScheduler
import DashTestSupport

final class FailureTests: XCTestCase {
    func testRetriesBackOffFrom30SecondsTo30Minutes() {
        let h = SchedulerHarness(start: t0)
        h.add("t", script: FakeScript(fallback: { _ in .failure("503 Service Unavailable") }))
        h.advance(by: 4 * 3600)
        let starts = h.loads.map { $0.startedAt.timeIntervalSince(t0) }
        let gaps = zip(starts.dropFirst(), starts).map { $0 - $1 }
        XCTAssertEqual(Array(gaps.prefix(9)), [30, 60, 120, 240, 480, 960, 1800, 1800, 1800])
        XCTAssertEqual(h.loads.dropFirst().map(\.reason), Array(repeating: .retry, count: h.loads.count - 1))
        XCTAssertEqual(h.shown("t"), "placeholder")
        XCTAssertEqual(h.scheduler.lastError("t"), "503 Service Unavailable")
        let status = h.scheduler.status("t", at: h.now)!
        XCTAssertEqual(status.nextReloadReason, .retry(failures: h.loads.count))
        XCTAssertEqual(status.budget.used, 0, "retries are not charged")
    }

    func testFailureKeepsTheLastGoodTimelineMarkedStaleUntilASuccess() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(
            .timeline(entries((0, "good"), (7200, "later")), .after(t0 + 600)),
            .failure("connection refused"),
            .failure("connection refused"))
        script.setFallback { call in .timeline([FakeEntry(date: call.now, value: "fresh")], .never) }
        h.add("t", script: script)
        XCTAssertFalse(h.scheduler.isStale("t"))
        _ = h.scheduler.takeChanged()

        h.advance(to: t0 + 600)
        XCTAssertEqual(h.outcomes.last?.outcome, .failed(message: "connection refused"))
        XCTAssertTrue(h.scheduler.isStale("t"))
        XCTAssertEqual(h.scheduler.lastError("t"), "connection refused")
        XCTAssertEqual(h.shown("t"), "good", "the last good entry stays")
        XCTAssertEqual(h.scheduler.takeChanged(), ["t"], "the stale mark is a change to draw")

        h.advance(to: t0 + 630)
        XCTAssertTrue(h.scheduler.isStale("t"))
        XCTAssertEqual(h.scheduler.status("t", at: h.now)?.consecutiveFailures, 2)
        h.advance(to: t0 + 690)
        XCTAssertEqual(h.loads.map(\.reason), [.initial, .policy, .retry, .retry])
        XCTAssertFalse(h.scheduler.isStale("t"))
        XCTAssertNil(h.scheduler.lastError("t"))
        XCTAssertEqual(h.shown("t"), "fresh")
        XCTAssertEqual(h.scheduler.status("t", at: h.now)?.consecutiveFailures, 0)
    }

    func testTimeoutFailsTheLoadAndALateResultIsIgnored() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(.hang)
        h.add("slow", script: script)
        let token = h.loads[0].token
        XCTAssertEqual(h.loads[0].deadline, t0 + 10)
        XCTAssertEqual(h.scheduler.nextWake, t0 + 10)
        h.advance(to: t0 + 9.99)
        XCTAssertTrue(h.scheduler.isLoading("slow"))
        XCTAssertFalse(h.scheduler.isStale("slow"))
        h.advance(to: t0 + 10)
        XCTAssertFalse(h.scheduler.isLoading("slow"))
        XCTAssertTrue(h.scheduler.isStale("slow"))
        XCTAssertEqual(h.scheduler.lastError("slow"), "timed out after 10 s")
        XCTAssertEqual(h.scheduler.nextWake, t0 + 40, "first retry 30 s after the timeout")

        let late = h.report(
            "slow", token: token,
            .success(AnyTimeline(entries: [AnyEntry(FakeEntry(date: t0, value: "late"))], policy: .never)))
        XCTAssertEqual(late, .ignored)
        XCTAssertEqual(h.shown("slow"), "placeholder")
        h.advance(to: t0 + 40)
        XCTAssertEqual(h.loads.map(\.reason), [.initial, .retry])
        XCTAssertEqual(h.shown("slow"), "v1")
        XCTAssertFalse(h.scheduler.isStale("slow"))
    }

    func testAWidgetsOwnTimeout() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(.delayed(3, .timeline(entries((0, "too late")), .never)))
        h.add("t", timeout: 2.5, script: script)
        h.advance(by: 3)
        XCTAssertEqual(h.scheduler.lastError("t"), "timed out after 2.5 s")
        XCTAssertEqual(h.outcomes.map(\.outcome), [.ignored])
        XCTAssertEqual(h.shown("t"), "placeholder")
    }

    func testASlowProviderNeverDelaysAnotherInstance() {
        let h = SchedulerHarness(start: t0)
        let slow = FakeScript(fallback: { _ in .hang })
        h.add("slow", script: slow)
        let fast = FakeScript(fallback: { call in
            .timeline((0..<10).map { FakeEntry(date: call.now + Double($0) * 60, value: "m\($0)") }, .atEnd)
        })
        h.add("fast", script: fast)
        for minute in 1...8 {
            h.advance(to: t0 + Double(minute) * 60)
            XCTAssertEqual(h.shown("fast"), "m\(minute)")
        }
        h.advance(to: t0 + 540)
        XCTAssertEqual(h.loads(of: "fast").map { $0.startedAt.timeIntervalSince(t0) }, [0, 540], "atEnd, on time")
        XCTAssertEqual(h.shown("fast"), "m0", "the new timeline starts at 540")
        XCTAssertEqual(h.loads(of: "slow").map { $0.startedAt.timeIntervalSince(t0) }, [0, 40, 110, 240, 490])
    }

    func testRequestsCoalesceWhileALoadIsInFlight() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(.manual)
        h.add("t", script: script)
        h.change { s, _ in s.reload("t") }
        h.change { s, _ in s.reload("t") }
        h.change { s, _ in s.reloadAllTimelines() }
        XCTAssertEqual(h.loads.count, 1, "at most one load in flight")
        XCTAssertEqual(h.scheduler.status("t", at: h.now)?.nextReloadReason, .loading(.initial))
        script.enqueue(.manual)
        h.advance(by: 1)
        h.finish("t", with: .timeline(entries((0, "first")), .never))
        XCTAssertEqual(h.loads.map(\.reason), [.initial, .manual], "the three requests became one")
        h.finish("t", with: .timeline(entries((1, "second")), .never))
        XCTAssertEqual(h.loads.count, 2)
        XCTAssertEqual(h.shown("t"), "second")
    }

    func testEditingWhileLoadingDropsTheOldResult() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(.manual)
        h.add("t", configuration: WidgetConfig(["coin": .string("BTC")]), script: script)
        h.change { s, now in s.update("t", configuration: WidgetConfig(["coin": .string("ETH")]), at: now) }
        XCTAssertEqual(h.loads.count, 1)
        script.setFallback { call in
            .timeline([FakeEntry(date: call.now, value: call.configuration.string("coin"))], .never)
        }
        let outcome = h.finish("t", with: .timeline(entries((0, "BTC")), .never))
        XCTAssertEqual(outcome, .ignored)
        XCTAssertEqual(h.loads.map(\.reason), [.initial, .configurationChanged])
        XCTAssertEqual(h.loads.last?.configuration, WidgetConfig(["coin": .string("ETH")]))
        XCTAssertEqual(h.shown("t"), "ETH")
    }

    func testUnregisteredInstanceResultsAreIgnored() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(.manual)
        h.add("t", script: script)
        h.change { s, _ in s.unregister("t") }
        XCTAssertEqual(h.finish("t", with: .timeline(entries((0, "x")), .never)), .ignored)
        XCTAssertNil(h.scheduler.nextWake)
        XCTAssertEqual(h.scheduler.count, 0)
    }
}
