import XCTest
import DashRuntime

/// The wall clock left DashScheduler for the runtime (issue 36 point 2): it reads the system time.
final class SystemClockTests: XCTestCase {
    func testTheSystemClockReadsTheWallClock() {
        XCTAssertEqual(SystemClock().now.timeIntervalSinceNow, 0, accuracy: 5)
    }
}
