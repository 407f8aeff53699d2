import XCTest
import Foundation
import DashWidgets
@testable import DashScheduler
import DashTestSupport

/// Random timelines (out of order, equal dates, every policy) against the reference
/// rule `AnyTimeline.entry(at:)`, with the changed list checked against what changed.
final class RandomizedTests: XCTestCase {
    final class Latest: @unchecked Sendable {
        let lock = NSLock()
        var timelines: [String: [FakeEntry]] = [:]
        var rng = SplitMix(seed: 7)
        func random(_ n: UInt64) -> UInt64 { lock.withLock { rng.next() % n } }
        func set(_ id: String, _ e: [FakeEntry]) { lock.withLock { timelines[id] = e } }
        func get(_ id: String) -> [FakeEntry]? { lock.withLock { timelines[id] } }
    }

    func testShownEntryAndChangesMatchTheReferenceRule() {
        let h = SchedulerHarness(start: t0)
        let latest = Latest()
        let ids = (0..<40).map { "tile-\($0)" }
        for id in ids {
            let script = FakeScript(fallback: { call in
                let n = Int(latest.random(8)) + 1
                var list = [FakeEntry(date: call.now, value: "\(id)@\(call.now.timeIntervalSince(t0))#0")]
                for k in 1..<n {
                    let offset = Double(latest.random(40) * 30)  // multiples of 30 s: equal dates happen
                    list.append(
                        FakeEntry(date: call.now + offset, value: "\(id)@\(call.now.timeIntervalSince(t0))#\(k)"))
                }
                list.shuffle()
                let policy: ReloadPolicy
                switch latest.random(4) {
                case 0: policy = .atEnd
                case 1: policy = .after(call.now + Double(latest.random(3600)))
                case 2: policy = .never
                default:
                    if latest.random(3) == 0 { return .failure("flaky") }
                    policy = .atEnd
                }
                latest.set(id, list)
                return .timeline(list, policy)
            })
            h.add(id, cost: latest.random(2) == 0 ? .local : .budgeted, script: script)
        }
        func reference(_ id: String) -> String {
            guard let list = latest.get(id) else { return "placeholder" }
            let tl = AnyTimeline(entries: list.map(AnyEntry.init), policy: .never)
            return (tl.entry(at: h.now)?.base as? FakeEntry)?.value ?? "placeholder"
        }
        var before = Dictionary(uniqueKeysWithValues: ids.map { ($0, h.shown($0)!) })
        _ = h.scheduler.takeChanged()
        for step in 0..<400 {
            h.advance(by: Double(latest.random(120)))
            if step % 37 == 0 { h.change { s, _ in s.reload(ids[step % ids.count]) } }
            let changed = Set(h.scheduler.takeChanged())
            for id in ids {
                let shown = h.shown(id)!
                XCTAssertEqual(shown, reference(id), "\(id) at \(h.now.timeIntervalSince(t0))")
                if shown != before[id] { XCTAssertTrue(changed.contains(id), "\(id) changed but was not reported") }
                before[id] = shown
            }
            if let wake = h.scheduler.nextWake { XCTAssertGreaterThan(wake, h.now) }
            XCTAssertLessThanOrEqual(h.scheduler.queue.count, 2 * ids.count + 64, "dead deadlines are trimmed")
            for id in ids { XCTAssertLessThanOrEqual(h.scheduler.status(id, at: h.now)!.budget.used, 70) }
        }
        XCTAssertGreaterThan(h.loads.count, 100)
        XCTAssertTrue(h.outcomes.contains { if case .failed = $0.outcome { return true } else { return false } })
    }

    func testSlotsAreReusedAndOldDeadlinesStayDead() {
        var s = Scheduler()
        let script = FakeScript(fallback: { call in
            .timeline((0..<5).map { FakeEntry(date: call.now + Double($0) * 10, value: "e\($0)") }, .atEnd)
        })
        let widget = fakeWidget(script: script)
        var now = t0
        for round in 0..<50 {
            s.register("a\(round)", widget: widget, family: .small, at: now)
            s.register("b\(round)", widget: widget, family: .small, at: now)
            for r in s.process(now: now) {
                s.loadFinished(
                    r.id, token: r.token,
                    result: .success(
                        AnyTimeline(
                            entries: [
                                AnyEntry(FakeEntry(date: now, value: "x")),
                                AnyEntry(FakeEntry(date: now + 10, value: "y")),
                            ],
                            policy: .never)), at: now)
            }
            s.unregister("a\(round)")
            now = now + 3
            _ = s.process(now: now)
        }
        XCTAssertEqual(s.count, 50)
        XCTAssertLessThanOrEqual(s.slots.count, 51, "freed slots are reused")
        XCTAssertLessThanOrEqual(s.queue.count, 2 * s.count + 64)
        _ = s.process(now: now + 100)
        XCTAssertEqual(s.statuses(at: now + 100).filter { $0.currentIndex == 1 }.count, 50)
        XCTAssertNil(s.nextWake)
    }
}

final class BenchmarkSmokeTests: XCTestCase {
    /// The benchmark workload runs and counts (not timed: the wall clock is virtual).
    func testBenchmarkWorkloadRuns() {
        let r = SchedulerBenchmark.run(
            instances: 200, entriesPerTimeline: 10, virtualHours: 24,
            wallClock: VirtualClock(now: t0))
        XCTAssertEqual(r.instances, 200)
        XCTAssertGreaterThan(r.events, 200 * 10)
        XCTAssertGreaterThan(r.loads, 200)
        XCTAssertEqual(r.seconds, 0)
        XCTAssertTrue(r.description.contains("events/s"))
    }
}
