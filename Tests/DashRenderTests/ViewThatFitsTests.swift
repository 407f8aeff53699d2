import XCTest
import Foundation
import DashCore
import DashWidgets
@testable import DashRender

/// `ViewThatFits`: a shorter form instead of a cut (issue 14, point 3).
final class ViewThatFitsTests: XCTestCase {
    func draw(_ view: TileView, width: Int) -> String {
        var b = CellBuffer(width: width, height: 1)
        _ = TileRenderer.render(
            view, in: b.bounds, buffer: &b,
            environment: RenderEnvironment(theme: .dark, now: Date(timeIntervalSince1970: 0)))
        return b.textDump
    }

    func testTheFirstOptionThatFitsWholeIsDrawn() {
        let view = ViewThatFits {
            Text("0.00000123")
            Text("1.23e-6")
        }
        XCTAssertEqual(draw(view, width: 12), "0.00000123")
        XCTAssertEqual(draw(view, width: 10), "0.00000123")
        XCTAssertEqual(draw(view, width: 9), "1.23e-6")
        XCTAssertEqual(draw(view, width: 5), "…", "none fits: the last, and a number is cut whole")
    }

    func testItMeasuresAsTheOptionItDraws() {
        let row = HStack(spacing: 1) {
            Text("SHIB")
            ViewThatFits {
                Text("0.0000123")
                Text("1.23e-5")
            }
            Text("+1.2%")
        }
        XCTAssertEqual(draw(row, width: 20), "SHIB 0.0000123 +1.2%")
        XCTAssertEqual(draw(row, width: 18), "SHIB 1.23e-5 +1.2%")
    }
}
