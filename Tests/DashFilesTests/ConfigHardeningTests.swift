import DashBuiltinWidgets
import DashCore
import DashWidgets
import Foundation
import XCTest

@testable import DashHome
@testable import DashHomeFiles

/// Issue 9, items 4 and 8: hostile or broken home.yaml and theme files get a
/// `file:line: message`, quickly, within the limits in docs/decisions.md ("Limits on input from outside").
final class ConfigHardeningTests: XCTestCase {
    let bundle = BuiltinWidgets.bundle
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// Issue 24.2: 1,000 tiles sharing one 32-widget stack through an alias (31.5 KB) passed
    /// `config check` and then exhausted the machine: widgets are counted as the file expands,
    /// and the tile that crosses the limit is named with its line.
    func testNoConfigurationCanExhaustTheMachineAliasedStacksAreCounted() {
        var yaml =
            "tiles:\n  - family: medium\n    stack: &s\n" + String(repeating: "      - widget: clock\n", count: 32)
        yaml += String(repeating: "  - family: medium\n    stack: *s\n", count: 999)
        XCTAssertLessThan(yaml.utf8.count, 40_000)
        let error = parseError(yaml)
        // Tile 126 brings 126 × 32 = 4,032 widgets; tile 2 starts on line 36, tile 126 on 36 + 2 × 124.
        XCTAssertEqual(
            error,
            "home.yaml:284: tile 126 brings the widgets to 4,032 (a stack shared through an alias counts "
                + "in every tile); at most 4,000 in all")
    }

    /// Issue 24.9: a size refusal says both sizes with enough digits to differ.
    func testMessagesThatAreTrueSizesHaveDigitsToDiffer() {
        let mb = 1 << 20
        XCTAssertEqual(
            YAMLGuard.sizeRefusal(mb * 14 / 10, most: mb, what: "home.yaml"),
            "the file is 1.4 MB; home.yaml may be at most 1.0 MB")
        XCTAssertEqual(YAMLGuard.sizeTexts(mb + 10_000, most: mb).0, "1.01 MB")
        XCTAssertEqual(YAMLGuard.sizeTexts(mb + 1, most: mb).0, "1,048,577 bytes")
        XCTAssertEqual(YAMLGuard.sizeTexts(70_000, most: 65_536).0, "68.4 KB")
        XCTAssertEqual(YAMLGuard.sizeTexts(700, most: 512).0, "700 bytes")
    }

    func parseError(_ yaml: String) -> String {
        do {
            _ = try HomeConfig.parse(yaml: yaml, file: "home.yaml", bundle: bundle)
            return "no error"
        } catch { return "\(error)" }
    }

    func dataError(_ data: Data) -> String {
        do {
            _ = try HomeConfig.parse(data: data, file: "home.yaml", bundle: bundle)
            return "no error"
        } catch { return "\(error)" }
    }

    // MARK: item 4

    func testYAMLAliasBombs_aStackReusedByEveryTileIsRefused() {
        // The issue's 14 KB file: one stack of N aliases, reused by N tiles (N² widgets, 1.2 GB).
        let n = 1_700
        var y =
            "tiles:\n  - &t {family: small, stack: [&w {widget: clock}" + String(repeating: ", *w", count: n) + "]}\n"
        y += String(repeating: "  - *t\n", count: n)
        XCTAssertLessThan(y.utf8.count, 20_000)
        // Refused by the count, which runs before anything is expanded (the message says so).
        XCTAssertEqual(
            parseError(y),
            "home.yaml:2: the file holds more than 200,000 values"
                + " once aliases such as *w are expanded; write fewer repeats"
        )
        // The same with small stacks: the expanded size is what counts.
        var z =
            "tiles:\n  - &t {family: small, stack: [&w {widget: clock}, *w, *w]}\n"
            + String(repeating: "  - *t\n", count: 999)
        XCTAssertEqual(parseError(z).prefix(13), "no error")
        z += "  - *t\n"
        XCTAssertEqual(parseError(z), "home.yaml:1: `tiles` lists 1,001 tiles; at most 1,000")
        // A stack has its own limit.
        XCTAssertEqual(
            parseError(
                "tiles:\n  - family: small\n    stack: ["
                    + Array(repeating: "{widget: clock}", count: 33)
                    .joined(separator: ", ") + "]\n"),
            "home.yaml:3: a stack of 33 widgets; at most 32")
    }

