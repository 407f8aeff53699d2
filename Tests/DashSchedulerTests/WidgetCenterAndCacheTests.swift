import XCTest
import Foundation
import DashWidgets
import DashScheduler
import DashTestSupport

final class WidgetCenterTests: XCTestCase {
    func testReloadOneKindOrAllAndListConfigurations() {
        let h = SchedulerHarness(start: t0)
        h.add("n1", kind: "news", family: .medium, configuration: WidgetConfig(["country": .string("us")]))
        h.add("n2", kind: "news", configuration: WidgetConfig(["country": .string("de")]))
        h.add("c1", kind: "crypto")
        XCTAssertEqual(h.loads.count, 3)
        h.change { s, _ in XCTAssertEqual(s.reloadTimelines(ofKind: "news"), 2) }
        XCTAssertEqual(h.loads.dropFirst(3).map { "\($0.id):\($0.reason)" }, ["n1:widgetCenter", "n2:widgetCenter"])
        h.change { s, _ in XCTAssertEqual(s.reloadAllTimelines(), 3) }
        XCTAssertEqual(h.loads.count, 8)
        XCTAssertFalse(h.scheduler.reload("nope"))
        h.change { s, _ in
            XCTAssertEqual(s.apply(.reloadTimelines(kind: "crypto")), 1)
            XCTAssertEqual(s.apply(.reloadInstance("n2")), 1)
            XCTAssertEqual(s.apply(.reloadInstance("nope")), 0)
        }
        XCTAssertEqual(h.loads.dropFirst(8).map { "\($0.id):\($0.reason)" }, ["n2:manual", "c1:widgetCenter"])
        h.change { s, _ in XCTAssertEqual(s.apply(.reloadAllTimelines), 3) }
        XCTAssertEqual(h.loads.count, 13)

        let infos = h.scheduler.currentConfigurations()
        XCTAssertEqual(infos.map(\.id), ["n1", "n2", "c1"])
        XCTAssertEqual(
            infos[0],
            WidgetInfo(
                id: "n1", kind: "news", family: .medium,
                configuration: WidgetConfig(["country": .string("us")])))
    }

    func testStatusCarriesWhatTheTimelineCommandShows() {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript()
        script.enqueue(.timeline(entries((0, "a"), (60, "b")), .after(t0 + 3600)))
        h.add("t", kind: "news", script: script)
        h.advance(by: 61)
        let s = h.scheduler.status("t", at: h.now)!
        XCTAssertEqual(s.kind, "news")
        XCTAssertEqual(s.entries.map(\.summary), ["a", "b"])
        XCTAssertEqual(s.currentIndex, 1)
        XCTAssertEqual(s.policy, .after(t0 + 3600))
        XCTAssertEqual(s.nextReload, t0 + 3600)
        XCTAssertEqual(s.nextReloadReason, .policy(.after(t0 + 3600)))
        XCTAssertEqual(s.budget.used, 0)
        XCTAssertEqual(s.budget.left, 70)
        XCTAssertFalse(s.isStale)
        XCTAssertNil(s.lastError)
        XCTAssertEqual(s.lastReload, t0)
        XCTAssertEqual(h.scheduler.statuses(at: h.now).count, 1)

        let report = s.report
        XCTAssertEqual(report.entries.map(\.isCurrent), [false, true])
        XCTAssertEqual(report.budgetLeft, 70)
        let decoded = try? JSONDecoder.dash.decode(InstanceStatusReport.self, from: JSONEncoder.dash.encode(report))
        XCTAssertEqual(decoded, report)
    }
}

