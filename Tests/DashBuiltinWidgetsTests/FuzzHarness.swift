// One input through one parser of outside input, and what must hold afterwards. Used by
// the bounded fuzz run inside `swift test` (ParserFuzzTests) and, compiled with
// `-D FUZZING` into the DashBuiltinWidgets module, by the libFuzzer targets of
// Tests/fuzz/run.sh (see docs/fuzzing.md). Keep it free of test-only helpers.
import Foundation
import DashWidgets
#if !FUZZING
    @testable import DashBuiltinWidgets
#endif

/// The parsers of outside input that the news, crypto and commits widgets run.
enum FuzzTarget: String, CaseIterable, Sendable {
    /// RSS/Atom/RDF bytes through `NewsFeedParser`.
    case feeds
    /// NewsAPI JSON through the news widget's timeline.
    case newsapi
    /// CoinGecko JSON (markets and the coin list) through the crypto widget's timeline.
    case coingecko
    /// CoinMarketCap JSON through the crypto widget's timeline.
    case coinmarketcap
    /// GitHub JSON (commits list and branch) through the commits widget's timeline.
    case commits
    /// iCalendar bytes through `CalendarParser` and a year of recurrence expansion.
    case ics
    /// todo.txt bytes through `TodoFile` and `TodoTxt`: every byte comes back unchanged.
    case todo
}

/// Answers every request with the same canned body: the bytes under test.
struct CannedTransport: HTTPTransport {
    let body: Data
    func send(_ request: HTTPRequestSpec, options: HTTPOptions) async throws -> HTTPResponseData {
        HTTPResponseData(status: 200, headers: [:], body: body)
    }
}

enum FuzzHarness {
    static let now = Date(timeIntervalSince1970: 1_795_424_400)
    static let maxField = 2_000

    /// Runs `data` through `target`; returns what is wrong with the outcome (empty if nothing).
    static func run(_ target: FuzzTarget, _ data: Data) async -> [String] {
        switch target {
        case .feeds:
            return feed(data)
        case .newsapi:
            let widget = NewsWidget.make(http: client(data))
            let config = WidgetConfig([
                "source": .string("newsapi"), "apiKey": .string("fuzz-key-1234"),
                "country": .string("us"),
            ])
            return await timeline(widget, config, .large)
        case .coingecko:
            let widget = CryptoWidget.make(http: client(data))
            // BTC is looked up directly; ZZZ needs the coin list first.
            return await timeline(widget, WidgetConfig(["coin": .string("BTC")]), .large)
                + timeline(widget, WidgetConfig(["coin": .string("ZZZ")]), .medium)
        case .coinmarketcap:
            let widget = CryptoWidget.make(http: client(data))
            let config = WidgetConfig([
                "source": .string("coinmarketcap"), "apiKey": .string("fuzz-key-1234"),
                "coin": .string("ETH"),
            ])
            return await timeline(widget, config, .large)
        case .commits:
            let widget = CommitsWidget.make(http: client(data))
            return await timeline(widget, WidgetConfig([:]), .large) + timeline(widget, WidgetConfig([:]), .small)
        case .ics:
            return calendar(data)
        case .todo:
            return todo(data)
        }
    }

    static func calendar(_ data: Data) -> [String] {
        let doc = CalendarParser.parse(data, source: "fuzz.ics")
        let r = doc.occurrences(from: now, to: now.addingTimeInterval(366 * 86_400), viewer: .utc)
        var problems: [String] = []
        if r.occurrences.count > CalendarParser.maxOccurrences { problems.append("\(r.occurrences.count) occurrences") }
        for o in r.occurrences.prefix(50) {
            problems +=
                text(o.summary, "summary") + text(o.location, "location")
                + text(o.description, "description", newlines: true)
            // (An end before the start is kept: the reference, icalendar, keeps it too — a
            // DTEND before DTSTART, or a spring-forward gap.)
        }
        return problems
    }

    static func todo(_ data: Data) -> [String] {
        let file = TodoFile(data)
        var problems: [String] = []
        if file.data != data { problems.append("todo.txt did not come back byte for byte") }
        for (i, line) in file.lines.prefix(200).enumerated() {
            let item = TodoTxt.parse(line, index: i)
            _ = item
        }
        return problems
    }

