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

/// Extensions through the real protocol: the shipped examples, and misbehaving ones.
final class ExtensionTests: XCTestCase {
    static let examples = exampleExtensions
    let log = LineLog()
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("ext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    var fast: ExtensionLimits {
        var l = ExtensionLimits()
        l.describeTimeout = 5
        l.restartBase = 0.2
        l.restartMax = 0.4
        return l
    }

    /// A shell script extension in the temp folder.
    func script(_ name: String, _ body: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try ("#!/bin/sh\n" + body).write(to: url, atomically: true, encoding: .utf8)
        chmod(url.path, 0o755)
        return url.path
    }

    /// A well-behaved describe answer for kind `k`, in shell.
    func describeLine(_ k: String, timeout: Int = 1) -> String {
        "{\"id\":1,\"result\":{\"protocol\":1,\"widgets\":[{\"kind\":\"\(k)\",\"timeout\":\(timeout)}]}}"
    }

    let env = ["PATH": "/usr/bin:/bin", "HOME": "/tmp"]
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func context(_ f: WidgetFamily = .small) -> TimelineContext {
        TimelineContext(family: f, size: (17, 5), now: now)
    }

    func testTheExamplesSpeakTheProtocol() async throws {
        let paths = ["countdown.py", "uptime.sh"].map { Self.examples.appendingPathComponent($0).path }
        let found = Extensions.discover(paths, builtin: ["clock"], environment: env, limits: fast, log: log.add)
        XCTAssertEqual(found.problems, [])
        XCTAssertEqual(found.widgets.map(\.kind), ["countdown", "uptime"])
        let countdown = found.widgets[0]
        XCTAssertEqual(countdown.supportedFamilies, [.small, .medium])
        XCTAssertNotNil(countdown.pushDecoder, "countdown says it takes pushes")
        XCTAssertEqual(countdown.schema.parameters.map(\.key), ["title", "until", "style"])
        var config = WidgetConfig()
        config["until"] = .date(now.addingTimeInterval(3 * 86_400 + 60))
        let t = try await Loads.run(countdown, configuration: config, in: context()).get()
        XCTAssertEqual(t.entries.count, 2)
        XCTAssertEqual(t.policy, .atEnd)
        XCTAssertEqual(t.entries[0].summary, "Launch: 3 days")
        let view = countdown.view(for: t.entries[0], in: context())
        XCTAssertEqual(view.widgetURL, "swiftdash://countdown/about")
        let detail = countdown.detail(
            for: DeepLink("swiftdash://countdown/about")!, entry: t.entries[0], in: context(.large))
        XCTAssertEqual(detail.links, ["https://example.org/countdown"])
        let uptime = try await Loads.run(found.widgets[1], configuration: WidgetConfig(), in: context()).get()
        XCTAssertTrue(uptime.entries[0].summary.hasPrefix("up "), uptime.entries[0].summary)
        guard case .after = uptime.policy else { return XCTFail("\(uptime.policy)") }
        // The placeholder came at start, so drawing it never waits for the process.
        XCTAssertEqual(found.widgets[1].placeholder(in: context()).summary, "")
        found.processes.forEach { $0.stop() }
    }

    func testDiscoveryRunsInParallelAndReportsBadExtensionsByName() throws {
        let errors =
            "while read l; do i=${l#*\\\"id\\\":}; echo \"{\\\"id\\\":${i%%,*},\\\"error\\\":\\\"no\\\"}\"; done"
        // The two slow ones answer only once both have started: described one after the other,
        // the first would wait for the second forever (and fail at its describe timeout).
        let both = dir.appendingPathComponent("started").path
        let meet = "echo x >> \(both); while [ $(wc -l < \(both)) -lt 2 ]; do sleep 0.01; done"
        let slow = try script("slow", "\(meet); read l; echo '\(describeLine("slow"))'; \(errors)")
        let slow2 = try script("slow2", "\(meet); read l; echo '\(describeLine("slowtwo"))'; \(errors)")
        let crash = try script("crash", "echo boom >&2; exit 3")
        let garbage = try script("garbage", "read l; echo 'Hello, I am not JSON'")
        let taken = try script("taken", "read l; echo '\(describeLine("clock"))'; \(errors)")
        var limits = fast
        limits.describeTimeout = 60
        let found = Extensions.discover(
            [slow, slow2, crash, garbage, taken, dir.appendingPathComponent("missing").path],
            builtin: ["clock"], environment: env, limits: limits, log: log.add)
        XCTAssertEqual(found.widgets.map(\.kind), ["slow", "slowtwo"])
        let problems = found.problems.joined(separator: "\n")
        XCTAssertTrue(problems.contains("crash: crash: exited with status 3"), problems)
        XCTAssertTrue(problems.contains("sent garbage instead of JSON: Hello, I am not JSON"), problems)
        XCTAssertTrue(problems.contains("`clock` is already taken"), problems)
        XCTAssertTrue(problems.contains("missing: cannot start: No such file or directory"), problems)
        found.processes.forEach { $0.stop() }
    }

