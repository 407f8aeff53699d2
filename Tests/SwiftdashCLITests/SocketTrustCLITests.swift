import XCTest
import Foundation
import DashTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// Issue 37 point 3, a socket answers only its owner: `push`, `snapshot`, `reload` (and
/// `snapshot --line --tmux`) refuse a control socket whose folder or socket is another user's or
/// writable by others, say why, and send nothing there. The runtime folder here is
/// `$XDG_RUNTIME_DIR/swiftdash`; without XDG_RUNTIME_DIR it is /tmp/swiftdash-UID, checked the same way.
final class SocketTrustCLITests: XCTestCase {
    var top: URL!
    var env: [String: String] = [:]
    var runtime: URL { top.appendingPathComponent("run/swiftdash") }
    var timeline: URL { top.appendingPathComponent("timeline.json") }

    override func setUpWithError() throws {
        top = FileManager.default.temporaryDirectory.appendingPathComponent("sd-trust-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: top.appendingPathComponent("home"), withIntermediateDirectories: true)
        env = ["HOME": top.appendingPathComponent("home").path, "XDG_RUNTIME_DIR": top.appendingPathComponent("run").path]
        XCTAssertEqual(try runSwiftdash(["add", "note"], env: env).status, 0)
        try Data(#"{"entries": [{"title": "a", "text": "secret note"}]}"#.utf8).write(to: timeline)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: top)
    }

    /// The socket's path, as `reload` names it when no one listens (a private folder first).
    func socketPath() throws -> String {
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let r = try runSwiftdash(["reload"], env: env)
        let said = r.err.components(separatedBy: "no one listens on ").last ?? ""
        let path = String(said.prefix { $0 != ")" })
        XCTAssertTrue(path.hasSuffix(".sock"), r.err)
        return path
    }

    /// A stranger's socket at `path`: listening, answering no one (a connection would wait in its backlog).
    func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0, Glibc.listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        return fd
    }

    /// Runs every client against the socket and checks each refuses with `why`, sending nothing.
    func assertEveryClientRefuses(_ listener: Int32, saying why: String, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let runs: [[String]] = [
            ["push", "note", "--json", timeline.path], ["reload"], ["snapshot", "--json"],
            ["snapshot", "--line", "{kind} {summary}", "--tmux"],
        ]
        for args in runs {
            let r = try runSwiftdash(args, env: env)
            XCTAssertTrue(r.err.contains(why), "\(args): \(r.err)", file: file, line: line)
            XCTAssertTrue(r.err.contains("not connecting there"), "\(args): \(r.err)", file: file, line: line)
            if args[0] == "snapshot" {
                // It shows the saved timelines instead, and says so.
                XCTAssertTrue(r.err.contains("showing the saved timelines"), r.err, file: file, line: line)
            } else {
                XCTAssertNotEqual(r.status, 0, "\(args)", file: file, line: line)
            }
            let c = accept(listener, nil, nil)
            XCTAssertEqual(c, -1, "\(args) connected to the stranger's socket", file: file, line: line)
            if c >= 0 { close(c) }
        }
    }

    func testASocketAnswersOnlyItsOwner_aFolderWritableByOthersIsRefused() throws {
        let path = try socketPath()
        let fd = try listen(at: path)
        defer { close(fd) }
        chmod(runtime.path, 0o777)
        try assertEveryClientRefuses(fd, saying: "\(runtime.path) can be written by others (mode 0777)")
        chmod(runtime.path, 0o720)
        try assertEveryClientRefuses(fd, saying: "can be written by others (mode 0720)")
    }

    func testASocketAnswersOnlyItsOwner_aSocketWritableByOthersIsRefused() throws {
        let path = try socketPath()
        let fd = try listen(at: path)
        defer { close(fd) }
        chmod(path, 0o666)
        try assertEveryClientRefuses(fd, saying: "\(path) can be written by others (mode 0666)")
    }

    func testASocketAnswersOnlyItsOwner_anotherUsersFolderOrSocketIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to give a folder to another uid") }
        let path = try socketPath()
        let fd = try listen(at: path)
        defer { close(fd) }
        chmod(path, 0o600)
        XCTAssertEqual(chown(path, 12345, 12345), 0)
        try assertEveryClientRefuses(fd, saying: "\(path) belongs to uid 12345, not to you (uid 0)")
        XCTAssertEqual(chown(runtime.path, 12345, 12345), 0)
        try assertEveryClientRefuses(fd, saying: "\(runtime.path) belongs to uid 12345, not to you (uid 0)")
    }

    func testASocketAnswersOnlyItsOwner_aLinkInsteadOfTheFolderIsRefused() throws {
        let elsewhere = top.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(
            at: elsewhere, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = try socketPath()
        try FileManager.default.removeItem(at: runtime)
        try FileManager.default.createSymbolicLink(at: runtime, withDestinationURL: elsewhere)
        let fd = try listen(at: elsewhere.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent).path)
        defer { close(fd) }
        try assertEveryClientRefuses(fd, saying: "\(runtime.path) is not a folder (a symbolic link)")
    }
}
