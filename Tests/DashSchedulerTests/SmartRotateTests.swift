import XCTest
import Foundation
import DashWidgets
@testable import DashScheduler

private func entry(
    _ minutes: Double, _ score: Double?, duration: TimeInterval? = nil, reason: String? = nil,
    untilSeen: Bool = false, seen: Bool = false
) -> RotationEntry {
    RotationEntry(
        date: t0 + minutes * 60,
        relevance: score.map {
            Relevance(score: $0, duration: duration, reason: reason, untilSeen: untilSeen)
        },
        seen: seen)
}

/// Smart Rotate's rules, one at a time.
final class SmartRotateTests: XCTestCase {
    func input(
        _ items: [[RotationEntry]], current: Int = 0, lastChange: Date? = nil, pinned: Date? = nil,
        blocked: SmartRotateBlock? = nil, at minutes: Double, uses: [Double] = []
    ) -> SmartRotateInput {
        let list = items.enumerated().map { i, e in
            let use = UseRecord(value: i < uses.count ? uses[i] : 0, step: SmartRotateSettings.standard.step(of: t0))
            return SmartRotateItem(id: "i\(i)", entries: e, use: use)
        }
        return SmartRotateInput(
            items: list, current: current, lastChange: lastChange, pinnedUntil: pinned,
            blocked: blocked, now: t0 + minutes * 60)
    }

    func testTheMostRelevantItemWinsByTheMargin() {
        let d = SmartRotate.decide(input([[entry(0, 0.1)], [entry(0, 0.8, reason: "BTC moved +6.1% in 24 h")]], at: 1))
        XCTAssertEqual(d.show, 1)
        XCTAssertEqual(d.why, .switched(from: 0))
        XCTAssertEqual(d.scores[1].reason, "BTC moved +6.1% in 24 h")
        XCTAssertEqual(d.nextDecision, t0 + 60 + 15 * 60, "after a switch the next decision is the dwell's end")
        let close = SmartRotate.decide(input([[entry(0, 0.5)], [entry(0, 0.58)]], at: 1))
        XCTAssertEqual(close.show, 0, "0.08 more is within the 0.1 margin")
        XCTAssertEqual(close.why, .withinMargin(best: 1))
    }

    func testTiesKeepTheCurrentItem() {
        let d = SmartRotate.decide(input([[entry(0, 0.5)], [entry(0, 0.5)], [entry(0, 0.5)]], current: 2, at: 1))
        XCTAssertEqual(d.show, 2)
        XCTAssertEqual(d.why, .best)
        let none = SmartRotate.decide(input([[], [entry(0, nil)]], current: 1, at: 1))
        XCTAssertEqual(none.show, 1, "nothing relevant: no change")
        XCTAssertNil(none.nextDecision, "and nothing will change without an event")
    }

    func testRelevanceHoldsForItsDurationOrUntilTheNextEntry() {
        let timed = [entry(0, 0.9, duration: 600)]
        XCTAssertEqual(SmartRotate.relevance(timed, at: t0 + 599).0, 0.9)
        XCTAssertEqual(SmartRotate.relevance(timed, at: t0 + 600).0, 0, "date ..< date + duration")
        let open = [entry(0, 0.9), entry(30, nil)]
        XCTAssertEqual(SmartRotate.relevance(open, at: t0 + 29 * 60).0, 0.9)
        XCTAssertEqual(SmartRotate.relevance(open, at: t0 + 30 * 60).0, 0, "no duration: until the next entry")
        XCTAssertEqual(SmartRotate.relevance([entry(10, 0.9)], at: t0).0, 0, "an entry not yet due counts nothing")
        XCTAssertEqual(SmartRotate.relevance([entry(0, 7)], at: t0).0, 1, "scores are clamped to 0–1")
        XCTAssertEqual(SmartRotate.relevance([entry(0, .nan)], at: t0).0, 0)
        let same = [entry(0, 0.2), entry(0, 0.7)]
        XCTAssertEqual(SmartRotate.relevance(same, at: t0).0, 0.7, "equal dates: the later in the list is current")
    }

    func testARelevanceThatHoldsUntilSeenEndsWhenSeen() {
        let unseen = SmartRotate.relevance([entry(0, 0.6, untilSeen: true)], at: t0)
        XCTAssertEqual(unseen.0, 0.6)
        let seen = SmartRotate.relevance([entry(0, 0.6, untilSeen: true, seen: true)], at: t0)
        XCTAssertEqual(seen.0, 0)
        XCTAssertTrue(seen.2, "said as seen, for the explanation")
        XCTAssertEqual(SmartRotate.relevance([entry(0, 0.6, seen: true)], at: t0).0, 0.6, "others do not care")
    }

