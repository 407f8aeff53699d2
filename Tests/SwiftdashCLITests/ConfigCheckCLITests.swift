import XCTest
import Foundation
import DashTestSupport

/// `swiftdash config check` through the real binary: every problem in one run (bounded), the
/// theme home.yaml names, a theme file checked by itself; and the crypto coin refused by
/// `config set` and `config check` in the words of the one check the form and provider use.
final class ConfigCheckCLITests: XCTestCase {
    var home: URL!
    var dir: URL { home.appendingPathComponent("swiftdash") }
    var file: URL { dir.appendingPathComponent("home.yaml") }
    var env: [String: String] { ["XDG_CONFIG_HOME": home.path] }
    let coinProblem =
        "'x y' is not a coin; use a symbol such as BTC or a CoinGecko id such as bitcoin "
        + "(letters, digits and -, at most 30)"

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("themes"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: home) }

    func put(_ text: String, at url: URL? = nil) throws { try Data(text.utf8).write(to: url ?? file) }
    func run(_ args: String...) throws -> (status: Int32, out: String, err: String) { try runSwiftdash(args, env: env) }

    func testEveryProblemIsPrintedInOneRunAtMostFiftyThenHowManyMore() throws {
        try put("tiles:\n" + (1...60).map { "  - widget: nope\($0)\n" }.joined() + "bogus: 1\n")
        let c = try run("config", "check")
        XCTAssertEqual(c.status, 1)
        let lines = c.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 51, c.out)
        XCTAssertTrue(lines[0].hasPrefix("\(file.path):2: unknown widget `nope1`; available: "), lines[0])
        XCTAssertTrue(lines[49].hasPrefix("\(file.path):51: unknown widget `nope50`"), lines[49])
        XCTAssertEqual(lines[50], "and 11 more problems (50 shown)")
    }

    func testABadCoinIsRefusedByConfigSetAndConfigCheckInTheSameWords() throws {
        try put("tiles:\n  - clock\n  - widget: crypto\n")
        let set = try run("config", "set", "w2", "coin=x y")
        XCTAssertEqual(set.status, 2)
        XCTAssertEqual(set.err, "swiftdash: error: crypto: coin: \(coinProblem)\n")
        XCTAssertEqual(try run("config", "set", "w2", "coin=avalanche-2").status, 0)
        try put("tiles:\n  - clock\n  - widget: crypto\n    config: { coin: x y }\n")
        let check = try run("config", "check")
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.out, "\(file.path):4: crypto: coin: \(coinProblem)\n")
    }

    /// Issue 38.6: a value out of its range is refused where it is typed (`config set`, `add
    /// --set`) and found by `config check`, in the same words.
    func testValuesAreCheckedWhereTheyAreTyped() throws {
        let problem = "weather: latitude: 200 is out of range; allowed: decimal degrees from -90 to 90"
        try put("tiles:\n  - clock\n  - widget: weather\n")
        let set = try run("config", "set", "w2", "latitude=200")
        XCTAssertEqual(set.status, 2)
        XCTAssertEqual(set.err, "swiftdash: error: \(problem)\n")
        let add = try run("add", "weather", "--set", "latitude=200", "--set", "longitude=0")
        XCTAssertEqual(add.status, 2)
        XCTAssertEqual(add.err, "swiftdash: error: \(problem)\n")
        XCTAssertEqual(try run("config", "set", "w2", "latitude=-90", "longitude=180").status, 0)
        try put("tiles:\n  - clock\n  - widget: weather\n    config: { latitude: 200, longitude: 0 }\n")
        let check = try run("config", "check")
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.out, "\(file.path):4: \(problem)\n")
    }

    func testTheThemeHomeYAMLNamesIsCheckedWithItsOwnFileAndLine() throws {
        let theme = dir.appendingPathComponent("themes/mine.yaml")
        try put("name: mine\ndark: true\ncolors:\n  text: \"#zz\"\n", at: theme)
        try put("theme: mine\ntiles:\n  - clock\n")
        let broken = try run("config", "check")
        XCTAssertEqual(broken.status, 1)
        XCTAssertEqual(broken.out, "\(theme.path):4: `#zz` is not a colour (#rrggbb, a name, or 0-255)\n")
        // A theme that does not exist is blamed on the line that names it.
        try put("tiles:\n  - clock\ntheme: nosuch\n")
        let missing = try run("config", "check")
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.out.hasPrefix("\(file.path):3: no theme named `nosuch`"), missing.out)
        // A good theme: ok, and the summary names it.
        try put("name: mine\ndark: true\ncolors:\n  text: \"#ffffff\"\n", at: theme)
        try put("theme: mine\ntiles:\n  - clock\n")
        let ok = try run("config", "check")
        XCTAssertEqual(ok.status, 0, ok.out)
        XCTAssertTrue(ok.out.contains("theme mine"), ok.out)
    }

    func testAThemeFileCheckedByItselfNamesItsLine() throws {
        let theme = dir.appendingPathComponent("themes/mine.yaml")
        try put("name: mine\ndark: maybe\ncolors:\n  text: \"#zz\"\n", at: theme)
        let c = try run("config", "check", theme.path)
        XCTAssertEqual(c.status, 1)
        XCTAssertTrue(c.out.hasPrefix("\(theme.path):2: "), c.out)
        try put("name: mine\ndark: true\ncolors:\n  text: \"#ffffff\"\n", at: theme)
        let ok = try run("config", "check", theme.path)
        XCTAssertEqual(ok.status, 0, ok.out)
        XCTAssertEqual(ok.out, "\(theme.path): ok — theme mine (dark)\n")
    }
}
