import XCTest
import DashWidgets
@testable import DashBuiltinWidgets

/// Found by a new user: `Europe/Par` was saved from the form, accepted by `config set` and
/// `config check`, and only failed in the tile. The schema now checks the zone exists.
final class ClockZoneCheckTests: XCTestCase {
    func testAZoneThatDoesNotExistIsRefusedWhereverAValueIsChecked() throws {
        let schema = ClockWidget.schema
        XCTAssertThrowsError(try schema.parse(key: "timeZone", text: "Europe/Par")) {
            XCTAssertTrue("\($0)".contains("'Europe/Par' is not a time zone"), "\($0)")
        }
        XCTAssertEqual(schema.validate(WidgetConfig(["timeZone": .string("Mars/Base")])).count, 1)
        for good in ["", "Europe/Paris", "UTC", "America/Argentina/Buenos_Aires"] {
            XCTAssertNoThrow(try schema.parse(key: "timeZone", text: good), good)
            XCTAssertEqual(schema.validate(WidgetConfig(["timeZone": .string(good)])).count, 0, good)
        }
    }
}
