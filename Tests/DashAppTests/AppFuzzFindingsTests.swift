import DashBuiltinWidgets
import Foundation
import XCTest

@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles
@testable import DashRuntime

/// What the fuzz targets `home`, `theme` and `control` found (docs/fuzzing.md), one test each,
/// named after the finding; each input also runs through `AppFuzzHarness` as the fuzzer saw it.
final class AppFuzzFindingsTests: XCTestCase {
    let bundle = BuiltinWidgets.bundle

    func error(_ yaml: String) -> ConfigFileError? {
        do {
            _ = try HomeConfig.parse(yaml: yaml, file: "home.yaml", bundle: bundle)
            return nil
        } catch { return error as? ConfigFileError }
    }

    /// Found by the bounded run (ConfigFuzzTests) once it also ran `config check`: a value
    /// with trailing spaces was quoted in full (the widget quotes it trimmed, so the 60-character
    /// quote missed it), and the widget's name came on top of the 400-character cap.
    func testALongValueWithTrailingSpacesIsQuotedShortAndTheMessageKeepsItsCap() throws {
        let value = "Asia/Tokyo" + String(repeating: " %YAML 1.1", count: 45)
        let yaml = "tiles:\n  - family: small\n    widget: clock\n    config: {timeZone: '\(value) '}\n"
        let e = try XCTUnwrap(error(yaml))
        XCTAssertEqual(e.line, 4)
        XCTAssertLessThanOrEqual(e.message.count, 400, e.message)
        XCTAssertTrue(e.message.hasPrefix("clock: "), e.message)
        XCTAssertFalse(e.message.contains(String(value.prefix(80))), "quoted short: \(e.message)")
        XCTAssertEqual(AppFuzzHarness.home(Data(yaml.utf8)).problems, [])
    }

    /// Nine levels of nine aliases (387 million values) behind an alias used as a key, with
    /// `nl` between lines.
    func aliasKeyBomb(_ nl: String) -> String {
        var y = "x:" + nl + "  a: &a [x,x,x,x,x,x,x,x,x]" + nl
        var prev = "a"
        for n in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            y += "  \(n): &\(n) [" + Array(repeating: "*\(prev)", count: 9).joined(separator: ",") + "]" + nl
            prev = n
        }
        return y + "  *i : 1" + nl + "tiles: []" + nl
    }

    /// Found by `run.sh home` in its first 30 s ("line 110 of 3"): the YAML library counts a
    /// lone CR (and NEL, LS, PS) as a line break, swiftdash's own scan of the text did not.
    /// So a file saved with CR line endings got its lines numbered two ways, and the scan
    /// that refuses an alias used as a key — the YAML library expands it to hash it — did not
    /// see it: the bomb went to the library (90 s for this 346-byte file with CR, NEL, LS or PS).
    func testLoneCarriageReturnsAreLineBreaksForTheAliasKeyGuardToo() {
        // The message is the guard's, which reads the text before the YAML library sees it: the
        // bomb was refused, not expanded (a library that expanded it would have ended elsewhere).
        for nl in ["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"] {
            XCTAssertEqual(
                error(aliasKeyBomb(nl))?.description, "home.yaml:11: an alias (*i) cannot be a key; write the key out",
                nl.debugDescription)
        }
        // The fuzzer's input: a line number within the file, counted as YAML counts lines.
        let input = Data("tiles:\n  - family: large\r\r\r\r\n    widget: clockx\r    config: {label: x}\r".utf8)
        XCTAssertEqual(AppFuzzHarness.home(input).problems, [])
        XCTAssertEqual(AppFuzzHarness.home(input).message?.prefix(38), "home.yaml:6: unknown widget `clockx`; ")
    }

    /// Found with the one above: in a file with Windows line endings (CR LF), a duplicate key
    /// was reported at its first line without "(already on line N)", and a control character
    /// at line 1 — both searches split the text at "\n", which Swift does not find inside "\r\n".
    func testWindowsLineEndingsNameTheRightLine() {
        XCTAssertEqual(
            error("tiles:\r\n  - family: small\r\n    widget: clock\r\n    family: medium\r\n")?.description,
            "home.yaml:4: duplicate key `family` (already on line 2); a key may appear once in a mapping")
        XCTAssertEqual(
            error("tiles:\r\n  - family: small\r\n    widget: clo\u{7}ck\r\n")?.description,
            "home.yaml:3: not valid YAML: control characters are not allowed (U+7)")
        var bad = Data("tiles:\r\n  - family: small\r\n    widget: clo".utf8)
        bad.append(0xC3)
        XCTAssertEqual(
            AppFuzzHarness.home(bad).message,
            "home.yaml:3: not valid UTF-8 (byte 0xC3 at column 16): save the file as UTF-8")
        let theme = Data("name: t\r\ncolors:\r\n  nope: red\r\n".utf8)
        XCTAssertThrowsError(try ThemeLoader.parse(data: theme, file: "t.yaml")) {
            XCTAssertEqual("\($0)".prefix(37), "t.yaml:3: unknown colour role `nope`;")
        }
    }

    /// Found reading `config check`'s code for the harness: after `parse` refused an alias used
    /// as a key, the check composed the text again without the guard, and the YAML library
    /// expanded the bomb (this 346-byte file: 87 s).
    func testConfigCheckDoesNotExpandWhatParseRefused() {
        // Only the guard's problem: the check did not go on to compose (and expand) the text.
        XCTAssertEqual(
            HomeConfig.problems(yaml: aliasKeyBomb("\n"), file: "home.yaml", bundle: bundle).map(\.description),
            ["home.yaml:11: an alias (*i) cannot be a key; write the key out"])
    }

    /// Found by `run.sh home` (48,690 inputs, 54 s): `theme: "li\tht"` was accepted, a theme
    /// name holding a tab (any control character passed); a theme file's `name:` too.
    func testAThemeNameWithAControlCharacterIsRefused() throws {
        let input = try XCTUnwrap("theme: li\tht\ntiles: []\n".data(using: .utf8))
        XCTAssertEqual(
            AppFuzzHarness.home(input).message, "home.yaml:1: `theme` must be a theme name such as dark or light")
        XCTAssertEqual(error("theme: \"dark\\e]0;x\\a\"\ntiles: []\n")?.line, 1)
        XCTAssertNil(error("theme: Solarized Dark 2\ntiles: []\n"))
        XCTAssertThrowsError(try ThemeLoader.parse(yaml: "name: \"a\\tb\"\ncolors: {}\n", file: "t.yaml")) {
            XCTAssertEqual("\($0)", "t.yaml:1: `name` must be a theme name without control characters, such as dark")
        }
        XCTAssertEqual(AppFuzzHarness.theme(Data("name: a\u{85}b\ncolors: {}\n".utf8)).problems, [])
    }
}
