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

/// Misbehaving extensions beyond ExtensionTests' hang, garbage, long line, crash and stderr
/// flood: 100 MB of output in every shape, a stderr flood of 100 MB, exits between requests
/// with an error status, a crash at every start, and what the tile shows through all of it.
final class ExtensionMisbehaviourTests: XCTestCase {
    let log = LineLog()
    var folder: ShellExtensionFolder!
    var dir: URL { folder.url }
    let env = ["PATH": "/usr/bin:/bin", "HOME": "/tmp"]
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws { folder = try ShellExtensionFolder(prefix: "extbad") }

    override func tearDownWithError() throws { folder.remove() }

    var fast: ExtensionLimits {
        var l = ExtensionLimits()
        l.restartBase = 0.2
        l.restartMax = 0.4
        return l
    }

    var finished: Bool { FileManager.default.fileExists(atPath: dir.appendingPathComponent("finished").path) }

    /// An extension `name` that describes itself (with `timeout` seconds per request), then runs
    /// `onRequest` for every later request (`$l` is the request line, `$id` its id).
    func process(_ name: String, timeout: Int = 10, limits: ExtensionLimits? = nil, _ onRequest: String) throws
        -> (ExtensionProcess, Widget)
    {
        try folder.extensionWidget(
            name, timeout: timeout, environment: env, limits: limits ?? fast, log: log.add, onRequest)
    }

    func context() -> TimelineContext { TimelineContext(family: .small, size: (17, 5), now: now) }

    func outcome(_ w: Widget) async -> String {
        switch await Loads.run(w, configuration: WidgetConfig(), in: context()) {
        case .success(let t): return "success \(t.entries.map(\.summary))"
        case .failure(let e): return "\(e)"
        }
    }

    static let answer = #"echo '{"id":'$id',"result":{"entries":[{"date":0,"summary":"fine"}]}}'"#

    // MARK: - 100 MB of output

    func testA100MBLineIsCutAtTheCapWithoutReadingTheRest() async throws {
        let (p, w) = try process("line", "head -c 100000000 /dev/zero | tr '\\0' 'a'; : > finished; echo")
        defer { p.stop() }
        let message = await outcome(w)
        XCTAssertEqual(message, "line: sent a line longer than 1024 KB")
        // Cut at the cap, not read to the end: the writer was killed before its 100 MB were out.
        XCTAssertFalse(finished, "the writer was killed long before its 100 MB were out")
        XCTAssertNil(p.processID)
    }

    func testA100MBFloodOfEmptyLinesIsCut() async throws {
        let (p, w) = try process("blank", "head -c 100000000 /dev/zero | tr '\\0' '\\n'; : > finished")
        defer { p.stop() }
        let message = await outcome(w)
        XCTAssertEqual(message, "blank: sent more than 64 lines that answer nothing")
        XCTAssertFalse(finished, "cut at the 65th line, not read to the end")
    }

