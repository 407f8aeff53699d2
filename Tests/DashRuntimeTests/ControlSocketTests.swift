import XCTest
import Foundation
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

final class ControlSocketTests: XCTestCase {
    func privateDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sd-sock-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return dir
    }

    func connectIdle(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = ControlSocket.connect(fd, path)
        return fd
    }

    /// The hardening issue's item 9: 50 idle connections used to make `swiftdash reload` fail.
    func testAFloodOfIdleConnectionsDoesNotBlockReload() throws {
        let dir = try privateDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s").path
        let server = try ControlSocket.Server(path: path) { ControlProtocol.handle($0, kinds: ["clock"]).answer }
        defer { server.stop() }
        let idle = (0..<50).map { _ in connectIdle(path) }
        defer { idle.forEach { close($0) } }
        // Answered while 50 idle clients wait: served one after another, each idle one would hold
        // the server for its whole deadline, and the client gives up after 5 s without an answer.
        XCTAssertGreaterThan(50 * ControlSocket.Server.clientDeadline, 5)
        XCTAssertEqual(try ControlSocket.send("reload clock", to: path), "ok")
        XCTAssertEqual(try ControlSocket.send("ping", to: path), "pong")
    }

    func testASocketPathTooLongForAnAddressStillListensAndAnswers() throws {
        // A deep XDG_RUNTIME_DIR or TMPDIR: the path is over the 108 bytes an address holds.
        var dir = try privateDir()
        let top = dir
        defer { try? FileManager.default.removeItem(at: top) }
        while dir.path.utf8.count < 150 { dir = dir.appendingPathComponent("a-rather-long-folder-name") }
        try FileManager.default.createDirectory(
            at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = dir.appendingPathComponent("control-0123abcd.sock").path
        XCTAssertNil(ControlSocket.address(path))
        let server = try ControlSocket.Server(path: path) { ControlProtocol.handle($0, kinds: ["clock"]).answer }
        defer { server.stop() }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "the socket is where its path says")
        XCTAssertEqual(try ControlSocket.send("ping", to: path), "pong")
        XCTAssertEqual(try ControlSocket.send("reload clock", to: path), "ok")
    }

    func testTheControlSocketIsNotInheritedByChildren() throws {
        let dir = try privateDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s").path
        let server = try ControlSocket.Server(path: path) { ControlProtocol.handle($0, kinds: []).answer }
        defer { server.stop() }
        let flags = fcntl(server.fd, F_GETFD)
        XCTAssertNotEqual(flags & FD_CLOEXEC, 0, "the listening socket closes on exec")
    }

    func testAnOverlongLineIsRefusedNotBuffered() throws {
        let dir = try privateDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s").path
        let server = try ControlSocket.Server(path: path) { ControlProtocol.handle($0, kinds: []).answer }
        defer { server.stop() }
        XCTAssertEqual(try ControlSocket.send(String(repeating: "x", count: 4000), to: path), "error: line too long")
        XCTAssertEqual(try ControlSocket.send("ping", to: path), "pong")
    }
}

final class BrowserAndPathsTests: XCTestCase {
    /// The review found `o` saying "opened in /nonexistent/browser".
    func testAMissingBrowserIsSaidNotPretendedOpened() {
        let missing = Browser.open(
            "https://example.org", environment: ["BROWSER": "/nonexistent/browser", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(missing, "cannot run /nonexistent/browser: set $BROWSER to a browser that exists")
        let none = Browser.open("https://example.org", environment: ["PATH": "/nonexistent"])
        XCTAssertEqual(none, "cannot open links: no xdg-open here; set $BROWSER to your browser")
        XCTAssertEqual(
            Browser.open("https://example.org", environment: ["BROWSER": "true", "PATH": "/usr/bin:/bin"]),
            "opened in true")
    }

    /// Two swiftdash processes with different configurations never share a control socket.
    func testEachConfigurationHasItsOwnControlSocket() {
        let a = AppPaths(environment: ["HOME": "/home/a", "XDG_RUNTIME_DIR": "/run/user/1"])
        let b = AppPaths(environment: ["HOME": "/home/b", "XDG_RUNTIME_DIR": "/run/user/1"])
        let a2 = AppPaths(environment: [
            "HOME": "/home/x", "XDG_CONFIG_HOME": "/home/a/.config", "XDG_RUNTIME_DIR": "/run/user/1",
        ])
        XCTAssertNotEqual(a.socket, b.socket)
        XCTAssertEqual(a.socket, a2.socket, "the same configuration: the same instance")
    }
}
