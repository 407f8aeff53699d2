import XCTest
import DashCore
import DashWidgets
@testable import DashRender

/// A text field drawn in a few columns: the part around the cursor shows.
final class LineFieldTests: XCTestCase {
    func draw(_ f: FieldText, width: Int) -> String {
        var b = CellBuffer(width: width, height: 1)
        LineField.draw(
            f, x: 0, y: 0, width: width, style: .plain, cursorStyle: Style(attributes: [.reverse]),
            placeholderStyle: .plain, into: &b)
        return b.rowText(0)
    }

    func testShortTextShowsWhole() {
        XCTAssertEqual(draw(FieldText("abc", cursor: 3), width: 6), "abc   ")
        XCTAssertEqual(draw(FieldText("", cursor: 0, placeholder: "(empty)"), width: 9), " (empty) ")
    }

    func testLongTextScrollsToTheCursorAndMarksWhatIsHidden() {
        let text = "abcdefghijklmnop"
        XCTAssertEqual(draw(FieldText(text, cursor: 16), width: 8), "‹klmnop ")
        XCTAssertEqual(draw(FieldText(text, cursor: 0), width: 8), "abcdefg›")
        XCTAssertEqual(draw(FieldText(text, cursor: 8), width: 8), "‹defghi›", "the cursor on i, the last shown")
        XCTAssertEqual(draw(FieldText(text), width: 8), "abcdefg›", "not edited: the start")
    }

    func testTheCursorCellIsReversed() {
        var b = CellBuffer(width: 6, height: 1)
        LineField.draw(
            FieldText("abc", cursor: 1), x: 0, y: 0, width: 6, style: .plain,
            cursorStyle: Style(attributes: [.reverse]), placeholderStyle: .plain, into: &b)
        XCTAssertTrue(b[1, 0].style.attributes.contains(.reverse))
        XCTAssertFalse(b[0, 0].style.attributes.contains(.reverse))
    }

    func testWideCharactersAreNeverSplit() {
        XCTAssertEqual(draw(FieldText("日本語日本語", cursor: 6), width: 8), "‹日本語 ")
        let w = LineField.window([2, 2, 2, 2, 2, 2], cursor: 6, width: 8)
        XCTAssertEqual(w.start, 3)
        XCTAssertEqual(draw(FieldText("日本語日本語", cursor: 6), width: 7), "‹本語  ", "an odd width leaves no half glyph")
        XCTAssertTrue(w.left)
    }

    func testSecretsShowADotPerCharacter() {
        XCTAssertEqual(draw(FieldText("hunter2", masked: true), width: 10), "•••••••   ")
    }
}
