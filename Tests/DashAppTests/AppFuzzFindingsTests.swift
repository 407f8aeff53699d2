import DashBuiltinWidgets
import Foundation
import XCTest

@testable import DashApp

/// What the fuzz targets `home`, `theme` and `control` found (docs/fuzzing.md), one test each,
/// named after the finding; each input also runs through `AppFuzzHarness` as the fuzzer saw it.
final class AppFuzzFindingsTests: XCTestCase {
    let bundle = BuiltinWidgets.bundle

    func error(_ yaml: String) -> ConfigFileError? {
        do {
            _ = try HomeConfig.parse(yaml: yaml, file: "home.yaml", bundle: bundle)
            return nil
        } catch { return error as? ConfigFileError }
    }

    /// Found by the bounded run (ConfigFuzzTests) once it also ran `config check`: a value
    /// with trailing spaces was quoted in full (the widget quotes it trimmed, so the 60-character
    /// quote missed it), and the widget's name came on top of the 400-character cap.
    func testALongValueWithTrailingSpacesIsQuotedShortAndTheMessageKeepsItsCap() throws {
        let value = "Asia/Tokyo" + String(repeating: " %YAML 1.1", count: 45)
        let yaml = "tiles:\n  - family: small\n    widget: clock\n    config: {timeZone: '\(value) '}\n"
        let e = try XCTUnwrap(error(yaml))
        XCTAssertEqual(e.line, 4)
        XCTAssertLessThanOrEqual(e.message.count, 400, e.message)
        XCTAssertTrue(e.message.hasPrefix("clock: "), e.message)
        XCTAssertFalse(e.message.contains(String(value.prefix(80))), "quoted short: \(e.message)")
        XCTAssertEqual(AppFuzzHarness.home(Data(yaml.utf8)).problems, [])
    }
}