    func testTheNextDecisionIsTheFirstDateTheAnswerCanChange() {
        let items = [
            [entry(0, 0.2, duration: 50 * 60)], [entry(0, nil), entry(40, 0.9)],
            [entry(-5, 0.1), entry(90, nil)],
        ]
        let d = SmartRotate.decide(input(items, at: 1))
        XCTAssertEqual(d.nextDecision, t0 + 40 * 60, "the second item's next entry")
        let later = SmartRotate.decide(input(items, lastChange: t0, at: 41))
        XCTAssertEqual(later.show, 1)
        let dwell = SmartRotate.decide(input(items, current: 1, lastChange: t0 + 41 * 60, at: 42))
        XCTAssertEqual(dwell.why, .dwell(until: t0 + 56 * 60))
        XCTAssertEqual(dwell.nextDecision, t0 + 56 * 60)
        let after = SmartRotate.decide(input(items, current: 1, lastChange: t0 + 41 * 60, at: 56))
        XCTAssertEqual(after.nextDecision, t0 + 90 * 60, "relevance ends (50) passed; the third item's entry at 90")
    }

    func testBlockingAndPinningKeepTheItem() {
        let items = [[entry(0, 0)], [entry(0, 1)]]
        XCTAssertEqual(SmartRotate.decide(input(items, blocked: .focused, at: 1)).why, .blocked(.focused))
        XCTAssertNil(SmartRotate.decide(input(items, blocked: .pane, at: 1)).nextDecision, "an event unblocks")
        let pinned = SmartRotate.decide(input(items, pinned: t0 + 3600, at: 10))
        XCTAssertEqual(pinned.show, 0)
        XCTAssertEqual(pinned.nextDecision, t0 + 3600)
        XCTAssertEqual(SmartRotate.decide(input(items, pinned: t0 + 3600, at: 60)).show, 1)
        var off = input(items, at: 1)
        off.enabled = false
        XCTAssertEqual(SmartRotate.decide(off).why, .off)
    }

    func testUseDecaysInWholeStepsWithItsHalfLife() {
        let s = SmartRotateSettings.standard
        var u = UseRecord()
        u.add(at: t0, s)
        u.add(at: t0 + 60, s)
        XCTAssertEqual(u.value(at: t0 + 3600, s), 2, "the same day: no decay yet")
        let threeDays = t0 + 3 * 86_400
        XCTAssertEqual(u.value(at: threeDays, s), 1, accuracy: 1e-9, "one half-life later, half")
        XCTAssertEqual(u.value(at: t0 - 86_400, s), 2, "a clock that went back does not grow it")
        XCTAssertEqual(UseRecord.score(2), 0.5)
        // Use breaks a tie in relevance, and the next decision is the next decay step.
        let d = SmartRotate.decide(input([[entry(0, 0.3)], [entry(0, 0.3)]], at: 1, uses: [0, 5]))
        XCTAssertEqual(d.show, 1)
        let kept = SmartRotate.decide(input([[entry(0, 0.3)], [entry(0, 0.3)]], current: 1, at: 1, uses: [0, 5]))
        XCTAssertEqual(kept.nextDecision, s.nextStep(after: t0 + 60))
    }
}

/// Smart Rotate's properties over random stacks (a fixed-seed generator): no flip within the
/// dwell, a manual choice is kept for the pause, after the dwell the most relevant item wins,
/// and the answer does not depend on how often it is asked.
final class SmartRotatePropertyTests: XCTestCase {
    enum Event { case manual(Int), block(SmartRotateBlock?) }

    struct Change: Equatable {
        var time: Date
        var index: Int
        var manual: Bool
    }

    struct Scenario {
        var items: [SmartRotateItem]
        var settings: SmartRotateSettings
        var events: [(Date, Event)]
        var end: Date
    }

