import XCTest
import Foundation
import DashCore
import DashWidgets
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// The help overlay now that the key table is longer than a 24-row screen, and the text
/// keys a terminal sends.
final class HelpAndKeysTests: XCTestCase {
    func testTheHelpScrollsToEveryKeyAndSaysWhereItIs() {
        let h = editHarness()
        h.press(.char("?"))
        XCTAssertTrue(h.screen.contains("↑↓ scroll ("), h.screen)
        XCTAssertFalse(h.screen.contains("Ctrl-Y"))
        for _ in 0..<10 { h.press(.pageDown) }
        XCTAssertTrue(h.screen.contains("Ctrl-Y"), "the last row can be reached: \(h.screen)")
        XCTAssertTrue(h.screen.contains("Mouse"))
        h.press(.up)
        XCTAssertEqual(h.state.pane.kind, .help, "arrows scroll, they do not close the help")
        h.press(.escape)
        h.press(.char("?"))
        XCTAssertEqual(h.state.helpPane?.scroll, 0, "it opens at the top again")
        XCTAssertTrue(h.screen.contains("Move"), h.screen)
    }

    func testEscAndAKeyArrivingTogetherAreTwoKeysUnlessAltBindsIt() {
        let h = editHarness()
        h.press(.char("e"))
        h.press(.alt("m"))  // Esc, then m: the form closes, arrange mode starts
        XCTAssertEqual(h.state.pane.kind, .arrange)
        h.press(.escape, .char("e"))
        h.select("label")
        h.type("one two")
        h.press(.alt("b"))
        XCTAssertEqual(h.state.pane.kind, .form, "Alt-B is bound in a text field")
        XCTAssertEqual(h.field("label")?.line.cursor, 4)
        h.skipPendingWork()
    }

    func testEveryEditingLayerWithTextKeepsPrintableKeysFromTheGlobalLayer() {
        for layer in Layer.allCases where layer.takesText {
            for c in "qt?" {
                let hit = KeyTable.dispatch(.char(c), through: [layer, .global])
                XCTAssertEqual(hit?.0, layer, "\(c) in \(layer)")
            }
            XCTAssertEqual(KeyTable.dispatch(.ctrl("c"), through: [layer, .global])?.1, .quit, "Ctrl-C still quits")
            XCTAssertEqual(KeyTable.dispatch(.paste("x"), through: [layer, .global])?.1, .edit(.type("x")))
        }
    }

    /// The key table is assembled from the panes' declarations: every layer has one, and a row
    /// several panes name is one row of the help, with the same keys wherever it is bound.
    func testEveryLayerIsDeclaredByAPane() {
        let declared = Set(KeyTable.declarations.map(\.layer))
        for layer in Layer.allCases { XCTAssertTrue(declared.contains(layer), "no pane declares \(layer)") }
        var keys: [String: [String]] = [:]
        for d in KeyTable.declarations {
            for r in d.rows {
                let id = r.group + "/" + r.label + "/" + r.help
                let these = r.keys.map { "\($0.0)→\($0.1)" }
                if let seen = keys[id] { XCTAssertEqual(seen, these, id) } else { keys[id] = these }
            }
        }
        XCTAssertEqual(KeyTable.bindings.count, keys.count)
        // Each group's rows stand in their rank's order, as the help lists them.
        for g in KeyTable.groups {
            let ranks = KeyTable.bindings.filter { $0.group == g }.map(\.rank)
            XCTAssertEqual(ranks, ranks.sorted(), g)
        }
    }

    /// What a key means depends on the keys before it: `q` after `e` is typed into the form,
    /// so the keys are handled in order and the app does not quit.
    func testAQAfterAKeyThatOpensALayerIsThatLayersQ() {
        let h = editHarness()
        XCTAssertTrue(App.quitsAhead(h.state, [.char("j"), .down, .char("l"), .char("q")]))
        XCTAssertTrue(App.quitsAhead(h.state, [.char("z"), .char("q")]), "an unbound key changes nothing")
        XCTAssertFalse(App.quitsAhead(h.state, [.char("e"), .char("q")]), "e opens the form")
        XCTAssertFalse(App.quitsAhead(h.state, [.char("a"), .char("q")]), "a opens the gallery")
        XCTAssertFalse(App.quitsAhead(h.state, [.alt("x"), .char("q")]), "Alt-x is Esc and x")
        XCTAssertFalse(App.quitsAhead(h.state, [.char("j"), .char("k")]), "no quit key")
        h.press(.char("e"))
        XCTAssertEqual(h.state.pane.kind, .form)
        XCTAssertFalse(App.quitsAhead(h.state, [.char("q")]), "in the form q is typed")
        h.press(.escape, .char("?"))
        XCTAssertTrue(App.quitsAhead(h.state, [.char("j"), .pageDown, .char("q")]), "the help scrolls, then q quits")
        h.skipPendingWork()
    }
}