    /// An extension that answers describe, then misbehaves on the first timeline request.
    func misbehaving(_ name: String, _ onTimeline: String) throws -> ExtensionProcess {
        let path = try script(
            name,
            """
            read l
            echo '\(describeLine(name))'
            while read l; do
            \(onTimeline)
            done
            """)
        return ExtensionProcess(path: path, environment: env, limits: fast, log: log.add)
    }

    func widget(_ p: ExtensionProcess, kind: String) throws -> Widget {
        let d = try ExtensionWidgetDescription.parse(p.request("describe", timeout: 30))[0]
        return Extensions.widget(d, process: p, placeholder: nil)
    }

    func failure(_ w: Widget) async -> String {
        switch await Loads.run(w, configuration: WidgetConfig(), in: context()) {
        case .success(let t): return "success \(t.entries.count)"
        case .failure(let e): return "\(e)"
        }
    }

    static func liveMembers(ofGroup group: pid_t) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { e -> String? in
            guard Int(e) != nil, let stat = try? String(contentsOfFile: "/proc/\(e)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[2] == "\(group)", fields[0] != "Z" else { return nil }
            return "\(e) \(fields[0])"
        }
    }

    func testAHangIsKilledWithItsWholeGroupAfterTheTimeout() async throws {
        let p = try misbehaving("hang", "sleep 30 & sleep 30")
        let w = try widget(p, kind: "hang")
        let pid = try XCTUnwrap(p.processID)
        let message = await failure(w)
        XCTAssertEqual(message, "hang: did not answer timeline within 1 s")
        // Zombies may wait for a parent that reaps them: count only live members of the group.
        Eventually.wait { Self.liveMembers(ofGroup: pid).isEmpty }
        XCTAssertEqual(Self.liveMembers(ofGroup: pid), [], "the process group is gone, the background sleep too")
        // Restarted (after the back-off) on the next request.
        XCTAssertTrue(Eventually.wait { !p.isBackingOff })
        _ = await failure(w)
        XCTAssertEqual(p.starts, 2)
        p.stop()
    }

    func testGarbageAndOversizedAnswersAndStrayLinesFailOnlyThatRequest() async throws {
        let garbage = try misbehaving("garbage", "printf '\\033]52;c;ZXZpbA==\\007{nope\\n'")
        let m1 = await failure(try widget(garbage, kind: "garbage"))
        XCTAssertEqual(m1, "garbage: sent garbage instead of JSON: {nope")
        // 100 MB on one line: read up to the cap, then killed before the rest was written.
        let rest = dir.appendingPathComponent("written").path
        let huge = try misbehaving("huge", "head -c 100000000 /dev/zero | tr '\\0' 'a'; : > \(rest); echo")
        let m2 = await failure(try widget(huge, kind: "huge"))
        XCTAssertEqual(m2, "huge: sent a line longer than 1024 KB")
        XCTAssertFalse(FileManager.default.fileExists(atPath: rest), "cut at the cap, not read to the end")
        let stray = try misbehaving("stray", "i=0; while [ $i -lt 100 ]; do echo '{\"id\":999}'; i=$((i+1)); done")
        let m3 = await failure(try widget(stray, kind: "stray"))
        XCTAssertEqual(m3, "stray: sent more than 64 lines that answer nothing")
        let error = try misbehaving("error", "echo '{\"id\":2,\"error\":\"no network\"}'")
        let m4 = await failure(try widget(error, kind: "error"))
        XCTAssertEqual(m4, "error: no network")
        XCTAssertNotNil(error.processID, "an error answer does not end the process")
        [garbage, huge, stray, error].forEach { $0.stop() }
    }

