import XCTest
import Foundation
@testable import DashRuntime

final class LogTimestampTests: XCTestCase {
    func testTheLogTimestampIsISO8601() {
        for t in [0.0, 1_795_451_234.9, 951_782_400] {  // 1970, now-ish, a leap day
            let d = Date(timeIntervalSince1970: t)
            XCTAssertEqual(FileLogHandler.timestamp(d), d.formatted(.iso8601))
        }
    }
}
