import XCTest
import DashTestSupport
import Foundation
import DashScheduler

final class ClockAndQueueTests: XCTestCase {

    func testVirtualClockFiresInDateOrderWithNowAtEachDeadline() {
        let clock = VirtualClock(now: t0)
        var fired: [(String, TimeInterval)] = []
        clock.schedule(at: t0 + 30) { fired.append(("c", clock.now.timeIntervalSince(t0))) }
        clock.schedule(at: t0 + 10) { fired.append(("a", clock.now.timeIntervalSince(t0))) }
        clock.schedule(at: t0 + 10) { fired.append(("b", clock.now.timeIntervalSince(t0))) }
        clock.schedule(at: t0 + 99) { fired.append(("late", 0)) }
        clock.advance(to: t0 + 30)
        XCTAssertEqual(fired.map(\.0), ["a", "b", "c"])
        XCTAssertEqual(fired.map(\.1), [10, 10, 30])
        XCTAssertEqual(clock.now, t0 + 30)
        XCTAssertEqual(clock.pendingCount, 1)
    }

    func testCallbacksScheduledDuringAdvanceRunInTheSameAdvance() {
        let clock = VirtualClock(now: t0)
        var order: [Int] = []
        clock.schedule(at: t0 + 1) {
            order.append(1)
            clock.schedule(at: t0 + 2) { order.append(2) }
            clock.schedule(at: t0 + 50) { order.append(50) }
        }
        clock.schedule(at: t0 + 3) { order.append(3) }
        clock.advance(by: 10)
        XCTAssertEqual(order, [1, 2, 3])
        XCTAssertEqual(clock.nextDeadline, t0 + 50)
        clock.advance(by: 100)
        XCTAssertEqual(order, [1, 2, 3, 50])
    }

    func testCancelAndTimeNeverGoesBack() {
        let clock = VirtualClock(now: t0)
        var ran = false
        let token = clock.schedule(at: t0 + 5) { ran = true }
        clock.cancel(token)
        clock.advance(by: 10)
        XCTAssertFalse(ran)
        clock.advance(to: t0)
        XCTAssertEqual(clock.now, t0 + 10)
    }

    func testPriorityQueuePopsInOrder() {
        var rng = SplitMix(seed: 42)
        var q = PriorityQueue<Int>()
        var all: [Int] = []
        for _ in 0..<2000 {
            let v = Int(rng.next() % 1000)
            all.append(v)
            q.push(v)
        }
        var out: [Int] = []
        while let v = q.popMin() { out.append(v) }
        XCTAssertEqual(out, all.sorted())
        XCTAssertNil(q.min)
        let heapified = PriorityQueue([5, 3, 9, 1, 7])
        XCTAssertEqual(heapified.min, 1)
    }

    func testLedgerCountsTheRollingWindow() {
        var ledger = BudgetLedger()
        let day: TimeInterval = 86_400
        for i in 0..<3 { ledger.charge(at: t0 + Double(i) * 100, window: day) }
        XCTAssertEqual(ledger.used(at: t0 + 200, window: day), 3)
        XCTAssertNil(ledger.capFrees(cap: 4, window: day))
        XCTAssertEqual(ledger.capFrees(cap: 3, window: day), t0 + day)
        XCTAssertEqual(ledger.capFrees(cap: 2, window: day), t0 + 100 + day)
        XCTAssertEqual(ledger.used(at: t0 + day, window: day), 2, "a charge exactly a window ago has left it")
        ledger.charge(at: t0 + day + 150, window: day)
        XCTAssertEqual(ledger.charges, [t0 + 200, t0 + day + 150])
    }

    func testRetryDelays() {
        let p = SchedulerPolicy()
        XCTAssertEqual((1...9).map { p.retryDelay(attempt: $0) }, [30, 60, 120, 240, 480, 960, 1800, 1800, 1800])
        XCTAssertEqual(p.retryDelay(attempt: 1000), 1800)
    }
}

typealias SplitMix = SeededRandom
