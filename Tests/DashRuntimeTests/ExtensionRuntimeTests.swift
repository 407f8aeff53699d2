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

/// A misbehaving extension costs only its own tile, in the real runtime on the system clock:
/// while it hangs inside a request, or floods its output, every key is handled in the turn it
/// arrives in and the other tile keeps changing.
final class ExtensionRuntimeTests: XCTestCase {
    var folder: ShellExtensionFolder!
    var dir: URL { folder.url }

    override func setUpWithError() throws { folder = try ShellExtensionFolder(prefix: "extrt") }

    override func tearDownWithError() throws { folder.remove() }

    /// An extension of kind `kind` that describes itself and runs `body` for every other request
    /// (in its folder, `$id` the request's id).
    func extensionWidget(_ kind: String, timeout: Int, limits: ExtensionLimits = ExtensionLimits(), _ body: String)
        throws -> (Widget, ExtensionProcess)
    {
        let (process, widget) = try folder.extensionWidget(
            kind, timeout: timeout, environment: ["PATH": "/usr/bin:/bin"], limits: limits, body)
        return (widget, process)
    }

    /// A runtime on the system clock with the extension's tile (t1, w1) and a tile whose entries
    /// change every 100 ms (t2, w2).
    func runtime(_ ext: Widget, policy: SchedulerPolicy = .default) -> (Runtime, HeadlessTerminal) {
        let script = FakeScript()
        let start = Date()
        let ticks = (0..<100).map { FakeEntry(date: start.addingTimeInterval(Double($0) * 0.1), value: "tick \($0)") }
        script.enqueue(.timeline(ticks, .never))
        let other = fakeWidget(kind: "fake", cost: .local, script: script)
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: ext.kind)]),
            TileInstance(id: "t2", family: .small, items: [WidgetInstance(id: "w2", kind: "fake")]),
        ])
        let terminal = HeadlessTerminal(size: Size(width: 80, height: 24))
        let state = AppState(
            environment: AppEnvironment(bundle: WidgetBundle([ext, other]), timeZone: TimeZone(identifier: "UTC")!),
            home: home, screen: terminal.size, theme: .dark, alternateTheme: .light, now: Date(),
            scheduler: Scheduler(policy: policy))
        return (Runtime(state: state, terminal: terminal, clock: SystemClock(), inbox: Inbox(wake: {})), terminal)
    }

    /// What pressing keys looked like for `seconds`.
    struct Observation {
        /// Keys pressed, and how many moved the focus in the same call (before any other turn).
        var keys = 0
        var handledAtOnce = 0
        /// The other tile's texts seen.
        var ticks: Set<String> = []
        /// Samples taken while `busy` said the extension was misbehaving.
        var busySamples = 0
    }

    /// Presses Right and Left in turn on the runtime, as the loop would, every 20 ms for `seconds`
    /// and then on until `done` says the misbehaviour being watched has happened (bounded by
    /// `atMost`: a busy machine makes a flood slower, not different).
    func observe(
        _ runtime: Runtime, _ terminal: HeadlessTerminal, seconds: Double, until done: () -> Bool = { true },
        atMost: Double = 60, busy: () -> Bool
    ) -> Observation {
        var o = Observation()
        let start = Date()
        let end = start.addingTimeInterval(seconds)
        let limit = start.addingTimeInterval(max(seconds, atMost))
        var right = true
        while Date() < end || (!done() && Date() < limit) {
            runtime.turn()
            if busy() { o.busySamples += 1 }
            let before = runtime.state.focusedTile
            runtime.handle(.key(right ? .right : .left))
            o.keys += 1
            if runtime.state.focusedTile != before { o.handledAtOnce += 1 }
            runtime.turn()
            right.toggle()
            for line in terminal.screen.textDump.split(separator: "\n") {
                if let r = line.range(of: "tick \\d+", options: .regularExpression) { o.ticks.insert(String(line[r])) }
            }
            usleep(20_000)  // a person's pace, across the window being watched
        }
        return o
    }

    func assertUnaffected(_ o: Observation, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThan(o.keys, 20, file: file, line: line)
        XCTAssertEqual(o.handledAtOnce, o.keys, "every key moved the focus in its own turn", file: file, line: line)
        // What shows that no key waited for the extension is the order of events, not a time: the
        // keys were answered while it was still misbehaving (the callers assert `busySamples`), and
        // the other tile went on changing meanwhile.
        XCTAssertGreaterThan(
            o.ticks.count, 1, "the other tile keeps changing: \(o.ticks.sorted())", file: file, line: line)
    }

    func testAHungExtensionLeavesKeysAndOtherTilesAlone() throws {
        let (hang, process) = try extensionWidget("hang", timeout: 5, ": > inside; sleep 30")
        defer { process.stop() }
        let (runtime, terminal) = runtime(hang)
        let inside = dir.appendingPathComponent("inside").path
        // The extension is inside its request (a busy machine starts it later, not differently).
        Eventually.wait {
            runtime.turn()
            return FileManager.default.fileExists(atPath: inside)
        }
        let o = observe(runtime, terminal, seconds: 1.5) {
            FileManager.default.fileExists(atPath: inside) && runtime.state.scheduler.isLoading("w1")
        }
        XCTAssertGreaterThan(o.busySamples, o.keys / 2, "most keys came while the extension hung inside timeline")
        assertUnaffected(o)
        // The request's own timeout ends it, and only its tile says so.
        Eventually.wait {
            runtime.turn()
            return runtime.state.scheduler.lastError("w1") != nil
        }
        XCTAssertEqual(runtime.state.scheduler.lastError("w1"), "hang: did not answer timeline within 5 s")
        XCTAssertNil(runtime.state.scheduler.lastError("w2"))
    }

    func testAnExtensionFlooding100MBKeepsKeysAndOtherTilesAlone() throws {
        // Every timeline request: 100 MB on one line (cut after 1 MB), while a second extension's
        // stderr floods without end. Retries come every 0.1 s, so the floods go on throughout.
        var limits = ExtensionLimits()
        limits.restartBase = 0.05
        limits.restartMax = 0.1
        let (flood, p1) = try extensionWidget(
            "flood", timeout: 5, limits: limits,
            "head -c 100000000 /dev/zero | tr '\\0' 'a'; : > finished")
        defer { p1.stop() }
        let (_, p2) = try extensionWidget("noisy", timeout: 60, ": > noisy-started; yes 'noise on stderr' >&2")
        defer { p2.stop() }
        let policy = SchedulerPolicy(initialRetryDelay: 0.1, maximumRetryDelay: 0.1)
        let (runtime, terminal) = runtime(flood, policy: policy)
        // The stderr flood: one request that never ends (its load runs on its own thread).
        let noisyDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? p2.request("timeline", timeout: 60)
            noisyDone.signal()
        }
        let noisyStarted = dir.appendingPathComponent("noisy-started").path
        let o = observe(runtime, terminal, seconds: 2, until: { p1.starts >= 2 }) {
            FileManager.default.fileExists(atPath: noisyStarted)
        }
        XCTAssertGreaterThanOrEqual(p1.starts, 2, "the flood was retried and cut again")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("finished").path))
        XCTAssertEqual(runtime.state.scheduler.lastError("w1"), "flood: sent a line longer than 1024 KB")
        XCTAssertNil(runtime.state.scheduler.lastError("w2"))
        assertUnaffected(o)
        XCTAssertGreaterThan(o.busySamples, o.keys / 2, "the stderr flood went on meanwhile")
        p2.stop()
        // Ended by `stop`: the request's own timeout is 60 s, and the wait here gives up before it.
        XCTAssertEqual(noisyDone.wait(timeout: .now() + 45), .success, "stop ends a request in flight")
    }
}
