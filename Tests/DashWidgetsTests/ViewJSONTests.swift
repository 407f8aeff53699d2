import XCTest
import Foundation
@testable import DashWidgets

final class ViewJSONTests: XCTestCase {
    func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }
    func decode(_ text: String) throws -> TileView { try ViewJSON(kind: "demo").decode(json(text)) }

    func testATreeWithEveryKindOfViewDecodes() throws {
        let v = try decode(
            """
            {"vstack": [
              {"text": "Title", "font": "headline", "color": "accent", "bold": true},
              {"date": 1800000000, "style": "relative"},
              {"hstack": [{"gauge": 0.5}, {"spacer": 1}, {"sparkline": [1, 2, 3], "height": 2}], "alignment": "center"},
              {"divider": true},
              {"link": "https://example.org/a", "view": "web"},
              {"button": "Done", "action": "done"},
              {"toggle": "Lights", "isOn": true, "action": "lights"}
            ], "widgetURL": "swiftdash://demo/open", "view": null, "padding": 1}
            """)
        XCTAssertEqual(v.links, ["https://example.org/a"])
        XCTAssertEqual(
            v.controls,
            [
                TileControl(kind: .button, title: "Done", action: ActionPayload("done")),
                TileControl(kind: .toggle(isOn: true), title: "Lights", action: ActionPayload("lights")),
            ], "buttons and toggles are controls, like a built-in widget's")
        guard case .widgetURL("swiftdash://demo/open", .padding(_, .stack(.vertical, _, _, let children))) = v
        else { return XCTFail("\(v)") }
        XCTAssertEqual(children.count, 7)
        guard case .text("Title", let style) = children[0] else { return XCTFail("\(children[0])") }
        XCTAssertEqual(style, TextStyle(font: .headline, color: .accent, bold: true))
        guard case .liveDate(_, .relative, _) = children[1] else { return XCTFail("\(children[1])") }
    }

    func testAControlsActionIsShortTextWithoutControlCharacters() throws {
        for bad in [#""""#, #""a\u001b[2Jb""#, "\"\(String(repeating: "x", count: 201))\"", "7"] {
            XCTAssertThrowsError(try decode(#"{"button": "Go", "action": "# + bad + "}"), bad) {
                XCTAssertTrue("\($0)".contains("view.action: a button or toggle needs an `action`"), "\($0)")
            }
        }
        XCTAssertThrowsError(try decode(#"{"toggle": "Go", "action": "go"}"#)) {
            XCTAssertTrue("\($0)".contains("view.isOn: a toggle needs `isOn`"), "\($0)")
        }
        let v = try decode(#"{"toggle": "Lights \u001b[31mon", "isOn": false, "action": "item 3  (kitchen)"}"#)
        XCTAssertEqual(v.controls.first?.title, "Lights on", "the title is cleaned like any text")
        XCTAssertEqual(v.controls.first?.action, ActionPayload("item 3  (kitchen)"), "the action goes back as it came")
    }

    func testWidgetURLAndALinkKindTogetherAreRefused() {
        XCTAssertThrowsError(try decode(#"{"text": "a", "link": "https://example.org"}"#)) {
            XCTAssertTrue("\($0)".contains("not several"), "\($0)")
        }
    }

    func testTextIsSanitised() throws {
        let v = try decode(#"{"text": "a\u001b]52;c;ZXZpbA==\u0007b\u202Ec\u009b31m"}"#)
        guard case .text(let t, _) = v else { return XCTFail() }
        XCTAssertEqual(t, "abc")
    }

    func testLinksMustBeDeepLinks() {
        for bad in [
            "file:///etc/passwd", "javascript:alert(1)", "https://exa mple.org", "swiftdash://",
            "https://a\u{1b}[31m.org",
        ] {
            let text = String(
                data: try! JSONEncoder().encode(JSONValue.object(["link": .string(bad)])), encoding: .utf8)!
            XCTAssertThrowsError(try decode(text), bad)
        }
    }

    func testDepthNodesAndNumbersAreCapped() throws {
        var deep = "\"x\""
        for _ in 0..<30 { deep = "{\"vstack\": [\(deep)]}" }
        XCTAssertThrowsError(try decode(deep)) { XCTAssertTrue("\($0)".contains("deeper"), "\($0)") }
        let many = "{\"vstack\": [" + Array(repeating: "\"a\"", count: 201).joined(separator: ",") + "]}"
        XCTAssertThrowsError(try decode(many))
        let wide =
            "{\"vstack\": ["
            + Array(
                repeating: "{\"vstack\": ["
                    + Array(repeating: "\"a\"", count: 100)
                    .joined(separator: ",") + "]}", count: 30
            ).joined(separator: ",") + "]}"
        XCTAssertThrowsError(try decode(wide)) { XCTAssertTrue("\($0)".contains("more than 2000 views"), "\($0)") }
        XCTAssertThrowsError(try decode(#"{"text": "a", "padding": 100000}"#))
        XCTAssertThrowsError(try decode(#"{"gauge": "full"}"#))
        XCTAssertThrowsError(try decode(#"{"text": "a", "font": "comic"}"#))
        XCTAssertThrowsError(try decode(#"{"text": "a", "unknown": 1}"#)) {
            XCTAssertTrue("\($0)".contains("unknown key"), "\($0)")
        }
        let nested = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        XCTAssertThrowsError(try JSONValue.parse(Data(nested.utf8)))
    }

    func testErrorsNameThePath() {
        XCTAssertThrowsError(try decode(#"{"vstack": ["a", {"text": 3}]}"#)) {
            XCTAssertEqual("\($0)", "view.vstack[1].text: must be a string")
        }
    }

    func testATimelineAnswerBecomesEntriesWithViewsPerFamily() throws {
        let t = try ExtensionProtocol.timeline(
            json(
                """
                {"entries": [
                  {"date": 1800000060, "summary": "second", "view": "two"},
                  {"date": "2027-01-15T08:00:00Z", "title": "T", "text": "one\\nline",
                   "relevance": {"score": 0.8, "duration": 600, "reason": "soon"},
                   "views": {"small": "small one", "large": {"text": "large one"}},
                   "details": {"more": {"text": "detail"}}}
                ], "policy": {"after": 1800003600}}
                """), kind: "demo")
        XCTAssertEqual(t.entries.count, 2)
        XCTAssertEqual(t.policy, .after(Date(timeIntervalSince1970: 1_800_003_600)))
        let e = try XCTUnwrap(t.entries[1].base as? ExternalEntry)
        XCTAssertEqual(e.relevance?.score, 0.8)
        XCTAssertEqual(e.text, "one\nline")
        guard case .text("small one", _) = e.view(for: .small) else { return XCTFail() }
        guard case .text("small one", _) = e.view(for: .medium) else { return XCTFail("medium falls back to small") }
        guard case .text("large one", _) = e.view(for: .extraLarge) else { return XCTFail() }
        XCTAssertNotNil(e.detail(for: DeepLink("swiftdash://demo/more")!))
        // The entry survives the cache.
        let data = try JSONEncoder.dash.encode([e])
        XCTAssertEqual(try JSONDecoder.dash.decode([ExternalEntry].self, from: data), [e])
    }

    func testABadViewInsideATimelineFailsTheWholeAnswerWithItsPath() {
        XCTAssertThrowsError(
            try ExtensionProtocol.timeline(
                json(#"{"entries": [{"date": 0, "views": {"small": {"link": "ftp://x"}}}]}"#), kind: "demo")
        ) {
            XCTAssertTrue("\($0)".hasPrefix("entries[0].views.small: view.link"), "\($0)")
        }
        XCTAssertThrowsError(
            try ExtensionProtocol.timeline(json(#"{"entries": [], "policy": "sometimes"}"#), kind: "d"))
        XCTAssertThrowsError(try ExtensionProtocol.timeline(json(#"{"entries": {}}"#), kind: "d"))
    }

    func testDescribeBecomesSchemas() throws {
        let ds = try ExtensionWidgetDescription.parse(
            json(
                """
                {"protocol": 1, "widgets": [{"kind": "demo", "displayName": "Demo\\u001b[2J", "families": ["small"],
                  "network": true, "parameters": [
                    {"key": "coin", "type": "dynamicEnum", "options": ["BTC"], "default": "BTC"},
                    {"key": "n", "type": "integer", "min": 1, "max": 5, "default": 3},
                    {"key": "on", "type": "bool"}]}]}
                """))
        XCTAssertEqual(ds.count, 1)
        XCTAssertEqual(ds[0].displayName, "Demo")
        XCTAssertEqual(ds[0].dynamicKeys, ["coin"])
        XCTAssertEqual(ds[0].parameters[1].defaultValue, .int(3))
        XCTAssertTrue(ds[0].network)
        XCTAssertThrowsError(try ExtensionWidgetDescription.parse(json(#"{"widgets": [{"kind": "Bad Kind"}]}"#)))
        XCTAssertThrowsError(
            try ExtensionWidgetDescription.parse(json(#"{"protocol": 2, "widgets": [{"kind": "a"}]}"#)))
        XCTAssertThrowsError(
            try ExtensionWidgetDescription.parse(
                json(
                    #"{"widgets": [{"kind": "a", "parameters": [{"key": "n", "type": "integer", "max": 3, "default": 9}]}]}"#
                )))
    }
}
