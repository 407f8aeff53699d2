import XCTest
import Foundation
import DashCore
@testable import DashApp

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
}
