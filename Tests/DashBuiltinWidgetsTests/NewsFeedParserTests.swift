import Foundation
import Testing
@testable import DashBuiltinWidgets

/// One class each of what feeds really send, named after what it protects.
@Suite("news feed parser")
struct NewsFeedParserTests {
    static let url = "https://feeds.example.com/news/feed.xml"

    func parse(_ xml: String, url: String = url) throws -> NewsFeedParser.Feed {
        try NewsFeedParser.parse(Data(xml.utf8), host: "feeds.example.com", url: url)
    }

    func parse(bytes: [UInt8], url: String = url) throws -> NewsFeedParser.Feed {
        try NewsFeedParser.parse(Data(bytes), host: "feeds.example.com", url: url)
    }

    func rss(_ items: String, channel: String = "<title>Feed</title>") -> String {
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel>\(channel)\(items)</channel></rss>"
    }

    // MARK: bytes that crashed or were lost

    /// Issue 9, item 1: `<a\xc3b/>` crashed the process (SIGILL) inside FoundationXML's
    /// callback. The bytes are now repaired before any parser sees them.
    @Test func invalidUTF8InElementNameDoesNotCrash() throws {
        let bytes: [UInt8] = [0x3C, 0x61, 0xC3, 0x62, 0x2F, 0x3E]
        #expect(throws: DataSourceError.self) { try parse(bytes: bytes) }
        do {
            _ = try parse(bytes: bytes)
        } catch let e as DataSourceError {
            #expect(e.message == "feeds.example.com's answer is not an RSS or Atom feed")
        }
        // The same byte inside a real feed's element and attribute names costs nothing else.
        let feed =
            Array("<rss><channel><title>T</title><item><ti".utf8) + [0xC3] + Array("x>no</ti".utf8) + [0xC3]
            + Array("x><title>Kept</title><link h".utf8) + [0xFF]
            + Array("=\"1\">https://e.example/a</link></item></channel></rss>".utf8)
        let parsed = try parse(bytes: feed)
        #expect(parsed.items.map(\.title) == ["Kept"])
        #expect(parsed.items.map(\.url) == ["https://e.example/a"])
    }

    @Test func invalidUTF8InAnUnlabelledFeedIsWindows1252() throws {
        let bytes =
            Array(rss("<item><title>Caf").utf8) + [0xE9, 0x80] + Array(" au lait</title></item>".utf8)
            + Array("</channel></rss>".utf8)
        let feed = try parse(bytes: bytes)
        // No charset named and not UTF-8 (E9 80 starts a three-byte sequence that never ends):
        // windows-1252, where every byte is a character, as feedparser falls back (decision 46).
        #expect(feed.items.first?.title == "Café€ au lait")
    }

    @Test func invalidUTF8InAFeedThatSaysUTF8BecomesReplacementCharacter() throws {
        let bytes =
            Array(rss("<item><title>Caf").utf8.dropFirst("<?xml version=\"1.0\"?>".utf8.count))
        let declared =
            Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>".utf8) + bytes + [0xE9, 0x80]
            + Array(" au lait</title></item></channel></rss>".utf8)
        // One U+FFFD for the broken sequence: the feed said what it is.
        #expect(try parse(bytes: declared).items.first?.title == "Caf\u{FFFD} au lait")
    }

    @Test func declaredLatin1AndWindows1252AreDecoded() throws {
        func doc(_ enc: String, _ title: [UInt8]) -> [UInt8] {
            Array("<?xml version=\"1.0\" encoding=\"\(enc)\"?><rss><channel><title>T</title><item><title>".utf8) + title
                + Array("</title></item></channel></rss>".utf8)
        }
        // "Café « 5 € »" in each encoding; 0x80 is the euro sign in windows-1252.
        let latin1 = try parse(bytes: doc("ISO-8859-1", [0x43, 0x61, 0x66, 0xE9, 0x20, 0xAB, 0x20, 0x35, 0x20, 0xBB]))
        #expect(latin1.items.first?.title == "Café « 5 »")
        let cp1252 = try parse(bytes: doc("windows-1252", [0x93, 0x35, 0x20, 0x80, 0x94, 0x20, 0x96, 0x20, 0x85]))
        #expect(cp1252.items.first?.title == "“5 €” – …")
        // Feeds labelled Latin-1 that really are windows-1252 (the common case) read right too.
        let mislabelled = try parse(bytes: doc("iso-8859-1", [0x93, 0x71, 0x94]))
        #expect(mislabelled.items.first?.title == "“q”")
    }