    /// An id no Int can hold, a fraction, a text: lines that answer nothing, never a crash, read
    /// whole (`request`) or by their head only (`requestLine`, the provider host's timelines).
    func testIdsOutOfRangeAnswerNothingAndTheLineReaderFindsTheAnswer() throws {
        let ids = ["1e300", "-1e300", "2.5", "\"2\"", "null", "18446744073709551616"]
        let lines = ids.map { "echo '{\"id\":\($0),\"result\":1}'" }.joined(separator: "; ")
        // A started extension (its describe answered) asked for a timeline, whole or by the line.
        var started: [ExtensionProcess] = []
        func timeline(_ name: String, _ script: String, line: Bool) throws -> String {
            let p = try misbehaving(name, script)
            started.append(p)
            _ = try p.request("describe", timeout: 30)
            return line
                ? String(decoding: try p.requestLine("timeline", timeout: 30), as: UTF8.self)
                : "\(try p.request("timeline", timeout: 30))"
        }
        defer { started.forEach { $0.stop() } }
        let odd = "i=0; while [ $i -lt 20 ]; do \(lines); i=$((i+1)); done"
        for line in [false, true] {
            XCTAssertThrowsError(try timeline("odd", odd, line: line)) {
                XCTAssertEqual("\($0)", "odd: sent more than 64 lines that answer nothing")
            }
        }
        // The line reader: strays skipped, the answer's line as sent, an error said as `request` says it.
        XCTAssertEqual(
            try timeline(
                "good", #"echo '{"id":1e300}'; echo '{"id":2,"result":{"entries":[1,2]},"extra":[true]}'"#, line: true),
            #"{"id":2,"result":{"entries":[1,2]},"extra":[true]}"#)
        XCTAssertThrowsError(
            try timeline("failing", #"echo '{"id":2,"error":{"message":"no network"}}'"#, line: true)
        ) { XCTAssertEqual("\($0)", "failing: no network") }
        XCTAssertThrowsError(try timeline("garbage", "echo '[1,2]'", line: true)) {
            XCTAssertEqual("\($0)", "garbage: sent garbage instead of JSON: [1,2]")
        }
    }

    /// Issue 24.9: very deep but valid JSON is "nested deeper than N", not "garbage".
    func testMessagesThatAreTrueDeepJSONIsNestedDeeperNotGarbage() async throws {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let p = try misbehaving("deep", "echo '{\"id\":2,\"result\":\(deep)}'")
        let m = await failure(try widget(p, kind: "deep"))
        XCTAssertEqual(m, "deep: sent an answer refused: the JSON is nested deeper than 64 levels")
        p.stop()
    }

    func testACrashIsRestartedWithBackOffAndACleanExitBetweenRequestsIsNot() async throws {
        let crash = try misbehaving("crash", "exit 7")
        let w = try widget(crash, kind: "crash")
        let m1 = await failure(w)
        XCTAssertEqual(m1, "crash: exited with status 7")
        let m2 = await failure(w)
        XCTAssertTrue(m2.hasPrefix("crash: exited with status 7; restarting in"), m2)
        XCTAssertEqual(crash.starts, 1, "not started again during the back-off")
        XCTAssertTrue(Eventually.wait { !crash.isBackingOff })
        _ = await failure(w)
        XCTAssertEqual(crash.starts, 2)
        // One answer per process, then a clean exit: started again at once, no back-off.
        let once = try script(
            "once",
            """
            read l
            case $l in *describe*) echo '\(describeLine("once"))';;
            *) echo '{"id":'"$(echo "$l" | cut -d: -f2 | cut -d, -f1)"',"result":{"entries":[{"date":0,"view":"ok"}]}}';; esac
            exit 0
            """)
        let p = ExtensionProcess(path: once, environment: env, limits: fast, log: log.add)
        let ow = try widget(p, kind: "once")
        // It has exited after its describe answer.
        if let pid = p.processID { XCTAssertTrue(Eventually.wait { Eventually.isGone(pid) }) }
        for _ in 0..<3 {
            let m = await failure(ow)
            XCTAssertEqual(m, "success 1")
        }
        XCTAssertEqual(p.starts, 4, log.lines.joined(separator: "\n"))
        crash.stop()
        p.stop()
    }

    func testAStderrFloodIsDrainedAndRateLimited() async throws {
        let p = try misbehaving(
            "noisy",
            """
            yes "line $(printf '\\033[2J')" | head -n 50000 >&2
            echo '{"id":2,"result":{"entries":[{"date":0,"view":"fine"}]}}'
            """)
        let w = try widget(p, kind: "noisy")
        let m = await failure(w)
        XCTAssertEqual(m, "success 1", "a full stderr pipe never blocks the extension")
        // Twenty lines logged (of 50,000), then the rest dropped.
        Eventually.wait { self.log.lines.filter { $0.contains("stderr:") }.count >= 20 }
        let lines = log.lines.filter { $0.contains("stderr:") }
        XCTAssertEqual(lines.count, 20)
        XCTAssertFalse(lines.joined().contains("\u{1b}"))
        p.stop()
    }

    func testAnExtensionHasNoTerminalAndItsOwnSession() async throws {
        let p = try misbehaving(
            "session",
            """
            tty >/dev/null 2>&1 && t=tty || t=notty
            s=$(cut -d' ' -f6 /proc/$$/stat); g=$(cut -d' ' -f5 /proc/$$/stat)
            echo '{"id":2,"result":{"entries":[{"date":0,"summary":"'$t' '$s' '$g' '$$'"}]}}'
            """)
        let w = try widget(p, kind: "session")
        let t = try await Loads.run(w, configuration: WidgetConfig(), in: context()).get()
        let parts = t.entries[0].summary.split(separator: " ").map(String.init)
        XCTAssertEqual(parts[0], "notty")
        XCTAssertEqual(parts[1], parts[3], "session leader")
        XCTAssertEqual(parts[2], parts[3], "process group leader")
        p.stop()
    }
}
