import XCTest
import Foundation
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp

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
        var addr = ControlSocket.address(path)!
        _ = ControlSocket.connect(fd, &addr)
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
        let t0 = Date()
        XCTAssertEqual(try ControlSocket.send("reload clock", to: path), "ok")
        XCTAssertEqual(try ControlSocket.send("ping", to: path), "pong")
        XCTAssertLessThan(Date().timeIntervalSince(t0), 1.5, "answered while 50 idle clients wait")
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

/// The control-socket protocol fuzzed in `swift test` (fixed seed): whatever a client sends,
/// one clean line comes back and nothing crashes.
final class ControlProtocolFuzzTests: XCTestCase {
    func testRandomLinesGetOneCleanLineBack() {
        var rng = SeededRandom(seed: 0xC0_4701)
        let words = [
            "ping", "reload", "push", "clock", "note", "w1", "{", "}", "\"entries\":", "[", "]",
            "\u{1B}]52;c;aGk=\u{07}", "\u{9B}2J", "\u{202E}", "\0", "\n", "\r", " ", "💥", "é", "-1", "1e999",
        ]
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "note")])
        ])
        var cases = 0
        for _ in 0..<4_000 {
            var line = ""
            for _ in 0..<rng.below(12) { line += rng.pick(words) + (rng.below(3) == 0 ? "" : " ") }
            if rng.below(4) == 0 { line = "push note " + line }
            let answer =
                line.hasPrefix("push ")
                ? ControlProtocol.handlePush(line, home: home, bundle: BuiltinWidgets.bundle).answer
                : ControlProtocol.handle(line, kinds: ["clock", "note"]).answer
            cases += 1
            XCTAssertFalse(answer.contains("\n"), "one line: \(answer.debugDescription)")
            XCTAssertFalse(
                answer.unicodeScalars.contains {
                    $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                }, "clean: \(answer.debugDescription)")
            XCTAssertLessThanOrEqual(answer.count, 1_000)
        }
        XCTAssertEqual(cases, 4_000)
    }
}
