import Foundation
import Testing
import DashTestSupport
import DashCore
import DashRender
import DashWidgets
@testable import DashBuiltinWidgets

/// A bounded fuzz run inside `swift test`: random mutations of the fixtures (a fixed seed,
/// so a failure repeats), a few thousand cases per parser, seconds in all. Every case must
/// come back without crashing and with sane output (`FuzzHarness`). The open-ended runs
/// are the libFuzzer targets of Tests/fuzz/run.sh (docs/fuzzing.md).
// Serialized, and yielding after every case: the fuzz loops must not hold both threads of
// the cooperative pool while timing-sensitive tests of other suites wait for one.
@Suite("parser fuzzing", .serialized)
struct ParserFuzzTests {
    typealias Random = SeededRandom

    /// Byte strings that parsers treat specially, spliced into inputs.
    static let tokens: [[UInt8]] =
        [
            "<", ">", "&", ";", "</", "/>", "<![CDATA[", "]]>", "<!--", "-->", "<?xml ", "?>", "<!DOCTYPE x [", "]>",
            "<!ENTITY a \"b\">", "&amp;", "&lt;", "&#x", "&#", "&eacute;", "&#0;", "&#x110000;", "&#xD800;", "<item>",
            "</item>", "<entry>", "</entry>", "<title>", "</title>", "<link>", "</link>", "<link href=\"",
            "xml:base=\"",
            " rel=\"alternate\"", " type=\"xhtml\"", " type=\"html\"", "<div xmlns=\"http://www.w3.org/1999/xhtml\">",
            "xmlns:a=\"", "encoding=\"utf-16\"", "encoding=\"windows-1252\"", "\"", "'", "=", "{", "}", "[", "]", ",",
            ":",
            "null", "true", "-1e999", "1e308", "NaN", "\"\\u0000\"", "\"\\ud800\"", "\u{1B}[31m", "\u{202E}",
            "\u{FFFD}",
            "javascript:", "//", "../", "\"title\":", "\"url\":", "\"message\":", "\"sha\":", "\"current_price\":",
        ].map { Array($0.utf8) }
        + [[0xC3], [0xFF], [0xFE, 0xFF], [0xFF, 0xFE], [0xEF, 0xBB, 0xBF], [0x00], [0x80], [0xED, 0xA0, 0x80]]

    static func mutate(_ input: [UInt8], _ rng: inout Random, pool: [[UInt8]]) -> [UInt8] {
        var b = input
        for _ in 0...rng.below(4) {
            let at = rng.below(b.count + 1)
            switch rng.below(9) {
            case 0: if !b.isEmpty { b[min(at, b.count - 1)] ^= UInt8(1 << rng.below(8)) }
            case 1: b.insert(UInt8(rng.below(256)), at: at)
            case 2: if at < b.count { b.removeSubrange(at..<min(b.count, at + 1 + rng.below(64))) }
            case 3: b.insert(contentsOf: tokens[rng.below(tokens.count)], at: at)
            case 4:  // duplicate a slice (nesting, repetition)
                if at < b.count {
                    let end = min(b.count, at + 1 + rng.below(256))
                    let slice = Array(b[at..<end])
                    for _ in 0...rng.below(8) { b.insert(contentsOf: slice, at: at) }
                }
            case 5: b = Array(b.prefix(at))  // truncate
            case 6:  // splice the tail of another input
                let other = pool[rng.below(pool.count)]
                let from = rng.below(other.count + 1)
                b = Array(b.prefix(at)) + other[from...]
            case 7: if !b.isEmpty { b[min(at, b.count - 1)] = [0x3C, 0x3E, 0x26, 0x22, 0x00, 0xC3][rng.below(6)] }
            default:
                if at < b.count {
                    b.replaceSubrange(at..<min(b.count, at + rng.below(16)), with: tokens[rng.below(tokens.count)])
                }
            }
        }
        return b.count > 1 << 20 ? Array(b.prefix(1 << 20)) : b
    }

