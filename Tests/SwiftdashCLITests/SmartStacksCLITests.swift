import XCTest
import Foundation
import DashTestSupport

/// Smart Stacks as a script sees it: `widgets` says when each widget is relevant, `timeline`
/// explains every stack from the cache a running swiftdash left.
final class SmartStacksCLITests: XCTestCase {
    func testWidgetsSaysWhenEachWidgetIsRelevant() throws {
        let r = try runSwiftdash(["widgets"])
        XCTAssertEqual(r.status, 0, r.err)
        let says = "relevant (Smart Rotate, attention): when the"
        XCTAssertTrue(r.out.contains("\(says) coin moved at least moveAlert %"), r.out)
        XCTAssertTrue(r.out.contains("--set moveAlert=…"), r.out)
        XCTAssertTrue(r.out.contains("\(says) top story is one not seen before"))
        XCTAssertTrue(r.out.contains("\(says) newest commit is less than an hour old"))
    }

    func testTimelineExplainsEachStack() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-stack-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config/swiftdash")
        let cache = home.appendingPathComponent("cache/swiftdash")
        for d in [config, cache] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        try """
        tiles:
          - family: small
            dwell: 2m
            stack:
              - widget: clock
                config: { label: Here }
              - widget: clock
                config: { label: There }
        """.write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        // What a running swiftdash left: the second clock chosen by hand at 09:30, pinned for 30 min.
        // Left where swiftdash 0.4 kept it, in the cache folder: the command moves it to the state
        // folder first.
        let at = 1_795_426_200  // 2026-11-23T09:30:00Z
        try """
        {"format":"swiftdash.usage","version":1,
         "instances":{"w2":{"kind":"clock","use":{"value":3,"step":\(at / 86_400)},"seen":[]}},
         "stacks":{"t1":{"shown":"w2","since":\(at),"pinnedUntil":\(at + 1800)}}}
        """.write(to: cache.appendingPathComponent("usage.json"), atomically: true, encoding: .utf8)
        let r = try runSwiftdash(
            ["timeline", "--at", "2026-11-23T09:40:00Z"],
            env: [
                "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            ])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("stack t1 (small, 2 items): Smart Rotate on, dwell 2 min, pause 1 h"), r.out)
        XCTAssertTrue(r.out.contains("    w1 clock             0.00     0.0   0.00"), r.out)
        XCTAssertTrue(r.out.contains("  ▶ w2 clock             0.00     3.0   0.18"), r.out)
        XCTAssertTrue(
            r.out.contains("shown: w2 clock — shown because you chose it; Smart Rotate resumes at 10:00"),
            r.out)
        XCTAssertTrue(r.out.contains("next decision: 2026-11-23T10:00:00Z (in 20 min)"), r.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.appendingPathComponent("usage.json").path))
        let moved = home.appendingPathComponent("state/swiftdash/usage.json").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: moved), "usage.json is in the state folder")
    }
}
