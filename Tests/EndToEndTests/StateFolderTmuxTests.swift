import XCTest
import Foundation
import DashTestSupport

/// The home screen keeps what it remembers and its log in $XDG_STATE_HOME, moves what 0.4 left in
/// the cache folder there on its first start, and logs as much as SWIFTDASH_LOG or --log-level say.
final class StateFolderTmuxTests: XCTestCase {
    override func setUpWithError() throws {
        guard TmuxSession.available else { throw XCTSkip("tmux is not installed") }
    }

    func log(_ t: TmuxSession) -> String {
        (try? String(contentsOf: t.home.appendingPathComponent("state/swiftdash/swiftdash.log"), encoding: .utf8)) ?? ""
    }

    func testTheFirstStartMovesTheOldStateAndLogsToTheStateFolder() throws {
        // What 0.4 left in the cache folder, written before the session starts swiftdash.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-old-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let oldCache = dir.appendingPathComponent("swiftdash")
        try FileManager.default.createDirectory(at: oldCache, withIntermediateDirectories: true)
        try "a line 0.4 logged\n".write(
            to: oldCache.appendingPathComponent("swiftdash.log"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(width: 80, height: 24, env: ["XDG_CACHE_HOME": dir.path])
        defer { t.close() }
        t.waitFor("the first frame") { $0.contains("? help") }
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
        let text = log(t)
        XCTAssertTrue(text.hasPrefix("a line 0.4 logged\n"), "the old log moved and goes on: \(text)")
        XCTAssertTrue(text.contains("notice swiftdash: state: moved "), text)
        XCTAssertTrue(text.contains("info swiftdash: starting with"), text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldCache.appendingPathComponent("swiftdash.log").path))
    }

    func testSWIFTDASH_LOGAndLogLevelChooseWhatIsLogged() throws {
        let t = try TmuxSession(
            width: 80, height: 24, args: ["--log-level", "warning"], env: ["SWIFTDASH_LOG": "debug"])
        defer { t.close() }
        t.waitFor("the first frame") { $0.contains("? help") }
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
        XCTAssertFalse(log(t).contains("starting with"), "the option wins over the variable: \(log(t))")

        let bad = try TmuxSession(width: 80, height: 24, env: ["SWIFTDASH_LOG": "loud"])
        defer { bad.close() }
        let screen = bad.waitFor("the usage error") { $0.contains("EXITED 2") }
        XCTAssertTrue(screen.contains("SWIFTDASH_LOG 'loud' is not a log level"), screen)
    }
}