    func testA100MBFloodOfStrayAnswersIsCut() async throws {
        let (p, w) = try process("stray", #"yes '{"id":999,"result":{}}' | head -c 100000000; : > finished"#)
        defer { p.stop() }
        let message = await outcome(w)
        XCTAssertEqual(message, "stray: sent more than 64 lines that answer nothing")
        XCTAssertFalse(finished)
    }

    func testEndlessOutputBeforeTheAnswerIsCutEvenWhenItNeverPauses() async throws {
        // Lines that are skipped without counting would keep the reader busy past any timeout:
        // every line counts, and the time is checked while data keeps coming.
        var limits = fast
        limits.maxStrayLines = 1_000_000_000
        let (p, w) = try process("endless", timeout: 1, limits: limits, "yes ''")
        defer { p.stop() }
        let message = await outcome(w)
        XCTAssertTrue(
            message == "endless: did not answer timeline within 1 s"
                || message.hasPrefix("endless: sent more than"), message)
    }

    // MARK: - stderr

    func testA100MBStderrFloodIsDrainedCheaplyAndTheAnswerStillComes() async throws {
        let (p, w) = try process(
            "noisy", timeout: 60, "head -c 100000000 /dev/zero | tr '\\0' '\\n' >&2; \(Self.answer)")
        defer { p.stop() }
        let cpu0 = Self.cpuSeconds()
        let message = await outcome(w)
        let cpu = Self.cpuSeconds() - cpu0
        XCTAssertEqual(message, "success [\"fine\"]", "a full stderr pipe never blocks the extension")
        // 100 million empty lines: counted and dropped, not copied around. This is the work this
        // process did (its CPU seconds), which a busy machine does not inflate as it does the wall
        // clock; copying 100 MB line by line takes many times the bound.
        XCTAssertLessThan(cpu, 5, "CPU seconds to drain 100 MB of stderr")
        XCTAssertLessThanOrEqual(log.lines.filter { $0.contains("stderr:") }.count, 20)
    }

    func testTheStderrDrainLogsTwentyLinesAMinuteAndThrowsTheRestAwayByTheChunk() {
        var drain = StderrDrain.State(name: "x", limits: ExtensionLimits(), log: log.add)
        drain.take(ArraySlice(String(repeating: "a\n", count: 30).utf8), now: 100)
        XCTAssertEqual(log.lines.count, 20)
        XCTAssertEqual(drain.dropped, 20, "the ten lines after the twentieth, unread")
        drain.take(ArraySlice(String(repeating: "\n", count: 1_000).utf8), now: 130)
        XCTAssertEqual(drain.dropped, 1_020)
        XCTAssertEqual(log.lines.count, 20, "the same minute")
        drain.take(ArraySlice("b\npartial".utf8), now: 160)
        XCTAssertEqual(
            log.lines.suffix(2), ["extension x: 1020 more bytes of stderr dropped", "extension x stderr: b"])
        drain.finish()
        XCTAssertEqual(log.lines.last, "extension x stderr: partial")
        XCTAssertEqual(log.lines.count, 23)
    }

    /// User and system CPU seconds of this process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }

    // MARK: - Exits and crashes

    func testAnExitWithAnErrorBetweenRequestsCostsOneRequestThenItStartsAgain() async throws {
        let (p, w) = try process("quitter", "\(Self.answer); exit 4")
        defer { p.stop() }
        let first = await outcome(w)
        XCTAssertEqual(first, "success [\"fine\"]")
        // It exited with 4 after answering: noticed before the next request, which waits out the back-off.
        XCTAssertTrue(Eventually.wait { !Self.alive(p) })
        let second = await outcome(w)
        XCTAssertTrue(second.hasPrefix("quitter: exited with status 4 between requests; restarting in"), second)
        XCTAssertTrue(Eventually.wait { !p.isBackingOff })
        let third = await outcome(w)
        XCTAssertEqual(third, "success [\"fine\"]", "started again after the back-off")
        XCTAssertEqual(p.starts, 2)
        XCTAssertTrue(log.lines.contains { $0.contains("exited with status 4 between requests") }, "\(log.lines)")
    }

    static func alive(_ p: ExtensionProcess) -> Bool {
        guard let pid = p.processID,
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        else { return false }
        return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
    }

    func testACrashAtEveryStartBacksOffAndNamesTheReason() async throws {
        // Describes once, then every start after a crash dies at once (a broken install).
        let (p, w) = try process("broken", "exit 9")
        defer { p.stop() }
        try folder.write("broken", "#!/bin/sh\necho 'cannot find my library' >&2\nexit 127\n")
        let first = await outcome(w)
        XCTAssertEqual(first, "broken: exited with status 9")
        var messages: [String] = []
        for _ in 0..<4 {
            XCTAssertTrue(Eventually.wait { !p.isBackingOff })
            messages.append(await outcome(w))
        }
        XCTAssertTrue(
            messages.allSatisfy { $0.hasPrefix("broken: exited with status 127") }, messages.joined(separator: "\n"))
        XCTAssertEqual(p.starts, 5, "started again after each back-off, never in a tight loop")
        XCTAssertTrue(
            Eventually.wait { self.log.lines.contains { $0.contains("stderr: cannot find my library") } },
            "\(log.lines)")
    }

    // MARK: - The tile

    /// The extension's behaviour, switched from the test: `good`, `garbage`, `crash`, `hang`.
    func setMode(_ mode: String) throws {
        try mode.write(to: dir.appendingPathComponent("mode"), atomically: true, encoding: .utf8)
    }

    func testEachFailureShowsInItsTileAloneWithTheReasonAndKeepsTheLastGoodEntry() async throws {
        try setMode("good")
        let (p, w) = try process(
            "moody", timeout: 1,
            """
            case $(cat mode) in
            good) \(Self.answer) ;;
            garbage) echo 'Traceback (most recent call last):' ;;
            crash) exit 11 ;;
            hang) sleep 30 ;;
            esac
            """)
        defer { p.stop() }
        let other = fakeWidget(kind: "fake", cost: .local, script: FakeScript())
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "moody")]),
            TileInstance(id: "t2", family: .small, items: [WidgetInstance(id: "w2", kind: "fake")]),
        ])
        let h = AppHarness(widgets: [w, other], home: home, size: Size(width: 80, height: 24), now: now)
        h.finish("w2", entries: [FakeEntry(date: now, value: "other tile")])
        await h.runLoads()
        XCTAssertEqual(h.state.entry(ofInstance: "w1")?.summary, "fine")
        let reasons = [
            "garbage": "moody: sent garbage instead of JSON: Traceback (most recent call last):",
            "crash": "moody: exited with status 11",
            "hang": "moody: did not answer timeline within 1 s",
        ]
        for mode in ["garbage", "crash", "hang"] {
            try setMode(mode)
            // The back-off after the last failure has passed.
            XCTAssertTrue(Eventually.wait { !p.isBackingOff })
            h.press(.char("r"))
            await h.runLoads()
            XCTAssertEqual(h.state.scheduler.lastError("w1"), reasons[mode], mode)
            XCTAssertEqual(h.state.entry(ofInstance: "w1")?.summary, "fine", "\(mode): the last good entry stays")
            XCTAssertNil(h.state.scheduler.lastError("w2"), "\(mode): the other tile is untouched")
            XCTAssertTrue(h.screen.contains("other tile"), h.screen)
        }
        try setMode("good")
        XCTAssertTrue(Eventually.wait { !p.isBackingOff })
        h.press(.char("r"))
        await h.runLoads()
        XCTAssertNil(h.state.scheduler.lastError("w1"), "well again")
    }
}
