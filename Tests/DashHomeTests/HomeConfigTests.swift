import XCTest
import DashWidgets
import DashBuiltinWidgets
@testable import DashHome

final class HomeConfigTests: XCTestCase {
    let bundle = BuiltinWidgets.bundle

    func parseError(_ yaml: String) -> String {
        do {
            _ = try HomeConfig.parse(yaml: yaml, file: "home.yaml", bundle: bundle)
            return "no error"
        } catch { return "\(error)" }
    }

    func testAValidFileWithAStack() throws {
        let c = try HomeConfig.parse(
            yaml: """
                theme: light
                tiles:
                  - family: small
                    widget: clock
                    config: { timeZone: Europe/Paris }
                  - family: medium
                    stack:
                      - widget: crypto
                        config: { coin: ETH }
                      - widget: news
                """, file: "home.yaml", bundle: bundle)
        XCTAssertEqual(c.theme, "light")
        XCTAssertEqual(c.tiles.count, 2)
        XCTAssertEqual(c.tiles[1].items.map(\.kind), ["crypto", "news"])
        XCTAssertEqual(c.tiles[0].items[0].config.string("timeZone"), "Europe/Paris")
    }

    func testEveryMistakeNamesItsLine() {
        let keys = "expected `family`, `widget`, `config`, `stack`, `smartRotate`, `dwell`, `pause`, `attention`"
        XCTAssertEqual(
            parseError("tiles:\n  - famly: large\n    widget: news\n"),
            "home.yaml:2: unknown key `famly` in a tile; \(keys)")
        XCTAssertEqual(
            parseError("tiles:\n  - family: small\n    widget: clock\n    confg: { label: x }\n"),
            "home.yaml:4: unknown key `confg` in a tile; \(keys)")
        XCTAssertEqual(
            parseError("tiles:\n  - family: small\n    widget: clok\n"),
            "home.yaml:3: unknown widget `clok`; available: \(bundle.kinds.joined(separator: ", "))")
        XCTAssertEqual(
            parseError("tiles:\n  - family: huge\n    widget: clock\n"),
            "home.yaml:2: unknown family `huge`; use one of small, medium, large, extraLarge")
        XCTAssertEqual(
            parseError("tiles:\n  - family: extraLarge\n    widget: clock\n"),
            "home.yaml:3: `clock` has no extraLarge size; it supports small, medium, large")
        XCTAssertTrue(
            parseError("tiles:\n  - family: medium\n    widget: news\n    config: { count: 99 }\n")
                .hasPrefix("home.yaml:4: news: count: 99 is out of range"))
        XCTAssertTrue(parseError("tiles:\n  - family: [small\n").hasPrefix("home.yaml:"))
        XCTAssertEqual(
            parseError("tilez: []\n"), "home.yaml:1: unknown key `tilez`; expected `theme`, `tiles` or `extensions`")
        XCTAssertEqual(
            parseError("tiles:\n  - family: medium\n    stack:\n      - widget: news\n        famly: x\n"),
            "home.yaml:5: unknown key `famly` in a stack item; expected `widget` and `config`")
    }

    func testSmartStackSettings() throws {
        let c = try HomeConfig.parse(
            yaml: """
                tiles:
                  - family: small
                    widget: clock
                    attention: bell
                  - family: medium
                    smartRotate: false
                    dwell: 2m
                    pause: 1h30m
                    stack:
                      - widget: crypto
                      - widget: news
                  - family: medium
                    attention: none
                    stack:
                      - widget: commits
                      - widget: news
                """, file: "home.yaml", bundle: bundle)
        XCTAssertEqual(c.tiles[0].attention, .bell)
        XCTAssertEqual(c.tiles[1].rotation, StackRotation(smartRotate: false, dwell: 120, pause: 5400))
        XCTAssertEqual(c.tiles[1].attention, .highlight, "the default")
        XCTAssertEqual(c.tiles[2].rotation, StackRotation(), "on, 15 min, 1 h by default")
        XCTAssertEqual(c.tiles[2].attention, AttentionMode.none)
        XCTAssertEqual(HomeConfig.parseDuration("90s"), 90)
        XCTAssertEqual(HomeConfig.parseDuration("1d"), 86_400)
        for bad in ["15", "m", "1x", "", "1.5h", "-1m"] { XCTAssertNil(HomeConfig.parseDuration(bad), bad) }
        XCTAssertEqual(
            parseError("tiles:\n  - widget: clock\n    dwell: 15\n"),
            "home.yaml:3: `dwell` must be a duration such as 90s, 15m, 1h or 1h30m (at most 7 days)")
        XCTAssertEqual(
            parseError("tiles:\n  - widget: clock\n    smartRotate: maybe\n"),
            "home.yaml:3: `smartRotate` must be true or false")
        XCTAssertEqual(
            parseError("tiles:\n  - widget: clock\n    attention: loud\n"),
            "home.yaml:3: `attention` must be one of highlight, bell, none")
    }
}
