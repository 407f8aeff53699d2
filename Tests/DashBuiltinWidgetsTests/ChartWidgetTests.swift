import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

@Suite struct ChartWidgetTests {
    let widget = ChartWidget.make(http: testHTTP)

    /// A context with a state folder and an instance, as the runtime gives.
    func stateContext(_ family: WidgetFamily, dir: String, at: Date = testNow) -> TimelineContext {
        var c = TimelineContext(family: family, size: contentSize(family), now: at)
        c.instanceID = "w7"
        c.stateDirectory = dir
        return c
    }

    func tempDir() throws -> String {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-chart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d.path
    }

    /// A command printing the numbers of a file in turn (one a run), without a shell of ours.
    func counter(_ dir: String, _ values: [Double]) throws -> String {
        let file = dir + "/values"
        try values.map { String($0) }.joined(separator: "\n").appending("\n").write(
            toFile: file, atomically: true, encoding: .utf8)
        return "sh -c 'head -n 1 \(file); sed -i 1d \(file)'"
    }

    @Test func numbersFromCommandOutput() {
        #expect(ChartSource.firstNumber("0.52 0.41 0.30 1/234 5678") == 0.52)
        #expect(ChartSource.firstNumber("load: 42%") == 42)
        #expect(ChartSource.firstNumber("temp=-3.5e1C") == -35)
        #expect(ChartSource.firstNumber("no digits") == nil)
        #expect(ChartSource.firstNumber("1e400") == nil, "not finite")
        #expect(ChartSource.firstNumber("nan inf") == nil)
    }

    @Test func rowsOnAFixedScaleWithThresholds() {
        var e = ChartSamples.entry(now: testNow)
        e.values = [0, 25, 50, 75, 100, 150]
        e.fixedMin = 0
        e.fixedMax = 100
        e.thresholds = [APIThreshold(level: .warning, above: true, limit: 50)]
        e.style = .bars
        assertSnapshot(ChartViews.rows(e, width: 6, height: 4).joined(separator: "\n"), named: "chart-rows-bars")
        e.style = .line
        assertSnapshot(ChartViews.rows(e, width: 6, height: 4).joined(separator: "\n"), named: "chart-rows-line")
        #expect(e.level == .warning, "150 is past warn>50 (and drawn at the top, clamped)")
    }

    @Test func historyIsKeptAcrossRestartsAndBounded() async throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cmd = try counter(dir, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        let cfg = WidgetConfig([
            "command": .string(cmd), "title": .string("Queue"), "points": .int(10), "min": .string("0"),
            "max": .string("12"), "thresholds": .list(["warn>8", "alert>10"]), "bell": .bool(true),
        ])
        var rang: [Bool] = []
        for i in 0..<12 {
            // A fresh widget each time: what a restart is.
            let w = ChartWidget.make(http: testHTTP)
            let t = try await w.timeline(
                for: cfg, in: stateContext(.medium, dir: dir, at: testNow.addingTimeInterval(Double(i) * 60)))
            let e = try #require(t.entries.first?.base as? ChartEntry)
            rang.append(e.ringsBell)
            if i == 11 {
                #expect(e.values == [3, 4, 5, 6, 7, 8, 9, 10, 11, 12], "the last 10 points, bounded")
                #expect(e.relevance?.score == 1)
                let tile = render(w, t.entries[0], .medium)
                assertSnapshot(tile.text, named: "chart-medium")
                let large = render(w, t.entries[0], .large)
                assertSnapshot(large.text, named: "chart-large")
                let small = render(w, t.entries[0], .small)
                assertSnapshot(small.text, named: "chart-small")
            }
        }
        // The bell once per crossing: into warning at 9, into alert at 11.
        #expect(rang.enumerated().filter(\.element).map(\.offset) == [8, 10])
        let saved = try String(contentsOfFile: dir + "/chart-w7.json", encoding: .utf8)
        #expect(saved.contains("\"source\""))
    }

