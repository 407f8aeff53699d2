import XCTest
import Foundation
@testable import DashCurses

/// The wait of the home screen loop, with a real timer fd (no terminal needed).
final class WallClockWaiterTests: XCTestCase {
    var pipes: [Int32] = []

    func makePipe() -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        pipes += fds
        return (fds[0], fds[1])
    }

    override func tearDown() { pipes.forEach { close($0) } }

    func testItWakesAtAnAbsoluteWallClockDeadline() {
        let w = WallClockWaiter(watchTimeZone: false)
        let (input, _) = makePipe(), (wake, _) = makePipe()
        let deadline = Date().timeIntervalSince1970 + 0.05
        let woke = w.wait(input: input, wake: wake, until: deadline)
        XCTAssertEqual(woke, .deadline)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince1970, deadline, "never before the deadline")
    }

    func testADeadlineInThePastIsDueAtOnce() {
        let w = WallClockWaiter(watchTimeZone: false)
        let (input, _) = makePipe(), (wake, _) = makePipe()
        XCTAssertEqual(w.wait(input: input, wake: wake, until: Date().timeIntervalSince1970 - 3600), .deadline)
    }

    /// Issue 37.1: no deadline a caller hands in traps the conversion to whole seconds; a far one
    /// waits (here, for a wake-up), NaN and a far past are due at once.
    func testHugeNaNAndInfiniteDeadlinesNeverTrap() {
        let w = WallClockWaiter(watchTimeZone: false)
        let (input, _) = makePipe(), (wake, wakeW) = makePipe()
        for d in [Double.nan, -.infinity, -1e300] {
            XCTAssertEqual(w.wait(input: input, wake: wake, until: d), .deadline, "\(d)")
        }
        var c: UInt8 = 1
        for d in [Double.infinity, 1e300, 1e17] {
            _ = write(wakeW, &c, 1)
            XCTAssertTrue(w.wait(input: input, wake: wake, until: d).contains(.wake), "\(d)")
            var buf = [UInt8](repeating: 0, count: 8)
            _ = read(wake, &buf, buf.count)
        }
    }

    func testAClockChangeWakesTheWaitAtOnce() {
        let w = WallClockWaiter(watchTimeZone: false)
        let (input, _) = makePipe(), (wake, _) = makePipe()
        w.injectClockChange()  // what the kernel does through TFD_TIMER_CANCEL_ON_SET when the clock is set
        XCTAssertEqual(w.wait(input: input, wake: wake, until: Date().timeIntervalSince1970 + 3600), .clockChanged)
    }

    func testInputAndWakeUpsEndTheWait() {
        let w = WallClockWaiter(watchTimeZone: false)
        let (input, inputW) = makePipe(), (wake, wakeW) = makePipe()
        var c: UInt8 = 1
        _ = write(wakeW, &c, 1)
        XCTAssertTrue(w.wait(input: input, wake: wake, until: nil).contains(.wake))
        var buf = [UInt8](repeating: 0, count: 4)
        _ = read(wake, &buf, 4)
        _ = write(inputW, &c, 1)
        XCTAssertTrue(w.wait(input: input, wake: wake, until: nil).contains(.input))
    }

    func testATimeZoneChangeIsNoticed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sd-etc-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let w = WallClockWaiter(watchTimeZone: true, zoneDirectory: dir.path)
        let (input, _) = makePipe(), (wake, _) = makePipe()
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("localtime").path,
            withDestinationPath: "/usr/share/zoneinfo/Asia/Tokyo")
        XCTAssertEqual(w.wait(input: input, wake: wake, until: Date().timeIntervalSince1970 + 5), .timeZoneChanged)
        XCTAssertEqual(
            WallClockWaiter.systemTimeZone(localtime: dir.appendingPathComponent("localtime").path)?.identifier,
            "Asia/Tokyo")
    }
}
