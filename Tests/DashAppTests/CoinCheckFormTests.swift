import XCTest
import Foundation
import DashCore
import DashWidgets
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// The crypto widget's coin in the Edit form: the same check and the same words as `config
/// set`, `config check` and the provider (CryptoCoinCheckTests, ConfigCheckCLITests), and the
/// picker never offers a coin that check would refuse.
final class CoinCheckFormTests: XCTestCase {
    let crypto = BuiltinWidgets.bundle["crypto"]!
    let problem =
        "'x y' is not a coin; use a symbol such as BTC or a CoinGecko id such as bitcoin "
        + "(letters, digits and -, at most 30)"

    func harness() -> AppHarness {
        let home = HomeConfig(
            tiles: [TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "crypto")])])
        let h = AppHarness(widgets: [crypto], home: home, size: Size(width: 120, height: 30), now: start)
        h.press(.char("e"))
        XCTAssertEqual(h.state.pane.kind, .form)
        return h
    }

    func testABadCoinInTheFieldSaysWhatTheCheckSaysAndIsNotSaved() {
        let h = harness()
        h.select("coin")
        _ = h.run { s in
            guard var form = s.form else { return [] }
            form.fields[0].line = LineEditor("x y")
            s.replaceTop(.form(form))
            return []
        }
        XCTAssertTrue(h.screen.contains("✗ 'x y' is not a coin; use a symbol such as BTC"), "in the row: \(h.screen)")
        XCTAssertTrue(
            h.screen.contains("✗ Coin 'x y' is not a coin; use a symbol such as BTC or a CoinGecko id such as bitcoin"),
            "in full below: \(h.screen)")
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.pane.kind, .form, "refused")
        XCTAssertEqual(h.state.form?.problem, "Not saved: Coin " + problem)
        XCTAssertTrue(h.homeWrites.isEmpty)
        h.skipPendingWork()
    }

    func testThePickerOffersOnlyCoinsTheCheckTakes() {
        let h = harness()
        h.select("coin")
        h.answerOptions(
            .success([
                ParameterOption("BTC", title: "Bitcoin (BTC)"), ParameterOption("USDC.E", title: "Bridged (USDC.E)"),
                ParameterOption("PEPE", title: "Pepe (PEPE)"),
            ]))
        h.press(.enter)
        XCTAssertTrue(h.screen.contains("Pepe (PEPE)"), h.screen)
        XCTAssertFalse(h.screen.contains("USDC.E"), "a symbol the check refuses is not offered: \(h.screen)")
        h.type("x y")
        XCTAssertFalse(h.screen.contains("use “x y”"), h.screen)
        h.press(.backspace, .backspace, .backspace)
        h.type("avalanche-2")
        XCTAssertTrue(h.screen.contains("use “avalanche-2”"), h.screen)
        h.skipPendingWork()
    }
}