    @Test func aBrokenHistoryFileAndAFailingCommand() async throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "{\"source\": 5, \"times\": \"x\"".write(toFile: dir + "/chart-w7.json", atomically: true, encoding: .utf8)
        let cfg = WidgetConfig(["command": .string("sh -c 'echo nothing here'")])
        let t = try await widget.timeline(for: cfg, in: stateContext(.medium, dir: dir))
        let tile = render(widget, t.entries[0], .medium)
        #expect(tile.text.contains("printed no number"))
        let failing = WidgetConfig(["command": .string("sh -c 'echo boom; exit 3'")])
        let (f, _) = try await liveTile(widget, failing, .medium)
        #expect(f.text.contains("status 3"))
        let (none, _) = try await liveTile(widget, WidgetConfig(["command": .string("")]), .medium)
        #expect(none.text.contains("needs a command"))
    }

    @Test func gaugeFromAnAPIField() async throws {
        let s = try LocalHTTPServer()
        defer { s.stop() }
        s.route("/status", fixtureResponse("api/service_status.json"))
        s.route("/hostile", fixtureResponse("api/hostile.json"))
        let cfg = WidgetConfig([
            "source": .string("api"), "url": .string(s.baseURL + "/status"), "path": .string("metrics.p95_ms"),
            "style": .string("gauge"), "min": .string("0"), "max": .string("500"), "unit": .string(" ms"),
            "title": .string("p95"),
        ])
        let (tile, t) = try await liveTile(widget, cfg, .medium)
        assertSnapshot(tile.text, named: "chart-gauge-medium")
        #expect(tile.text.contains("184 ms"))
        #expect(t.policy == .after(testNow.addingTimeInterval(5 * 60)), "an API is sampled at most every 5 minutes")
        var wrong = cfg
        wrong["url"] = .string(s.baseURL + "/hostile")
        wrong["path"] = .string("name")
        let (w, _) = try await liveTile(widget, wrong, .medium)
        #expect(w.text.contains("not a number"))
        #expect(isClean(w.text))
    }

    /// `api: w1` and `field: p95`: the chart takes that api widget's request and its field's path
    /// (issue 27.2: a number over time from the api widget's field); what is missing is said.
    @Test func aChartOfAnAPIWidgetsFieldTakesItsRequestAndPath() async throws {
        let s = try LocalHTTPServer()
        defer { s.stop() }
        s.route("/status", fixtureResponse("api/service_status.json"))
        let api = WidgetConfig([
            "url": .string(s.baseURL + "/status"),
            "fields": .list(["Requests = metrics.requests_total | number", "p95 = metrics.p95_ms | number"]),
        ])
        func lookup(_ id: String) -> (kind: String, config: WidgetConfig)? { id == "w1" ? ("api", api) : nil }
        var chart = WidgetConfig([
            "source": .string("api"), "api": .string("w1"), "field": .string("P95"), "style": .string("gauge"),
            "min": .string("0"), "max": .string("500"), "unit": .string(" ms"), "title": .string("p95"),
        ])
        let borrowed = ChartSource.borrowing(chart, lookup)
        #expect(borrowed.string("url") == s.baseURL + "/status")
        #expect(borrowed.string("path") == "metrics.p95_ms")
        // The chart reads the api widget's answer (issue 38.7): the api tile loads first.
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var apiContext = stateContext(.medium, dir: dir)
        apiContext.instanceID = "w1"
        _ = try await APIWidget.make(http: testHTTP).timeline(for: api, in: apiContext)
        let timeline = try await widget.timeline(for: borrowed, in: stateContext(.medium, dir: dir))
        let tile = render(widget, try #require(timeline.entries.first), .medium)
        #expect(tile.text.contains("184 ms"), "\(tile.text)")
        #expect(ChartSource.borrowing(WidgetConfig(["source": .string("command"), "api": .string("w1")]), lookup)
            .string("url").isEmpty, "a command chart borrows nothing")
        chart["field"] = .string("p99")
        #expect(ChartSource(ChartSource.borrowing(chart, lookup)).problem
            == "field: api widget w1 has no field p99; its fields: Requests, p95")
        chart["api"] = .string("w9")
        #expect(ChartSource(ChartSource.borrowing(chart, lookup)).problem
            == "api: no api widget with id w9 on the home screen")
        #expect(widget.borrows != nil, "the home screen applies it when a load starts (AppState.job)")
    }

    /// Issue 38 point 7: a chart bound to an api widget's field shows the number the api tile
    /// shows, read from that widget's last answer: the server is asked once per api reload and
    /// never by the chart; before the api's first answer the chart says it waits for it.
    @Test func aBoundChartReadsTheAPITilesAnswerAndAsksNoServer() async throws {
        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var n = 0
            func next() -> Int { lock.withLock { n += 1; return n } }
        }
        let count = Count()
        let s = try LocalHTTPServer()
        defer { s.stop() }
        // Each answer is one more than the last: 7, then 8.
        s.handle("/queue") { _ in
            LocalHTTPServer.Response(status: 200, contentType: "application/json", #"{"queue":{"depth":\#(6 + count.next())}}"#)
        }
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let apiWidget = APIWidget.make(http: testHTTP)
        let api = WidgetConfig(["url": .string(s.baseURL + "/queue"), "fields": .list(["Depth = queue.depth | number"])])
        let chart = ChartSource.borrowing(
            WidgetConfig(["source": .string("api"), "api": .string("w1"), "field": .string("Depth")]),
            { $0 == "w1" ? ("api", api) : nil })
        func loadAPI(at minute: Double) async throws -> APIEntry {
            var c = stateContext(.medium, dir: dir, at: testNow.addingTimeInterval(minute * 60))
            c.instanceID = "w1"
            return try #require(try await apiWidget.timeline(for: api, in: c).entries.first?.base as? APIEntry)
        }
        func loadChart(at minute: Double) async throws -> (ChartEntry, AnyTimeline) {
            let c = stateContext(.medium, dir: dir, at: testNow.addingTimeInterval(minute * 60))
            let t = try await widget.timeline(for: chart, in: c)
            guard let entry = t.entries.first?.base as? ChartEntry else { throw NotAChartEntry() }
            return (entry, t)
        }

        let (waiting, retry) = try await loadChart(at: 0)
        #expect(waiting.failure == "waiting for the api tile w1 to answer")
        #expect(retry.policy == .after(testNow.addingTimeInterval(60)), "asked again within a minute")
        #expect(s.requests.isEmpty, "the chart asked the server")

        let first = try await loadAPI(at: 1)
        #expect(first.values.first?.number == 7)
        let (seven, _) = try await loadChart(at: 2)
        #expect(seven.latest == 7 && seven.failure == nil, "\(seven)")
        #expect(s.requests.count == 1, "one request: the api tile's")

        let second = try await loadAPI(at: 16)
        #expect(second.values.first?.number == 8)
        let (eight, _) = try await loadChart(at: 17)
        #expect(eight.values == [7, 8])
        // No new answer since: no new point, and still no request of the chart's.
        let (same, _) = try await loadChart(at: 22)
        #expect(same.values == [7, 8])
        #expect(s.requests.count == 2, "one request per api reload, none from the chart")
    }
}

/// A chart's timeline whose first entry is not a chart's.
struct NotAChartEntry: Error {}
