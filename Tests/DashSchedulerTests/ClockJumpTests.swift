import XCTest
import Foundation
import DashWidgets
import DashScheduler
import DashTestSupport

/// The wall clock jumps: suspend and resume, an NTP step, `date -s`. Deadlines are wall-clock
/// dates, so a jump forward is just a late `process`; a jump back needs a look again.
final class ClockJumpTests: XCTestCase {
    /// Sixty minute entries, reloaded at the end: like a clock.
    func minuteScheduler(at start: Date) -> (Scheduler, FakeScript) {
        let script = FakeScript()
        var s = Scheduler()
        s.register("clock", widget: fakeWidget(cost: .local, script: script), family: .small, at: start)
        let req = s.process(now: start)[0]
        let entries = (0..<60).map { AnyEntry(FakeEntry(date: start + Double($0) * 60, value: "m\($0)")) }
        s.loadFinished(
            req.id, token: req.token, result: .success(AnyTimeline(entries: entries, policy: .atEnd)), at: start)
        _ = s.takeChanged()
        return (s, script)
    }

    func testAJumpForwardPastManyDeadlinesShowsTheRightEntryAndReloadsOnce() {
        var (s, _) = minuteScheduler(at: t0)
        // Suspended for 2 h: one process at the new time.
        let later = t0 + 2 * 3600 + 30
        let loads = s.process(now: later)
        XCTAssertEqual(loads.map(\.reason), [.policy], "the due reload runs, once")
        XCTAssertEqual(s.currentEntry("clock", at: later)?.entry.summary, "m59")
        XCTAssertEqual(s.takeChanged(), ["clock"])
        XCTAssertTrue(s.process(now: later).isEmpty, "nothing fires twice")
    }

    func testAJumpBackShowsTheEntryDueAndWakesForTheNextOne() {
        var (s, _) = minuteScheduler(at: t0)
        _ = s.process(now: t0 + 20 * 60 + 5)
        XCTAssertEqual(s.currentEntry("clock", at: t0 + 20 * 60 + 5)?.entry.summary, "m20")
        _ = s.takeChanged()
        // NTP steps the clock back ten minutes.
        let back = t0 + 10 * 60 + 5
        XCTAssertTrue(s.process(now: back).isEmpty, "no reload: the timeline covers the new time")
        XCTAssertEqual(s.takeChanged(), ["clock"], "the shown entry changed")
        XCTAssertEqual(s.currentEntry("clock", at: back)?.entry.summary, "m10")
        XCTAssertEqual(s.nextWake, t0 + 11 * 60, "the next minute of the new time, not the old one's")
        _ = s.process(now: t0 + 11 * 60)
        XCTAssertEqual(s.currentEntry("clock", at: t0 + 11 * 60)?.entry.summary, "m11")
    }

    func testAJumpBackBeforeTheTimelineKeepsItsFirstEntryAndAsksForANewOne() {
        var (s, _) = minuteScheduler(at: t0)
        let loads = s.process(now: t0 - 3600)
        XCTAssertEqual(loads.map(\.reason), [.widgetCenter], "a timeline that covers now, not charged")
        let v = s.currentEntry("clock", at: t0 - 3600)
        XCTAssertEqual(v?.isPlaceholder, false)
        XCTAssertEqual(v?.entry.summary, "m0")
    }

    func testJumpsBackAndForthNeverChargeTheBudgetTwice() {
        let script = FakeScript()
        var s = Scheduler()
        s.register("news", widget: fakeWidget(script: script), family: .small, at: t0)
        let first = s.process(now: t0)[0]
        s.loadFinished(
            first.id, token: first.token,
            result: .success(
                AnyTimeline(
                    entries: [AnyEntry(FakeEntry(date: t0, value: "a"))],
                    policy: .after(t0 + 1800))), at: t0)
        var charged = 0
        for t in [t0 + 1801, t0 + 600, t0 + 1900, t0 + 1801, t0 + 2000] {
            for r in s.process(now: t) {
                if r.reason == .policy { charged += 1 }
                s.loadFinished(
                    r.id, token: r.token,
                    result: .success(
                        AnyTimeline(
                            entries: [AnyEntry(FakeEntry(date: t, value: "b"))],
                            policy: .after(t0 + 100_000))), at: t)
            }
        }
        XCTAssertEqual(charged, 1, "the policy reload that ran is not run again when its date comes round")
    }
}

final class OnScreenTests: XCTestCase {
    /// A system monitor samples only while it is visible (issue 13).
    func testALocalWidgetOffScreenMakesNoPolicyReloadsAndCatchesUpWhenShown() {
        let script = FakeScript()
        var s = Scheduler()
        s.register("sys", widget: fakeWidget(cost: .local, script: script), family: .small, at: t0)
        s.setOnScreen(["sys"])
        func answer(_ r: LoadRequest, at t: Date) {
            s.loadFinished(
                r.id, token: r.token,
                result: .success(
                    AnyTimeline(
                        entries: [AnyEntry(FakeEntry(date: t, value: "x"))], policy: .after(t + 2))), at: t)
        }
        answer(s.process(now: t0)[0], at: t0)
        XCTAssertEqual(s.nextWake, t0 + 2, "samples every 2 s while shown")
        let r = s.process(now: t0 + 2)
        XCTAssertEqual(r.map(\.reason), [.policy])
        answer(r[0], at: t0 + 2)
        s.setOnScreen([])
        XCTAssertNil(s.nextWake, "off screen: nothing to wake for")
        XCTAssertTrue(s.process(now: t0 + 60).isEmpty)
        s.setOnScreen(["sys"])
        XCTAssertEqual(s.process(now: t0 + 61).map(\.reason), [.policy], "shown again: the overdue sample runs at once")
    }
}