    static func seeds(_ target: FuzzTarget) throws -> [[UInt8]] {
        let dir = testsDirectory.appendingPathComponent("Fixtures")
        let names: [String]
        switch target {
        case .feeds:
            let feeds = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("feeds").path)
                .filter { $0.hasSuffix(".xml") }.sorted().map { "feeds/" + $0 }
            names =
                feeds + ["rss_world.xml", "atom_tech.xml", "broken.xml", "xxe.xml", "laughs.xml", "not_a_feed.html"]
        case .newsapi:
            names = ["newsapi_us.json", "newsapi_gb.json", "newsapi_error_401.json", "newsapi_error_429.json"]
        case .coingecko:
            names = ["coingecko_markets.json", "coingecko_markets_litecoin.json", "coingecko_coins_list.json"]
        case .coinmarketcap: names = ["cmc_listings.json", "cmc_error_401.json"]
        case .commits: names = ["github_commits.json", "github_branch.json", "github_404.json", "github_403_rate.json"]
        case .ics:
            names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("ics").path)
                .filter { $0.hasSuffix(".ics") }.sorted().prefix(8).map { "ics/" + $0 }
        case .todo:
            names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("todo").path)
                .filter { !$0.hasPrefix(".") }.sorted().map { "todo/" + $0 }
        }
        return try names.map { [UInt8](try Data(contentsOf: dir.appendingPathComponent($0))) }
    }

    /// Runs `cases` mutated inputs through `target`; returns the number run.
    static func fuzz(_ target: FuzzTarget, cases: Int, seed: UInt64) async throws -> Int {
        let pool = try seeds(target)
        var rng = Random(state: seed)
        var failures: [String] = []
        for i in 0..<cases {
            let input = i < pool.count ? pool[i] : mutate(pool[rng.below(pool.count)], &rng, pool: pool)
            await Task.yield()
            let problems = await FuzzHarness.run(target, Data(input))
            if !problems.isEmpty, failures.count < 5 {
                let sample = String(decoding: input.prefix(300), as: UTF8.self)
                failures.append(
                    "case \(i) (\(input.count) bytes): \(problems.prefix(3))"
                        + " — input starts \(sample.debugDescription)")
            }
        }
        for f in failures { Issue.record("\(target.rawValue): \(f)") }
        return cases
    }

    @Test func feedsSurviveMutatedFixtures() async throws {
        let clock = ContinuousClock()
        var n = 0
        let t = try await clock.measure { n = try await Self.fuzz(.feeds, cases: 3_000, seed: 0x5EED_F00D) }
        print("fuzz feeds: \(n) cases in \(t)")
        // Each mutated feed also draws into a tile without trouble.
        var rng = Random(state: 42)
        let pool = try Self.seeds(.feeds)
        let widget = NewsWidget.make(http: FuzzHarness.client(Data()))
        for _ in 0..<200 {
            await Task.yield()
            let input = Self.mutate(pool[rng.below(pool.count)], &rng, pool: pool)
            guard let feed = try? NewsFeedParser.parse(Data(input), host: "h", url: "https://h/f") else { continue }
            let entry = NewsEntry(
                date: FuzzHarness.now, sourceName: feed.title.isEmpty ? "h" : feed.title,
                items: Array(feed.items.prefix(10)))
            for family in [WidgetFamily.small, .large] {
                _ = render(widget, AnyEntry(entry), family)
            }
        }
    }

    @Test func newsJSONSurvivesMutatedFixtures() async throws {
        let n = try await Self.fuzz(.newsapi, cases: 2_000, seed: 0xBADC_0FFE)
        print("fuzz newsapi: \(n) cases")
    }

    @Test func cryptoJSONSurvivesMutatedFixtures() async throws {
        let a = try await Self.fuzz(.coingecko, cases: 1_500, seed: 0xC01D_CAFE)
        let b = try await Self.fuzz(.coinmarketcap, cases: 1_000, seed: 0xC0FF_EE00)
        print("fuzz crypto: \(a) CoinGecko and \(b) CoinMarketCap cases")
    }

    @Test func commitsJSONSurvivesMutatedFixtures() async throws {
        let n = try await Self.fuzz(.commits, cases: 2_000, seed: 0x0C0D_E5EE)
        print("fuzz commits: \(n) cases")
    }

    /// Shapes no mutation reaches quickly: huge, deep and wide inputs.
    @Test func calendarsSurviveMutatedFixtures() async throws {
        let n = try await Self.fuzz(.ics, cases: 600, seed: 0x1C5)
        print("fuzz ics: \(n) cases")
    }

    @Test func todoFilesComeBackByteForByteWhateverTheirBytes() async throws {
        let n = try await Self.fuzz(.todo, cases: 3_000, seed: 0x70D0)
        print("fuzz todo: \(n) cases")
    }

    @Test func hugeDeepAndWideInputsAreBounded() async throws {
        let deepJSON = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        let wideJSON = Data(
            ("["
                + Array(repeating: "{\"sha\":\"a\",\"commit\":{\"message\":\"m\"}}", count: 50_000)
                .joined(separator: ",") + "]").utf8)
        let longText = String(repeating: "é\u{1B}[2J", count: 200_000)
        let longJSON = Data(
            ("{\"status\":\"ok\",\"articles\":[{\"title\":\"\(longText)\","
                + "\"url\":\"https://e.example/\"}]}").utf8)
        for target in FuzzTarget.allCases {
            for input in [deepJSON, wideJSON, longJSON] {
                await Task.yield()
                let problems = await FuzzHarness.run(target, input)
                #expect(problems.isEmpty, "\(target.rawValue): \(problems.prefix(3))")
            }
        }
        let geckoRows =
            "["
            + Array(
                repeating: "{\"id\":\"x\",\"symbol\":\"\(longText.prefix(25_000))\",\"name\":\"n\","
                    + "\"current_price\":1,\"sparkline_in_7d\":{\"price\":["
                    + Array(repeating: "1", count: 20_000).joined(separator: ",")
                    + "]}}", count: 300
            ).joined(separator: ",") + "]"
        let problems = await FuzzHarness.run(.coingecko, Data(geckoRows.utf8))
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }
}