    @Test func utf16WithByteOrderMarkIsDecoded() throws {
        let xml = rss("<item><title>東京 · Ελλάδα</title></item>")
        let le: [UInt8] = [0xFF, 0xFE] + xml.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be: [UInt8] = [0xFE, 0xFF] + xml.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(try parse(bytes: le).items.first?.title == "東京 · Ελλάδα")
        #expect(try parse(bytes: be).items.first?.title == "東京 · Ελλάδα")
    }

    // MARK: titles

    @Test func escapedLessThanInTitleKeepsTheRest() throws {
        let feed = try parse(
            rss(
                """
                <item><title>Why 5 &lt; 6 matters</title></item>
                <item><title>&lt;script&gt; tags explained</title></item>
                <item><title>Vec&lt;T&gt; and you</title></item>
                """))
        #expect(feed.items.map(\.title) == ["Why 5 < 6 matters", "<script> tags explained", "Vec<T> and you"])
    }

    @Test func titlesWithChildMarkupKeepTheStory() throws {
        let feed = try parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
            <entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Why \
            <code>Option&lt;T&gt;</code> beats <b>null</b></div></title><link href="https://e.example/1"/></entry>
            <entry><title type="html">&lt;strong&gt;Breaking:&lt;/strong&gt; espresso \
            &lt;em&gt;fixed&lt;/em&gt;</title></entry>
            <entry><title type="html">Tips&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; tricks</title></entry>
            </feed>
            """)
        #expect(feed.items.map(\.title) == ["Why Option<T> beats null", "Breaking: espresso fixed", "Tips & tricks"])
        // RSS titles that are HTML in disguise (a CDATA section with tags) lose the tags.
        let rssFeed = try parse(rss("<item><title><![CDATA[Deal on <b>climate</b> fund]]></title></item>"))
        #expect(rssFeed.items.first?.title == "Deal on climate fund")
    }

    @Test func fullHTML5NamedEntitiesAreDecoded() throws {
        #expect(HTMLEntities.table.count == 2_231)
        let feed = try parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title type="html">Caf&amp;eacute;</title>
            <entry><title type="html">&amp;hearts; &amp;frac12; &amp;check; &amp;NotEqualTilde; \
            &amp;fjlig; &amp;#x1F600;</title></entry>
            </feed>
            """)
        #expect(feed.title == "Café")
        #expect(feed.items.first?.title == "♥ ½ ✓ ≂̸ fj 😀")
        // HTML's rules, as browsers and Python's html.unescape apply them.
        #expect(
            HTMLEntities.unescape("&amp &notit; &#x80; &#0; &#128512 &bogus; &")
                == "& ¬it; € \u{FFFD} 😀 &bogus; &")
    }

    @Test func notWellFormedFeedsAreRecoveredNotDropped() throws {
        let feed = try parse(
            """
            <rss version="2.0"><channel><title>Tom & Jerry</title>
            <item><title>Q&A with the team &nbsp;&ndash; part&nbsp;2</title>
            <link>https://e.example/qa?utm_source=rss&utm_medium=feed</link></item>
            <item><title>Caf&eacute; &amp; cr&egrave;me &hellip; <unclosed></title></item>
            </channel></rss>
            """)
        #expect(feed.title == "Tom & Jerry")
        #expect(feed.items.map(\.title) == ["Q&A with the team – part 2", "Café & crème …"])
        #expect(feed.items.first?.url == "https://e.example/qa?utm_source=rss&utm_medium=feed")
    }

    @Test func whitespaceIsCollapsedAndControlsRemoved() throws {
        let feed = try parse(
            rss(
                """
                <item><title>
                  Tabs\tand
                  breaks&#160;&#160;and \u{1B}[31mred\u{1B}[0m &#x202E;bidi&#x202C;
                </title></item>
                """))
        #expect(feed.items.first?.title == "Tabs and breaks and red bidi")
    }

    @Test func mojibakeAndC1PunctuationAreRepaired() throws {
        let feed = try parse(
            rss(
                """
                <item><title>CafÃ© in ZÃ¼rich</title></item>
                <item><title>Dash &#150; and ellipsis&#133; too</title></item>
                <item><title>Real Latin-1: café</title></item>
                """))
        #expect(feed.items.map(\.title) == ["Café in Zürich", "Dash – and ellipsis… too", "Real Latin-1: café"])
    }

    // MARK: links

    @Test func relativeLinksResolveAgainstXMLBaseOrTheFeed() throws {
        let feed = try parse(
            """
            <rss><channel><title>T</title>
            <item><title>a</title><link>/2026/a</link></item>
            <item><title>b</title><link>//cdn.example/b</link></item>
            <item><title>c</title><link>c.html</link></item>
            <item><title>d</title><link>../d</link></item>
            </channel></rss>
            """)
        #expect(
            feed.items.map(\.url) == [
                "https://feeds.example.com/2026/a", "https://cdn.example/b",
                "https://feeds.example.com/news/c.html", "https://feeds.example.com/d",
            ])
        let atom = try parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://site.example/blog/"><title>T</title>
            <entry><title>a</title><link href="2026/a"/></entry>
            <entry xml:base="/sport/"><title>b</title><link href="b"/></entry>
            <entry><title>c</title><link xml:base="https://other.example/x/" href="c"/></entry>
            </feed>
            """)
        #expect(
            atom.items.map(\.url) == [
                "https://site.example/blog/2026/a", "https://site.example/sport/b",
                "https://other.example/x/c",
            ])
        // Without a feed address (a local file), relative links use the feed's own link.
        let local = try parse(
            """
            <rss><channel><title>T</title><link>https://www.site.example/news/</link>
            <item><title>a</title><link>a.html</link></item></channel></rss>
            """, url: "")
        #expect(local.items.first?.url == "https://www.site.example/news/a.html")
    }

    @Test func guidPermaLinkIsTheLinkWhenThereIsNone() throws {
        let feed = try parse(
            rss(
                """
                <item><title>a</title><guid isPermaLink="true">https://e.example/a</guid></item>
                <item><title>b</title><guid>https://e.example/b</guid></item>
                <item><title>c</title><guid isPermaLink="false">https://e.example/c</guid></item>
                <item><title>d</title><link>https://e.example/d-link</link><guid>https://e.example/d</guid></item>
                """))
        #expect(
            feed.items.map(\.url) == ["https://e.example/a", "https://e.example/b", "", "https://e.example/d-link"])
    }

    @Test func atomLinkRelationsIgnoreCaseAndAcceptTheFullURI() throws {
        let feed = try parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><title>a</title><id>tag:x,1</id><link rel="ALTERNATE" href="https://e.example/a"/></entry>
            <entry><title>b</title><id>tag:x,2</id>
              <link rel="http://www.iana.org/assignments/relation/alternate" href="https://e.example/b"/></entry>
            <entry><title>c</title><id>tag:x,3</id>
              <link rel="alternate" type="application/pdf" href="https://e.example/c.pdf"/>
              <link rel="alternate" type="text/html" href="https://e.example/c"/></entry>
            <entry><title>d</title><id>tag:x,4</id><link rel="enclosure" href="https://e.example/d.mp3"/>
              <link rel="edit" href="https://e.example/edit/d"/><link href="https://e.example/d"/></entry>
            </feed>
            """)
        #expect(
            feed.items.map(\.url) == [
                "https://e.example/a", "https://e.example/b", "https://e.example/c",
                "https://e.example/d",
            ])
    }

    @Test func onlyWebLinksSurvive() throws {
        let feed = try parse(
            rss(
                """
                <item><title>a</title><link>javascript:alert(1)</link></item>
                <item><title>b</title><link>mailto:x@e.example</link></item>
                <item><title>c</title><link>file:///etc/passwd</link></item>
                <item><title>d</title><link>data:text/html,x</link></item>
                <item><title>e</title><link>HTTPS://E.EXAMPLE/e</link></item>
                <item><title>f</title><link>ftp://e.example/f</link></item>
                """))
        #expect(feed.items.map(\.url) == ["", "", "", "", "https://E.EXAMPLE/e", ""])
    }

    // MARK: limits

    @Test func outsideFieldsAreCappedAtAGraphemeBoundary() throws {
        let long = String(repeating: "e\u{301}", count: 5_000)  // 5,000 "é" as two scalars each
        let feed = try parse(
            rss(
                "<item><title>\(long)</title><description>\(long)</description></item>",
                channel: "<title>\(long)</title>"))
        let item = try #require(feed.items.first)
        for text in [item.title, item.summary, feed.title] {
            #expect((1_990...2_000).contains(text.count))
            // No accent is cut off its letter (the sanitiser may end a cut field with "…").
            #expect(text.allSatisfy { $0 == "e\u{301}" || $0 == "…" })
        }
        #expect(OutsideText.capped("🇫🇷🇩🇪", 1) == "🇫🇷")
        // A title far beyond every limit keeps its start.
        let huge = try parse(rss("<item><title>Story \(String(repeating: "wordy ", count: 100_000))</title></item>"))
        #expect(huge.items.first?.title.hasPrefix("Story wordy wordy") == true)
        #expect((huge.items.first?.title.count ?? 0) <= 2_000)
        // A link too long to be a field is dropped rather than cut into another address.
        let longLink = try parse(
            rss(
                "<item><title>t</title><link>https://e.example/\(String(repeating: "a", count: 5_000))"
                    + "</link></item>"))
        #expect(longLink.items.first?.url == "")
    }

    @Test func deepNestingManyItemsAndHugeInputsAreBounded() throws {
        // 100,000 nested elements: no recursion anywhere, the depth cap ignores the excess.
        let deep = rss(
            "<item><title>deep</title>" + String(repeating: "<x>", count: 100_000)
                + String(repeating: "</x>", count: 100_000) + "</item>")
        var feed = try parse(deep)
        #expect(feed.items.map(\.title) == ["deep"])
        // 5,000 items: at most 500 are kept.
        let many = rss(String(repeating: "<item><title>t</title><link>https://e.example/</link></item>", count: 5_000))
        feed = try parse(many)
        #expect(feed.items.count == FeedReader.maxEntries)
        // Unclosed markup of every kind never makes the reader go back over the input: each
        // ends (a reader that went back would not end within the suite's time) with the item
        // before it read, or with an error, never a crash.
        for junk in ["<a ", "<!--", "<![CDATA[", "<?", "&#", "<a b='", "</"] {
            let items = (try? parse(rss("<item><title>x</title></item>") + String(repeating: junk, count: 20_000)))?.items
            #expect(items == nil || items?.first?.title == "x", "\(junk)")
        }
    }

    @Test func entityDeclarationsAreRefusedButTheWordIsNot() throws {
        let bomb =
            "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY a \"b\">]>"
            + "<rss><channel><title>&a;</title></channel></rss>"
        #expect(throws: DataSourceError.self) { try parse(bomb) }
        let tutorial = try parse(
            rss(
                "<item><title>About DTDs</title>"
                    + "<description><![CDATA[Write <!ENTITY x \"y\">]]></description></item>"))
        #expect(tutorial.items.first?.summary == "Write")
    }

    @Test func truncatedFeedsKeepTheStoriesTheyHave() throws {
        let feed = try parse("<rss><channel><title>T</title><item><title>one</title></item><item><title>tw")
        #expect(feed.items.map(\.title) == ["one"])
        #expect(throws: DataSourceError.self) { try parse("<rss><channel><title>T</title><item><title>tw") }
        #expect(throws: DataSourceError.self) { try parse("") }
    }

    // MARK: dates

    @Test func datesAreReadWithoutICU() {
        let cases: [(String, Double)] = [
            ("Mon, 23 Nov 2026 08:41:09 GMT", 1_795_423_269), ("Sun, 22 Nov 2026 23:30:00 +0000", 1_795_390_200),
            ("Mon, 23 Nov 2026 09:05:18 +0100", 1_795_421_118), ("Mon, 23 Nov 2026 06:00:00 -0500", 1_795_431_600),
            ("23 Nov 2026 08:41 EST", 1_795_441_260), ("Mon, 3 Nov 26 08:41:09 PST", 1_793_724_069),
            ("2026-11-23T08:41:09Z", 1_795_423_269), ("2026-11-22T14:00:00.000-08:00", 1_795_384_800),
            ("2026-11-23T08:41:09.5+01:00", 1_795_419_669.5), ("2026-11-23", 1_795_392_000),
            ("2026-11-23 08:41:09", 1_795_423_269), ("  2024-02-29T12:00:00Z\n", 1_709_208_000),
        ]
        for (text, epoch) in cases {
            #expect(NewsDates.parse(text) == Date(timeIntervalSince1970: epoch), "\(text)")
        }
        for bad in [
            "", "yesterday", "2026-13-01T00:00:00Z", "2026-02-30", "Mon, 32 Nov 2026 08:41:09 GMT",
            "2026-11-23T25:00", "99999999999999999999-01-01", "Mon, 23 Foo 2026 08:41:09 GMT",
        ] {
            #expect(NewsDates.parse(bad) == nil, "\(bad)")
        }
    }

    // MARK: the tokenizer on its own

    @Test func tokenizerTreatsStrayMarkupAsText() {
        var t = XMLTokenizer("a < b <3 & c &amp; <a x='1' y=2 z>t</a><!-- c -->")
        var tokens: [XMLTokenizer.Token] = []
        while let tok = t.next() { tokens.append(tok) }
        #expect(
            tokens == [
                .text("a < b <3 & c & "),
                .start(
                    name: "a",
                    attributes: [
                        .init(name: "x", value: "1"), .init(name: "y", value: "2"),
                        .init(name: "z", value: ""),
                    ], selfClosing: false),
                .text("t"), .end(name: "a"),
            ])
        #expect(t.notWellFormed)
    }
}
