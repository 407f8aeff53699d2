import DashScheduler
import Foundation
import XCTest

@testable import DashApp
@testable import DashHome
@testable import DashRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 9, item 10: `kill -9` during a save left `.NAME.json.tmp-PID-NONCE` files in the
/// cache forever. Loading the cache at start now removes those of writers that are gone.
final class CacheTempFileTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("timelines"), withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: root) }

    func touch(_ name: String, age: TimeInterval = 0) throws -> URL {
        let url = root.appendingPathComponent("timelines").appendingPathComponent(name)
        try Data("{\"half\":".utf8).write(to: url)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
        return url
    }

    func testKill9LeavesTempFilesInTheCacheForever_fixed() throws {
        let store = TimelineCacheStore(directory: root)
        let target = store.fileURL(for: "tile-1")
        // A writer killed with -9 between creating its temp file and renaming it.
        let victim = Process()
        victim.executableURL = URL(fileURLWithPath: "/bin/sleep")
        victim.arguments = ["30"]
        try victim.run()
        let dead = try touch(TimelineCacheStore.tempName(for: target, pid: victim.processIdentifier, nonce: 7))
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        // A save in progress in a live process (this one) stays; an old one of a reused id goes.
        let live = try touch(TimelineCacheStore.tempName(for: target, pid: getpid(), nonce: 8))
        let ancient = try touch(TimelineCacheStore.tempName(for: target, pid: getpid(), nonce: 9), age: 7200)
        // Not ours: left alone.
        let other = try touch(".tile-1.json.tmp-notapid-1")
        let hidden = try touch(".keep")

        var log: [String] = []
        _ = store.load { log.append($0) }
        let fm = FileManager.default
        XCTAssertFalse(fm.fileExists(atPath: dead.path), "the killed writer's temp file is gone")
        XCTAssertFalse(fm.fileExists(atPath: ancient.path))
        XCTAssertTrue(fm.fileExists(atPath: live.path), "a live save is not disturbed")
        XCTAssertTrue(fm.fileExists(atPath: other.path) && fm.fileExists(atPath: hidden.path))
        XCTAssertEqual(log, ["timeline cache: removed 2 temp files left by an interrupted save"])
        XCTAssertEqual(TimelineCacheStore.tempFileWriter(dead.lastPathComponent), victim.processIdentifier)
        XCTAssertNil(TimelineCacheStore.tempFileWriter("tile-1.json"))
    }
}
