import XCTest
import Foundation
import DashWidgets
import DashTestSupport
import DashBuiltinWidgets
@testable import DashHome
@testable import DashHomeFiles

/// Writing home.yaml: atomic, the previous version kept, permissions kept, a broken or
/// changed-elsewhere file never overwritten, two writers never interleaved.
final class HomeFileTests: XCTestCase {
    let bundle = BuiltinWidgets.bundle
    var dir: URL!
    var url: URL { dir.appendingPathComponent("home.yaml") }
    var file: HomeFile { HomeFile(url: url, bundle: bundle) }

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-homefile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    let original = """
        # mine
        tiles:
          - family: small
            widget: clock   # keep me
          - family: medium
            widget: news

        """

    func put(_ text: String) throws { try Data(text.utf8).write(to: url) }
    func contents(_ u: URL? = nil) throws -> String { try String(contentsOf: u ?? url, encoding: .utf8) }
    func mode(_ u: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: u.path)[.posixPermissions] as! NSNumber).intValue
    }

    func testAWriteChangesOnlyWhatChangedAndKeepsThePreviousVersionAsBak() throws {
        try put(original)
        let (home, state) = try file.load()
        var new = home
        new.tiles[1].family = .large
        guard case .success(let text) = file.write(new, over: state) else { return XCTFail("not written") }
        XCTAssertEqual(try contents(), text)
        XCTAssertEqual(lineDiff(original, text), "+5:   - family: large\n-5:   - family: medium")
        XCTAssertEqual(try contents(dir.appendingPathComponent("home.yaml.bak")), original)
        // The next write keeps the version before it.
        var newer = new
        newer.tiles.removeLast()
        guard case .success(let t2) = file.write(newer, over: HomeFileState(path: url.path, text: text, home: new))
        else {
            return XCTFail("not written")
        }
        XCTAssertEqual(try contents(dir.appendingPathComponent("home.yaml.bak")), text)
        XCTAssertEqual(try contents(), t2)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(
            names, [".home.yaml.ids", ".home.yaml.lock", "home.yaml", "home.yaml.bak"], "no temporary file left")
    }

    func testPermissionsAreKept() throws {
        try put(original)
        chmod(url.path, 0o640)
        let (home, state) = try file.load()
        var new = home
        new.theme = "light"
        guard case .success = file.write(new, over: state) else { return XCTFail("not written") }
        XCTAssertEqual(try mode(url), 0o640)
        XCTAssertEqual(try mode(dir.appendingPathComponent("home.yaml.bak")), 0o640)
    }

    func testASymlinkedFileStaysALink() throws {
        let real = dir.appendingPathComponent("dotfiles/home.yaml")
        try FileManager.default.createDirectory(at: real.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(original.utf8).write(to: real)
        try FileManager.default.createSymbolicLink(at: url, withDestinationURL: real)
        let (home, state) = try file.load()
        var new = home
        new.tiles[0].family = .medium
        guard case .success(let text) = file.write(new, over: state) else { return XCTFail("not written") }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: url.path), real.path)
        XCTAssertEqual(try contents(real), text)
        XCTAssertEqual(try contents(real.deletingLastPathComponent().appendingPathComponent("home.yaml.bak")), original)
    }

    func testADefaultHomeCreatesTheFileWithAHeader() throws {
        let (home, state) = try file.load()
        XCTAssertNil(state.text)
        var new = home
        new.tiles.removeLast()
        guard case .success(let text) = file.write(new, over: state) else { return XCTFail("not written") }
        XCTAssertTrue(text.hasPrefix("# swiftdash home screen"), text)
        XCTAssertEqual(try contents(), text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("home.yaml.bak").path))
        XCTAssertEqual(try mode(url), 0o600, "a new file may hold API keys: only its owner reads it")
    }

    func testABrokenFileIsNeverOverwritten() throws {
        try put(original)
        let (home, state) = try file.load()
        let broken = "tiles:\n  - family: small\n    widget: clok\n"
        try put(broken)
        var new = home
        new.tiles.removeLast()
        guard case .failure(let f) = file.write(new, over: state) else {
            return XCTFail("a broken file was overwritten")
        }
        XCTAssertEqual(f.reason, .broken)
        XCTAssertTrue(f.message.contains("home.yaml:3: unknown widget `clok`"), f.message)
        XCTAssertEqual(try contents(), broken)
        // Also when the app already knows it is broken.
        let known = HomeFileState(path: url.path, text: broken, home: home, problem: "home.yaml:3: unknown widget")
        guard case .failure(let g) = file.write(new, over: known) else { return XCTFail("overwritten") }
        XCTAssertEqual(g.reason, .broken)
        XCTAssertEqual(try contents(), broken)
    }

    func testAFileChangedElsewhereIsHandedBackNotOverwritten() throws {
        try put(original)
        let (home, state) = try file.load()
        // Another swiftdash (or an editor) changes the tiles first.
        var theirs = home
        theirs.tiles.append(TileInstance(id: "t9", family: .small, items: [WidgetInstance(id: "w9", kind: "crypto")]))
        guard case .success(let theirText) = file.write(theirs, over: state) else { return XCTFail("not written") }
        // This one still believes the file holds `home`, and adds a tile at the same place.
        var mine = home
        mine.tiles.append(TileInstance(id: "t8", family: .small, items: [WidgetInstance(id: "w8", kind: "clock")]))
        guard case .failure(let f) = file.write(mine, over: state) else { return XCTFail("the other change was lost") }
        XCTAssertEqual(f.reason, .changedElsewhere)
        XCTAssertEqual(f.current, theirText)
        XCTAssertEqual(try contents(), theirText)
    }

    func testCommentsAddedElsewhereAreKeptByTheNextWrite() throws {
        try put(original)
        let (home, state) = try file.load()
        let commented = original.replacingOccurrences(
            of: "  - family: medium", with: "  # the news\n  - family: medium")
        try put(commented)
        var new = home
        new.tiles[0].family = .large
        guard case .success(let text) = file.write(new, over: state) else { return XCTFail("not written") }
        XCTAssertEqual(lineDiff(commented, text), "+3:   - family: large\n-3:   - family: small")
    }

    func testTwoWritersNeverInterleave() throws {
        try put(original)
        // Eight writers at once, each adding its own tile under the lock: every one is there.
        let (url, bundle) = (self.url, self.bundle)
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let f = HomeFile(url: url, bundle: bundle)
            _ = try? f.modify { home in
                home.tiles.append(
                    TileInstance(
                        id: home.nextTileID(), family: .small,
                        items: [
                            WidgetInstance(
                                id: home.nextInstanceID(), kind: "clock",
                                config: WidgetConfig(["label": .string("w\(i)")]))
                        ]))
            }
        }
        let home = try HomeConfig.parse(yaml: try contents(), file: "home.yaml", bundle: bundle)
        XCTAssertEqual(home.tiles.count, 10)
        XCTAssertEqual(
            Set(home.tiles.dropFirst(2).map { $0.items[0].config.string("label") }), Set((0..<8).map { "w\($0)" }))
        XCTAssertTrue(try contents().hasPrefix("# mine\ntiles:\n  - family: small\n    widget: clock   # keep me\n"))
    }

    func testTheLockIsHeldAcrossTheWholeChange() throws {
        try put(original)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let first = file
        DispatchQueue.global().async {
            _ = try? first.withLock {
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        let other = HomeFile(url: url, bundle: bundle)
        let started = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { release.signal() }
        _ = try other.modify { $0.theme = "light" }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.25, "the second writer waited for the first")
    }

    func testLeftoversOfAKilledWriterAreRemoved() throws {
        try put(original)
        let stale = dir.appendingPathComponent(".home.yaml.tmp-99999")
        try Data("half a fi".utf8).write(to: stale)
        _ = try file.modify { $0.theme = "light" }
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path))
    }

    // MARK: - Issue 24.4: a save while another program edits a different tile goes through

    func testASaveWhileAnotherProgramEditsADifferentTileGoesThrough() throws {
        try put(original)
        let (home, state) = try file.load()
        // A script changes the second tile meanwhile.
        let theirs = original.replacingOccurrences(
            of: "    widget: news\n", with: "    widget: news\n    config: { count: 3 }\n")
        try put(theirs)
        var new = home
        new.tiles[0].family = .medium
        guard case .success(let text) = file.write(new, over: state) else { return XCTFail("refused") }
        XCTAssertEqual(text, theirs.replacingOccurrences(of: "  - family: small", with: "  - family: medium"))
        XCTAssertEqual(try contents(), text)
        XCTAssertEqual(try contents(dir.appendingPathComponent("home.yaml.bak")), theirs, "their version is the backup")
    }

    func testASaveThatMeetsAnotherProgramsChangeOnItsLinesIsRefused() throws {
        try put(original)
        let (home, state) = try file.load()
        let theirs = original.replacingOccurrences(of: "family: small", with: "family: large")
        try put(theirs)
        var new = home
        new.tiles[0].family = .medium
        guard case .failure(let e) = file.write(new, over: state) else { return XCTFail("written over their change") }
        XCTAssertEqual(e.reason, .changedElsewhere)
        XCTAssertEqual(try contents(), theirs)
    }

    /// Issue 24.3: an editor (which takes no lock) writes between the read and the rename: the
    /// write is a compare-and-swap, so the app's change is made again on the editor's file.
    func testAUsersFileNeverLosesAByteToARaceHomeYAML() throws {
        try put(original)
        let (home, state) = try file.load()
        let theirs = original.replacingOccurrences(of: "    widget: news\n", with: "    widget: news   # editor\n")
        let target = url.path
        let once = NSLock()
        nonisolated(unsafe) var done = false
        HomeFile.beforeSwapHook = { path in
            guard path == target else { return }
            once.withLock {
                if !done { try? Data(theirs.utf8).write(to: URL(fileURLWithPath: path)) }
                done = true
            }
        }
        defer { HomeFile.beforeSwapHook = nil }
        var new = home
        new.tiles[0].family = .medium
        guard case .success(let text) = file.write(new, over: state) else { return XCTFail("refused") }
        XCTAssertEqual(text, theirs.replacingOccurrences(of: "family: small", with: "family: medium"))
        XCTAssertEqual(try contents(), text, "the editor's comment kept")
        // A script's change in the same race is refused with the reason, the editor's file kept.
        done = false
        XCTAssertThrowsError(try file.modify { $0.theme = "light" }) { e in
            XCTAssertTrue("\(e)".contains("was changed by another program while it was written"), "\(e)")
        }
        XCTAssertEqual(try contents(), theirs, "what the editor wrote, nothing of the refused change")
    }

    func testLineMergeTakesBothSidesOrNothing() {
        let base = "a\nb\nc\nd\ne\n"
        XCTAssertEqual(
            LineMerge.merge(base: base, ours: "A\nb\nc\nd\ne\n", theirs: "a\nb\nc\nd\nE\n"), "A\nb\nc\nd\nE\n")
        XCTAssertEqual(
            LineMerge.merge(base: base, ours: "a\nx\nb\nc\nd\ne\n", theirs: "a\nb\nc\nd\n"), "a\nx\nb\nc\nd\n")
        XCTAssertNil(LineMerge.merge(base: base, ours: "a\nB\nc\nd\ne\n", theirs: "a\nb\nC\nd\ne\n"), "adjacent lines")
        XCTAssertNil(LineMerge.merge(base: base, ours: "a\nB\nc\nd\ne\n", theirs: "a\nX\nc\nd\ne\n"))
        XCTAssertEqual(
            LineMerge.merge(base: base, ours: "a\nB\nc\nd\ne\n", theirs: "a\nB\nc\nd\ne\n"), "a\nB\nc\nd\ne\n")
    }

    // MARK: - Issue 24.7: files and links are the user's

    func testAReadOnlyHomeYAMLIsRefusedNotReplaced() throws {
        try put(original)
        chmod(url.path, 0o444)
        let (home, state) = try file.load()
        var new = home
        new.theme = "light"
        guard case .failure(let e) = file.write(new, over: state) else { return XCTFail("written over a 0444 file") }
        XCTAssertEqual(e.reason, .notSaved)
        XCTAssertTrue(e.message.hasPrefix("not saved: home.yaml is read-only (mode 444)"), e.message)
        XCTAssertEqual(try contents(), original)
        XCTAssertEqual(try mode(url), 0o444)
        XCTAssertThrowsError(try file.modify { $0.theme = "light" }) { error in
            XCTAssertTrue("\(error)".hasPrefix("home.yaml is read-only"), "\(error)")
        }
    }

    func testADanglingHomeYAMLSymlinkIsWrittenThroughToItsTarget() throws {
        let real = dir.appendingPathComponent("dotfiles/home.yaml")
        try FileManager.default.createDirectory(at: real.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "dotfiles/home.yaml")
        _ = try file.modify { $0.theme = "light" }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: url.path), "dotfiles/home.yaml")
        XCTAssertTrue(try contents(real).contains("theme: light"))
        // A link into a folder that does not exist is refused, and stays a link.
        let nowhere = dir.appendingPathComponent("other.yaml")
        try FileManager.default.createSymbolicLink(atPath: nowhere.path, withDestinationPath: "gone/home.yaml")
        XCTAssertThrowsError(try HomeFile(url: nowhere, bundle: bundle).modify { $0.theme = "light" }) { error in
            XCTAssertTrue("\(error)".contains("no such file or directory"), "\(error)")
        }
        XCTAssertNotNil(try? FileManager.default.destinationOfSymbolicLink(atPath: nowhere.path))
    }

    /// A kill -9 of `config set` can leave `.home.yaml.ids.tmp-PID`: the next lock holder removes
    /// it, even one whose change is refused.
    func testAStaleIDsTemporaryIsRemovedByTheNextWriter() throws {
        try put(original)
        let stale = dir.appendingPathComponent(".home.yaml.ids.tmp-99999")
        try Data("{".utf8).write(to: stale)
        struct Refused: Error {}
        XCTAssertThrowsError(try file.modify { _ in throw Refused() })
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path))
    }

    func testAWriteThatFailsSaysWhyAndLeavesTheFile() throws {
        // The directory is a file: nothing can be created in it.
        let notADir = dir.appendingPathComponent("plain")
        try Data().write(to: notADir)
        let f = HomeFile(url: notADir.appendingPathComponent("home.yaml"), bundle: bundle)
        let home = HomeConfig.defaultHome(bundle: bundle)
        guard case .failure(let e) = f.write(home, over: HomeFileState(path: f.path, text: nil, home: home)) else {
            return XCTFail("written")
        }
        XCTAssertEqual(e.reason, .notSaved)
        XCTAssertTrue(e.message.hasPrefix("not saved: "), e.message)
    }

    func testNoFileStateMeansNotSaved() {
        guard case .failure(let e) = file.write(HomeConfig(tiles: []), over: nil) else { return XCTFail("written") }
        XCTAssertEqual(e.reason, .noFile)
    }

    func testCheckListsEveryProblemWithItsLine() {
        let text = """
            tiles:
              - family: small
                widget: clok
              - family: medium
                widget: news
                config:
                  count: 99
                  country: xx
              - family: huge
                widget: clock
              - family: medium
                stack:
                  - widget: crypto
                    config: { currency: E }
                  - widget: news
                    famly: x
            """
        let problems = HomeConfig.problems(yaml: text, file: "h.yaml", bundle: bundle).map(\.description)
        XCTAssertEqual(
            problems.map { $0.prefix(while: { $0 != " " }) },
            ["h.yaml:3:", "h.yaml:7:", "h.yaml:8:", "h.yaml:9:", "h.yaml:14:", "h.yaml:16:"], "\(problems)")
        XCTAssertEqual(HomeConfig.problems(yaml: original, file: "h.yaml", bundle: bundle).count, 0)
        XCTAssertEqual(HomeConfig.problems(yaml: "tiles: [", file: "h.yaml", bundle: bundle).count, 1)
    }
}
