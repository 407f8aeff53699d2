import DashCore
import DashWidgets
import Foundation
import XCTest

@testable import DashRender

/// A calendar description lost its final period on screen: text that is not cut (no `…`)
/// must show every character, at every width and line limit.
final class TextEndTests: XCTestCase {
    func testTextThatIsNotCutKeepsItsLastCharacter() {
        let texts = [
            "Bring one screen you are unsure about.",
            "Fifteen minutes: yesterday, today, blockers.\nJoin: https://meet.example.com/standup.",
            "Daily standup, three times a week.",
            "One.\n\nTwo paragraphs.",
        ]
        let r = TileRenderer(buffer: CellBuffer(width: 0, height: 0), result: RenderResult())
        for text in texts {
            for width in 4...60 {
                for limit in [nil, 1, 2, 3, 5] as [Int?] {
                    let lines = r.textLines(text, width: width, height: 20, lineLimit: limit)
                    let shown = lines.joined(separator: " ")
                    if shown.contains("…") { continue }
                    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
                    let got = shown.split(separator: " ").joined(separator: " ")
                    XCTAssertEqual(
                        got.replacingOccurrences(of: " ", with: ""), words.replacingOccurrences(of: " ", with: ""),
                        "\(width) columns, limit \(String(describing: limit)): \(lines)")
                }
            }
        }
    }
}
