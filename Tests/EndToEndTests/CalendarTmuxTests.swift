import XCTest
import Foundation
import DashTestSupport

/// The calendar tile in the real binary: a meeting that starts after launch turns the tile from
/// "coming" to "Now" when the clock reaches its start, without a key press or a reload. The
/// program runs on a test clock that stands still until the test moves it to the start (how late
/// a change reaches the terminal on the real clock is measured by Tests/perf/ontime.py).
final class CalendarTmuxTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    func testTheTileChangesWhenTheMeetingStarts() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-cal-\(UUID().uuidString)")
        let config = home.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        // Starts at 09:30, lasts ten minutes; the program's clock stands at 09:29:40.
        let start = ISO8601DateFormatter().date(from: "2026-11-23T09:30:00Z")!
        func stamp(_ d: Date) -> String {
            var c = Calendar(identifier: .gregorian)
            c.timeZone = TimeZone(identifier: "UTC")!
            let p = c.dateComponents([.year, .month, .day, .hour, .minute, .second], from: d)
            func two(_ n: Int?) -> String { (n ?? 0) < 10 ? "0\(n ?? 0)" : "\(n ?? 0)" }
            return "\(p.year ?? 0)\(two(p.month))\(two(p.day))T\(two(p.hour))\(two(p.minute))\(two(p.second))Z"
        }
        let ics = home.appendingPathComponent("meeting.ics")
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        BEGIN:VEVENT\r
        UID:e2e-meeting\r
        DTSTART:\(stamp(start))\r
        DTEND:\(stamp(start.addingTimeInterval(600)))\r
        SUMMARY:Launch review\r
        END:VEVENT\r
        END:VCALENDAR\r

        """.write(to: ics, atomically: true, encoding: .utf8)
        try "tiles:\n  - family: small\n    widget: calendar\n    config: { files: [\(ics.path)] }\n"
            .write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(
            width: 80, height: 24,
            env: TmuxSession.folders(in: home), clock: "2026-11-23T09:29:40Z")
        defer { t.close() }
        let before = t.waitFor("the coming meeting") { $0.contains("Launch review") }
        XCTAssertFalse(before.contains("Now"), before)
        let frames = t.framesDrawn()
        XCTAssertEqual(try t.control("clock 2026-11-23T09:30:00Z"), "ok")
        let now = t.waitFor("the meeting to start") { $0.contains("Now") && $0.contains("ends in") }
        XCTAssertGreaterThan(t.framesDrawn(), frames, "a new frame, with no key pressed:\n\(now)")
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
    }
}
