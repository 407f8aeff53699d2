import XCTest
import Foundation
import DashWidgets
import DashBuiltinWidgets
@testable import DashHome

/// `swiftdash config check` reports every problem of a file in one run: several in one tile,
/// several at the top level, each with its line, in file order; `parse` still stops at the first.
final class ConfigCheckAllTests: XCTestCase {
    let bundle = BuiltinWidgets.bundle

    func check(_ text: String) -> [String] {
        HomeConfig.problems(yaml: text, file: "home.yaml", bundle: bundle).map(\.description)
    }

    /// The part of each problem before its message: `home.yaml:N:`.
    func lines(_ problems: [String]) -> [String] { problems.map { String($0.prefix { $0 != " " }) } }

    func testEveryProblemOfOneTileIsReportedWithItsLine() {
        let text = """
            tiles:
              - family: huge
                widget: clock
                color: red
                config: { timeZone: Mars/Base, label: ok, nope: 1 }
                dwell: forever
                attention: loud
            """
        let problems = check(text)
        XCTAssertEqual(
            problems,
            [
                "home.yaml:2: unknown family `huge`; use one of small, medium, large, extraLarge",
                "home.yaml:4: unknown key `color` in a tile; expected `family`, `widget`, `config`, `stack`, "
                    + "`smartRotate`, `dwell`, `pause`, `attention`",
                "home.yaml:5: clock: timeZone: 'Mars/Base' is not a time zone; use an IANA name such as "
                    + "Europe/Paris, or leave it empty",
                "home.yaml:5: clock: nope: no such parameter; this widget has: timeZone, label",
                "home.yaml:6: `dwell` must be a duration such as 90s, 15m, 1h or 1h30m (at most 7 days)",
                "home.yaml:7: `attention` must be one of highlight, bell, none",
            ])
        // `parse` (the app, `config set`) still refuses the file with the first problem it meets.
        XCTAssertThrowsError(try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle)) {
            XCTAssertEqual("\($0)", problems[1])
        }
    }

    func testEveryProblemOfAStackAndOfEachItemIsReported() {
        let text = """
            tiles:
              - family: extraLarge
                stack:
                  - widget: clock
                    famly: x
                    colour: y
                  - widget: nope
                  - config: { coin: BTC }
                  - widget: crypto
                    config: { currency: E, moveAlert: 500 }
                smartRotate: maybe
            """
        XCTAssertEqual(
            lines(check(text)),
            [
                "home.yaml:4:", "home.yaml:5:", "home.yaml:6:", "home.yaml:7:", "home.yaml:8:", "home.yaml:9:",
                "home.yaml:10:", "home.yaml:10:", "home.yaml:11:",
            ],
            "\(check(text))")
        XCTAssertTrue(check(text)[0].hasPrefix("home.yaml:4: `clock` has no extraLarge size"), check(text)[0])
        XCTAssertEqual(check(text)[4], "home.yaml:8: a tile needs `widget: KIND`")
    }

    func testTopLevelProblemsAfterTheTilesAreReportedToo() {
        let text = """
            theme: ""
            tiles:
              - widget: clok
              - clock
              - widget: clock
                family: extraLarge
            bogus: 1
            extensions: nope
            other: 2
            """
        XCTAssertEqual(
            lines(check(text)),
            ["home.yaml:1:", "home.yaml:3:", "home.yaml:5:", "home.yaml:7:", "home.yaml:8:", "home.yaml:9:"],
            "\(check(text))")
        XCTAssertEqual(check(text)[3], "home.yaml:7: unknown key `bogus`; expected `theme`, `tiles` or `extensions`")
    }

    func testAGoodFileHasNoProblemsAndAYAMLErrorIsOneProblemWithItsLine() {
        XCTAssertEqual(check("tiles:\n  - clock\n  - family: medium\n    widget: news\n"), [])
        let broken = check("tiles:\n  - clock\n  - [\n")
        XCTAssertEqual(broken.count, 1)
        XCTAssertTrue(broken[0].hasPrefix("home.yaml:"), broken[0])
        XCTAssertNotEqual(broken[0].split(separator: ":")[1], "", broken[0])
    }

    func testChecksAreBoundedAndTheRestCounted() {
        let tiles = (1...60).map { "  - widget: nope\($0)\n" }.joined()
        let problems = HomeConfig.problems(yaml: "tiles:\n" + tiles, file: "home.yaml", bundle: bundle)
        XCTAssertEqual(problems.count, 60)
        let report = HomeConfig.checkReport(problems)
        XCTAssertEqual(report.count, 51)
        XCTAssertTrue(report[0].hasPrefix("home.yaml:2: unknown widget `nope1`"), report[0])
        XCTAssertTrue(report[49].hasPrefix("home.yaml:51: unknown widget `nope50`"), report[49])
        XCTAssertEqual(report[50], "and 10 more problems (50 shown)")
        XCTAssertEqual(HomeConfig.checkReport(Array(problems.prefix(50))).count, 50, "no tail when all are shown")
    }
}
