import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// The charset of the HTTP `Content-Type` in the news widget's decoding: parsed robustly,
/// weighed against the byte-order mark and the XML declaration (FeedBytes' rule), and
/// compared with what feedparser reads from the same bytes and header
/// (Fixtures/feeds_charset, the "charset" section of Tests/reference/feedparser_expected.json).
@Suite("news feed charset")
struct NewsCharsetTests {
    /// A one-story RSS document: the declaration (nil: none) and the title's bytes.
    static func doc(_ declared: String?, _ title: [UInt8]) -> Data {
        let decl = declared.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>" } ?? "<?xml version=\"1.0\"?>"
        return Data(
            Array("\(decl)<rss><channel><title>T</title><item><title>".utf8) + title
                + Array("</title></item></channel></rss>".utf8))
    }

    static func title(_ data: Data, _ contentType: String?) throws -> String? {
        try NewsFeedParser.parse(data, host: "feeds.example.com", contentType: contentType).items.first?.title
    }

    // MARK: the Content-Type parameter

    @Test func charsetParameterIsParsedRobustly() {
        let cases: [(String?, String?)] = [
            ("text/xml; charset=ISO-8859-1", "ISO-8859-1"),
            ("text/xml;charset=utf-8", "utf-8"),
            ("application/rss+xml; CHARSET=Windows-1252", "Windows-1252"),
            ("application/xml; Charset = \"utf-8\"", "utf-8"),
            ("application/xml; charset='utf-8'", nil),  // single quotes are not HTTP quoting
            ("application/xml; version=2.0; type=\"a;charset=koi8-r\"; charset=\"us-ascii\"; q=1", "us-ascii"),
            ("application/xml; charset=\"utf\\-8\"", "utf-8"),
            ("text/xml; charset=utf-8 ", "utf-8"),
            ("text/xml", nil),
            ("text/xml; charset=", nil),
            ("text/xml; charset", nil),
            ("text/xml; charset=\"\"", nil),
            ("text/xml; charset=utf-8, text/html", nil),
            ("text/xml; charset=\"iso-8859-1<script>\"", nil),
            ("text/xml; charset=\u{1B}]0;title\u{07}", nil),
            ("text/xml; charset=\(String(repeating: "a", count: 41))", nil),
            ("text/xml; charset=\"unterminated", "unterminated"),
            (";;;=;=\"", nil),
            (nil, nil),
        ]
        for (header, want) in cases {
            #expect(FeedBytes.charset(contentType: header) == want, "\(String(describing: header))")
        }
    }

    // MARK: precedence

    @Test func latin1BodyWithHTTPCharsetAndNoDeclaration() throws {
        let body = Self.doc(nil, [0x43, 0x61, 0x66, 0xE9])  // "Café" in Latin-1
        #expect(try Self.title(body, "text/xml; charset=ISO-8859-1") == "Café")
        // With no charset named anywhere, bytes that are not UTF-8 are windows-1252, as feedparser
        // reads them (decision 46); before that this came out with U+FFFD.
        #expect(try Self.title(body, nil) == "Café")
        // A feed that says UTF-8 keeps it: the broken byte is marked, not guessed.
        #expect(try Self.title(Self.doc("UTF-8", [0x43, 0x61, 0x66, 0xE9]), nil) == "Caf\u{FFFD}")
        #expect(try Self.title(body, "text/xml; charset=utf-8") == "Caf\u{FFFD}")
    }

    @Test func windows1252CurlyQuotesFromHTTPCharset() throws {
        let body = Self.doc(nil, [0x93, 0x48, 0x69, 0x94, 0x20, 0x96, 0x20, 0x80, 0x35, 0x85])
        #expect(try Self.title(body, "application/rss+xml; charset=windows-1252") == "“Hi” – €5…")
    }

