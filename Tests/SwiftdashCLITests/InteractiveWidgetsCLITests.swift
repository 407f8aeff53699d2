import XCTest
import Foundation
import DashTestSupport

/// `swiftdash timeline` shows the water reminder's one reload a day, at waking time.
final class InteractiveWidgetsCLITests: XCTestCase {
    func testTimelineShowsNoReloadsAtNightOnlyAtTheNextWakingTime() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-water-\(UUID().uuidString)")
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "tiles:\n  - family: medium\n    widget: water\n"
            .write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let env = [
            "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path, "TZ": "Europe/Berlin",
        ]
        // 23:30 in Berlin: quiet until 08:00, and nothing is asked of the provider before then.
        let night = try runSwiftdash(["timeline", "water", "--at", "2026-11-23T22:30:00Z"], env: env)
        XCTAssertEqual(night.status, 0, night.err)
        XCTAssertTrue(night.out.contains("policy:      after(2026-11-24T07:00:00Z)"), night.out)
        XCTAssertTrue(night.out.contains("next reload: 2026-11-24T07:00:00Z (in 8 h 30 min)"), night.out)
        XCTAssertTrue(night.out.contains("quiet, no reloads until 08:00 Europe/Berlin"), night.out)
        // In the day: the day's reminders as entries, and the next reload is tomorrow's waking time.
        let day = try runSwiftdash(["timeline", "water", "--at", "2026-11-24T09:30:00Z"], env: env)
        XCTAssertTrue(day.out.contains("next reload: 2026-11-25T07:00:00Z"), day.out)
        XCTAssertTrue(day.out.contains("2026-11-24T11:00:00Z relevance 0.90  0/8 glasses; a glass is due"), day.out)
    }

    func testWidgetsListsTheInteractiveOnes() throws {
        let r = try runSwiftdash(["widgets"])
        for kind in ["reminders — Reminders", "recipe — Recipe timer", "water — Water"] {
            XCTAssertTrue(r.out.contains(kind), kind)
        }
    }
}
