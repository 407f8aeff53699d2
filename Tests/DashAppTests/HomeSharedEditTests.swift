import XCTest
import Foundation
import DashCore
import DashWidgets
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles

/// Issue 24.5 (decision 49): a value written once under a YAML anchor, edited in the form where
/// it is written, changes for every widget that shares it, the anchor kept; the status line says
/// how many changed with it and where; `u` puts it back for all of them. A widget that reaches
/// the value through an alias and is edited gets a value of its own.
final class HomeSharedEditTests: XCTestCase {
    static let text = """
        # notes that share a text
        tiles:
          - family: small
            widget: note
            config: { text: &shared one }
          - family: small
            widget: note
            config: { text: *shared }
          - family: small
            widget: note
            config:
              text: *shared
          - family: small
            widget: note
            config: { text: own }

        """

    /// The app on `text`, written in memory, or through `HomeFile` to a real file at `url`.
    func harness(writingTo url: URL? = nil) throws -> AppHarness {
        let bundle = WidgetBundle([noteWidget])
        let home = try HomeConfig.parse(yaml: Self.text, file: "home.yaml", bundle: bundle)
        let h = AppHarness(widgets: [noteWidget], home: home, size: Size(width: 80, height: 24), now: start)
        h.useHomeFile(HomeFileState(path: url?.path ?? "/cfg/home.yaml", text: Self.text, home: home))
        if let url {
            try Data(Self.text.utf8).write(to: url)
            let file = HomeFile(url: url, bundle: bundle)
            h.homeWriter = { file.write($0, over: $1) }
        }
        for id in ["w1", "w2", "w3", "w4"] { h.finish(id, entries: [NoteEntry(date: start, text: "shown \(id)")]) }
        return h
    }

    func temporaryFile() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-shared-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent("home.yaml")
    }

    static let message = "text is shared through &shared (line 5): 2 other widgets changed too"

    /// Opens the form of the focused tile's note, types `text` over its value and saves.
    func save(_ h: AppHarness, _ text: String) {
        h.press(.char("e"))
        XCTAssertEqual(h.state.pane.kind, .form)
        h.select("text")
        h.press(.ctrl("u"))
        h.type(text)
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.pane.kind, .none, "saved")
    }

    func texts(_ h: AppHarness) -> [String] {
        h.state.home.allInstances.map { $0.config.string("text") }
    }

    func testEditingAnAnchoredValueEditsItForAllSaysSoAndUndoPutsItBack() throws {
        let url = try temporaryFile()
        let h = try harness(writingTo: url)
        let uno = Self.text.replacingOccurrences(of: "&shared one", with: "&shared uno")
        save(h, "uno")
        let message = Self.message
        XCTAssertEqual(h.state.statusText, message)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), uno, "one value changes, the anchor stays")
        XCTAssertEqual(h.state.homeFile?.text, uno)
        XCTAssertEqual(texts(h), ["uno", "uno", "uno", "own"], "every widget that shares it, on screen too")
        XCTAssertEqual(h.state.homeFile?.home.allInstances.map { $0.config.string("text") }, texts(h))
        let status = try XCTUnwrap(h.screen.split(separator: "\n").last { $0.contains("shared") })
        XCTAssertTrue(status.contains(message), "whole on an 80-column screen: \(h.screen)")
        // `u`: the one value back, for all of them.
        h.press(.char("u"))
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), Self.text)
        XCTAssertEqual(h.state.homeFile?.text, Self.text)
        XCTAssertEqual(texts(h), ["one", "one", "one", "own"])
        // Ctrl-R: again for all of them.
        h.press(.ctrl("r"))
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), uno)
        XCTAssertEqual(texts(h), ["uno", "uno", "uno", "own"])
        h.skipPendingWork()
    }

    func testAnAliasUserEditingItsValueGetsItsOwn() throws {
        let h = try harness()
        h.press(.right)
        XCTAssertEqual(h.state.focusedTile, "t2")
        save(h, "dos")
        XCTAssertEqual(
            h.state.homeFile?.text, Self.text.replacingOccurrences(of: "{ text: *shared }", with: "{ text: dos }"))
        XCTAssertEqual(texts(h), ["one", "dos", "one", "own"])
        XCTAssertFalse(h.state.statusText?.contains("shared") ?? false, h.state.statusText ?? "")
        h.skipPendingWork()
    }

    /// A save the form made while an earlier write was on its way (it could not see the file as
    /// it will be): the write's outcome gives the widgets that share the value the new one, says
    /// so, and keeps the undo history.
    func testAWriteThatChangedASharedValueUpdatesTheOthersWhenItComesBack() throws {
        let h = try harness()
        var home = h.state.home
        home.tiles[0].items[0].config["text"] = .string("uno")
        h.run { Editing.changeHome(&$0, to: home, what: "edit Note", focus: nil).filter { !$0.isWriteHome } }
        let written = Self.text.replacingOccurrences(of: "&shared one", with: "&shared uno")
        h.send(.homeWritten(home, .success(written)))
        XCTAssertEqual(texts(h), ["uno", "uno", "uno", "own"])
        XCTAssertEqual(h.state.homeFile?.text, written)
        XCTAssertEqual(h.state.statusText, Self.message)
        XCTAssertEqual(h.state.editing.history.undo.count, 1, "the save can still be undone")
        h.skipPendingWork()
    }
}

extension Effect {
    fileprivate var isWriteHome: Bool { if case .writeHome = self { return true } else { return false } }
}