    @Test func httpCharsetBeatsAContradictingDeclaration() throws {
        let latin1 = Self.doc("UTF-8", [0x43, 0x61, 0x66, 0xE9])
        #expect(try Self.title(latin1, "application/xml; charset=ISO-8859-1") == "Café")
        // "Привет" in windows-1251, declared Latin-1: the header wins.
        let cyrillic = Self.doc("ISO-8859-1", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2])
        #expect(try Self.title(cyrillic, "text/xml; charset=windows-1251") == "Привет")
        #expect(try Self.title(cyrillic, nil) == "Ïðèâåò")
    }

    @Test func utf8BodyMislabelledLatin1IsReadAsUTF8() throws {
        let text = "Café – naïve “quotes” €"
        for declared in [nil, "utf-8", "UTF-8"] {
            let body = Self.doc(declared, Array(text.utf8))
            #expect(try Self.title(body, "text/xml; charset=ISO-8859-1") == text)
            #expect(try Self.title(body, "text/xml; charset=windows-1252") == text)
            #expect(try Self.title(body, "text/xml; charset=us-ascii") == text)
        }
        // The guard is for a wrong server default only: a declaration naming the single-byte
        // encoding too is believed ("CafÃ©" is then what the bytes say, repaired downstream or not).
        let labelledTwice = Self.doc("ISO-8859-1", Array("Привет".utf8))
        let declaredLatin1 = FeedBytes.decode(labelledTwice, httpCharset: "ISO-8859-1")
        #expect(!declaredLatin1.contains("Привет"))
        // Pure ASCII stays as it is under any label.
        #expect(try Self.title(Self.doc(nil, Array("plain".utf8)), "text/xml; charset=ISO-8859-1") == "plain")
    }

    @Test func byteOrderMarkBeatsHTTPCharset() throws {
        let utf8 = Data([0xEF, 0xBB, 0xBF]) + Self.doc(nil, Array("Привет".utf8))
        #expect(try Self.title(utf8, "application/xml; charset=utf-16") == "Привет")
        let xml = "<?xml version=\"1.0\"?><rss><channel><item><title>Café ☕</title></item></channel></rss>"
        let utf16 = Data([0xFF, 0xFE]) + Data(xml.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(try Self.title(utf16, "application/xml; charset=ISO-8859-1") == "Café ☕")
    }

    @Test func unknownOrGarbageCharsetIsIgnored() throws {
        let body = Self.doc("ISO-8859-1", [0x43, 0x61, 0x66, 0xE9])
        for header in [
            "application/xml; charset=x-no-such-charset", "application/xml; charset=\"iso-8859-1<script>\"",
            "application/xml; charset=\u{1B}[31m", "application/xml; charset=", "application/xml; charset=x-koi9-q",
        ] {
            #expect(try Self.title(body, header) == "Café", "\(header.debugDescription)")
        }
        // KOI8-R was unknown here once; glibc's iconv knows it, so the header is honoured (RFC 7303).
        #expect(try Self.title(body, "application/xml; charset=koi8-r") == "CafИ")
        // Straight to the decoder: an unchecked name is checked there too.
        #expect(FeedBytes.decode(body, httpCharset: "utf-8\u{1B}[2J").contains("Café"))
    }

    @Test func quotedUTF8Charset() throws {
        let body = Self.doc("windows-1251", Array("Привет, café".utf8))
        #expect(try Self.title(body, "application/xml; charset=\"utf-8\"") == "Привет, café")
        #expect(try Self.title(body, "application/xml; Charset=\"UTF-8\"; profile=x") == "Привет, café")
    }

    @Test func utf8CharsetTheBodyIsNotValidInFallsToTheDeclaration() throws {
        let body = Self.doc("ISO-8859-1", [0x43, 0x61, 0x66, 0xE9])
        #expect(try Self.title(body, "application/xml; charset=utf-8") == "Café")
    }

    // MARK: feedparser, and the whole path over HTTP

    struct Expected: Decodable {
        struct Case: Decodable {
            struct Entry: Decodable {
                var title: String
            }
            var contentType: String
            var title: String
            var entries: [Entry]
        }
        var charset: [String: Case]
    }

    static let directory = testsDirectory.appendingPathComponent("Fixtures/feeds_charset")

    static func expected() throws -> [String: Expected.Case] {
        let url = testsDirectory.deletingLastPathComponent()
            .appendingPathComponent("reference/feedparser_expected.json")
        return try JSONDecoder().decode(Expected.self, from: Data(contentsOf: url)).charset
    }

    /// Where the widget reads differently from feedparser 6.0 on purpose: the headlines it shows.
    static let divergences: [String: (titles: [String], why: String)] = [
        "bom_utf16le_beats_http_latin1.xml": (
            ["Café ☕"],
            "feedparser tries the HTTP charset before the byte-order mark, reads UTF-16 as Latin-1 and finds no"
                + " feed; RFC 7303 §3 (and browsers) put the BOM first"
        )
    ]

    func want(_ name: String, _ c: Expected.Case) -> [String] {
        Self.divergences[name]?.titles ?? c.entries.map(\.title)
    }

    @Test func headlinesAgreeWithFeedparser() throws {
        let expected = try Self.expected()
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { $0.hasSuffix(".xml") }
        #expect(Set(expected.keys) == Set(files), "run Tests/reference/feedparser_reference.py")
        #expect(expected.count >= 12)
        for name in expected.keys.sorted() {
            let c = expected[name]!
            let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
            let got = try NewsFeedParser.parse(data, host: "feeds.example.com", contentType: c.contentType)
            #expect(got.items.map(\.title) == want(name, c), "\(name)")
            if Self.divergences[name] == nil { #expect(got.title == c.title, "\(name) feed title") }
            #expect(!got.items.contains { $0.title.contains("\u{FFFD}") }, "\(name)")
        }
    }

    @Test func theWidgetReadsTheHeaderTheServerSends() async throws {
        let expected = try Self.expected()
        let server = try LocalHTTPServer()
        defer { server.stop() }
        for (name, c) in expected {
            let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
            server.route("/\(name)", LocalHTTPServer.Response(headers: ["Content-Type": c.contentType], body: data))
        }
        for name in expected.keys.sorted() {
            let source = NewsSource(
                config: WidgetConfig(["feed": .string(server.baseURL + "/" + name)]), http: testHTTP)
            let entry = try await source.loadFeed(now: testNow)
            #expect(entry.items.map(\.title) == want(name, expected[name]!), "\(name)")
        }
    }
}
