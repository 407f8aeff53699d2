import XCTest
import Foundation
import DashTestSupport

/// Smart Rotate in the real binary: a local CoinGecko stand-in makes the stack's crypto item
/// relevant, and the screen rotates to it and marks it.
final class SmartStacksEndToEndTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    /// The 24-hour change the stand-in reports, changed by the test while swiftdash runs.
    final class Move: @unchecked Sendable {
        let lock = NSLock()
        var percent = 1.0
        func set(_ p: Double) { lock.withLock { percent = p } }
        func get() -> Double { lock.withLock { percent } }
    }

    func testAStackRotatesToTheItemThatBecameRelevant() throws {
        let move = Move()
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.handle("/coins/markets") { _ in
            let json = """
                [{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":67000,
                  "price_change_percentage_24h":\(move.get())}]
                """
            return .init(status: 200, json)
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-smart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try """
        tiles:
          - family: small
            widget: clock
          - family: small
            dwell: 2s
            stack:
              - widget: clock
                config: { label: Quiet }
              - widget: crypto
                config: { endpoint: "\(server.baseURL)", coin: BTC }
        """.write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let env = TmuxSession.folders(in: dir)
        let t = try TmuxSession(width: 80, height: 24, env: env)
        defer { t.close() }
        var s = t.waitFor("the stack's first item") { $0.contains("Quiet") }
        // The crypto item loads (a 1 % move: not relevant) and the stack stays.
        t.waitFor("the first crypto load") { _ in
            server.requests.contains { $0.path == "/coins/markets" }
        }
        // Its answer was taken in (the home screen saved it to the cache), and the keys pressed
        // after that are handled after it: the screen once help has come and gone shows what the
        // answer did to the stack.
        let timelines = dir.appendingPathComponent("cache/swiftdash/timelines")
        XCTAssertTrue(
            Eventually.wait {
                let files = (try? FileManager.default.contentsOfDirectory(atPath: timelines.path)) ?? []
                return files.contains { name in
                    // A record keeps its entries as the widget encoded them, in base64.
                    guard let data = try? Data(contentsOf: timelines.appendingPathComponent(name)),
                        let record = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                        let entries = (record["entries"] as? String).flatMap({ Data(base64Encoded: $0) })
                    else { return false }
                    return String(decoding: entries, as: UTF8.self).contains("67000")
                }
            }, "the first crypto answer never reached the home screen")
        t.keys("?")
        t.waitFor("help") { $0.contains("swiftdash keys") }
        t.keys("Escape")
        s = t.waitFor("help gone") { !$0.contains("swiftdash keys") }
        XCTAssertTrue(s.contains("Quiet"), s)
        XCTAssertFalse(s.contains("◆"), s)

        move.set(8.0)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TmuxSession.binary)
        p.arguments = ["reload", "crypto"]
        p.environment = t.environment
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        s = t.waitFor("the rotation to the relevant item") { $0.contains("◆ Crypto") }
        XCTAssertFalse(s.contains("Quiet"), "the stack shows its second item:\n\(s)")
        XCTAssertTrue(s.contains("BTC"), s)
        XCTAssertTrue(s.contains("○ ●"), "the stack's dots say the second item:\n\(s)")

        // Focusing it clears the mark; `w` says why it is shown.
        t.keys("l")
        s = t.waitFor("the mark to clear") { !$0.contains("◆") }
        t.keys("w")
        s = t.waitFor("the explanation") { $0.contains("shown because: BTC moved +8.0% in 24 h") }
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
        let usage = dir.appendingPathComponent("state/swiftdash/usage.json")
        let saved = try String(contentsOf: usage, encoding: .utf8)
        XCTAssertTrue(saved.contains("\"shown\":\"w3\""), "the stack's item is remembered (state folder): \(saved)")
    }
}