    func scenario(_ rng: inout SplitMix) -> Scenario {
        func r(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        var settings = SmartRotateSettings.standard
        settings.dwell = Double(5 + r(26)) * 60
        settings.pause = Double(30 + r(61)) * 60
        settings.useStep = 2 * 3600
        settings.halfLife = 6 * 3600
        let n = 2 + r(3)
        let items = (0..<n).map { i -> SmartRotateItem in
            var entries: [RotationEntry] = []
            var minute = -30
            for _ in 0..<(1 + r(12)) {
                minute += r(5) * 10  // equal dates happen
                let score: Double? = r(4) == 0 ? nil : Double(r(101)) / 100
                let duration: TimeInterval? = r(2) == 0 ? nil : Double(5 + r(90)) * 60
                entries.append(
                    RotationEntry(
                        date: t0 + Double(minute) * 60,
                        relevance: score.map { Relevance(score: $0, duration: duration) }))
            }
            let use = UseRecord(value: r(3) == 0 ? Double(r(6)) : 0, step: settings.step(of: t0) - r(3))
            return SmartRotateItem(id: "i\(i)", entries: entries, use: use)
        }
        var events: [(Date, Event)] = []
        for _ in 0..<r(6) { events.append((t0 + Double(r(360)) * 60, .manual(r(n)))) }
        for _ in 0..<r(4) {
            let start = Double(r(360)) * 60
            events.append((t0 + start, .block(r(2) == 0 ? .focused : .pane)))
            events.append((t0 + start + Double(1 + r(40)) * 60, .block(nil)))
        }
        events.sort { $0.0 < $1.0 }
        return Scenario(items: items, settings: settings, events: events, end: t0 + 8 * 3600)
    }

    /// Runs a scenario the way the app does: asks at every event, at every next decision date,
    /// and at `extra` times; checks the per-decision properties and returns every change.
    func run(_ sc: Scenario, extra: [Date], file: StaticString = #filePath, line: UInt = #line) -> [Change] {
        var input = SmartRotateInput(items: sc.items, current: 0, now: t0, settings: sc.settings)
        var changes: [Change] = []
        var next: Date? = t0
        var events = sc.events[...]
        var extras = extra.sorted()[...]
        var steps = 0
        func ask(_ t: Date) {
            input.now = t
            let free =
                input.blocked == nil && (input.pinnedUntil.map { t >= $0 } ?? true)
                && (input.lastChange.map { t >= $0 + sc.settings.dwell } ?? true)
            let d = SmartRotate.decide(input)
            if d.show != input.current {
                input.current = d.show
                input.lastChange = t
                changes.append(Change(time: t, index: d.show, manual: false))
            }
            if free {
                let best = d.scores.map(\.combined).max() ?? 0
                XCTAssertGreaterThanOrEqual(
                    d.scores[d.show].combined, best - sc.settings.margin - 1e-9,
                    "after the dwell the most relevant item wins", file: file, line: line)
            }
            next = d.nextDecision
            if let n = next { XCTAssertGreaterThan(n, t, "the next decision is in the future", file: file, line: line) }
        }
        while steps < 10_000 {
            steps += 1
            let candidates = [next, events.first?.0, extras.first].compactMap { $0 }
            guard let t = candidates.min(), t <= sc.end else { break }
            if let (et, e) = events.first, et == t {
                events.removeFirst()
                switch e {
                case .manual(let i):
                    input.now = t
                    input.items[i].use.add(at: t, sc.settings)
                    input.current = i
                    input.lastChange = t
                    input.pinnedUntil = t + sc.settings.pause
                    changes.append(Change(time: t, index: i, manual: true))
                case .block(let b):
                    input.blocked = b
                }
            }
            if extras.first == t { extras.removeFirst() }
            ask(t)
        }
        XCTAssertLessThan(steps, 10_000, "the loop settles", file: file, line: line)
        return changes
    }

    func testPropertiesOverRandomStacks() {
        var rng = SplitMix(seed: 2026)
        var automatic = 0
        for _ in 0..<300 {
            let sc = scenario(&rng)
            let sparse = run(sc, extra: [])
            let extra = (0..<60).map { _ in t0 + Double(rng.next() % (8 * 3600)) }
            let dense = run(sc, extra: extra)
            XCTAssertEqual(sparse, dense, "asking more often changes nothing")
            var last: Date? = nil
            var pinnedUntil: Date? = nil
            for c in sparse {
                if !c.manual {
                    automatic += 1
                    if let l = last {
                        XCTAssertGreaterThanOrEqual(
                            c.time.timeIntervalSince(l), sc.settings.dwell,
                            "no flip within the dwell")
                    }
                    if let p = pinnedUntil {
                        XCTAssertGreaterThanOrEqual(c.time, p, "a manual choice is kept for the pause")
                    }
                } else {
                    pinnedUntil = c.time + sc.settings.pause
                }
                last = c.time
            }
        }
        XCTAssertGreaterThan(automatic, 100, "the scenarios do rotate")
    }
}
