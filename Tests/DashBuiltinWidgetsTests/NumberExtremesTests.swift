import Foundation
import Testing
import DashCore
import DashRender
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets
import DashNetworking

/// Issue 37.1, "no number crashes anything": every built-in widget's numbers — what its
/// provider puts in an entry, what its settings say, what its server answers — set to NaN,
/// ±infinity, ±1e300, 1e17, the smallest double, 0 and -0, and every family drawn. A trap
/// (`Int(NaN)`) ends the test process, so getting to the end is the assertion; the counts
/// show the fuzz really reached every widget.
@Suite struct NumberExtremesTests {
    static let extremes: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 1e17, .leastNonzeroMagnitude, 0, -0.0]
    /// The same as JSON text can carry them (a server's answer, a setting's text).
    static let finiteExtremes: [Double] = [1e300, -1e300, 1e17, .leastNonzeroMagnitude, 0, -0.0]
    static let texts = ["nan", "inf", "-inf", "1e300", "-1e300", "1e17", "5e-324", "0", "-0", "1e400", "-1e400"]

    /// Local widgets only: these run their real provider in the test (the network ones are
    /// fed by a local server below, and `system` samples /proc with a warm-up).
    static let runsLocally: Set<String> = ["clock", "note", "reminders", "recipe", "water", "command", "chart"]

    let bundle = BuiltinWidgets.make(transport: URLSessionTransport())

    // MARK: entries

    @Test func testHugeNaNAndInfiniteNumbersNeverTrap_everyWidgetsEntryNumbers() async throws {
        var drawn: [String: Int] = [:]
        for widget in bundle.widgets {
            // What `preview` and the gallery draw (the sample) and what a tile shows while it
            // loads; each mutated entry is then drawn in every family.
            let family = widget.supportedFamilies.last ?? .medium
            let sample = await widget.snapshot(for: WidgetConfig(), in: context(family, preview: true))
            for entry in [sample, widget.placeholder(in: context(family))] {
                // Detail panes for the entry with every number changed; tiles for each.
                for (mutated, every) in Self.mutations(of: entry.base) {
                    Self.drawEverything(widget, AnyEntry(mutated), details: every)
                    drawn[widget.kind, default: 0] += 1
                }
            }
        }
        for widget in bundle.widgets {
            #expect(drawn[widget.kind, default: 0] > 0, Comment(rawValue: "\(widget.kind): no entry number was fuzzed"))
        }
    }

    // MARK: settings

    @Test func testHugeNaNAndInfiniteNumbersNeverTrap_everyWidgetsSettings() async throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var tried = 0
        for widget in bundle.widgets {
            for p in widget.schema.parameters {
                for text in Self.texts {
                    let items = [text, "a:\(text)", "a = \(text)", "warn>\(text)", "alert<\(text)", "\(text):\(text)"]
                    var candidates: [ConfigValue] = []
                    if let v = try? widget.schema.parse(key: p.key, text: text) { candidates.append(v) }
                    if case .list = p.kind { candidates.append(.list(items)) }
                    if case .string = p.kind { candidates += items.map { ConfigValue.string($0) } }
                    for value in candidates {
                        var config = WidgetConfig()
                        config[p.key] = value
                        tried += 1
                        // The sample with these settings (what `preview` draws), in every family.
                        let family = widget.supportedFamilies.last ?? .medium
                        Self.drawEverything(
                            widget, await widget.snapshot(for: config, in: context(family, preview: true)),
                            details: false)
                        guard Self.runsLocally.contains(widget.kind), widget.cost(for: config) == .local else {
                            continue
                        }
                        var c = context(family)
                        c.stateDirectory = dir
                        c.instanceID = "w1"
                        if let t = try? await widget.timeline(for: config, in: c) {
                            for e in t.entries.prefix(3) { Self.drawEverything(widget, e, details: false) }
                        }
                    }
                }
            }
        }
        #expect(tried > 200, "settings fuzzed: \(tried)")
    }

    // MARK: servers

    /// Every number of each network widget's recorded answer replaced by an extreme (one
    /// extreme for the whole answer), served from 127.0.0.1.
    @Test func testHugeNaNAndInfiniteNumbersNeverTrap_everyServersAnswer() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let current = ExtremeBox()
        let answers: [(path: String, fixture: String)] = [
            ("/v1/forecast", "openmeteo_forecast_berlin.json"),
            ("/v1/search", "openmeteo_geocoding_berlin.json"),
            ("/api/v3/coins/markets", "coingecko_markets.json"),
            ("/api/v3/coins/list", "coingecko_coins_list.json"),
            ("/v1/cryptocurrency/listings/latest", "cmc_listings.json"),
            ("/v2/top-headlines", "newsapi_us.json"),
            ("/api", "api/service_status.json"),
        ]
        for (path, name) in answers {
            let original = try JSONDecoder().decode(JSONValue.self, from: fixture(name))
            server.handle(path) { _ in
                let encoder = JSONEncoder()
                encoder.nonConformingFloatEncodingStrategy = .convertToString(
                    positiveInfinity: "1e400", negativeInfinity: "-1e400", nan: "0")
                let json = (try? encoder.encode(Self.replacingNumbers(original, with: current.value))) ?? Data()
                // An overflowing literal is how a server says infinity.
                let text = String(decoding: json, as: UTF8.self).replacingOccurrences(of: "\"1e400\"", with: "1e400")
                    .replacingOccurrences(of: "\"-1e400\"", with: "-1e400")
                let body = Data(text.utf8)
                return LocalHTTPServer.Response(status: 200, headers: ["Content-Type": "application/json"], body: body)
            }
        }
        server.handle("/big") { _ in
            LocalHTTPServer.Response(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Data("{\"v\": \(current.text), \"items\": [\(current.text), 1]}".utf8))
        }
        let base = server.baseURL
        let configs: [(String, WidgetConfig)] = [
            ("weather", WidgetConfig(["endpoint": .string(base), "geocodingEndpoint": .string(base)])),
            ("crypto", WidgetConfig(["endpoint": .string(base + "/api/v3")])),
            (
                "crypto",
                WidgetConfig([
                    "source": .string("coinmarketcap"), "endpoint": .string(base), "coin": .string("ETH"),
                    "apiKey": .string("k"),
                ])
            ),
            ("news", WidgetConfig(["source": .string("newsapi"), "endpoint": .string(base), "apiKey": .string("k")])),
            (
                "api",
                WidgetConfig([
                    "url": .string(base + "/api"),
                    "fields": .list([
                        "a = metrics.requests_total | number | warn>10", "b = metrics.last_check | date",
                        "c = metrics.disk_bytes | bytes", "d = metrics.error_ratio | ratio | alert>2",
                        "e = metrics.last_check | relative", "f = metrics.revenue_usd | currency:JPY",
                        "g = nodes[*].load | percent:2", "h = metrics.p95_ms | number:8",
                    ]),
                ])
            ),
            (
                "api",
                WidgetConfig([
                    "url": .string(base + "/big"),
                    "fields": .list(["v = v | ratio", "w = items[*] | number:8", "x = v | bytes", "y = v | date",
                        "z = v | relative"]),
                ])
            ),
        ] + ["line", "bars", "gauge"].map { style in
            (
                "chart",
                WidgetConfig([
                    "source": .string("api"), "url": .string(base + "/big"), "path": .string("v"),
                    "style": .string(style),
                ])
            )
        }
        var drawn = 0
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for x in Self.finiteExtremes + [.infinity, -.infinity] {
            current.value = x
            for (kind, config) in configs {
                let widget = try #require(bundle[kind])
                for family in widget.supportedFamilies {
                    var c = context(family)
                    c.stateDirectory = dir
                    c.instanceID = "w-\(kind)"
                    guard let t = try? await widget.timeline(for: config, in: c) else { continue }
                    for e in t.entries.prefix(3) {
                        Self.drawEverything(widget, e)
                        drawn += 1
                    }
                }
            }
        }
        #expect(drawn > 100, "answers drawn: \(drawn)")
    }

    /// The report's case: a chart of an api field of 1e17 (a nanosecond timestamp), in every
    /// style and family, drawn from its history kept in the state folder, as every start does.
    @Test func testHugeNaNAndInfiniteNumbersNeverTrap_chartOfACached1e17() async throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/ns", LocalHTTPServer.Response(
            status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"ns": 1e17}"#.utf8)))
        for style in ["line", "bars", "gauge"] {
            let config = WidgetConfig([
                "source": .string("api"), "url": .string(server.baseURL + "/ns"), "path": .string("ns"),
                "style": .string(style),
            ])
            // Two loads: the first keeps 1e17, the second starts from the kept history.
            for round in 0..<2 {
                let widget = ChartWidget.make(http: testHTTP)
                for family in widget.supportedFamilies {
                    var c = context(family)
                    c.now = testNow.addingTimeInterval(Double(round) * 60)
                    c.stateDirectory = dir
                    c.instanceID = "w-\(style)"
                    let t = try await widget.timeline(for: config, in: c)
                    let e = try #require(t.entries.first?.base as? ChartEntry)
                    #expect(e.values.last == 1e17)
                    if round == 1 { #expect(e.values.count >= 2, "the second load drew the kept 1e17 too") }
                    let tile = render(widget, AnyEntry(e), family)
                    #expect(!tile.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
                    Self.drawEverything(widget, AnyEntry(e))
                }
            }
        }
        // The scale itself at the bounds of a double.
        for values in [[1e17], [1e17, 1e17 + 16], [-1e308, 1e308], [.leastNonzeroMagnitude, 0], [1.7e308, 1.7e308]] {
            var e = ChartSamples.entry(now: testNow)
            e.values = values
            for style in [ChartStyle.line, .bars, .gauge] {
                e.style = style
                _ = ChartViews.rows(e, width: 20, height: 4)
                Self.drawEverything(ChartWidget.make(http: testHTTP), AnyEntry(e))
            }
        }
    }

    // MARK: the conversion itself

    @Test func testHugeNaNAndInfiniteNumbersNeverTrap_theClampingConversion() {
        #expect(Int(clamping: Double.nan) == 0)
        #expect(Int(clamping: Double.nan, to: 3...9) == 3)
        #expect(Int(clamping: Double.nan, to: 3...9, nan: 5) == 5)
        #expect(Int(clamping: Double.infinity) == Int.max)
        #expect(Int(clamping: -Double.infinity) == Int.min)
        #expect(Int(clamping: 1e300) == Int.max)
        #expect(Int(clamping: 9.3e18) == Int.max)
        #expect(Int(clamping: -9.3e18) == Int.min)
        #expect(Int(clamping: 1e17) == 100_000_000_000_000_000)
        #expect(Int32(clamping: 1e17) == Int32.max)
        #expect(UInt64(clamping: -1.0) == 0)
        #expect(Int(clamping: 2.9) == 2, "truncates like Int(_:)")
        #expect(Int(clamping: -2.9) == -2)
        #expect(Int(clamping: Double.leastNonzeroMagnitude) == 0)
        #expect(Int(clamping: -0.0) == 0)
        #expect(Int(clamping: 1e300, to: 0...7) == 7)
        #expect(Int64(clamping: 1e300, to: .unixSeconds) == 1_000_000_000_000)
        for x in Self.extremes { _ = (Int8(clamping: x), UInt8(clamping: x), Int(clamping: x, to: -1...1)) }
    }

    // MARK: helpers

    final class ExtremeBox: @unchecked Sendable {
        private let lock = NSLock()
        private var x: Double = 0
        var value: Double {
            get { lock.withLock { x } }
            set { lock.withLock { x = newValue } }
        }
        /// As JSON text: what a server sends for ±infinity is an overflowing literal.
        var text: String {
            let v = value
            if v == .infinity { return "1e400" }
            if v == -.infinity { return "-1e400" }
            return "\(v)"
        }
    }

    static func tempDir() throws -> String {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-extremes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d.path
    }

    /// Draws the entry the ways the program does: every family's tile, with `details` its detail
    /// panes (the links it offers), its summary, relevance and the cache's round trip.
    static func drawEverything(_ widget: Widget, _ entry: AnyEntry, details: Bool = true) {
        _ = (entry.summary, entry.relevance, entry.contentID, entry.base.ringsBell)
        if let data = try? widget.encodeEntries([entry]) { _ = try? widget.decodeEntries(data) }
        for family in WidgetFamily.allCases {
            let tile = render(widget, entry, family)
            for link in Set(tile.links + [tile.widgetURL].compactMap { $0 }) where details {
                guard let deep = DeepLink(link), !deep.isExternal else { continue }
                let size = contentSize(.extraLarge)
                _ = render(widget.detail(for: deep, entry: entry, in: context(family)), width: size.width, height: 20)
            }
        }
    }

    /// The entry once with each of its numbers set to each extreme, and once with every
    /// number it takes at once — the numbers its type cannot hold (an `Int` of 1e300) are left.
    static func mutations<E: TimelineEntry>(of entry: E) -> [(entry: E, everyNumber: Bool)] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(entry), let tree = try? decoder.decode(JSONValue.self, from: data) else {
            return []
        }
        let paths = numberPaths(tree, [])
        // One at a time: each number outside arrays and the first two of each array (the
        // rest of a long series is what the all-at-once mutation covers).
        let singles = paths.filter { path in
            !path.contains { if case .index(let i) = $0 { return i >= 2 } else { return false } }
        }
        var out: [(entry: E, everyNumber: Bool)] = []
        for x in extremes {
            var all = tree
            for path in paths {
                let one = replacing(tree, at: path[...], with: x)
                guard let d = try? encoder.encode(one), let e = try? decoder.decode(E.self, from: d) else { continue }
                if singles.contains(where: { $0.elementsEqual(path, by: same) }) { out.append((e, false)) }
                all = replacing(all, at: path[...], with: x)
            }
            if let d = try? encoder.encode(all), let e = try? decoder.decode(E.self, from: d) { out.append((e, true)) }
        }
        return out
    }

    enum Step { case key(String), index(Int) }

    static func same(_ a: Step, _ b: Step) -> Bool {
        switch (a, b) {
        case (.key(let x), .key(let y)): return x == y
        case (.index(let x), .index(let y)): return x == y
        default: return false
        }
    }

    static func numberPaths(_ v: JSONValue, _ at: [Step]) -> [[Step]] {
        switch v {
        case .number: return [at]
        case .array(let a): return a.indices.flatMap { numberPaths(a[$0], at + [.index($0)]) }
        case .object(let o): return o.keys.sorted().flatMap { numberPaths(o[$0]!, at + [.key($0)]) }
        default: return []
        }
    }

    static func replacing(_ v: JSONValue, at path: ArraySlice<Step>, with x: Double) -> JSONValue {
        guard let first = path.first else { return .number(x) }
        switch (v, first) {
        case (.array(var a), .index(let i)) where a.indices.contains(i):
            a[i] = replacing(a[i], at: path.dropFirst(), with: x)
            return .array(a)
        case (.object(var o), .key(let k)) where o[k] != nil:
            o[k] = replacing(o[k]!, at: path.dropFirst(), with: x)
            return .object(o)
        default:
            return v
        }
    }

    static func replacingNumbers(_ v: JSONValue, with x: Double) -> JSONValue {
        switch v {
        case .number: return .number(x)
        case .array(let a): return .array(a.map { replacingNumbers($0, with: x) })
        case .object(let o): return .object(o.mapValues { replacingNumbers($0, with: x) })
        default: return v
        }
    }
}
