import XCTest
import Foundation
import Logging
import DashWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// What is not a cache lives in $XDG_STATE_HOME (moved once from the cache folder), and the log
/// there is capped and says as much as asked.
final class StateFolderTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { if let dir { try? FileManager.default.removeItem(at: dir) } }

    func read(_ url: URL) -> String? { try? String(contentsOf: url, encoding: .utf8) }

    func testThePlacesFollowTheXDGRules() {
        let home = AppPaths(environment: ["HOME": "/home/me"])
        XCTAssertEqual(home.state.path, "/home/me/.local/state/swiftdash")
        XCTAssertEqual(home.logFile.path, "/home/me/.local/state/swiftdash/swiftdash.log")
        XCTAssertEqual(home.widgetState.path, "/home/me/.local/state/swiftdash/widget-state")
        XCTAssertEqual(home.cache.path, "/home/me/.cache/swiftdash")
        let set = AppPaths(environment: ["HOME": "/home/me", "XDG_STATE_HOME": "/s", "XDG_CACHE_HOME": "/c"])
        XCTAssertEqual(set.state.path, "/s/swiftdash")
        XCTAssertEqual(set.cache.path, "/c/swiftdash")
        // A relative value is ignored, as the XDG rules say.
        XCTAssertEqual(
            AppPaths(environment: ["HOME": "/h", "XDG_STATE_HOME": "rel"]).state.path, "/h/.local/state/swiftdash")
    }

    func testWidgetsKeepTheirStateInTheStateFolder() {
        let env = AppEnvironment(
            bundle: WidgetBundle([]), timeZone: .gmt, variables: ["HOME": "/home/me", "XDG_STATE_HOME": "/s"])
        let c = TimelineContext(family: .small, now: Date()).forInstance("w1", environment: env)
        XCTAssertEqual(c.stateDirectory, "/s/swiftdash/widget-state")
        // The folder is found once per environment, and again when its variables change.
        var moved = env
        moved.variables = ["HOME": "/elsewhere"]
        let d = TimelineContext(family: .small, now: Date()).forInstance("w1", environment: moved)
        XCTAssertEqual(d.stateDirectory, "/elsewhere/.local/state/swiftdash/widget-state")
        moved.variables = [:]
        XCTAssertNil(TimelineContext(family: .small, now: Date()).forInstance("w1", environment: moved).stateDirectory)
    }

    func testWhatTheCacheHeldMovesOnceAndDeletingTheCacheLosesNothing() throws {
        let paths = AppPaths(environment: ["HOME": dir.path])
        let fm = FileManager.default
        try fm.createDirectory(at: paths.cache.appendingPathComponent("state"), withIntermediateDirectories: true)
        try fm.createDirectory(at: paths.cache.appendingPathComponent("timelines"), withIntermediateDirectories: true)
        try "usage".write(to: paths.cache.appendingPathComponent("usage.json"), atomically: true, encoding: .utf8)
        try "timer".write(
            to: paths.cache.appendingPathComponent("state/w3.json"), atomically: true, encoding: .utf8)
        try "old log\n".write(
            to: paths.cache.appendingPathComponent("swiftdash.log"), atomically: true, encoding: .utf8)
        try "cached".write(
            to: paths.cache.appendingPathComponent("timelines/w1.json"), atomically: true, encoding: .utf8)

        let said = StateFolder.migrate(paths)
        XCTAssertEqual(said.count, 3, "\(said)")
        XCTAssertTrue(said.allSatisfy { $0.hasPrefix("moved ") }, "\(said)")
        XCTAssertEqual(read(paths.state.appendingPathComponent("usage.json")), "usage")
        XCTAssertEqual(read(paths.widgetState.appendingPathComponent("w3.json")), "timer")
        XCTAssertEqual(read(paths.logFile), "old log\n")
        XCTAssertEqual(
            read(paths.cache.appendingPathComponent("timelines/w1.json")), "cached", "the cache itself stays")

        // Deleting the cache folder loses nothing the user made.
        try fm.removeItem(at: paths.cache)
        XCTAssertEqual(read(paths.state.appendingPathComponent("usage.json")), "usage")
        XCTAssertEqual(read(paths.widgetState.appendingPathComponent("w3.json")), "timer")

        // Once: an old file that turns up again does not replace the one in the state folder.
        try fm.createDirectory(at: paths.cache, withIntermediateDirectories: true)
        try "stale".write(to: paths.cache.appendingPathComponent("usage.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(StateFolder.migrate(paths), [])
        XCTAssertEqual(read(paths.state.appendingPathComponent("usage.json")), "usage")
        XCTAssertEqual(StateFolder.migrate(AppPaths(environment: ["HOME": dir.appendingPathComponent("new").path])), [])
    }

    func testTheLogIsRotatedAtItsCapKeepingOneOldFile() throws {
        let file = dir.appendingPathComponent("state/swiftdash.log")
        let handler = FileLogHandler(label: "t", file: file, maxBytes: 1000)
        let logger = Logger(label: "t") { _ in handler }
        for i in 0..<100 { logger.info("line \(i) \(String(repeating: "x", count: 40))") }
        let current = try XCTUnwrap(read(file)), old = try XCTUnwrap(read(file.appendingPathExtension("1")))
        XCTAssertLessThanOrEqual(current.utf8.count, 1000)
        XCTAssertLessThanOrEqual(old.utf8.count, 1000)
        XCTAssertGreaterThan(old.utf8.count, 900, "a file is rotated when it is full")
        XCTAssertTrue(current.hasSuffix("line 99 \(String(repeating: "x", count: 40))\n"), current)
        XCTAssertFalse(fm.fileExists(atPath: file.path + ".2"), "one old file is kept")
        let names = try fm.contentsOfDirectory(atPath: file.deletingLastPathComponent().path).sorted()
        XCTAssertEqual(names, ["swiftdash.log", "swiftdash.log.1"])
        XCTAssertEqual(FileLogHandler.maxBytes, 1 << 20, "1 MB in use")
    }

    var fm: FileManager { .default }

    func testTheLogLevelComesFromTheOptionElseSWIFTDASH_LOG() throws {
        XCTAssertEqual(try FileLogHandler.level(option: nil, environment: [:]).get(), .info)
        XCTAssertEqual(try FileLogHandler.level(option: nil, environment: ["SWIFTDASH_LOG": "debug"]).get(), .debug)
        XCTAssertEqual(
            try FileLogHandler.level(option: "Warning", environment: ["SWIFTDASH_LOG": "debug"]).get(), .warning)
        guard case .failure(let e) = FileLogHandler.level(option: nil, environment: ["SWIFTDASH_LOG": "loud\u{1b}]0;x"])
        else { return XCTFail("a word that is no level is refused") }
        XCTAssertEqual(
            e.description,
            "SWIFTDASH_LOG 'loud' is not a log level; use one of trace, debug, info, notice, warning, error, critical")

        // The handler writes what is at least as important as its level.
        let file = dir.appendingPathComponent("level.log")
        var handler = FileLogHandler(label: "t", file: file)
        handler.logLevel = .warning
        let logger = Logger(label: "t") { [handler] _ in handler }
        logger.info("quiet")
        logger.warning("loud")
        let text = try XCTUnwrap(read(file))
        XCTAssertFalse(text.contains("quiet"))
        XCTAssertTrue(text.contains("warning t: loud"), text)
    }
}
