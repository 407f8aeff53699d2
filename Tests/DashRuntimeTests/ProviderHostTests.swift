import XCTest
import Foundation
import DashWidgets
@testable import DashScheduler
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// The built-in providers in the provider host (`swiftdash-fetch --serve`, issue 15 point 2):
/// the same timelines as in this process, failures as the tile's message, and a crashing,
/// hanging or idle host costing only its own request.
final class ProviderHostTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DashBuiltinWidgetsTests/Fixtures")
    let log = LineLog()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func hostBinary() throws -> String {
        try XCTUnwrap(builtProduct("swiftdash-fetch"), "swiftdash-fetch is not built").path
    }

    func makeHost(_ path: String? = nil) throws -> ProviderHost {
        let env = ProcessInfo.processInfo.environment
        return ProviderHost(path: try path ?? hostBinary(), environment: env) { [log] in log.add($0) }
    }

    func context(_ family: WidgetFamily = .medium, instance: String? = "w1") -> TimelineContext {
        var c = TimelineContext(
            family: family, size: (37, 5), now: now, timeZone: TimeZone(identifier: "Europe/Paris")!)
        c.instanceID = instance
        return c
    }

    /// Entries as the cache keeps them, to compare timelines made in two processes.
    func json(_ w: Widget, _ t: AnyTimeline) throws -> String {
        String(decoding: try w.encodeEntries(t.entries), as: UTF8.self) + " " + t.policy.description
    }

    func testTheHostAnswersWhatTheProviderWouldHere() async throws {
        let host = try makeHost()
        defer { host.stop() }
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let feed = try Data(contentsOf: Self.fixtures.appendingPathComponent("rss_world.xml"))
        server.route("/world.xml", .init(status: 200, headers: ["Content-Type": "application/rss+xml"], body: feed))
        let bundle = BuiltinWidgets.bundle
        let cases: [(String, WidgetConfig)] = [
            ("clock", WidgetConfig()),
            ("news", WidgetConfig(["feed": .string(server.baseURL + "/world.xml")])),
        ]
        for (kind, config) in cases {
            let here = try XCTUnwrap(bundle[kind])
            let there = host.remote(here)
            XCTAssertNotNil(there.remote)
            let local = try await here.timeline(for: config, in: context())
            let remote = try XCTUnwrap(there.remote).timeline(config, context())
            XCTAssertFalse(remote.entries.isEmpty, kind)
            XCTAssertEqual(try json(here, remote), try json(here, local), kind)
        }
        XCTAssertEqual(host.started, 1, "one host served both requests in turn")
    }

    func testAProviderFailureIsTheTilesMessageAndTheHostStays() async throws {
        let host = try makeHost()
        defer { host.stop() }
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/gone.xml", .init(status: 404, "not here"))
        let news = try XCTUnwrap(BuiltinWidgets.bundle["news"])
        let config = WidgetConfig(["feed": .string(server.baseURL + "/gone.xml")])
        var localMessage = ""
        do { _ = try await news.timeline(for: config, in: context()) } catch {
            localMessage = RemoteFailure.message(error)
        }
        XCTAssertFalse(localMessage.isEmpty)
        let remote = try XCTUnwrap(host.remote(news).remote)
        XCTAssertThrowsError(try remote.timeline(config, context())) { error in
            XCTAssertTrue(error is RemoteFailure, "\(error)")
            XCTAssertEqual(RemoteFailure.message(error), localMessage)
        }
        let pids = host.processIDs
        XCTAssertEqual(pids.count, 1, "a provider's failure leaves its host running")
        XCTAssertThrowsError(try remote.timeline(config, context()))
        XCTAssertEqual(host.processIDs, pids, "and the next request goes to the same host")
        XCTAssertEqual(host.started, 1)
    }

    func testACrashingHostFailsOnlyItsRequestAndTheNextStartsAFreshOne() throws {
        // A stand-in host that dies on its first request; the real one serves the next.
        let marker = dir.appendingPathComponent("crashed").path
        let script = dir.appendingPathComponent("host.sh")
        try """
        #!/bin/sh
        if [ ! -e \(marker) ]; then touch \(marker); read line; kill -SEGV $$; fi
        exec \(try hostBinary()) "$@"
        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let host = try makeHost(script.path)
        defer { host.stop() }
        let clock = try XCTUnwrap(host.remote(ClockWidget.widget).remote)
        XCTAssertThrowsError(try clock.timeline(WidgetConfig(), context())) { error in
            XCTAssertTrue("\(error)".contains("signal 11"), "\(error)")
        }
        let t = try clock.timeline(WidgetConfig(), context())
        XCTAssertFalse(t.entries.isEmpty)
        XCTAssertEqual(host.started, 2)
    }

    func testAHungHostIsKilledWithItsGroupAfterTheDeadline() throws {
        let pidFile = dir.appendingPathComponent("child.pid").path
        let script = dir.appendingPathComponent("hang.sh")
        try """
        #!/bin/sh
        sleep 300 & echo $! > \(pidFile)
        read line; sleep 300
        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let host = try makeHost(script.path)
        host.slack = 0.3
        defer { host.stop() }
        let slow = Widget(
            kind: "clock", displayName: "Clock", description: "", cost: .local, timeout: 0.2,
            provider: FixedProvider(), view: { _, _ in Text("") })
        let remote = try XCTUnwrap(host.remote(slow).remote)
        // It gave up on its own limit (the host would answer never: it sleeps for 300 s).
        XCTAssertThrowsError(try remote.timeline(WidgetConfig(), context())) { error in
            XCTAssertTrue("\(error)".contains("did not answer timeline"), "\(error)")
        }
        // The grandchild went with the group.
        let child = try XCTUnwrap(
            Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertTrue(Eventually.wait { kill(child, 0) != 0 }, "the hung host's child was not killed")
        XCTAssertTrue(host.processIDs.isEmpty)
    }

    func testAnIdleHostExitsByItselfAndTheNextRequestStartsAnother() throws {
        let host = try makeHost()
        host.arguments = ["--serve", "--idle", "0.3"]
        defer { host.stop() }
        let clock = try XCTUnwrap(host.remote(ClockWidget.widget).remote)
        _ = try clock.timeline(WidgetConfig(), context())
        let first = try XCTUnwrap(host.processIDs.first)
        // A zombie until reaped: its state in /proc says so.
        XCTAssertTrue(Eventually.wait { Eventually.isGone(first) }, "the idle host did not exit")
        // (Reaped and replaced, or — caught while its threads still exit — restarted in place.)
        XCTAssertFalse(try clock.timeline(WidgetConfig(), context()).entries.isEmpty)
        XCTAssertNotEqual(host.processIDs.first, first)
        XCTAssertFalse(log.lines.contains { $0.contains("between requests") }, "an idle exit is not news: \(log.lines)")
    }

    func testALocalWidgetGoesBackToTheHostThatKeepsItsSamples() throws {
        let host = try makeHost()
        defer { host.stop() }
        let clock = try XCTUnwrap(host.remote(ClockWidget.widget).remote)
        _ = try clock.timeline(WidgetConfig(), context(instance: "a"))
        let first = host.processIDs
        _ = try clock.timeline(WidgetConfig(), context(instance: "a"))
        XCTAssertEqual(host.processIDs, first)
    }

    /// Issue 35.1: the system monitor's host, asked for a sample every two seconds, runs its
    /// providers on one thread of its own, not on Swift's pool: no libdispatch workers, so no
    /// monitor waking it once a second, and its first sample's pause (two readings a moment
    /// apart) waits on that thread too. What is left: the thread reading requests and that one.
    func testTheSystemMonitorsHostRunsItsSamplesOnOneThreadOfItsOwn() throws {
        let host = try makeHost()
        defer { host.stop() }
        let system = try XCTUnwrap(BuiltinWidgets.bundle[SystemWidget.kind])
        let remote = try XCTUnwrap(host.remote(system).remote)
        for _ in 0..<3 {
            XCTAssertFalse(try remote.timeline(WidgetConfig(), context(instance: "sys")).entries.isEmpty)
        }
        let pid = try XCTUnwrap(host.processIDs.first)
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        let names = tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        XCTAssertEqual(names.count, 2, "the host's threads: \(names)")
        // Not asserted: which of the two is named "providers". The thread names itself through
        // Foundation, which reaches the kernel only once `start()` has recorded the thread, and a
        // thread that runs at once can beat that (seen on a quiet machine: both "swiftdash-fetch").
        XCTAssertEqual(host.started, 1)
    }

    func testInteractiveWidgetsPerformInTheHost() throws {
        let host = try makeHost()
        defer { host.stop() }
        let todo = dir.appendingPathComponent("todo.txt")
        try "(A) call mum\n".write(to: todo, atomically: true, encoding: .utf8)
        let reminders = try XCTUnwrap(BuiltinWidgets.bundle["reminders"])
        let remote = try XCTUnwrap(host.remote(reminders).remote)
        let config = WidgetConfig(["file": .string(todo.path)])
        let t = try remote.timeline(config, context())
        XCTAssertFalse(t.entries.isEmpty)
        XCTAssertNotNil(remote.perform, "reminders has actions")
    }

    /// What the inbox holds once something arrived (waited for, up to `seconds`).
    func firstMessages(_ inbox: Inbox, seconds: Double = Eventually.patience) -> [Msg] {
        var msgs: [Msg] = []
        Eventually.wait(timeout: seconds) {
            msgs = inbox.drain()
            return !msgs.isEmpty
        }
        return msgs
    }

    func testTheRuntimeLoadsARemoteWidgetOnAPlainThread() throws {
        let host = try makeHost()
        defer { host.stop() }
        let inbox = Inbox(wake: {})
        let clock = host.remote(ClockWidget.widget)
        let request = LoadRequest(
            id: "w1", token: 7, reason: .initial, widget: clock, configuration: WidgetConfig(), family: .small,
            startedAt: now, deadline: now.addingTimeInterval(10))
        XCTAssertNil(Runtime.concurrentLoad(LoadJob(request: request, context: context(.small)), inbox))
        let msgs = firstMessages(inbox)
        guard case .loaded(let id, let token, .success(let t))? = msgs.first else {
            return XCTFail("no timeline: \(msgs)")
        }
        XCTAssertEqual(id, "w1")
        XCTAssertEqual(token, 7)
        XCTAssertFalse(t.entries.isEmpty)
    }

    /// Issue 25.3 and decision 52: a load's own thread reads the host's answer at the loop's
    /// priority and decodes it at nice 10; the host it started, and any other thread, keep theirs.
    /// Issue 35.1: one load after another (a sample a second) runs on one kept thread, at the
    /// loop's priority; a thread that lowered itself is not kept.
    func testLoadAfterLoadReusesAKeptThreadAndALoweredOneIsNotKept() throws {
        let host = try makeHost()
        defer { host.stop() }
        let clock = host.remote(ClockWidget.widget)
        let base = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let kept = ParkedThreads.shared
        func load() {
            // Its thread is back among the parked ones when the load is over.
            let (parked, started) = (kept.parkedCount, kept.threadsStarted)
            defer { Eventually.wait { kept.parkedCount >= parked + (kept.threadsStarted - started) } }
            let inbox = Inbox(wake: {})
            let request = LoadRequest(
                id: "w1", token: 7, reason: .initial, widget: clock, configuration: WidgetConfig(), family: .small,
                startedAt: now, deadline: now.addingTimeInterval(60))
            XCTAssertNil(Runtime.concurrentLoad(LoadJob(request: request, context: context(.small)), inbox))
            XCTAssertFalse(firstMessages(inbox).isEmpty)
        }
        load()
        let started = kept.threadsStarted
        for _ in 0..<5 { load() }
        XCTAssertEqual(kept.threadsStarted, started, "five loads, no new thread")
        // Work on a kept thread runs at the loop's priority, and one that lowers itself ends.
        final class Nice: @unchecked Sendable { var value: Int32 = 99 }
        let nice = Nice()
        let ran = DispatchSemaphore(value: 0)
        OffLoopThread.start("check") {
            nice.value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            OffLoopThread.yieldToTheLoop()
            ran.signal()
        }
        XCTAssertEqual(ran.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(nice.value, base)
        let afterLowered = ParkedThreads.shared.threadsStarted
        let again = DispatchSemaphore(value: 0)
        OffLoopThread.start("check again") {
            nice.value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            again.signal()
        }
        XCTAssertEqual(again.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(nice.value, base, "not the lowered thread")
        XCTAssertLessThanOrEqual(ParkedThreads.shared.threadsStarted, afterLowered + 1)
    }

    func testALoadsThreadDecodesBelowTheLoopAndTheHostKeepsItsPriority() throws {
        let host = try makeHost()
        defer { host.stop() }
        let base = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let real = try XCTUnwrap(host.remote(ClockWidget.widget).remote)
        final class Seen: @unchecked Sendable { var nice: [Int32] = [] }
        let seen = Seen()
        let watched = ClockWidget.widget.running(
            RemoteProvider(timeline: { config, context in
                let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                let t = try real.timeline(config, context)
                seen.nice = [before, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)]
                return t
            }))
        let inbox = Inbox(wake: {})
        let request = LoadRequest(
            id: "w1", token: 7, reason: .initial, widget: watched, configuration: WidgetConfig(), family: .small,
            startedAt: now, deadline: now.addingTimeInterval(10))
        // As when many loads read at once (one alone decodes at the loop's priority, issue 35.1).
        let busy = OffLoopThread.busyLoads
        OffLoopThread.busyLoads = -1
        defer { OffLoopThread.busyLoads = busy }
        XCTAssertNil(Runtime.concurrentLoad(LoadJob(request: request, context: context(.small)), inbox))
        let msgs = firstMessages(inbox)
        guard case .loaded(_, _, .success(let t))? = msgs.first else { return XCTFail("no timeline: \(msgs)") }
        XCTAssertFalse(t.entries.isEmpty)
        XCTAssertEqual(seen.nice, [base, max(base, OffLoopThread.niceness)], "read at the loop's, decoded at 10")
        // The host the load's thread started is not lowered with it (libdispatch may raise its
        // main thread a little while it waits on a task of a higher priority: at most `base`).
        let pids = host.processIDs
        XCTAssertFalse(pids.isEmpty)
        for pid in pids {
            let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            let fields = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")
            XCTAssertLessThanOrEqual(Int32(fields[16]) ?? 99, base, "the host's nice value: \(stat)")
        }
        // Another thread (here the test's) is left alone.
        OffLoopThread.yieldAfterTheAnswer()
        XCTAssertEqual(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), base)
    }
}

/// A provider that answers at once (the hung host never asks it).
struct FixedProvider: TimelineProvider {
    struct Entry: TimelineEntry {
        var date: Date
    }
    func placeholder(in context: TimelineContext) -> Entry { Entry(date: context.now) }
    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> Entry {
        Entry(date: context.now)
    }
    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<Entry> {
        Timeline(entries: [Entry(date: context.now)], policy: .never)
    }
}
