import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// A clock that moves on by `step` each time it is read: a turn that reads it sees time pass
/// without a sleep, the same on a busy machine.
final class SteppingClock: DashClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    let step: TimeInterval
    init(now: Date, step: TimeInterval) {
        current = now
        self.step = step
    }
    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        current = current.addingTimeInterval(step)
        return current
    }
}

/// Issue 25: the cost of a turn grows with the tiles, not with their square.
final class ScaleTests: XCTestCase {
    /// `n` tiles of the story widget, one in four a stack of two.
    func home(_ n: Int) -> HomeConfig {
        var w = 0
        return HomeConfig(
            tiles: (0..<n).map { t in
                let items = (0..<(t % 4 == 3 ? 2 : 1)).map { _ -> WidgetInstance in
                    w += 1
                    return WidgetInstance(id: "w\(w)", kind: "stories")
                }
                return TileInstance(id: "t\(t + 1)", family: .small, items: items)
            })
    }

    func state(_ n: Int) -> AppState {
        AppState(
            bundle: WidgetBundle([storyWidget]), home: home(n), screen: Size(width: 80, height: 24), theme: .dark,
            alternateTheme: .light, timeZone: TimeZone(identifier: "UTC")!, now: start)
    }

    func results(_ fx: [Effect], at date: Date) -> [Msg] {
        fx.compactMap { e -> Msg? in
            guard case .startLoad(let job) = e else { return nil }
            let entry = AnyEntry(StoryEntry(date: date, stories: ["\(job.id) one", "\(job.id) two"]))
            return .loaded(
                id: job.id, token: job.token, result: .success(AnyTimeline(entries: [entry], policy: .never)))
        }
    }

