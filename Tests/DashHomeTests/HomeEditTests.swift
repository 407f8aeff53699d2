import XCTest
import DashWidgets
import DashBuiltinWidgets
import DashTestSupport
@testable import DashHome

/// home.yaml is written by changing only the lines of what changed: each test shows the whole
/// line diff of one change to a heavily commented file (every line not listed is byte-identical).
final class HomeEditTests: XCTestCase {
    let bundle = BuiltinWidgets.bundle

    static let commented = """
        # My swiftdash home screen
        # (edited by hand, kept under git)

        theme: dark   # dark or light

        tiles:
          # --- top row ---------------------------------------------------------
          # The clock, always first.
          - family: small
            widget: clock
            config:
              # Paris, because that's where I am
              timeZone: Europe/Paris   # IANA name
              label: 'Home'

          # Prices: keep an eye on ETH
          - family: small
            widget: crypto
            config: { coin: ETH }

          - family: medium   # headlines
            widget: news

          # A stack of two
          - family: medium
            stack:
              # first the commits
              - widget: commits
              - widget: crypto   # BTC by default

          # Big calendar-ish clock
          - family: large
            widget: clock
            config:
              label: "Calendar"

        # end of tiles

        """

    /// The diff of one change, checking that it was an edit in place (not the whole-file
    /// fallback) and that the new text reads back as the new home.
    func diff(
        _ text: String = commented, bundle: WidgetBundle? = nil, file: StaticString = #filePath,
        line: UInt = #line, _ change: (inout HomeConfig) -> Void
    ) throws -> String {
        let bundle = bundle ?? self.bundle
        let base = try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle)
        var new = base
        change(&new)
        let out = try HomeText.edit(text, holding: base, to: new, bundle: bundle)
        let inPlace = HomeEditor(text: text, old: base, new: new, bundle: bundle)?.run()
        XCTAssertEqual(inPlace, out, "edited in place, not written anew", file: file, line: line)
        let back = try HomeConfig.parse(yaml: out, file: "home.yaml", bundle: bundle)
        XCTAssertTrue(back.sameContent(as: new), "reads back as the new home", file: file, line: line)
        return lineDiff(text, out)
    }

    func testChangingOneValueChangesOnlyItsLineAndKeepsItsQuotes() throws {
        XCTAssertEqual(
            try diff { $0.tiles[0].items[0].config["label"] = .string("Office") },
            """
            +14:       label: 'Office'
            -14:       label: 'Home'
            """)
        XCTAssertEqual(
            try diff { $0.tiles[0].items[0].config["label"] = .string("Bob's: #1") },
            """
            +14:       label: 'Bob''s: #1'
            -14:       label: 'Home'
            """)
        XCTAssertEqual(
            try diff { $0.tiles[4].items[0].config["label"] = .string("Say \"hi\"") },
            """
            +35:       label: "Say \\"hi\\""
            -35:       label: "Calendar"
            """)
        // A trailing comment on the line stays.
        XCTAssertEqual(
            try diff { $0.tiles[0].items[0].config["timeZone"] = .string("Asia/Tokyo") },
            """
            +13:       timeZone: Asia/Tokyo   # IANA name
            -13:       timeZone: Europe/Paris   # IANA name
            """)
    }

    /// Issue 24.1: a command list in home.yaml is the argv byte for byte (commas, spaces and
    /// empty items kept), a command line is one item, and an edit writes them back so.
    func testCommandRunsWithExactlyTheArgumentsWrittenInHomeYAML() throws {
        let yaml = """
            tiles:
              - widget: command
                config:
                  command: [argv.sh, "a,b", "c, d", "", "x"]
              - widget: command
                config:
                  command: echo a, b
                  shell: true
              - widget: command
                config:
                  command:
                    - cut
                    - "-d,"
                    - -f1

            """
        let home = try HomeConfig.parse(yaml: yaml, file: "home.yaml", bundle: bundle)
        XCTAssertEqual(home.tiles[0].items[0].config["command"], .list(["argv.sh", "a,b", "c, d", "", "x"]))
        XCTAssertEqual(home.tiles[1].items[0].config["command"], .list(["echo a, b"]))
        XCTAssertEqual(home.tiles[2].items[0].config["command"], .list(["cut", "-d,", "-f1"]))
        XCTAssertEqual(
            try diff(yaml) { $0.tiles[0].items[0].config["command"] = .list(["argv.sh", "a,b", "", "y, z"]) },
            """
            +4:       command: [argv.sh, "a,b", "", "y, z"]
            -4:       command: [argv.sh, "a,b", "c, d", "", "x"]
            """)
        XCTAssertEqual(
            try diff(yaml) { $0.tiles[1].items[0].config["command"] = .list(["rm", "old,file"]) },
            """
            +7:       command: [rm, "old,file"]
            -7:       command: echo a, b
            """)
        XCTAssertEqual(
            try diff(yaml) { $0.tiles[1].items[0].config["command"] = .list(["echo c, d"]) },
            """
            +7:       command: echo c, d
            -7:       command: echo a, b
            """)
    }

    func testFlowConfigIsEditedOnItsLine() throws {
        XCTAssertEqual(
            try diff { $0.tiles[1].items[0].config["coin"] = .string("LTC") },
            """
            +19:     config: { coin: LTC }
            -19:     config: { coin: ETH }
            """)
        XCTAssertEqual(
            try diff { $0.tiles[1].items[0].config["currency"] = .string("EUR") },
            """
            +19:     config: { coin: ETH, currency: EUR }
            -19:     config: { coin: ETH }
            """)
    }

    func testAddingAndRemovingConfigValues() throws {
        XCTAssertEqual(
            try diff { $0.tiles[2].items[0].config["count"] = .int(3) },
            """
            +23:     config:
            +24:       count: 3
            """)
        // A removed value takes the comment above it along.
        XCTAssertEqual(
            try diff { $0.tiles[0].items[0].config["timeZone"] = nil },
            """
            -12:       # Paris, because that's where I am
            -13:       timeZone: Europe/Paris   # IANA name
            """)
        XCTAssertEqual(
            try diff { $0.tiles[4].items[0].config = WidgetConfig() },
            """
            -34:     config:
            -35:       label: "Calendar"
            """)
    }

    func testAddingATileAppendsABlockInTheFilesStyle() throws {
        XCTAssertEqual(
            try diff { h in
                h.tiles.append(
                    TileInstance(
                        id: h.nextTileID(), family: .small,
                        items: [
                            WidgetInstance(
                                id: h.nextInstanceID(), kind: "clock",
                                config: WidgetConfig(["label": .string("Tokyo"), "timeZone": .string("Asia/Tokyo")]))
                        ]))
            },
            """
            +37:   - family: small
            +38:     widget: clock
            +39:     config:
            +40:       timeZone: Asia/Tokyo
            +41:       label: Tokyo
            +42: 
            """)
    }

    func testRemovingATileTakesItsLinesAndOneGap() throws {
        XCTAssertEqual(
            try diff { $0.tiles.remove(at: 2) },
            """
            -21:   - family: medium   # headlines
            -22:     widget: news
            -23: 
            """)
        XCTAssertEqual(
            try diff { $0.tiles.removeLast() },
            """
            -31:   # Big calendar-ish clock
            -32:   - family: large
            -33:     widget: clock
            -34:     config:
            -35:       label: "Calendar"
            -36: 
            """)
    }

    func testMovingATileMovesItsLinesWithItsComments() throws {
        XCTAssertEqual(
            try diff { h in h.tiles.insert(h.tiles.removeLast(), at: 0) },
            """
            +7:   # Big calendar-ish clock
            +8:   - family: large
            +9:     widget: clock
            +10:     config:
            +11:       label: "Calendar"
            +12: 
            -31:   # Big calendar-ish clock
            -32:   - family: large
            -33:     widget: clock
            -34:     config:
            -35:       label: "Calendar"
            -36: 
            """)
    }

    func testChangingAFamilyChangesOnlyThatValue() throws {
        XCTAssertEqual(
            try diff { $0.tiles[2].family = .large },
            """
            +21:   - family: large   # headlines
            -21:   - family: medium   # headlines
            """)
    }

    func testMakingAStackKeepsBothWidgetsLinesAndComments() throws {
        XCTAssertEqual(
            try diff { h in
                let dropped = h.tiles.remove(at: 1)
                h.tiles[0].items += dropped.items
            },
            """
            +10:     stack:
            +11:       - widget: clock
            +12:         config:
            +13:           # Paris, because that's where I am
            +14:           timeZone: Europe/Paris   # IANA name
            +15:           label: 'Home'
            +16:       # Prices: keep an eye on ETH
            +17:       - widget: crypto
            +18:         config: { coin: ETH }
            -10:     widget: clock
            -11:     config:
            -12:       # Paris, because that's where I am
            -13:       timeZone: Europe/Paris   # IANA name
            -14:       label: 'Home'
            -16:   # Prices: keep an eye on ETH
            -17:   - family: small
            -18:     widget: crypto
            -19:     config: { coin: ETH }
            -20: 
            """)
    }

    func testJoiningAStackAddsOneItem() throws {
        XCTAssertEqual(
            try diff { h in
                let dropped = h.tiles.remove(at: 2)
                h.tiles[2].items += dropped.items
            },
            """
            -21:   - family: medium   # headlines
            -22:     widget: news
            -23: 
            +27:       - widget: news
            """)
    }

    func testStackItemsReorderAndLeave() throws {
        XCTAssertEqual(
            try diff { $0.tiles[3].items.reverse() },
            """
            +27:       - widget: crypto   # BTC by default
            -29:       - widget: crypto   # BTC by default
            """)
        // Taking a widget out of a stack into a tile of its own.
        XCTAssertEqual(
            try diff { h in
                let item = h.tiles[3].items.removeLast()
                h.tiles.append(TileInstance(id: h.nextTileID(), family: .small, items: [item]))
            },
            """
            +26:     # first the commits
            +27:     widget: commits
            -26:     stack:
            -27:       # first the commits
            -28:       - widget: commits
            -29:       - widget: crypto   # BTC by default
            +35:   - family: small
            +36:     widget: crypto   # BTC by default
            +37: 
            """)
    }

    /// Issue 37 point 8: removing a widget from a two-widget stack dropped the comment above the
    /// stack. Every comment but the removed widget's own stays, whichever widget goes and
    /// wherever `stack:` stands in its tile.
    func testRemovingAWidgetFromATwoWidgetStackKeepsTheComments() throws {
        let texts = [
            """
            tiles:
              # the pair
              - family: medium
                # rotating: commits and prices
                stack:
                  # first the commits
                  - widget: commits
                  # then BTC
                  - widget: crypto   # BTC by default
                smartRotate: false   # keep the order

            """,
            """
            tiles:
              # the pair
              # rotating: commits and prices
              - stack:
                  # first the commits
                  - widget: commits
                  # then BTC
                  - widget: crypto   # BTC by default
                family: medium

            """,
        ]
        for text in texts {
            let base = try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle)
            for gone in [0, 1] {
                var new = base
                new.tiles[0].items.remove(at: gone)
                let out = try HomeText.edit(text, holding: base, to: new, bundle: bundle)
                XCTAssertTrue(try HomeConfig.parse(yaml: out, file: "home.yaml", bundle: bundle).sameContent(as: new))
                XCTAssertFalse(out.contains("stack:"), out)
                var kept = ["# the pair", "# rotating: commits and prices"]
                kept += gone == 0 ? ["# then BTC", "# BTC by default"] : ["# first the commits"]
                if text.contains("keep the order") { kept.append("# keep the order") }
                for comment in kept {
                    XCTAssertEqual(out.components(separatedBy: comment).count, 2, "\(comment) once in:\n\(out)")
                }
                let left = gone == 0 ? "# then BTC" : "# first the commits"
                // At the key column, or above the dash when the widget's key is on the dash line now.
                XCTAssertTrue(
                    out.contains("\n    \(left)\n    widget:") || out.contains("\n  \(left)\n  - widget:"),
                    "the kept widget's comment right above it:\n\(out)")
                let removed = gone == 0 ? "# first the commits" : "# then BTC"
                XCTAssertFalse(out.contains(removed), "the removed widget's comment goes with it:\n\(out)")
            }
        }
    }

    /// Found by a new user: undoing a stacking left a one-item `stack:` in the file. A stack down
    /// to one widget is a plain tile again. (Not byte for byte: a comment that led the stacked
    /// tile comes back after its dash line.)
    func testUndoingAStackingLeavesNoOneItemStack() throws {
        let text = Self.commented
        let base = try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle)
        var stacked = base
        let dropped = stacked.tiles.remove(at: 1)
        stacked.tiles[0].items += dropped.items
        let once = try HomeText.edit(text, holding: base, to: stacked, bundle: bundle)
        XCTAssertTrue(once.contains("stack:"))
        let back = try HomeText.edit(once, holding: stacked, to: base, bundle: bundle)
        XCTAssertFalse(back.contains("stack:\n      - widget: clock"), back)
        XCTAssertEqual(back.components(separatedBy: "stack:").count, text.components(separatedBy: "stack:").count)
        XCTAssertTrue(try HomeConfig.parse(yaml: back, file: "home.yaml", bundle: bundle).sameContent(as: base))
        for comment in ["# Paris, because that's where I am", "# Prices: keep an eye on ETH"] {
            XCTAssertTrue(back.contains(comment), comment)
        }
    }

    func testThemeChangeKeepsTheComment() throws {
        XCTAssertEqual(
            try diff { $0.theme = "light" },
            """
            +4: theme: light   # dark or light
            -4: theme: dark   # dark or light
            """)
        XCTAssertEqual(
            try diff { $0.theme = nil },
            """
            -4: theme: dark   # dark or light
            -5: 
            """)
    }

    func testNoChangeIsTheSameText() throws {
        XCTAssertEqual(try diff { _ in }, "")
        let base = try HomeConfig.parse(yaml: Self.commented, file: "home.yaml", bundle: bundle)
        var renamed = base
        renamed.tiles[0].id = "other"
        XCTAssertEqual(try HomeText.edit(Self.commented, holding: base, to: renamed, bundle: bundle), Self.commented)
    }

    func testRemovingEveryTileLeavesAnEmptyList() throws {
        let d = try diff { $0.tiles = [] }
        XCTAssertTrue(d.hasPrefix("+6: tiles: []\n-6: tiles:\n"), d)
        XCTAssertFalse(d.contains("end of tiles"), "the comment after the tiles stays")
    }

    func testDuplicateIdsAreWrittenAnewNotMixedUp() throws {
        let base = try HomeConfig.parse(yaml: Self.commented, file: "home.yaml", bundle: bundle)
        var new = base
        new.tiles.append(new.tiles[0])
        let text = try HomeText.edit(Self.commented, holding: base, to: new, bundle: bundle)
        XCTAssertTrue(try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle).sameContent(as: new))
        XCTAssertTrue(
            text.hasPrefix("# My swiftdash home screen\n# (edited by hand, kept under git)\n"), "the header stays")
    }

    func testANewFileHasAHeaderComment() throws {
        let home = HomeConfig.defaultHome(bundle: bundle)
        let text = try HomeText.edit(nil, holding: home, to: home, bundle: bundle)
        XCTAssertTrue(text.hasPrefix(HomeText.header.joined(separator: "\n") + "\n\ntiles:\n  - family: small\n"), text)
        XCTAssertTrue(try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle).sameContent(as: home))
    }

    func testOtherLayoutsAreFollowed() throws {
        // Four-space indentation, an indentless list, widget before family, no family at all.
        let text = """
            tiles:
            -   widget: clock
                family: small
            -   widget: news
            """
        XCTAssertEqual(
            try diff(text) { h in
                h.tiles[1].family = .medium
                h.tiles.append(
                    TileInstance(
                        id: h.nextTileID(), family: .large,
                        items: [
                            WidgetInstance(
                                id: h.nextInstanceID(), kind: "clock", config: WidgetConfig(["label": .string("x")]))
                        ]))
            },
            """
            +5:     family: medium
            +6: -   widget: clock
            +7:     config:
            +8:       label: x
            +9:     family: large
            """)
    }

    func testTheDashMovesWhenTheFirstKeyChanges() throws {
        let text = "tiles:\n  - widget: clock\n    config: {label: a}\n"
        XCTAssertEqual(
            try diff(text) { $0.tiles[0].family = .medium },
            """
            +2:   - family: medium
            +3:     widget: clock
            -2:   - widget: clock
            """)
    }

    func testLineEndingsAndAMissingLastNewlineStay() throws {
        let crlf = "# head\r\ntiles:\r\n  - family: small\r\n    widget: clock\r\n"
        let base = try HomeConfig.parse(yaml: crlf, file: "home.yaml", bundle: bundle)
        var new = base
        new.tiles[0].family = .medium
        XCTAssertEqual(
            try HomeText.edit(crlf, holding: base, to: new, bundle: bundle),
            "# head\r\ntiles:\r\n  - family: medium\r\n    widget: clock\r\n")
        let bare = "tiles:\n  - family: small\n    widget: clock"
        let b2 = try HomeConfig.parse(yaml: bare, file: "home.yaml", bundle: bundle)
        var n2 = b2
        n2.tiles[0].family = .large
        XCTAssertEqual(
            try HomeText.edit(bare, holding: b2, to: n2, bundle: bundle),
            "tiles:\n  - family: large\n    widget: clock")
    }

    func testValuesThatNeedQuotesGetThem() throws {
        for tricky in ["a: b", "# not a comment", "-", "[x]", "", "line\nbreak", "\u{1B}[31m", "it's", "ünïcödé 🎉"] {
            let d = try diff { $0.tiles[4].items[0].config["label"] = .string(tricky) }
            XCTAssertTrue(d.contains("+35:       label: \""), "\(tricky.debugDescription): \(d)")
        }
        // Surrounding spaces are not part of a value (the schema trims them), so such a home
        // cannot be written as itself: refused, never written differently.
        let base = try HomeConfig.parse(yaml: Self.commented, file: "home.yaml", bundle: bundle)
        var padded = base
        padded.tiles[4].items[0].config["label"] = .string(" padded ")
        XCTAssertThrowsError(try HomeText.edit(Self.commented, holding: base, to: padded, bundle: bundle))
        XCTAssertEqual(
            try diff { $0.tiles[4].items[0].config["label"] = .string("Plain words") },
            """
            +35:       label: "Plain words"
            -35:       label: "Calendar"
            """, "the double quotes the file used stay")
    }

    func testListValuesKeepTheirForm() throws {
        let listWidget = Widget(
            kind: "feeds", displayName: "Feeds", description: "lists",
            schema: ConfigurationSchema([
                Parameter(key: "urls", title: "URLs", help: "", kind: .list(), default: .list([]))
            ]),
            provider: FakeProvider(script: FakeScript()), view: { e, _ in Text(e.value) })
        let b = WidgetBundle([listWidget])
        let text = """
            tiles:
              - widget: feeds
                config:
                  urls: [a, b]   # two
              - widget: feeds
                config:
                  urls: a, b
              - widget: feeds
                config:
                  urls:
                    - a
                    - b
            """
        XCTAssertEqual(
            try diff(text, bundle: b) { h in
                for i in 0..<3 { h.tiles[i].items[0].config["urls"] = .list(["a", "c: d", "e"]) }
            },
            """
            +4:       urls: [a, "c: d", e]   # two
            -4:       urls: [a, b]   # two
            +7:       urls: "a, c: d, e"
            -7:       urls: a, b
            +12:         - "c: d"
            +13:         - e
            -12:         - b
            """)
    }
}
