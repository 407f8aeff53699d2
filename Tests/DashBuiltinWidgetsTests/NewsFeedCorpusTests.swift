import Foundation
import Testing
@testable import DashBuiltinWidgets

/// The feed corpus (Fixtures/feeds: publishers, blogs, forges, video sites, aggregators and
/// podcast hosts in every RSS and Atom version and the common encodings) read by the news
/// parser and compared with what Python's feedparser reads from the same bytes
/// (Tests/reference/feedparser_expected.json, written by Tests/reference/feedparser_reference.py).
@Suite("news feed corpus")
struct NewsFeedCorpusTests {
    struct Expected: Decodable {
        struct Feed: Decodable {
            struct Entry: Decodable {
                var title: String
                var link: String
            }
            var url: String
            var title: String
            var entries: [Entry]
        }
        var feedparser: String
        var feeds: [String: Feed]
    }

    static let corpus = testsDirectory.appendingPathComponent("Fixtures/feeds")

    static func expected() throws -> Expected {
        let url = testsDirectory.deletingLastPathComponent()
            .appendingPathComponent("reference/feedparser_expected.json")
        return try JSONDecoder().decode(Expected.self, from: Data(contentsOf: url))
    }

    struct Tally {
        var headlines = 0, headlinesAgreeing = 0, links = 0, linksAgreeing = 0, feedTitles = 0, feedTitlesAgreeing = 0
        var differences: [String] = []
    }

    static func compare() throws -> (Tally, Int) {
        let expected = try expected()
        var t = Tally()
        for name in expected.feeds.keys.sorted() {
            let want = expected.feeds[name]!
            let data = try Data(contentsOf: corpus.appendingPathComponent(name))
            let got = try NewsFeedParser.parse(data, host: "feeds.example.com", url: want.url)
            t.feedTitles += 1
            if got.title == want.title {
                t.feedTitlesAgreeing += 1
            } else {
                t.differences.append(
                    "\(name) feed title: want \(want.title.debugDescription)"
                        + " got \(got.title.debugDescription)")
            }
            for (i, w) in want.entries.enumerated() {
                let g = i < got.items.count ? got.items[i] : nil
                t.headlines += 1
                t.links += 1
                if g?.title == w.title {
                    t.headlinesAgreeing += 1
                } else {
                    t.differences.append(
                        "\(name) #\(i) title: want \(w.title.debugDescription)"
                            + " got \(String(describing: g?.title.debugDescription))")
                }
                if g?.url == w.link {
                    t.linksAgreeing += 1
                } else {
                    t.differences.append(
                        "\(name) #\(i) link: want \(w.link.debugDescription)"
                            + " got \(String(describing: g?.url.debugDescription))")
                }
            }
            if got.items.count > want.entries.count {
                // Stories feedparser does not have count against us.
                t.headlines += got.items.count - want.entries.count
                t.links += got.items.count - want.entries.count
                t.differences.append("\(name): \(got.items.count - want.entries.count) extra stories")
            }
        }
        return (t, expected.feeds.count)
    }

    static func percent(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : Double(a) * 100 / Double(b) }

    /// Where the widget deliberately reads differently from feedparser 6.0, because issue 14
    /// asks for it; any other difference fails the test even above 99%.
    static let knownDivergences: [String: String] = [
        "pub_notwellformed_ampersands.xml #1 title":
            "a bare & before letters: feedparser's lenient parser invents a ';' (\"Q&A;\"); we keep the text",
        "pub_notwellformed_entities.xml #5 title":
            "&check; is an HTML5-only name: feedparser's lenient parser knows HTML 4 names only",
        "blog_html_titles.xml #5 title":
            "&star; is an HTML5-only name: feedparser's sanitizer turns it into \"&star\"",
        "misc_link_relations.xml #6 link":
            "rel=\"http://www.iana.org/assignments/relation/alternate\" is RFC 4287's full form of alternate",
    ]

    @Test func headlinesAndLinksAgreeWithFeedparser() throws {
        let (t, feeds) = try Self.compare()
        let h = Self.percent(t.headlinesAgreeing, t.headlines)
        let l = Self.percent(t.linksAgreeing, t.links)
        print(
            "feed corpus: \(feeds) feeds; headlines \(t.headlinesAgreeing)/\(t.headlines) agree with feedparser"
                + " (\(FixedFormatPercent.string(h))), links \(t.linksAgreeing)/\(t.links)"
                + " (\(FixedFormatPercent.string(l))),"
                + " feed titles \(t.feedTitlesAgreeing)/\(t.feedTitles)")
        for d in t.differences {
            let key = d.components(separatedBy: ":").first ?? d
            if let why = Self.knownDivergences[key] {
                print("  differs on purpose: \(d)\n    (\(why))")
            } else {
                print("  differs: \(d)")
                Issue.record("unexpected difference from feedparser: \(d)")
            }
        }
        #expect(feeds >= 60)
        #expect(h >= 99, "headline agreement \(h)%")
        #expect(l >= 99, "link agreement \(l)%")
    }
}

enum FixedFormatPercent {
    static func string(_ v: Double) -> String {
        let tenths = Int((v * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }
}
