import Foundation
import Testing
import DashWidgets
@testable import DashBuiltinWidgets

/// When the shipped widgets call their entries relevant (Smart Rotate, attention), and what
/// they call new content.
@Suite("relevance of the built-in widgets")
struct RelevanceTests {
    func crypto(_ change: Double?, alert: Double? = nil) -> CryptoEntry {
        let coin = CoinQuote(id: "bitcoin", symbol: "BTC", name: "Bitcoin", price: 67_000, change24h: change)
        var e = CryptoEntry(date: testNow, currency: "USD", sourceName: "test", selected: "BTC", coin: coin, top: [])
        e.moveAlert = alert
        return e
    }

    @Test func cryptoIsRelevantBeyondItsMoveAlert() throws {
        #expect(crypto(4.9).relevance == nil, "below the default 5 %")
        let up = try #require(crypto(6.1).relevance)
        #expect(abs(up.score - 0.61) < 1e-9)
        #expect(up.reason == "BTC moved +6.1% in 24 h")
        #expect(up.duration == TimeInterval(30 * 60))
        #expect(try #require(crypto(-12).relevance).score == 1, "a fall counts; twice the threshold scores 1")
        #expect(try #require(crypto(2.5, alert: 2).relevance).score == 0.625, "the threshold is configurable")
        #expect(crypto(nil).relevance == nil)
        #expect(crypto(.nan).relevance == nil)
        var placeholder = crypto(9)
        placeholder.isPlaceholder = true
        #expect(placeholder.relevance == nil)
        #expect(crypto(9).contentID == nil, "a price is not news")
    }

    func news(_ ids: [String], publishedAgo: TimeInterval? = 600) -> NewsEntry {
        NewsEntry(
            date: testNow, sourceName: "Feed",
            items: ids.map {
                NewsItem(
                    id: $0, title: "Story \($0)", source: "Feed", published: publishedAgo.map { testNow - $0 },
                    summary: "", url: "https://example.org/\($0)")
            })
    }

    @Test func newsIsRelevantForATopStoryNotSeenBefore() throws {
        let r = try #require(news(["a", "b"]).relevance)
        #expect(r.untilSeen, "it holds until the story has been seen")
        #expect(r.score == 0.6)
        #expect(r.reason == "new top story: Story a")
        #expect(news(["a", "b"]).contentID == "story:a")
        #expect(news(["b", "a"]).contentID == "story:b", "a new top story is new content")
        #expect(news(["a"], publishedAgo: 2 * 86_400).relevance == nil, "a day-old story is not news")
        #expect(news(["a"], publishedAgo: nil).relevance != nil, "an undated story may be news")
        #expect(news([]).relevance == nil)
    }

    func commits(ageMinutes: Double?, failure: String? = nil) -> CommitsEntry {
        let c = CommitInfo(
            hash: "abcdef1234", message: "Fix the thing\n\nbody", author: "Ada",
            date: ageMinutes.map { testNow - $0 * 60 })
        return CommitsEntry(
            date: testNow, repository: "o/r", branch: "main", isLocal: false, commits: [c],
            failure: failure)
    }

    @Test func commitsAreRelevantWithinAnHourOfTheNewestCommit() throws {
        let fresh = try #require(commits(ageMinutes: 0).relevance)
        #expect(fresh.score == 1)
        #expect(fresh.duration == 3600, "relevant until the commit is an hour old")
        #expect(fresh.reason == "new commit abcdef1 \"Fix the thing\" by Ada")
        let half = try #require(commits(ageMinutes: 30).relevance)
        #expect(half.score == 0.75)
        #expect(half.duration == 1800)
        #expect(commits(ageMinutes: 60).relevance == nil)
        #expect(commits(ageMinutes: nil).relevance == nil)
        #expect(commits(ageMinutes: 5, failure: "gone").relevance == nil)
        #expect(commits(ageMinutes: 5).contentID == "commit:abcdef1234")
    }

    @Test func everyRelevantWidgetSaysWhenInTheWidgetList() {
        for kind in ["crypto", "news", "commits"] {
            #expect(BuiltinWidgets.bundle[kind]?.relevanceHelp?.isEmpty == false, "\(kind)")
        }
    }
}
