import XCTest
import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import DashWidgets
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// The widgets folder in the runtime (issue 23, point 6): the watcher reports a folder made
/// after it started, files added, replaced and removed; a scan describes only what is new or
/// changed and says why a file cannot be used.
final class ExtensionFolderTests: XCTestCase {
    /// A shell extension offering `kind`, whose tile says `word`.
    static func script(kind: String, word: String) -> String {
        ShellExtensionFolder.script(kind: kind, displayName: kind.capitalized, text: word)
    }

    /// Counts the watcher's reports; `wait` returns when one more came (or fails after `seconds`).
    final class Reports: @unchecked Sendable {
        let condition = NSCondition()
        var count = 0
        func report() {
            condition.lock()
            count += 1
            condition.broadcast()
            condition.unlock()
        }
        func waitForOneAfter(_ seen: Int, seconds: Double = 20) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            let end = Date().addingTimeInterval(seconds)
            while count <= seen { if !condition.wait(until: end) { return false } }
            return true
        }
    }

    func testTheWatcherSeesTheFolderMadeLaterAndEveryChangeAndAScanDescribesOnlyWhatChanged() throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("swiftdash-folder-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        let env = ["XDG_CONFIG_HOME": root.path, "HOME": root.path]
        let folder = ExtensionFolder(
            paths: AppPaths(environment: env), builtin: ["clock"], environment: env, log: { _ in })
        let widgets = folder.directory
        XCTAssertFalse(FileManager.default.fileExists(atPath: widgets.path), "no widgets folder yet")
        let reports = Reports()
        let watcher = try FolderWatcher(folder: widgets) { reports.report() }
        defer { watcher.stop() }
        XCTAssertTrue(folder.scan().widgets.isEmpty)

        // The folder is made, a script copied in: seen without the folder having been there.
        try FileManager.default.createDirectory(at: widgets, withIntermediateDirectories: true)
        let hello = widgets.appendingPathComponent("hello")
        try Self.script(kind: "hello", word: "hi").write(to: hello, atomically: true, encoding: .utf8)
        chmod(hello.path, 0o755)
        var seen = 0
        XCTAssertTrue(reports.waitForOneAfter(seen), "the new folder and its script reported")
        seen = reports.count
        let first = folder.scan()
        XCTAssertEqual(first.widgets.map(\.kind), ["hello"])
        let v1 = try XCTUnwrap(first.versions["hello"])
        XCTAssertEqual(folder.scan().versions["hello"], v1, "unchanged: not described again")

        // A file that is not executable, and one whose describe fails: each with its reason.
        try "just notes\n".write(to: widgets.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try "#!/bin/sh\necho 'not today' >&2\nexit 3\n".write(
            to: widgets.appendingPathComponent("broken"), atomically: true, encoding: .utf8)
        chmod(widgets.appendingPathComponent("broken").path, 0o755)
        XCTAssertTrue(reports.waitForOneAfter(seen))
        seen = reports.count
        let withProblems = folder.scan()
        XCTAssertEqual(withProblems.versions["hello"], v1)
        let reasons = Dictionary(uniqueKeysWithValues: withProblems.problems.map { ($0.name, $0.reason) })
        XCTAssertEqual(reasons["notes.txt"], "not executable (chmod +x to use it)")
        XCTAssertTrue(reasons["broken"]?.contains("exited with status 3") ?? false, "\(reasons)")

        // Replaced (a new file renamed over it): described again, a new version.
        try Self.script(kind: "hello", word: "hey").write(to: hello, atomically: true, encoding: .utf8)
        chmod(hello.path, 0o755)
        XCTAssertTrue(reports.waitForOneAfter(seen))
        seen = reports.count
        let replaced = folder.scan()
        XCTAssertNotEqual(replaced.versions["hello"], v1)
        let widget = try XCTUnwrap(replaced.widgets.first { $0.kind == "hello" })
        let remote = try XCTUnwrap(widget.remote)
        let context = TimelineContext(family: .small, size: (20, 6), now: Date())
        XCTAssertEqual(try remote.timeline(WidgetConfig(), context).entries.count, 1, "the new version answers")

        // Removed: gone from the catalog, and its process no longer answers.
        try FileManager.default.removeItem(at: hello)
        XCTAssertTrue(reports.waitForOneAfter(seen))
        XCTAssertNil(folder.scan().versions["hello"])
        XCTAssertThrowsError(try remote.timeline(WidgetConfig(), context), "a retired process is not started again")
    }
}
