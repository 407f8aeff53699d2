import XCTest
import DashWidgets
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

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
}
