import XCTest
import Foundation
import DashFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The one atomic writer every file swiftdash replaces goes through (home.yaml, its ids, the
/// cache, usage, the widgets' files).
final class AtomicFileTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        chmod(dir.path, 0o700)
        try? FileManager.default.removeItem(at: dir)
    }

    func mode(_ path: String) -> mode_t {
        var st = stat()
        stat(path, &st)
        return st.st_mode & 0o7777
    }

    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }

    func testANewFileGetsTheModeAnOldOneKeepsItsOwnAndNoTemporaryFileStays() throws {
        let file = dir.appendingPathComponent("a.txt").path
        try AtomicFile.write(Data("one\n".utf8), to: file, mode: 0o600)
        XCTAssertEqual(mode(file), 0o600)
        chmod(file, 0o640)
        try AtomicFile.write(Data("two\n".utf8), to: file)
        XCTAssertEqual(mode(file), 0o640, "the user's permission bits stay")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "two\n")
        XCTAssertEqual(try names(), ["a.txt"])
    }

    /// The cache's writes skip the flushes (`durable: false`) and are as atomic otherwise.
    func testAWriteThatIsNotFlushedStillReplacesTheFileWhole() throws {
        let file = dir.appendingPathComponent("w1.json").path
        var renamed = 0
        AtomicFile.moments = { m, path in if m == .renamed, path.hasSuffix("/w1.json") { renamed += 1 } }
        defer { AtomicFile.moments = nil }
        try AtomicFile.write(Data("one\n".utf8), to: file, durable: false)
        try AtomicFile.write(Data("two\n".utf8), to: file, durable: false)
        XCTAssertEqual(renamed, 2, "each write renames a whole temporary file over the old one")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "two\n")
        XCTAssertEqual(mode(file), 0o600)
        XCTAssertEqual(try names(), ["w1.json"])
    }

    func testTheOldFileIsKeptAsTheBackup() throws {
        let file = dir.appendingPathComponent("home.yaml").path
        let bak = file + ".bak"
        try AtomicFile.write(Data("first\n".utf8), to: file, backup: bak)
        XCTAssertFalse(FileManager.default.fileExists(atPath: bak), "nothing to keep the first time")
        try AtomicFile.write(Data("second\n".utf8), to: file, backup: bak)
        XCTAssertEqual(try String(contentsOfFile: bak, encoding: .utf8), "first\n")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "second\n")
        XCTAssertEqual(try names(), ["home.yaml", "home.yaml.bak"])
    }

    func testASymbolicLinkIsWrittenThroughAndStaysALink() throws {
        let real = dir.appendingPathComponent("dotfiles-todo.txt").path
        let link = dir.appendingPathComponent("todo.txt").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: real))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "dotfiles-todo.txt")
        try AtomicFile.write(Data("new\n".utf8), to: link)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "dotfiles-todo.txt")
        XCTAssertEqual(try String(contentsOfFile: real, encoding: .utf8), "new\n")
    }

    func testAFolderThatRefusesSaysWhyAndLeavesTheFileAlone() throws {
        try XCTSkipIf(getuid() == 0, "root writes anywhere")
        let file = dir.appendingPathComponent("a.txt").path
        try AtomicFile.write(Data("kept\n".utf8), to: file)
        chmod(dir.path, 0o500)
        XCTAssertThrowsError(try AtomicFile.write(Data("lost\n".utf8), to: file)) { error in
            XCTAssertTrue("\(error)".contains("permission denied"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "kept\n")
    }

    func testTemporaryNamesNameTheirWriter() {
        XCTAssertEqual(AtomicFile.tempName(for: "w1.json", pid: 42, nonce: 7), ".w1.json.tmp-42-7")
        XCTAssertEqual(AtomicFile.tempFileWriter(".w1.json.tmp-42-7"), 42)
        XCTAssertNil(AtomicFile.tempFileWriter("w1.json"))
        XCTAssertNil(AtomicFile.tempFileWriter(".w1.json.tmp-x-7"))
    }
}
