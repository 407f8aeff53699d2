import Foundation
import Testing
@testable import DashBuiltinWidgets

/// Feeds as they really are (issue 27 point 5): items without a title, Atom 0.3's base64 text,
/// a root element with a namespace prefix. Legacy charsets are in NewsCharsetTests, compared with
/// feedparser on Fixtures/feeds_charset/legacy_*.
@Suite("feeds as they are")
struct FeedsAsTheyAreTests {
    static func parse(_ xml: String) throws -> NewsFeedParser.Feed {
        try NewsFeedParser.parse(Data(xml.utf8), host: "feeds.example.com", url: "https://feeds.example.com/f")
    }

    @Test func anItemWithoutATitleIsAStoryTitledByItsFirstWords() throws {
        // A Mastodon account's RSS: items have a description and a link, no title.
        let feed = try Self.parse(
            """
            <rss version="2.0"><channel><title>@ada</title><link>https://social.example/@ada</link>
            <item><link>https://social.example/@ada/1</link>
            <description>&lt;p&gt;Shipped the &lt;b&gt;new&lt;/b&gt; parser today. It reads every feed I could find, \
            including the odd ones from 2004 that still say RSS 0.91 on the tin.&lt;/p&gt;</description></item>
            <item><link>https://social.example/@ada/2</link><description>Short one</description></item>
            <item><link>https://social.example/@ada/3</link><description></description></item>
            </channel></rss>
            """)
        #expect(feed.items.count == 2, "an item with neither title nor text is not a story")
        #expect(feed.items[0].title == "Shipped the new parser today. It reads every feed I could find, including the…")
        #expect(feed.items[0].title.count <= 81)
        #expect(feed.items[1].title == "Short one")
        #expect(feed.items[0].url == "https://social.example/@ada/1")
    }

    @Test func atom03Base64TextIsDecoded() throws {
        let title = Data("Café opens – “finally”".utf8).base64EncodedString()
        let feed = try Self.parse(
            """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>Old Atom</title>
            <entry><title type="text/plain" mode="base64">\(title)</title>
            <link rel="alternate" type="text/html" href="https://example.org/a"/></entry>
            <entry><title mode="escaped" type="text/html">Fish &amp;amp; chips</title>
            <link rel="alternate" type="text/html" href="https://example.org/b"/></entry>
            </feed>
            """)
        #expect(feed.items.map(\.title) == ["Café opens – “finally”", "Fish & chips"])
    }

    @Test func atom10TextOfANonTextTypeIsBase64() throws {
        let feed = try Self.parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
            <entry><title type="application/octet-stream">
              \(Data("Example <b>Atom</b>".utf8).base64EncodedString())
            </title><link href="https://example.org/x"/></entry></feed>
            """)
        #expect(feed.items.map(\.title) == ["Example <b>Atom</b>"], "not HTML: the markup is the title's text")
    }

    @Test func rss20WrittenInAUserlandNamespaceIsRSS() throws {
        let feed = try Self.parse(
            """
            <r:rss version="2.0" xmlns:r="http://backend.userland.com/rss2"><r:channel><r:title>NS</r:title>
            <r:item><r:title>Test Item</r:title><r:link>https://example.org/t</r:link></r:item>
            </r:channel></r:rss>
            """)
        #expect(feed.items.map(\.title) == ["Test Item"])
    }

    @Test func aRootWithANamespacePrefixIsAccepted() throws {
        let rss = try Self.parse(
            """
            <r:rss xmlns:r="http://example.org/ns" version="2.0"><channel><title>P</title>
            <item><title>Prefixed root</title><link>https://example.org/p</link></item></channel></r:rss>
            """)
        #expect(rss.items.map(\.title) == ["Prefixed root"])
        let rdf = try Self.parse(
            """
            <x:RDF xmlns:x="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
            <channel><title>R</title></channel>
            <item><title>RDF with its own prefix</title><link>https://example.org/r</link></item></x:RDF>
            """)
        #expect(rdf.items.map(\.title) == ["RDF with its own prefix"])
        #expect(throws: (any Error).self) { try Self.parse("<html><body>not a feed</body></html>") }
    }
}
