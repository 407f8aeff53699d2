import XCTest
import Foundation
@testable import DashWidgets

struct E: TimelineEntry {
    var date: Date
    var label: String
}

final class TimelineTests: XCTestCase {
    func testCurrentEntryIsLatestNotInFutureEvenOutOfOrder() {
        let t0 = Date(timeIntervalSince1970: 1000)
        let tl = AnyTimeline(
            entries: [
                E(date: t0.addingTimeInterval(120), label: "c"), E(date: t0, label: "a"),
                E(date: t0.addingTimeInterval(60), label: "b"),
            ].map(AnyEntry.init), policy: .atEnd)
        XCTAssertNil(tl.entry(at: t0.addingTimeInterval(-1)))
        XCTAssertEqual((tl.entry(at: t0)?.base as? E)?.label, "a")
        XCTAssertEqual((tl.entry(at: t0.addingTimeInterval(119))?.base as? E)?.label, "b")
        XCTAssertEqual((tl.entry(at: t0.addingTimeInterval(500))?.base as? E)?.label, "c")
    }

    func testFamiliesGridSizes() {
        XCTAssertEqual(WidgetFamily.small.gridSize.columns, 2)
        XCTAssertEqual(WidgetFamily.medium.gridSize.columns, 4)
        XCTAssertEqual(WidgetFamily.medium.gridSize.rows, 2)
        XCTAssertEqual(WidgetFamily.large.gridSize.rows, 4)
        XCTAssertEqual(WidgetFamily.extraLarge.gridSize.columns, 8)
    }

    func testDeepLinkParsing() {
        let l = DeepLink("swiftdash://crypto/BTC?range=7d")
        XCTAssertEqual(l?.kind, "crypto")
        XCTAssertEqual(l?.path, ["BTC"])
        XCTAssertEqual(l?.query["range"], "7d")
        XCTAssertEqual(DeepLink("https://example.org/a")?.isExternal, true)
        XCTAssertNil(DeepLink("javascript:alert(1)"))
        XCTAssertNil(DeepLink("not a url"))
        XCTAssertEqual(DeepLink.make(kind: "news", "a b"), "swiftdash://news/a%20b")
    }
}

final class SchemaTests: XCTestCase {
    let schema = ConfigurationSchema([
        Parameter(
            key: "coin", title: "Coin", help: "", kind: .enumeration([.init("BTC"), .init("ETH"), .init("LTC")]),
            default: .string("BTC")),
        Parameter(
            key: "symbol", title: "Symbol", help: "",
            kind: .dynamicEnumeration(fixed: [.init("BTC")], pattern: "[A-Za-z0-9-]{1,15}"), default: .string("BTC")),
        Parameter(key: "count", title: "Count", help: "", kind: .integer(1...10), default: .int(5)),
        Parameter(key: "live", title: "Live", help: "", kind: .bool, default: .bool(true)),
        Parameter(
            key: "country", title: "Country", help: "", kind: .string(pattern: "[a-z]{2}"), default: .string("us")),
        Parameter(key: "since", title: "Since", help: "", kind: .date, default: .string("")),
        Parameter(key: "tags", title: "Tags", help: "", kind: .list(itemPattern: "[a-z]+"), default: .list([])),
        Parameter(
            key: "apiKey", title: "Key", help: "", kind: .string(pattern: "[a-f0-9]{32}"), default: .string(""),
            isSecret: true, environmentVariable: "NEWS_API_KEY"),
    ])

    func testEnumErrorNamesParameterAndAllowedValues() {
        XCTAssertThrowsError(try schema.parse(key: "coin", text: "DOGE")) { e in
            XCTAssertEqual("\(e)", "coin: 'DOGE' is not one of BTC, ETH, LTC")
        }
        XCTAssertEqual(try schema.parse(key: "coin", text: "eth"), .string("eth"))
    }

    func testIntegerRange() {
        XCTAssertEqual(try schema.parse(key: "count", text: "3"), .int(3))
        XCTAssertThrowsError(try schema.parse(key: "count", text: "11")) { e in
            XCTAssertEqual("\(e)", "count: 11 is out of range; allowed: a whole number from 1 to 10")
        }
        XCTAssertThrowsError(try schema.parse(key: "count", text: "many")) { e in
            XCTAssertEqual("\(e)", "count: 'many' is not a whole number from 1 to 10")
        }
    }

    func testBoolDateListPatternAndUnknownKey() {
        XCTAssertEqual(try schema.parse(key: "live", text: "off"), .bool(false))
        XCTAssertThrowsError(try schema.parse(key: "live", text: "maybe"))
        XCTAssertNotNil(try? schema.parse(key: "since", text: "2026-11-23"))
        XCTAssertNotNil(try? schema.parse(key: "since", text: "2026-11-23T09:30:00Z"))
        XCTAssertThrowsError(try schema.parse(key: "since", text: "yesterday"))
        XCTAssertEqual(try schema.parse(key: "tags", text: "a, b"), .list(["a", "b"]))
        XCTAssertThrowsError(try schema.parse(key: "tags", text: "a,B1")) { e in
            XCTAssertEqual("\(e)", "tags: item 'B1' is not text in the form the widget expects")
        }
        XCTAssertThrowsError(try schema.parse(key: "country", text: "USA"))
        XCTAssertThrowsError(try schema.parse(key: "colour", text: "red")) { e in
            XCTAssertTrue("\(e)".hasPrefix("colour: no such parameter; this widget has: coin, symbol"))
        }
        XCTAssertEqual(try schema.parse(key: "symbol", text: "doge"), .string("doge"))
    }

    func testSecretsAreNeverEchoed() {
        XCTAssertThrowsError(try schema.parse(key: "apiKey", text: "supersecret")) { e in
            XCTAssertFalse("\(e)".contains("supersecret"))
        }
        XCTAssertEqual(schema.parameter("apiKey")!.display(.string("abc")), "••••••")
    }

    func testValidateWholeConfigAndResolveDefaultsAndEnvironment() {
        let errors = schema.validate(WidgetConfig(["count": .int(0), "coin": .string("XRP"), "bogus": .bool(true)]))
        XCTAssertEqual(errors.map(\.key), ["bogus", "coin", "count"])
        let resolved = schema.resolve(WidgetConfig(["count": .int(2)]), environment: ["NEWS_API_KEY": "k"])
        XCTAssertEqual(resolved.int("count"), 2)
        XCTAssertEqual(resolved.string("coin"), "BTC")
        XCTAssertEqual(resolved.string("apiKey"), "k")
    }
}

final class SanitizerTests: XCTestCase {
    func testStripsEscapeSequencesAndControls() {
        XCTAssertEqual(TextSanitizer.clean("\u{1B}[31mred\u{1B}[0m"), "red")
        XCTAssertEqual(TextSanitizer.clean("a\u{1B}]0;pwned\u{07}b"), "ab", "OSC title change")
        XCTAssertEqual(TextSanitizer.clean("a\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\"), "alink")
        XCTAssertEqual(TextSanitizer.clean("x\u{1B}Py\u{1B}\\z"), "xz", "DCS")
        XCTAssertEqual(TextSanitizer.clean("bell\u{07}\u{08}\u{7F}"), "bell")
        XCTAssertEqual(TextSanitizer.clean("\u{9B}2Jhi"), "hi", "C1 CSI")
        XCTAssertEqual(TextSanitizer.clean("a\u{202E}b"), "ab", "bidi override")
        XCTAssertEqual(TextSanitizer.singleLine("  two\n\tlines  "), "two lines")
        XCTAssertEqual(TextSanitizer.clean("日本 😀 é"), "日本 😀 é")
    }
}