    func testYAMLAliasBombs_laughsAreCountedBeforeDecoding() {
        // Nine levels of nine: 387 million values from 400 bytes, in a key nobody reads.
        var l = "x:\n  a: &a [x,x,x,x,x,x,x,x,x]\n"
        var prev = "a"
        for n in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            l += "  \(n): &\(n) [" + Array(repeating: "*\(prev)", count: 9).joined(separator: ",") + "]\n"
            prev = n
        }
        XCTAssertEqual(
            parseError(l + "tiles: []\n"),
            "home.yaml:3: the file holds more than 200,000 values"
                + " once aliases such as *a are expanded; write fewer repeats"
        )
        // An alias as a key: the YAML library hashes it, expanded, before we could count.
        XCTAssertEqual(parseError(l + "  *i : 1\n"), "home.yaml:11: an alias (*i) cannot be a key; write the key out")
        XCTAssertEqual(
            parseError(l + "  ? *i\n  : 1\n"),
            "home.yaml:11: a key must be a plain word: lists, mappings and `?` keys cannot be keys")
        XCTAssertEqual(
            parseError("tiles: []\nx: {[*a, b]: 1}\n"),
            "home.yaml:2: a key must be a plain word: lists, mappings and `?` keys cannot be keys")
        // Aliases for what they are for still work: one config shared by two tiles.
        let shared = """
            tiles:
              - family: small
                widget: clock
                config: &paris { timeZone: Europe/Paris, label: "*not: an alias*" }
              - family: small
                widget: clock
                config: *paris
            """
        XCTAssertEqual(parseError(shared), "no error")
        let c = try? HomeConfig.parse(yaml: shared, file: "home.yaml", bundle: bundle)
        XCTAssertEqual(c?.tiles.map { $0.items[0].config.string("label") }, ["*not: an alias*", "*not: an alias*"])
    }

    func testYAMLAliasBombs_nestingSizeAndValueLimits() throws {
        XCTAssertEqual(
            parseError("tiles: []\nx: " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n"),
            "home.yaml:2: nested more than 32 levels deep")
        // Past libyaml's own limit (the 23 KB file that aborted): still a message.
        XCTAssertEqual(
            parseError("x: " + String(repeating: "[", count: 23_000)), "home.yaml:1: nested more than 32 levels deep")
        var block = "tiles: []\nx:\n"
        for d in 1...40 { block += String(repeating: " ", count: d) + "k:\n" }
        XCTAssertTrue(parseError(block).hasSuffix(": nested more than 32 levels deep"), parseError(block))
        let longLabel = String(repeating: "l", count: 2_001)
        XCTAssertEqual(
            parseError("tiles:\n  - family: small\n    widget: clock\n    config:\n      label: \(longLabel)\n"),
            "home.yaml:5: clock: `label` is 2,001 characters long; at most 2,000")
        // Files past the size cap are not read.
        let big = dir.appendingPathComponent("big.yaml")
        try Data(repeating: UInt8(ascii: "#"), count: ConfigLimits.maxHomeBytes + 1).write(to: big)
        XCTAssertThrowsError(try HomeConfig.load(contentsOf: big, bundle: bundle)) { e in
            XCTAssertEqual("\(e)", "\(big.path): the file is 1,048,577 bytes; home.yaml may be at most 1,048,576 bytes")
        }
        XCTAssertThrowsError(try HomeConfig.load(contentsOf: dir, bundle: bundle)) { e in
            XCTAssertEqual("\(e)", "\(dir.path): not a regular file")
        }
        XCTAssertThrowsError(try HomeConfig.load(contentsOf: dir.appendingPathComponent("none.yaml"), bundle: bundle)) {
            e in
            XCTAssertEqual(
                "\(e)", "\(dir.appendingPathComponent("none.yaml").path): cannot read the file: no such file")
        }
    }

    // MARK: item 8

    func testErrorsThatNameNoLineOrTheWrongFile_homeYAML() {
        var bad = Data("tiles:\n  - family: small\n    widget: clo".utf8)
        bad.append(0xC3)
        bad.append(contentsOf: Array("k\n".utf8))
        XCTAssertEqual(dataError(bad), "home.yaml:3: not valid UTF-8 (byte 0xC3 at column 16): save the file as UTF-8")
        XCTAssertEqual(
            dataError(Data([0xFF, 0x0A])),
            "home.yaml:1: not valid UTF-8 (byte 0xFF at column 1): save the file as UTF-8")

        // A duplicate key names the second one, and never repeats the file.
        let padding = String(repeating: "# a long file\n", count: 20_000)
        let dup = "tiles: []\n" + padding + "tiles: []\n"
        let e = parseError(dup)
        XCTAssertEqual(
            e, "home.yaml:20002: duplicate key `tiles` (already on line 1); a key may appear once in a mapping")
        let nested = "tiles:\n  - family: small\n    widget: clock\n    family: medium\n"
        XCTAssertEqual(
            parseError(nested),
            "home.yaml:4: duplicate key `family` (already on line 2); a key may appear once in a mapping")
        XCTAssertEqual(
            parseError("tiles: [{family: small, widget: clock, family: large}]\n"),
            "home.yaml:1: duplicate key `family`; a key may appear once in a mapping")

        XCTAssertEqual(
            parseError(""),
            "home.yaml: the file is empty: add a `tiles:` list (or remove the file for the default home screen)")
        XCTAssertEqual(
            parseError("\n\n  \n"),
            "home.yaml: the file is empty: add a `tiles:` list (or remove the file for the default home screen)")
        XCTAssertEqual(
            parseError("# my tiles\n"),
            "home.yaml: the file has only comments: add a `tiles:` list"
                + " (or remove the file for the default home screen)"
        )
        // Control characters: the line, and the character, not the raw text.
        XCTAssertEqual(
            parseError("tiles:\n  - \u{7}x\n"), "home.yaml:2: not valid YAML: control characters are not allowed (U+7)")
        XCTAssertEqual(
            parseError("tiles:\n  - family: [small\n"),
            "home.yaml:3: not valid YAML: did not find expected ',' or ']'")
    }

    func testErrorsThatNameNoLineOrTheWrongFile_themes() throws {
        let themes = dir.appendingPathComponent("themes")
        try FileManager.default.createDirectory(at: themes, withIntermediateDirectories: true)
        let homeFile = dir.appendingPathComponent("home.yaml").path
        let home = try HomeConfig.parse(yaml: "theme: t\ntiles: []\n", file: homeFile, bundle: bundle)

        // A broken colour: the theme file and its line, not home.yaml.
        try "name: t\ncolors:\n  accent: \"#12\"\n".write(
            to: themes.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ThemeLoader.loadPair("t", fromHome: home, homeFile: homeFile, searchPath: [themes])) {
            e in
            XCTAssertEqual("\(e)", "\(themes.path)/t.yaml:3: `#12` is not a colour (#rrggbb, a name, or 0-255)")
        }
        // Invalid UTF-8 in the theme: said so, with the line, not "no theme named t".
        var bytes = Data("name: t\ncolors:\n  accent: re".utf8)
        bytes.append(0xE9)
        bytes.append(contentsOf: Array("d\n".utf8))
        try bytes.write(to: themes.appendingPathComponent("t.yaml"))
        XCTAssertThrowsError(try ThemeLoader.loadPair("t", fromHome: home, homeFile: homeFile, searchPath: [themes])) {
            e in
            XCTAssertEqual(
                "\(e)", "\(themes.path)/t.yaml:3: not valid UTF-8 (byte 0xE9 at column 13): save the file as UTF-8")
        }
        // Broken YAML and an empty theme: the theme file, with the line where there is one.
        try "colors: [\n".write(to: themes.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ThemeLoader.loadPair("t", fromHome: home, homeFile: homeFile, searchPath: [themes])) {
            e in
            XCTAssertTrue("\(e)".hasPrefix("\(themes.path)/t.yaml:2: not valid YAML"), "\(e)")
        }
        try "".write(to: themes.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ThemeLoader.loadPair("t", fromHome: home, homeFile: homeFile, searchPath: [themes])) {
            e in
            XCTAssertEqual(
                "\(e)", "\(themes.path)/t.yaml: the file is empty: a theme needs `name`, `dark` and `colors`")
        }
        // A theme that does not exist: against the line of home.yaml that names it.
        try FileManager.default.removeItem(at: themes.appendingPathComponent("t.yaml"))
        XCTAssertThrowsError(try ThemeLoader.loadPair("t", fromHome: home, homeFile: homeFile, searchPath: [themes])) {
            e in
            XCTAssertTrue("\(e)".hasPrefix("\(homeFile):1: no theme named `t`"), "\(e)")
            XCTAssertTrue((e as? ConfigFileError)?.isMissingTheme == true)
        }
        // A good one, and its opposite from the built-ins.
        try "name: t\ndark: false\ncolors:\n  accent: red\n".write(
            to: themes.appendingPathComponent("t.yaml"), atomically: true,
            encoding: .utf8)
        let (main, other) = try ThemeLoader.loadPair("t", fromHome: home, homeFile: homeFile, searchPath: [themes])
        XCTAssertEqual(main.name, "t")
        XCTAssertEqual(other, Theme.dark)
        // A theme file past its cap.
        try Data(repeating: UInt8(ascii: "#"), count: ConfigLimits.maxThemeBytes + 1).write(
            to: themes.appendingPathComponent("t.yaml"))
        XCTAssertThrowsError(try ThemeLoader.load("t", searchPath: [themes])) { e in
            XCTAssertEqual("\(e)", "\(themes.path)/t.yaml: the file is 64.001 KB; a theme may be at most 64.000 KB")
        }
    }
}