final class SnapshotTests: XCTestCase {
    /// Issue 35.1: a sample reloaded every second is handed out to be saved once a minute; a
    /// timeline that lasts is saved at each change.
    func testASampleStaleInSecondsIsSavedOncePerMinuteAndALastingTimelineAtEachChange() {
        let h = SchedulerHarness(start: t0)
        let sampler = FakeScript(fallback: { call in
            .timeline([FakeEntry(date: call.now, value: "\(call.now)")], .after(call.now + 1))
        })
        let lasting = FakeScript(fallback: { call in
            .timeline([FakeEntry(date: call.now, value: "\(call.now)")], .after(call.now + 900))
        })
        h.add("sys", kind: "sys", cost: .local, script: sampler)
        h.add("news", script: lasting)
        var saved: [String: Int] = [:]
        for second in 1...180 {
            h.advance(by: 1)
            // The lasting one is reloaded by hand every 10 s: each new timeline is saved.
            if second % 10 == 0 { h.change { s, _ in _ = s.reload("news", reason: .manual) } }
            for id in h.scheduler.takeCacheChanges(at: h.now) { saved[id, default: 0] += 1 }
        }
        XCTAssertEqual(saved["sys"], 3, "three minutes of samples: one record a minute")
        XCTAssertEqual(saved["news"], 19, "its first load and its 18 reloads")
        // Without a date (a store saving everything at quit), nothing is held back.
        h.advance(by: 1)
        XCTAssertEqual(h.scheduler.takeCacheChanges(), ["sys"])
    }

    func testSnapshotRoundTripShowsTheLastDataAtOnceAndKeepsTheLedger() throws {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript(fallback: { call in
            .timeline(
                [
                    FakeEntry(date: call.now, value: "at \(Int(call.now.timeIntervalSince(t0)))"),
                    FakeEntry(date: call.now + 7200, value: "later"),
                ], .after(call.now + 600))
        })
        let config = WidgetConfig(["coin": .string("BTC")])
        h.add("t", configuration: config, script: script)
        h.advance(by: 1200)  // two charged reloads
        script.setFallback { _ in .failure("offline") }
        h.advance(by: 600)  // a failure: stale
        XCTAssertTrue(h.scheduler.isStale("t"))
        XCTAssertEqual(Set(h.scheduler.takeCacheChanges()), ["t"])

        let snapshot = h.scheduler.snapshot(at: h.now)
        let data = try snapshot.records["t"]!.encoded()
        let decoded = try InstanceRecord.decode(data)
        XCTAssertEqual(decoded, snapshot.records["t"])

        // A new process: the record is restored when the instance registers.
        let later = h.now + 5
        var s = Scheduler()
        s.restore(SchedulerSnapshot(records: ["t": decoded]))
        let widget = fakeWidget(script: FakeScript())
        s.register("t", widget: widget, configuration: config, family: .small, at: later)
        let v = s.currentEntry("t", at: later)!
        XCTAssertFalse(v.isPlaceholder)
        XCTAssertEqual((v.entry.base as? FakeEntry)?.value, "at 1200")
        XCTAssertTrue(s.isStale("t"))
        XCTAssertEqual(s.lastError("t"), "offline")
        XCTAssertEqual(s.status("t", at: later)?.budget.used, 3, "the ledger survived")
        let loads = s.process(now: later)
        XCTAssertEqual(loads.map(\.reason), [.retry], "stale: retried at once, not reloaded from scratch")
    }

    func testAFreshCacheNeedsNoInitialLoad() throws {
        var s = Scheduler()
        let script = FakeScript()
        let widget = fakeWidget(script: script)
        s.register("t", widget: widget, family: .small, at: t0)
        for r in s.process(now: t0) {
            s.loadFinished(
                r.id, token: r.token,
                result: .success(
                    AnyTimeline(
                        entries: [AnyEntry(FakeEntry(date: t0, value: "cached"))], policy: .after(t0 + 3600))), at: t0)
        }
        let snap = s.snapshot(at: t0)
        var s2 = Scheduler()
        s2.restore(snap)
        s2.register("t", widget: widget, family: .small, at: t0 + 60)
        XCTAssertEqual(s2.process(now: t0 + 60).count, 0)
        XCTAssertEqual(s2.nextWake, t0 + 3600)
        XCTAssertEqual((s2.currentEntry("t", at: t0 + 60)?.entry.base as? FakeEntry)?.value, "cached")
        XCTAssertEqual(s2.process(now: t0 + 3600).map(\.reason), [.policy])

        var s3 = Scheduler(policy: SchedulerPolicy(reloadCachedOnStart: true))
        s3.restore(snap)
        s3.register("t", widget: widget, family: .small, at: t0 + 60)
        XCTAssertEqual(s3.process(now: t0 + 60).map(\.reason), [.initial])
        XCTAssertEqual((s3.currentEntry("t", at: t0 + 60)?.entry.base as? FakeEntry)?.value, "cached")
    }

