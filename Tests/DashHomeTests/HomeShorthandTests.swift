import XCTest
import DashWidgets
import DashBuiltinWidgets
import DashTestSupport
@testable import DashHome

/// `- clock` in `tiles:` is shorthand for `{widget: clock}` in the widget's default family: it
/// parses, `config check` accepts it, and an edit from the app leaves it as the user wrote it
/// where the tile did not change.
final class HomeShorthandTests: XCTestCase {
    let bundle = BuiltinWidgets.bundle

    let text = """
        # mine
        tiles:
          - clock   # just the time
          - family: medium
            widget: news
          - "crypto"

        """

    func testABareWidgetNameIsATileInItsDefaultFamily() throws {
        let home = try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle)
        XCTAssertEqual(home.tiles.map(\.family), [.small, .medium, .small])
        XCTAssertEqual(home.tiles.map { $0.items.map(\.kind) }, [["clock"], ["news"], ["crypto"]])
        XCTAssertEqual(home.tiles[0].items[0].config, WidgetConfig())
        XCTAssertEqual(home.allInstances.map(\.id), ["w1", "w2", "w3"])
        let longhand = try HomeConfig.parse(
            yaml: "tiles:\n  - widget: clock\n  - family: medium\n    widget: news\n  - widget: crypto\n",
            file: "home.yaml", bundle: bundle)
        XCTAssertTrue(home.sameContent(as: longhand))
        XCTAssertEqual(HomeConfig.problems(yaml: text, file: "home.yaml", bundle: bundle).map(\.description), [])
    }

    func testAnUnknownNameOrAnEmptyTileIsStillAnErrorWithItsLine() {
        let bad = "tiles:\n  - clock\n  - clocks\n  -\n"
        XCTAssertEqual(
            HomeConfig.problems(yaml: bad, file: "home.yaml", bundle: bundle).map(\.description),
            [
                "home.yaml:3: unknown widget `clocks`; available: " + bundle.kinds.joined(separator: ", "),
                "home.yaml:4: each tile must be a widget name or a mapping with `family` and `widget` or `stack`",
            ])
    }

    func edited(_ change: (inout HomeConfig) -> Void) throws -> String {
        let base = try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle)
        var new = base
        change(&new)
        let out = try HomeText.edit(text, holding: base, to: new, bundle: bundle)
        XCTAssertTrue(try HomeConfig.parse(yaml: out, file: "home.yaml", bundle: bundle).sameContent(as: new))
        return lineDiff(text, out)
    }

    func testEditingAnotherTileKeepsTheShorthand() throws {
        XCTAssertEqual(
            try edited { $0.tiles[1].items[0].config["count"] = .int(3) },
            """
            +6:     config:
            +7:       count: 3
            """)
        // Moving a tile moves the shorthand line as it is.
        let moved = try edited { $0.tiles.swapAt(0, 2) }
        XCTAssertTrue(moved.contains("+3:   - \"crypto\""), moved)
        XCTAssertTrue(moved.contains("-3:   - clock   # just the time"), moved)
        XCTAssertTrue(moved.contains("+6:   - clock   # just the time"), moved)
        // Removing another tile leaves it too.
        XCTAssertEqual(
            try edited { $0.tiles.remove(at: 1) },
            """
            -4:   - family: medium
            -5:     widget: news
            """)
    }

    func testEditingTheShorthandTileWritesItOut() throws {
        XCTAssertEqual(
            try edited { $0.tiles[0].items[0].config["label"] = .string("Home") },
            """
            +3:   - family: small
            +4:     widget: clock
            +5:     config:
            +6:       label: Home
            -3:   - clock   # just the time
            """)
    }
}
