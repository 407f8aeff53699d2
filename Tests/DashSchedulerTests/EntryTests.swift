import XCTest
import Foundation
import DashWidgets
import DashScheduler
import DashTestSupport

let t0 = Date(timeIntervalSince1970: 1_800_000_000)

func entries(_ pairs: (TimeInterval, String)...) -> [FakeEntry] {
    pairs.map { FakeEntry(date: t0 + $0.0, value: $0.1) }
}

final class EntryTests: XCTestCase {
    func testPlaceholderUntilTheFirstTimelineArrives() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(.manual)
        h.add("tile-1", script: script)
        XCTAssertEqual(h.loads.map(\.reason), [.initial])
        let v = h.scheduler.currentEntry("tile-1", at: h.now)
        XCTAssertEqual(v?.isPlaceholder, true)
        XCTAssertEqual(h.shown("tile-1"), "placeholder")
        XCTAssertTrue(h.scheduler.isLoading("tile-1"))
        _ = h.scheduler.takeChanged()
        h.advance(by: 2)
        h.finish("tile-1", with: .timeline(entries((0, "a")), .never))
        XCTAssertEqual(h.shown("tile-1"), "a")
        XCTAssertEqual(h.scheduler.currentEntry("tile-1", at: h.now)?.isPlaceholder, false)
        XCTAssertEqual(h.scheduler.takeChanged(), ["tile-1"])
    }

    func testEntriesSwitchAtExactlyTheirDates() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(.timeline(entries((0, "a"), (60, "b"), (120, "c")), .never))
        h.add("tile-1", script: script)
        XCTAssertEqual(h.shown("tile-1"), "a")
        XCTAssertEqual(h.scheduler.nextWake, t0 + 60)
        _ = h.scheduler.takeChanged()

        h.advance(to: t0 + 59.999)
        XCTAssertEqual(h.shown("tile-1"), "a")
        XCTAssertEqual(h.scheduler.takeChanged(), [])
        h.advance(to: t0 + 60)
        XCTAssertEqual(h.shown("tile-1"), "b")
        XCTAssertEqual(h.scheduler.takeChanged(), ["tile-1"])
        XCTAssertEqual(h.scheduler.nextWake, t0 + 120)
        h.advance(to: t0 + 119)
        XCTAssertEqual(h.shown("tile-1"), "b")
        h.advance(to: t0 + 120)
        XCTAssertEqual(h.shown("tile-1"), "c")
        XCTAssertNil(h.scheduler.nextWake, ".never after the last entry: nothing left to wake for")
        XCTAssertEqual(h.loads.count, 1)
    }

    func testOnlyChangedInstancesAreReported() {
        let h = SchedulerHarness(start: t0)
        let a = FakeScript()
        a.enqueue(.timeline(entries((0, "a0"), (30, "a1")), .never))
        let b = FakeScript()
        b.enqueue(.timeline(entries((0, "b0"), (90, "b1")), .never))
        h.add("a", script: a)
        h.add("b", script: b)
        _ = h.scheduler.takeChanged()
        h.advance(by: 30)
        XCTAssertEqual(h.scheduler.takeChanged(), ["a"])
        h.advance(by: 60)
        XCTAssertEqual(h.scheduler.takeChanged(), ["b"])
    }

    func testOutOfOrderAndEqualDates() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        let list = entries((120, "c"), (0, "a"), (60, "b1"), (60, "b2"), (0, "a2"))
        script.enqueue(.timeline(list, .never))
        h.add("t", script: script)
        let reference = AnyTimeline(entries: list.map(AnyEntry.init), policy: .never)
        XCTAssertEqual(h.shown("t"), "a2", "equal dates: the later one in the list wins")
        h.advance(to: t0 + 60)
        XCTAssertEqual(h.shown("t"), "b2")
        XCTAssertEqual((reference.entry(at: h.now)?.base as? FakeEntry)?.value, "b2")
        h.advance(to: t0 + 120)
        XCTAssertEqual(h.shown("t"), "c")
        let status = h.scheduler.status("t", at: h.now)!
        XCTAssertEqual(status.entries.compactMap { ($0.base as? FakeEntry)?.value }, ["a", "a2", "b1", "b2", "c"])
        XCTAssertEqual(status.currentIndex, 4)
        // Any time can be asked, not only the processed one.
        XCTAssertEqual((h.scheduler.currentEntry("t", at: t0 + 61)?.entry.base as? FakeEntry)?.value, "b2")
        XCTAssertEqual(h.scheduler.currentEntry("t", at: t0 - 1)?.isPlaceholder, true)
    }

    func testNewTimelineWhoseEntriesAreAllInTheFutureKeepsThePreviousEntryUntilDue() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(
            .timeline(entries((0, "old")), .never),
            .timeline(entries((100, "new")), .never))
        h.add("t", script: script)
        h.change { s, _ in s.reload("t") }
        XCTAssertEqual(h.loads.count, 2)
        XCTAssertEqual(h.shown("t"), "old")
        XCTAssertEqual(h.scheduler.currentEntry("t", at: h.now)?.index, nil)
        h.advance(to: t0 + 100)
        XCTAssertEqual(h.shown("t"), "new")
    }

    func testEmptyTimelineShowsThePlaceholder() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(.timeline([], .never))
        h.add("t", script: script)
        XCTAssertEqual(h.shown("t"), "placeholder")
        XCTAssertNil(h.scheduler.nextWake)
    }
}
