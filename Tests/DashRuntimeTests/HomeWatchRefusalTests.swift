import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles
@testable import DashRuntime

extension Seen {
    /// What the watcher read: the text (nil: removed), or `refused: file:line: message`.
    func add(_ read: Result<String?, ConfigFileError>) {
        switch read {
        case .success(let text): add(text)
        case .failure(let e): add("refused: \(e.description)")
        }
    }
}

/// An outside edit the watcher cannot read (too large, not a regular file, not UTF-8) says so in
/// the status line, keeps the last good home screen, and recovers when the file is fixed.
final class HomeWatchRefusalTests: XCTestCase {
    let text = """
        tiles:
          - family: small
            widget: note
            config: { text: one }
          - family: small
            widget: note
            config: { text: two }

        """
    var dir: URL!
    var url: URL { dir.appendingPathComponent("home.yaml") }

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-refuse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// The app on `home.yaml` in `dir`, with a real watcher whose reports are recorded.
    func watched() throws -> (AppHarness, Reads, HomeFileWatcher) {
        let bundle = WidgetBundle([noteWidget])
        let file = HomeFile(url: url, bundle: bundle)
        let (home, state) = try file.load()
        let h = AppHarness(widgets: [noteWidget], home: home, size: Size(width: 100, height: 24), now: start)
        h.useHomeFile(state)
        h.homeWriter = { file.write($0, over: $1) }
        for id in ["w1", "w2"] { h.finish(id, entries: [NoteEntry(date: start, text: "shown \(id)")]) }
        let reads = Reads()
        let watcher = try HomeFileWatcher(file: url, initial: state.text) { reads.add($0) }
        return (h, reads, watcher)
    }

    /// Puts `data` in place the way an editor saves: a new file renamed over the old one.
    func save(_ data: Data) throws {
        let tmp = dir.appendingPathComponent(".home.yaml.swp")
        try data.write(to: tmp)
        XCTAssertEqual(rename(tmp.path, url.path), 0)
    }

    func testAFileOverTheSizeLimitIsReportedWithItsSizeAndTheHomeRecoversWhenItIsFixed() throws {
        let (h, reads, watcher) = try watched()
        defer { watcher.stop() }
        let before = h.state.home
        let big = text + String(repeating: "# padding padding padding padding padding padding padding\n", count: 27_000)
        XCTAssertGreaterThan(big.utf8.count, ConfigLimits.maxHomeBytes)
        try save(Data(big.utf8))
        let read = try XCTUnwrap(reads.next(within: 2), "the watcher reports a file it refuses")
        guard case .failure(let e) = read else { return XCTFail("read: \(read)") }
        XCTAssertEqual(e.message, "the file is 1.5 MB; home.yaml may be at most 1.0 MB")
        h.send(.homeFileRead(read))
        XCTAssertEqual(h.state.home, before, "the last good home stays")
        XCTAssertEqual(
            h.state.statusText,
            "⚠ home.yaml: not read: the file is 1.5 MB; home.yaml may be at most 1.0 MB — showing the last good version"
        )
        XCTAssertTrue(h.screen.contains("home.yaml: not read: the file is 1.5 MB; home.yaml may be at most 1.0 MB"))
        XCTAssertEqual(
            App.homeWriteRefusal(h.state),
            "not saved: home.yaml: not read: the file is 1.5 MB; home.yaml may be at most 1.0 MB; fix the file first")
        // Fixed by putting back exactly what was there before: that is news too.
        try save(Data(text.utf8))
        let fixed = try XCTUnwrap(reads.next(within: 2), "the fixed file is reported")
        XCTAssertEqual(try fixed.get(), text)
        h.send(.homeFileRead(fixed))
        XCTAssertNil(h.state.homeFile?.problem)
        XCTAssertEqual(h.state.statusText, "home.yaml is fixed")
        XCTAssertEqual(h.state.home, before)
    }

    func testAFileThatIsNotRegularIsReportedAndNeverBlocksTheWatcher() throws {
        let (h, reads, watcher) = try watched()
        defer { watcher.stop() }
        // A FIFO: opening it to read would wait for a writer forever.
        let fifo = dir.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertEqual(rename(fifo.path, url.path), 0)
        let read = try XCTUnwrap(reads.next(within: 2), "reported, not stuck in open(2)")
        XCTAssertEqual(outcome(read), "refused: \(url.path): not a regular file")
        h.send(.homeFileRead(read))
        XCTAssertEqual(h.state.statusText?.hasPrefix("⚠ home.yaml: not read: not a regular file"), true)
        // Then the file comes back with a change: the home screen takes it.
        try save(Data(text.replacingOccurrences(of: "text: two", with: "text: deux").utf8))
        let back = try XCTUnwrap(reads.next(within: 2))
        h.send(.homeFileRead(back))
        XCTAssertNil(h.state.homeFile?.problem)
        XCTAssertEqual(h.state.home.tiles[1].items[0].config.string("text"), "deux")
        XCTAssertEqual(h.state.statusText, "home.yaml changed: home screen updated")
        h.skipPendingWork()
    }

    func testABadByteIsReportedWithItsLineAndColumn() throws {
        let (h, reads, watcher) = try watched()
        defer { watcher.stop() }
        var bytes = Array(text.utf8)
        let one = text.utf8.distance(from: text.startIndex, to: text.range(of: "one")!.lowerBound)
        bytes.insert(0xFF, at: one)  // before "one" in "    config: { text: one }", line 4
        try save(Data(bytes))
        let read = try XCTUnwrap(reads.next(within: 2))
        XCTAssertEqual(
            outcome(read),
            "refused: \(url.path):4: not valid UTF-8 (byte 0xFF at column 21): save the file as UTF-8")
        h.send(.homeFileRead(read))
        XCTAssertEqual(
            h.state.statusText?.hasPrefix(
                "⚠ home.yaml:4: not read: not valid UTF-8 (byte 0xFF at column 21): save the file as UTF-8"), true,
            h.state.statusText ?? "")
        XCTAssertNotNil(App.homeWriteRefusal(h.state))
    }

    func testAYAMLErrorNamesItsLine() throws {
        let (h, reads, watcher) = try watched()
        defer { watcher.stop() }
        try save(Data((text + "  - [\n").utf8))
        let read = try XCTUnwrap(reads.next(within: 2))
        h.send(.homeFileRead(read))
        let status = h.state.statusText ?? ""
        XCTAssertNotNil(status.wholeMatch(of: /⚠ home\.yaml:(8|9): .+ — showing the last good version/), status)
    }
}

/// A read as a line: the text, `removed`, or `refused: file:line: message`.
func outcome(_ read: Result<String?, ConfigFileError>) -> String {
    switch read {
    case .success(let text): return text ?? "removed"
    case .failure(let e): return "refused: \(e.description)"
    }
}

/// What the watcher reported, in order, waited for with a deadline.
final class Reads: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Result<String?, ConfigFileError>] = []
    private let signal = DispatchSemaphore(value: 0)

    func add(_ read: Result<String?, ConfigFileError>) {
        lock.lock()
        items.append(read)
        lock.unlock()
        signal.signal()
    }

    /// The next report, or nil when none comes within `seconds`.
    func next(within seconds: Double) -> Result<String?, ConfigFileError>? {
        guard signal.wait(timeout: .now() + seconds) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return items.removeFirst()
    }
}