    /// `run` for callers that cannot await (libFuzzer's entry point).
    static func runBlocking(_ target: FuzzTarget, _ data: Data) -> [String] {
        final class Box: @unchecked Sendable { var problems: [String] = [] }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.problems = await run(target, data)
            done.signal()
        }
        done.wait()
        return box.problems
    }

    static func client(_ body: Data) -> HTTPClient {
        HTTPClient(
            options: HTTPOptions(connectTimeout: 2, totalTimeout: 2, maxBytes: 5 * 1024 * 1024),
            transport: CannedTransport(body: body))
    }

    static func feed(_ data: Data) -> [String] {
        do {
            let f = try NewsFeedParser.parse(data, host: "feeds.example.com", url: "https://feeds.example.com/f.xml")
            var p = text(f.title, "feed title") + link(f.link, "feed link")
            if f.items.count > FeedReader.maxEntries { p.append("\(f.items.count) items kept") }
            for (i, item) in f.items.enumerated() {
                if item.title.isEmpty { p.append("item \(i) has an empty title") }
                p +=
                    text(item.title, "item \(i) title") + text(item.summary, "item \(i) summary", newlines: true)
                    + text(item.source, "item \(i) source") + link(item.url, "item \(i) link")
            }
            return p
        } catch let e as DataSourceError {
            return text(e.message, "error message", limit: 3 * maxField)
        } catch {
            return ["unexpected error \(type(of: error))"]
        }
    }

    static func timeline(_ widget: Widget, _ config: WidgetConfig, _ family: WidgetFamily) async -> [String] {
        let ctx = TimelineContext(family: family, size: (35, 13), now: now, isPreview: false, environment: [:])
        do {
            let t = try await widget.timeline(for: config, in: ctx)
            var p: [String] = []
            for e in t.entries {
                if let n = e.base as? NewsEntry {
                    p += news(n)
                } else if let c = e.base as? CryptoEntry {
                    p += crypto(c)
                } else if let c = e.base as? CommitsEntry {
                    p += commits(c)
                }
                // The view must build from any entry.
                _ = widget.view(for: e, in: ctx)
            }
            return p
        } catch let e as DataSourceError {
            return text(e.message, "error message", limit: 3 * maxField)
        } catch {
            return ["unexpected error \(type(of: error))"]
        }
    }

    static func news(_ e: NewsEntry) -> [String] {
        var p = text(e.sourceName, "source name")
        if e.items.count > 20 { p.append("\(e.items.count) stories kept") }
        for (i, item) in e.items.enumerated() {
            if item.title.isEmpty { p.append("story \(i) has an empty title") }
            p +=
                text(item.title, "story \(i) title") + text(item.summary, "story \(i) summary", newlines: true)
                + text(item.source, "story \(i) source") + link(item.url, "story \(i) link")
        }
        return p
    }

    static func crypto(_ e: CryptoEntry) -> [String] {
        var p: [String] = []
        let quotes = (e.coin.map { [$0] } ?? []) + e.top
        if e.top.count > 250 { p.append("\(e.top.count) coins kept") }
        for (i, q) in quotes.enumerated() {
            p += text(q.name, "coin \(i) name") + text(q.symbol, "coin \(i) symbol") + text(q.id, "coin \(i) id")
            if !q.price.isFinite { p.append("coin \(i) price \(q.price)") }
            if q.history.count > 1_000 { p.append("coin \(i) history of \(q.history.count) points") }
        }
        return p
    }

    static func commits(_ e: CommitsEntry) -> [String] {
        var p = text(e.repository, "repository") + text(e.branch, "branch") + text(e.failure ?? "", "failure")
        if e.commits.count > 250 { p.append("\(e.commits.count) commits kept") }
        for (i, c) in e.commits.enumerated() {
            p +=
                text(c.hash, "commit \(i) hash") + text(c.message, "commit \(i) message", newlines: true)
                + text(c.author, "commit \(i) author") + link(c.url ?? "", "commit \(i) link")
        }
        return p
    }

    /// Outside text that reached an entry: capped, and nothing a terminal would act on.
    static func text(_ s: String, _ what: String, newlines: Bool = false, limit: Int = maxField) -> [String] {
        var p: [String] = []
        if s.count > limit { p.append("\(what) is \(s.count) characters") }
        for u in s.unicodeScalars {
            let v = u.value
            if (v < 0x20 && !(newlines && v == 0x0A)) || (0x7F...0x9F).contains(v)
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
            {
                p.append("\(what) holds U+\(String(v, radix: 16, uppercase: true))")
                break
            }
        }
        return p
    }

    static func link(_ s: String, _ what: String) -> [String] {
        if s.isEmpty { return [] }
        let lower = s.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return ["\(what) is not http(s): \(s)"] }
        return text(s, what, limit: 8 * 1024)
    }
}