    /// The loop hands the cache records whose entries are not encoded yet (issue 25.3: JSON for a
    /// thousand timelines on the loop held keys); the writer's encoding gives the same record and
    /// JSON as encoding at once, and an encoding that fails saves the record without a timeline.
    func testARecordToSaveLeavesItsEntriesToTheWriterAndEncodesAlike() throws {
        let h = SchedulerHarness(start: t0)
        let script = FakeScript(fallback: { call in
            .timeline([FakeEntry(date: call.now, value: "now")], .after(call.now + 600))
        })
        h.add("t", configuration: WidgetConfig(["coin": .string("BTC")]), script: script)
        h.advance(by: 600)
        let toSave = try XCTUnwrap(h.scheduler.recordToSave("t", at: h.now))
        XCTAssertNil(toSave.entries, "nothing encoded on the loop")
        XCTAssertEqual(toSave.pendingEntries?.entries.count, 1)
        let atOnce = try XCTUnwrap(h.scheduler.record("t", at: h.now))
        let (written, warning) = toSave.withEntriesEncoded()
        XCTAssertNil(warning)
        XCTAssertEqual(written, atOnce)
        XCTAssertNil(written.pendingEntries)
        XCTAssertEqual(try toSave.encoded(), try atOnce.encoded())

        struct Unencodable: Error {}
        var broken = toSave
        broken.pendingEntries = PendingEntries(toSave.pendingEntries!.entries) { _ in throw Unencodable() }
        let (saved, problem) = broken.withEntriesEncoded()
        XCTAssertNil(saved.entries)
        XCTAssertNil(saved.policy)
        XCTAssertEqual(saved.ledger, atOnce.ledger, "the ledger is kept")
        XCTAssertTrue(problem?.contains("cannot encode the entries of t") == true, problem ?? "no warning")
    }

    func testARecordForAnotherConfigurationOrWithBadEntriesIsNotShown() throws {
        var s = Scheduler()
        let widget = fakeWidget(script: FakeScript())
        let good = InstanceRecord(
            id: "t", kind: "fake", family: .small, configuration: WidgetConfig(["coin": .string("BTC")]),
            entries: try widget.encodeEntries([AnyEntry(FakeEntry(date: t0, value: "x"))]), policy: .never,
            isStale: false, lastError: nil, consecutiveFailures: 0,
            ledger: BudgetLedger(charges: [t0 - 60]), lastReload: t0 - 60, lastSuccess: t0 - 60, savedAt: t0)
        var corrupt = good
        corrupt.id = "u"
        corrupt.entries = Data("[{\"nope\":1}]".utf8)
        s.restore(SchedulerSnapshot(records: ["t": good, "u": corrupt]))
        s.register("t", widget: widget, configuration: WidgetConfig(["coin": .string("ETH")]), family: .small, at: t0)
        s.register("u", widget: widget, configuration: WidgetConfig(["coin": .string("BTC")]), family: .small, at: t0)
        XCTAssertEqual(s.currentEntry("t", at: t0)?.isPlaceholder, true)
        XCTAssertEqual(s.currentEntry("u", at: t0)?.isPlaceholder, true)
        XCTAssertEqual(s.status("t", at: t0)?.budget.used, 1, "the ledger belongs to the instance")
        let warnings = s.takeWarnings()
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("u"), warnings[0])
        XCTAssertEqual(s.process(now: t0).map(\.reason), [.initial, .initial])
    }

    func testForeignJSONIsRejected() {
        XCTAssertThrowsError(try InstanceRecord.decode(Data("{\"hello\":\"world\"}".utf8))) { error in
            XCTAssertTrue("\(error)".contains("not a swiftdash timeline cache"), "\(error)")
        }
        XCTAssertThrowsError(
            try InstanceRecord.decode(Data("{\"format\":\"swiftdash.timeline-cache\",\"version\":99}".utf8)))
        XCTAssertThrowsError(try InstanceRecord.decode(Data("not json".utf8)))
    }
}