    func testTileLookupsAreOneIndexBuiltOncePerChangeOfTheTiles() {
        var s = state(2_000)
        let lookup = s.home.lookup
        // A turn asks for every tile (Smart Stacks, attention, visibility, drawing): one index.
        _ = App.update(&s, .tick(start))
        _ = AppView.render(s)
        XCTAssertEqual(lookup.builds, 1)
        XCTAssertTrue(s.home.lookup === lookup)
        // Lookups agree with a scan: tiles, stacked widgets, unknown ids.
        XCTAssertEqual(s.tile("t1500")?.id, "t1500")
        XCTAssertEqual(s.tile(ofInstance: "w8")?.id, s.home.tiles.first { $0.items.contains { $0.id == "w8" } }?.id)
        XCTAssertEqual(s.home.instance("w8")?.id, "w8")
        XCTAssertNil(s.tile("t9999"))
        XCTAssertNil(s.home.instance("w99999"))
        // Changing the tiles drops the index; the next lookup sees the change.
        s.home.tiles[0].id = "moved"
        XCTAssertNil(s.tile("t1"))
        XCTAssertEqual(s.tile("moved")?.items.first?.id, "w1")
        s.home.tiles.append(TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "x", kind: "stories")]))
        XCTAssertEqual(s.tile("t1")?.items.first?.id, "x")
        XCTAssertEqual(s.tile(ofInstance: "x")?.id, "t1")
        // The first of two tiles with one id wins, as the scan it replaces did.
        s.home.tiles.append(TileInstance(id: "t1", family: .medium, items: []))
        XCTAssertEqual(s.tile("t1")?.family, .small)
        // The index is not part of the value: equal homes whatever each has looked up.
        XCTAssertEqual(home(3), home(3))
    }

    func testLoadResultsThatArriveTogetherGoOverEveryTileOnceAndEndAsOneByOne() {
        var batched = state(400)
        var single = batched
        let loads = results(App.update(&batched, .tick(start)), at: start)
        _ = App.update(&single, .tick(start))
        XCTAssertEqual(loads.count, 500)
        let (before, looked) = (batched.smart.passes, batched.smart.tilesLooked)
        let fx = App.update(&batched, batch: loads)
        // Only the tiles whose timelines changed are looked at, each once for the batch.
        XCTAssertEqual(batched.smart.passes, before)
        XCTAssertEqual(batched.smart.tilesLooked, looked + 400)
        XCTAssertEqual(fx.filter { if case .redraw = $0 { return true } else { return false } }.count, 1)
        for m in loads { _ = App.update(&single, m) }
        XCTAssertEqual(single.smart.passes, before)
        XCTAssertEqual(single.smart.tilesLooked, looked + loads.count, "one result, its tile")
        for t in batched.home.tiles {
            XCTAssertEqual(batched.shownInstance(t.id)?.id, single.shownInstance(t.id)?.id)
            let id = batched.shownInstance(t.id)!.id
            XCTAssertNotNil(batched.entry(ofInstance: id))
            XCTAssertEqual(
                batched.entry(ofInstance: id).map { "\($0.base)" }, single.entry(ofInstance: id).map { "\($0.base)" })
        }
        XCTAssertEqual(batched.smart.attention, single.smart.attention)
        XCTAssertEqual(AppView.render(batched).buffer, AppView.render(single).buffer)
    }

    func testAKeyIsDrawnBeforeAThousandLoadResultsAreAllApplied() {
        let terminal = HeadlessTerminal(size: Size(width: 80, height: 24))
        // Every read of the clock is a millisecond: a turn's slice (10 ms) ends after a few results.
        let clock = SteppingClock(now: start, step: 0.001)
        final class Jobs: @unchecked Sendable { var list: [LoadJob] = [] }
        let jobs = Jobs()
        let runtime = Runtime(
            state: state(1_000), terminal: terminal, clock: clock, inbox: Inbox(wake: {}),
            services: RuntimeServices(startLoad: { job, _ in
                jobs.list.append(job)
                return nil
            }))
        // All at once, as from many provider hosts (the home screen runs 24 at a time).
        runtime.loadLimit = 2_000
        runtime.turn()
        XCTAssertEqual(jobs.list.count, 1_250)
        for job in jobs.list {
            let entry = AnyEntry(StoryEntry(date: start, stories: ["\(job.id) one", "\(job.id) two"]))
            runtime.inbox.post(
                .loaded(id: job.id, token: job.token, result: .success(AnyTimeline(entries: [entry], policy: .never))))
        }
        // The first slice applies some results, draws them and asks to come back at once.
        let wait = runtime.turn()
        XCTAssertEqual(wait, 0)
        XCTAssertTrue(runtime.hasBacklog)
        XCTAssertTrue(runtime.state.scheduler.instanceIDs.contains { runtime.state.entry(ofInstance: $0) != nil })
        // A key read now is drawn by the next turn, while results still wait.
        let focusedBefore = runtime.state.focusedTile
        let drawsBefore = terminal.drawCalls
        runtime.handle(.key(.right))
        runtime.turn()
        XCTAssertNotEqual(runtime.state.focusedTile, focusedBefore)
        XCTAssertGreaterThan(terminal.drawCalls, drawsBefore)
        XCTAssertTrue(runtime.hasBacklog)
        XCTAssertTrue(terminal.screen.textDump.contains("w1 one"))
        // Every result is applied in the end, several to a turn.
        var turns = 2
        while runtime.hasBacklog {
            runtime.turn()
            turns += 1
        }
        XCTAssertLessThan(turns, 1_250 / 3)
        XCTAssertTrue(runtime.state.scheduler.instanceIDs.allSatisfy { runtime.state.entry(ofInstance: $0) != nil })
    }

    /// Issue 25.3: the key's frame is sent as soon as the key is handled, before the next slice
    /// of load results (and Smart Stacks' pass after it) is applied.
    func testAKeysFrameIsSentBeforeTheNextSliceOfResults() {
        let terminal = HeadlessTerminal(size: Size(width: 80, height: 24))
        let clock = SteppingClock(now: start, step: 0.001)
        final class Jobs: @unchecked Sendable { var list: [LoadJob] = [] }
        let jobs = Jobs()
        let runtime = Runtime(
            state: state(1_000), terminal: terminal, clock: clock, inbox: Inbox(wake: {}),
            services: RuntimeServices(startLoad: { job, _ in
                jobs.list.append(job)
                return nil
            }))
        runtime.loadLimit = 2_000
        runtime.turn()
        for job in jobs.list {
            let entry = AnyEntry(StoryEntry(date: start, stories: ["\(job.id) one"]))
            runtime.inbox.post(
                .loaded(id: job.id, token: job.token, result: .success(AnyTimeline(entries: [entry], policy: .never))))
        }
        runtime.turn()
        XCTAssertTrue(runtime.hasBacklog)
        let (focused, draws, waiting) = (runtime.state.focusedTile, terminal.drawCalls, runtime.backlog.count)
        runtime.handleInput(.key(.right))
        XCTAssertNotEqual(runtime.state.focusedTile, focused)
        XCTAssertEqual(terminal.drawCalls, draws + 1, "the key's frame, at once")
        XCTAssertEqual(runtime.backlog.count, waiting, "no result applied before it")
    }

    func testTheIDsOfALargeChangeAlignInNLogNAndKeepTheWidgetsThatStayed() {
        XCTAssertEqual(
            HomeIDs.uniqueAnchors(["a", "b", "c", "d", "x", "x"], ["b", "x", "a", "c", "d"]).map { [$0.0, $0.1] },
            [[1, 0], [2, 3], [3, 4]])
        XCTAssertTrue(HomeIDs.uniqueAnchors([], ["a"]).isEmpty)
        func notes(_ titles: [String]) -> HomeConfig {
            var h = HomeConfig(
                tiles: titles.enumerated().map { i, t in
                    TileInstance(
                        id: "t\(i + 1)", family: .small,
                        items: [
                            WidgetInstance(id: "w\(i + 1)", kind: "note", config: WidgetConfig(["title": .string(t)]))
                        ])
                })
            h.extensions = []
            return h
        }
        let titles = (0..<3_000).map { "n\($0)" }
        let previous = HomeIDs(notes(titles))
        // A block of 100 moved to the end: 2,900 x 2,900 left to align, too many for the table.
        let moved = Array(titles[0..<100] + titles[200...] + titles[100..<200])
        let adopted = notes(moved).adoptingIDs(from: previous)
        var idOf: [String: String] = [:]
        for inst in adopted.allInstances { idOf[inst.config.string("title")] = inst.id }
        XCTAssertEqual(idOf["n5"], "w6")
        XCTAssertEqual(idOf["n200"], "w201")
        XCTAssertEqual(idOf["n2999"], "w3000")
        XCTAssertEqual(Set(idOf.values).count, 3_000, "no id twice")
        XCTAssertEqual(adopted.tiles[150].id, "t251")
    }

    func testATickThatChangesNothingSkipsThePassOverEveryTile() {
        var s = state(300)
        let loads = results(App.update(&s, .tick(start)), at: start)
        _ = App.update(&s, batch: loads)
        let passes = s.smart.passes
        // Nothing due: the pass would answer as before.
        _ = App.update(&s, .tick(start.addingTimeInterval(1)))
        _ = App.update(&s, .tick(start.addingTimeInterval(2)))
        XCTAssertEqual(s.smart.passes, passes)
        // A key, a change of focus made from outside, a tick that switches an entry: a pass each.
        _ = App.update(&s, .key(.right))
        XCTAssertEqual(s.smart.passes, passes + 1)
        s.focusedTile = "t7"
        _ = App.update(&s, .tick(start.addingTimeInterval(3)))
        XCTAssertEqual(s.smart.passes, passes + 2)
        s.stackIndex["t4"] = 1
        _ = App.update(&s, .tick(start.addingTimeInterval(4)))
        XCTAssertEqual(s.smart.passes, passes + 3)
        // At the time a decision or a mark can change, the pass runs again.
        s.smart.quiet?.until = start.addingTimeInterval(10)
        _ = App.update(&s, .tick(start.addingTimeInterval(10)))
        XCTAssertEqual(s.smart.passes, passes + 4)
    }

    func testTheCacheIsWrittenOffTheLoopLatestRecordPerWidgetAllWrittenOnFlush() {
        final class Written: @unchecked Sendable {
            let lock = NSLock()
            var batches: [[InstanceRecord]] = []
            var thread: [Bool] = []
        }
        let written = Written()
        let writer = CacheWriter { records in
            written.lock.lock()
            written.batches.append(records)
            written.thread.append(Thread.isMainThread)
            written.lock.unlock()
        }
        func record(_ id: String, _ saved: Double) -> InstanceRecord {
            InstanceRecord(
                id: id, kind: "stories", family: .small, configuration: WidgetConfig(), entries: nil, policy: .never,
                isStale: false, lastError: nil, consecutiveFailures: 0, ledger: BudgetLedger(charges: []),
                lastReload: nil, lastSuccess: nil, savedAt: start.addingTimeInterval(saved))
        }
        for i in 0..<1_000 { writer.save([record("w\(i % 100)", Double(i))]) }
        writer.flush()
        written.lock.lock()
        defer { written.lock.unlock() }
        let all = written.batches.flatMap { $0 }
        var latest: [String: Date] = [:]
        for r in all { latest[r.id] = max(latest[r.id] ?? .distantPast, r.savedAt) }
        XCTAssertEqual(latest.count, 100)
        XCTAssertEqual(latest["w7"], start.addingTimeInterval(907))
        XCTAssertFalse(written.thread.contains(true), "never on the main thread")
    }

    /// The Smart Stacks history is saved off the loop like the cache (issue 25.3: while a thousand
    /// tiles first loaded, every pass encoded and synced it on the loop): what comes while a write
    /// runs waits as one, only the latest state, and everything is written on flush.
    func testTheUsageHistoryIsWrittenOffTheLoopOnlyItsLatestState() {
        final class Written: @unchecked Sendable {
            let lock = NSLock()
            var values: [Int] = []
            var onMain = false
            let gate = NSCondition()
            var open = false
        }
        let written = Written()
        let writer = OffLoopWriter<Int>(name: "test writer", merge: { $1 }) { value in
            written.gate.lock()
            while !written.open { written.gate.wait() }
            written.gate.unlock()
            written.lock.withLock {
                written.values.append(value)
                if Thread.isMainThread { written.onMain = true }
            }
        }
        for i in 1...100 { writer.save(i) }
        written.gate.lock()
        written.open = true
        written.gate.broadcast()
        written.gate.unlock()
        writer.flush()
        written.lock.withLock {
            XCTAssertEqual(written.values.last, 100)
            XCTAssertLessThanOrEqual(written.values.count, 2, "the first, then only the latest: \(written.values)")
            XCTAssertFalse(written.onMain, "never on the main thread")
        }
    }
}
