import XCTest
import Foundation
import DashCore
@testable import DashHome
@testable import DashHomeFiles

final class ThemeTests: XCTestCase {
    var themesDir: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("themes")
    }

    func testShippedThemesMatchTheBuiltInFallbacks() throws {
        XCTAssertEqual(try ThemeLoader.load("dark", searchPath: [themesDir]), Theme.dark)
        XCTAssertEqual(try ThemeLoader.load("light", searchPath: [themesDir]), Theme.light)
        for role in ThemeRole.allCases { XCTAssertNotEqual(Theme.dark[role], .default, "\(role) is set") }
    }

    func testTerminalIsShippedAndAutoFollowsTheBackground() throws {
        XCTAssertEqual(try ThemeLoader.load("terminal", searchPath: [themesDir]), Theme.terminal)
        XCTAssertEqual(try ThemeLoader.load("terminal", searchPath: []), Theme.terminal, "built in too")
        XCTAssertEqual(try ThemeLoader.load("auto", searchPath: [themesDir], backgroundIsDark: false).name, "light")
        XCTAssertEqual(try ThemeLoader.load("auto", searchPath: [themesDir], backgroundIsDark: true).name, "dark")
        XCTAssertEqual(try ThemeLoader.load("auto", searchPath: [themesDir]).name, "dark", "nothing said: dark")
        let (main, other) = try ThemeLoader.loadPair(
            "auto", fromHome: nil, homeFile: "home.yaml", searchPath: [themesDir], backgroundIsDark: false)
        XCTAssertEqual([main.name, other.name], ["light", "dark"], "t switches to the other")
    }

    func testThemeErrorsSayWhatIsWrong() {
        XCTAssertThrowsError(try ThemeLoader.parse(yaml: "name: x\ncolors:\n  acent: \"#fff\"\n", file: "x.yaml")) {
            e in
            XCTAssertTrue("\(e)".contains("x.yaml:3: unknown colour role `acent`"), "\(e)")
        }
        XCTAssertThrowsError(try ThemeLoader.parse(yaml: "colors:\n  accent: blurple\n", file: "x.yaml")) { e in
            XCTAssertTrue("\(e)".contains("`blurple` is not a colour"), "\(e)")
        }
        XCTAssertThrowsError(try ThemeLoader.load("nosuch", searchPath: [themesDir])) { e in
            XCTAssertTrue("\(e)".contains("no theme named `nosuch`"), "\(e)")
        }
    }

    func testAPartialThemeInheritsTheRest() throws {
        let t = try ThemeLoader.parse(yaml: "name: mine\ndark: false\ncolors:\n  accent: red\n", file: "mine.yaml")
        XCTAssertEqual(t[.accent], .ansi(1))
        XCTAssertEqual(t[.text], Theme.light[.text])
    }

    /// Values are read as text (Yams' basic resolver), so `dark:` is spelled out here, as YAML 1.1 does.
    func testDarkIsAYesOrNoAndAnythingElseIsAnError() throws {
        for (text, dark) in [
            ("false", false), ("no", false), ("Off", false), ("true", true), ("YES", true), ("on", true),
        ] {
            let t = try ThemeLoader.parse(yaml: "name: mine\ndark: \(text)\ncolors:\n  accent: red\n", file: "m.yaml")
            XCTAssertEqual(t[.text], (dark ? Theme.dark : Theme.light)[.text], text)
        }
        XCTAssertThrowsError(
            try ThemeLoader.parse(yaml: "name: m\ndark: maybe\ncolors:\n  accent: red\n", file: "m.yaml")
        ) {
            XCTAssertTrue("\($0)".contains("m.yaml:2"), "\($0)")
            XCTAssertTrue("\($0)".contains("`dark` must be true or false"), "\($0)")
        }
    }
}
