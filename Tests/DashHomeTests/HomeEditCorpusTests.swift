import XCTest
import DashWidgets
import DashBuiltinWidgets
@testable import DashHome

/// Issue 24.5: edits keep what they do not touch. A corpus of odd but valid home.yaml files
/// (anchors and aliases, `%YAML` and `---`/`...`, one-line flow files, flow mappings holding
/// lists, comments everywhere, CRLF, tabs, a byte order mark): every edit of a value changes
/// exactly that value, every other byte of the file stays.
final class HomeEditCorpusTests: XCTestCase {
    let bundle = BuiltinWidgets.bundle

    /// The file after `change`, checked to read back as the changed home.
    func edited(
        _ text: String, file: StaticString = #filePath, line: UInt = #line, _ change: (inout HomeConfig) -> Void
    )
        throws -> String
    {
        let base = try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle)
        var new = base
        change(&new)
        let out = try HomeText.edit(text, holding: base, to: new, bundle: bundle)
        let back = try HomeConfig.parse(yaml: out, file: "home.yaml", bundle: bundle)
        XCTAssertTrue(back.sameContent(as: new), "reads back as the new home", file: file, line: line)
        return out
    }

    static let anchors = """
        %YAML 1.2
        ---
        # anchors, directives and document markers
        tiles:
          - family: small
            widget: clock
            config: &paris { timeZone: Europe/Paris, label: Paris }   # shared
          - family: small
            widget: clock
            config: *paris
          - family: medium
            widget: clock
            config:
              label: 'Solo'   # its own comment
              timeZone: &tz UTC
          - family: small
            widget: clock
            config: { label: "Other", timeZone: *tz }
        ...

        """

    func testEditsKeepWhatTheyDoNotTouchAnchorsDirectivesAndMarkers() throws {
        let solo = try edited(Self.anchors) { $0.tiles[2].items[0].config["label"] = .string("Alone") }
        XCTAssertEqual(solo, Self.anchors.replacingOccurrences(of: "label: 'Solo'", with: "label: 'Alone'"))
        let other = try edited(Self.anchors) { $0.tiles[3].items[0].config["label"] = .string("Else") }
        XCTAssertEqual(other, Self.anchors.replacingOccurrences(of: #"label: "Other""#, with: #"label: "Else""#))
        // The anchored value, edited for every tile that uses it: the anchor stays, one value changes.
        let shared = try edited(Self.anchors) {
            $0.tiles[0].items[0].config["label"] = .string("Lyon")
            $0.tiles[1].items[0].config["label"] = .string("Lyon")
        }
        XCTAssertEqual(shared, Self.anchors.replacingOccurrences(of: "label: Paris }", with: "label: Lyon }"))
        let zone = try edited(Self.anchors) {
            $0.tiles[2].items[0].config["timeZone"] = .string("Asia/Tokyo")
            $0.tiles[3].items[0].config["timeZone"] = .string("Asia/Tokyo")
        }
        XCTAssertEqual(zone, Self.anchors.replacingOccurrences(of: "&tz UTC", with: "&tz Asia/Tokyo"))
    }

    /// Adding or removing a tile edits the document between `---` and `...` only: the directive,
    /// the markers and every anchor stay.
    func testEditsKeepWhatTheyDoNotTouchDirectivesWhenTilesComeAndGo() throws {
        let last = "  - family: small\n    widget: clock\n    config: { label: \"Other\", timeZone: *tz }\n"
        XCTAssertEqual(
            try edited(Self.anchors) { $0.tiles.removeLast() },
            Self.anchors.replacingOccurrences(of: last, with: ""))
        let added = try edited(Self.anchors) {
            $0.tiles.append(TileInstance(id: "t9", family: .medium, items: [WidgetInstance(id: "w9", kind: "clock")]))
        }
        XCTAssertEqual(
            added,
            Self.anchors.replacingOccurrences(of: last, with: last + "  - family: medium\n    widget: clock\n"))
    }

    func testEditsKeepWhatTheyDoNotTouchAOneLineFlowFile() throws {
        let flow = "{tiles: [{family: small, widget: clock, config: {label: A, timeZone: UTC}}, {widget: clock}]}\n"
        XCTAssertEqual(
            try edited(flow) { $0.tiles[0].items[0].config["label"] = .string("B b") },
            flow.replacingOccurrences(of: "label: A,", with: "label: B b,"))
        XCTAssertEqual(
            try edited(flow) { $0.tiles[0].items[0].config["label"] = .string("x, y") },
            flow.replacingOccurrences(of: "label: A,", with: #"label: "x, y","#))
    }

    func testEditsKeepWhatTheyDoNotTouchAFlowMappingWithAList() throws {
        let text = """
            tiles:
              - family: medium
                widget: command
                config: {label: Disk, command: [df, -h], interval: 30}   # keys in this order
              - widget: clock

            """
        XCTAssertEqual(
            try edited(text) { $0.tiles[0].items[0].config["label"] = .string("Space") },
            text.replacingOccurrences(of: "label: Disk,", with: "label: Space,"))
        XCTAssertEqual(
            try edited(text) { $0.tiles[0].items[0].config["interval"] = .int(60) },
            text.replacingOccurrences(of: "interval: 30}", with: "interval: 60}"))
        // The list itself: the brackets' contents change, the mapping stays flow, its keys in order.
        XCTAssertEqual(
            try edited(text) { $0.tiles[0].items[0].config["command"] = .list(["du", "-sh", "a,b", ""]) },
            text.replacingOccurrences(of: "command: [df, -h],", with: #"command: [du, "-sh", "a,b", ""],"#))
    }

    func testEditsKeepWhatTheyDoNotTouchCRLFTabsAndAByteOrderMark() throws {
        let text =
            "\u{FEFF}# made on Windows\r\ntiles:\r\n  - family: small\t# tab before the comment\r\n"
            + "    widget: clock\r\n    config:\r\n      label: \"Tab\\there\"\t# tab\r\n"
            + "      timeZone: UTC   \r\n  # a comment between tiles\r\n  - widget: clock\r\n"
        XCTAssertEqual(
            try edited(text) { $0.tiles[0].items[0].config["label"] = .string("Changed") },
            text.replacingOccurrences(of: #"label: "Tab\there""#, with: #"label: "Changed""#))
        XCTAssertEqual(
            try edited(text) { $0.tiles[0].items[0].config["timeZone"] = .string("Europe/Oslo") },
            text.replacingOccurrences(of: "timeZone: UTC   \r", with: "timeZone: Europe/Oslo   \r"))
    }

    func testEditsKeepWhatTheyDoNotTouchCommentsEverywhereInAStack() throws {
        let text = """
            # top
            tiles: # the tiles
              # before the stack
              - family: medium # a stack
                stack: # its widgets
                  # first
                  - widget: clock # one
                    config: # its config
                      label: One # the label
                  # second
                  - widget: clock
                    config:
                      label: >-
                        Folded
              # after
            # end

            """
        XCTAssertEqual(
            try edited(text) { $0.tiles[0].items[0].config["label"] = .string("Uno") },
            text.replacingOccurrences(of: "label: One #", with: "label: Uno #"))
    }

    // MARK: - Aliases and merge keys (decision 49)

    /// A value reached through an alias is edited in that place only: `config: *paris` becomes a
    /// mapping of its own that merges the shared one, `timeZone: *tz` the value itself. The
    /// anchor and its other users keep every byte.
    func testAnEditThroughAnAliasEditsOnlyThatPlace() throws {
        let viaConfig = try edited(Self.anchors) { $0.tiles[1].items[0].config["label"] = .string("Lyon") }
        XCTAssertEqual(
            viaConfig,
            Self.anchors.replacingOccurrences(of: "config: *paris", with: "config: {<<: *paris, label: Lyon}"))
        let back = try HomeConfig.parse(yaml: viaConfig, file: "home.yaml", bundle: bundle)
        XCTAssertEqual(back.tiles[0].items[0].config["label"], .string("Paris"), "the anchor's owner unchanged")
        XCTAssertEqual(back.tiles[1].items[0].config["timeZone"], .string("Europe/Paris"), "still shared")
        let viaScalar = try edited(Self.anchors) { $0.tiles[3].items[0].config["timeZone"] = .string("Asia/Tokyo") }
        XCTAssertEqual(
            viaScalar, Self.anchors.replacingOccurrences(of: "timeZone: *tz }", with: "timeZone: Asia/Tokyo }"))
        XCTAssertEqual(
            try HomeConfig.parse(yaml: viaScalar, file: "home.yaml", bundle: bundle).tiles[2].items[0]
                .config["timeZone"], .string("UTC"))
    }

    /// Editing the anchored value where it is written edits it for every widget that shares it:
    /// the one value changes in the file (the anchor stays), the others read it too, and
    /// `HomeText.sharing` says which others changed and where, for the status line.
    func testAnEditOfAnAnchorOthersShareEditsItForAllAndSaysSo() throws {
        let base = try HomeConfig.parse(yaml: Self.anchors, file: "home.yaml", bundle: bundle)
        for (tile, key, value, line, old, new) in [
            (0, "label", "Lyon", 7, "label: Paris }", "label: Lyon }"),
            (2, "timeZone", "Asia/Tokyo", 15, "&tz UTC", "&tz Asia/Tokyo"),
        ] {
            var asked = base
            asked.tiles[tile].items[0].config[key] = .string(value)
            let out = try HomeText.edit(Self.anchors, holding: base, to: asked, bundle: bundle)
            XCTAssertEqual(out, Self.anchors.replacingOccurrences(of: old, with: new))
            let sharing = HomeText.sharing(Self.anchors, holding: base, to: asked)
            XCTAssertEqual(sharing.shared.count, 1)
            XCTAssertEqual(sharing.shared.first?.line, line)
            XCTAssertEqual(sharing.shared.first?.others.count, 1)
            XCTAssertTrue(
                try HomeConfig.parse(yaml: out, file: "home.yaml", bundle: bundle).sameContent(as: sharing.home))
        }
        var asked = base
        asked.tiles[0].items[0].config["label"] = .string("Lyon")
        XCTAssertEqual(
            HomeText.sharing(Self.anchors, holding: base, to: asked).shared.first?.message,
            "label is shared through &paris (line 7): 1 other widget changed too")
        asked.tiles[0].items[0].config["timeZone"] = .string("Asia/Tokyo")
        XCTAssertEqual(
            HomeSharedValue.message(HomeText.sharing(Self.anchors, holding: base, to: asked).shared),
            "label is shared through &paris (line 7): 1 other widget changed too (and 1 more)")
    }

    static let twoAliases = """
        tiles:
          - family: small
            widget: clock
            config:
              label: &city Paris   # written once
              timeZone: Europe/Paris
          - family: small
            widget: clock
            config: { label: *city, timeZone: UTC }
          - family: medium
            stack:
              - widget: clock
                config:
                  label: *city
              - widget: note

        """

    /// An anchored scalar two aliases share, edited where it is written: one line of the diff
    /// changes and all three widgets (one in a stack) read the new value.
    func testAnAnchoredScalarSharedByTwoAliasesEditedChangesOneLine() throws {
        let base = try HomeConfig.parse(yaml: Self.twoAliases, file: "home.yaml", bundle: bundle)
        var asked = base
        asked.tiles[0].items[0].config["label"] = .string("Lyon")
        let out = try HomeText.edit(Self.twoAliases, holding: base, to: asked, bundle: bundle)
        XCTAssertEqual(out, Self.twoAliases.replacingOccurrences(of: "&city Paris", with: "&city Lyon"))
        let changed = zip(out.split(separator: "\n"), Self.twoAliases.split(separator: "\n")).filter { $0 != $1 }
        XCTAssertEqual(changed.count, 1, "one line of the diff")
        let back = try HomeConfig.parse(yaml: out, file: "home.yaml", bundle: bundle)
        XCTAssertEqual(
            [back.tiles[0].items[0], back.tiles[1].items[0], back.tiles[2].items[0]].map { $0.config["label"] },
            Array(repeating: .string("Lyon"), count: 3))
        let sharing = HomeText.sharing(Self.twoAliases, holding: base, to: asked)
        XCTAssertEqual(sharing.shared.map(\.others), [[base.tiles[1].items[0].id, base.tiles[2].items[0].id]])
        XCTAssertEqual(
            sharing.shared.first?.message, "label is shared through &city (line 5): 2 other widgets changed too")
        // An alias user editing its own copy still gets a value of its own; the others keep the anchor's.
        try assertSharesNothing(
            Self.twoAliases, tile: 1, "label", "Nice", replacing: "{ label: *city,", with: "{ label: Nice,")
    }

    /// An edit of tile `tile`'s `key` that shares nothing: no value listed, `old` becomes `new`.
    func assertSharesNothing(
        _ text: String, tile: Int, _ key: String, _ value: String, replacing old: String, with new: String,
        line: UInt = #line
    ) throws {
        let base = try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle)
        var asked = base
        asked.tiles[tile].items[0].config[key] = .string(value)
        XCTAssertEqual(HomeText.sharing(text, holding: base, to: asked).shared, [], line: line)
        XCTAssertEqual(
            try HomeText.edit(text, holding: base, to: asked, bundle: bundle),
            text.replacingOccurrences(of: old, with: new), line: line)
    }

    /// An anchored mapping that others merge (`<<: *base`) or alias, edited where it is written:
    /// the merging widgets that do not override the key change with it, the one that does keeps its own.
    func testAnAnchoredMappingWithMergesEditedChangesForItsUsers() throws {
        let base = try HomeConfig.parse(yaml: Self.merges, file: "home.yaml", bundle: bundle)
        var asked = base
        asked.tiles[0].items[0].config["timeZone"] = .string("Asia/Tokyo")
        let out = try HomeText.edit(Self.merges, holding: base, to: asked, bundle: bundle)
        XCTAssertEqual(
            out, Self.merges.replacingOccurrences(of: "{ timeZone: Europe/Paris,", with: "{ timeZone: Asia/Tokyo,"))
        let back = try HomeConfig.parse(yaml: out, file: "home.yaml", bundle: bundle)
        XCTAssertEqual(
            back.tiles.map { $0.items[0].config["timeZone"] }, Array(repeating: .string("Asia/Tokyo"), count: 3))
        XCTAssertEqual(back.tiles.map { $0.items[0].config["label"] }, ["Paris", "Nice", "Metz"].map { .string($0) })
        XCTAssertEqual(
            HomeText.sharing(Self.merges, holding: base, to: asked).shared.first?.message,
            "timeZone is shared through &base (line 4): 2 other widgets changed too")
        // The label every merging widget overrides: only the owner changes, nothing shared.
        try assertSharesNothing(
            Self.merges, tile: 0, "label", "Lyon", replacing: "label: Paris }", with: "label: Lyon }")
    }

    static let merges = """
        tiles:
          - family: small
            widget: clock
            config: &base { timeZone: Europe/Paris, label: Paris }
          - family: small
            widget: clock
            config:
              <<: *base   # the zone from the first tile
              label: Nice
          - family: small
            widget: clock
            config: {<<: *base, label: Metz}

        """

    /// Merge keys (`<<: *base`) read as YAML says; a merged key edited in one widget gets an
    /// entry of its own beside the `<<`, block or flow; an own key is edited where it stands.
    func testMergeKeysAreReadAndEditedInPlace() throws {
        let home = try HomeConfig.parse(yaml: Self.merges, file: "home.yaml", bundle: bundle)
        XCTAssertEqual(home.tiles[1].items[0].config["timeZone"], .string("Europe/Paris"))
        XCTAssertEqual(home.tiles[1].items[0].config["label"], .string("Nice"))
        XCTAssertEqual(home.tiles[2].items[0].config["label"], .string("Metz"))
        XCTAssertEqual(
            try edited(Self.merges) { $0.tiles[1].items[0].config["label"] = .string("Nizza") },
            Self.merges.replacingOccurrences(of: "label: Nice", with: "label: Nizza"))
        XCTAssertEqual(
            try edited(Self.merges) { $0.tiles[1].items[0].config["timeZone"] = .string("UTC") },
            Self.merges.replacingOccurrences(
                of: "      label: Nice\n", with: "      label: Nice\n      timeZone: UTC\n"))
        XCTAssertEqual(
            try edited(Self.merges) { $0.tiles[2].items[0].config["timeZone"] = .string("UTC") },
            Self.merges.replacingOccurrences(of: "label: Metz}", with: "label: Metz, timeZone: UTC}"))
    }

    // MARK: - Tiles and stack items come and go in flow lists

    static let oneLine =
        "{tiles: [{family: small, widget: clock, config: {label: A}}, {widget: clock}, "
        + "{family: medium, stack: [{widget: clock}, {widget: note, config: {title: N}}]}]}   # all of it\n"

    func testTilesAddedRemovedAndMovedInAOneLineFlowFileStayFlow() throws {
        let a = "{family: small, widget: clock, config: {label: A}}"
        let stack = "{family: medium, stack: [{widget: clock}, {widget: note, config: {title: N}}]}"
        XCTAssertEqual(
            try edited(Self.oneLine) { $0.tiles.remove(at: 1) },
            "{tiles: [\(a), \(stack)]}   # all of it\n")
        XCTAssertEqual(
            try edited(Self.oneLine) { $0.tiles.swapAt(0, 2) },
            "{tiles: [\(stack), {widget: clock}, \(a)]}   # all of it\n")
        XCTAssertEqual(
            try edited(Self.oneLine) {
                $0.tiles.append(
                    TileInstance(
                        id: "t9", family: .small,
                        items: [
                            WidgetInstance(id: "w9", kind: "note", config: WidgetConfig(["title": .string("x, y")]))
                        ]))
            },
            Self.oneLine.replacingOccurrences(
                of: "}]}]}", with: #"}]}, {family: small, widget: note, config: {title: "x, y"}}]}"#))
        XCTAssertEqual(try edited(Self.oneLine) { $0.tiles.removeAll() }, "{tiles: []}   # all of it\n")
    }

    func testStackItemsAddedRemovedAndMovedInAFlowStackStayFlow() throws {
        XCTAssertEqual(
            try edited(Self.oneLine) { $0.tiles[2].items.reverse() },
            Self.oneLine.replacingOccurrences(
                of: "[{widget: clock}, {widget: note, config: {title: N}}]",
                with: "[{widget: note, config: {title: N}}, {widget: clock}]"))
        XCTAssertEqual(
            try edited(Self.oneLine) {
                $0.tiles[2].items.insert(WidgetInstance(id: "w9", kind: "clock"), at: 1)
            },
            Self.oneLine.replacingOccurrences(
                of: "[{widget: clock}, {widget: note", with: "[{widget: clock}, {widget: clock}, {widget: note"))
        // In a block file, a stack written `[…]` across lines: its separators stay.
        let block = """
            tiles:   # mine
              - family: medium
                stack: [
                  {widget: clock, config: {label: One}},
                  {widget: clock, config: {label: Two}},
                  {widget: clock, config: {label: Three}}
                ]
              - widget: clock

            """
        XCTAssertEqual(
            try edited(block) {
                $0.tiles[0].items.remove(at: 1)
                $0.tiles[0].items[0].config["label"] = .string("Uno")
            },
            block.replacingOccurrences(of: "      {widget: clock, config: {label: Two}},\n", with: "")
                .replacingOccurrences(of: "label: One", with: "label: Uno"))
        // A tile moved in a block list with a flow `tiles:`.
        let flowTiles = "tiles: [{widget: clock, config: {label: A}}, {widget: clock, config: {label: B}}]\n"
        XCTAssertEqual(
            try edited(flowTiles) { $0.tiles.reverse() },
            "tiles: [{widget: clock, config: {label: B}}, {widget: clock, config: {label: A}}]\n")
    }
}
