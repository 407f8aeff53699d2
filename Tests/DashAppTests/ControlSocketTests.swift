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

/// The control-socket protocol fuzzed in `swift test` (fixed seed): whatever a client sends,
/// one clean line comes back and nothing crashes. The checks are `AppFuzzHarness.control`,
/// the same as the libFuzzer target `control` (Tests/fuzz/run.sh control).
final class ControlProtocolFuzzTests: XCTestCase {
    func testRandomLinesGetOneCleanLineBack() {
        var rng = SeededRandom(seed: 0xC0_4701)
        let words = [
            "ping", "reload", "push", "clock", "note", "w1", "{", "}", "\"entries\":", "[", "]",
            "\u{1B}]52;c;aGk=\u{07}", "\u{9B}2J", "\u{202E}", "\0", "\n", "\r", " ", "💥", "é", "-1", "1e999",
            "{\"title\":", "\"view\":", "\"text\":", "\"date\":", "\"policy\":", "\"never\"", #""x\u001b[31m""#, ",",
        ]
        let pushes = [
            #"push note {"entries": [{"title": "Build \u001b[31mpassed", "text": "main"}], "policy": "never"}"#,
            #"push w1 {"entries": [{"date": 1795426000, "title": "\u202eevil"}]}"#,
        ]
        var cases = 0, accepted = 0
        for _ in 0..<4_000 {
            var line = ""
            for _ in 0..<rng.below(12) { line += rng.pick(words) + (rng.below(3) == 0 ? "" : " ") }
            switch rng.below(8) {
            case 0, 1: line = "push note " + line
            case 2:  // a valid push with words spliced in
                var p = Array(rng.pick(pushes).utf8)
                p.insert(contentsOf: Array(line.utf8), at: rng.below(p.count + 1))
                line = String(decoding: p, as: UTF8.self)
            case 3: line = rng.pick(pushes)
            default: break
            }
            var bytes = Array(line.utf8)
            if rng.below(4) == 0 {  // raw bytes: invalid UTF-8, NULs, a second line
                for _ in 0..<1 + rng.below(4) { bytes.insert(UInt8(rng.below(256)), at: rng.below(bytes.count + 1)) }
            }
            let o = AppFuzzHarness.control(Data(bytes))
            cases += 1
            if o.accepted { accepted += 1 }
            XCTAssertEqual(o.problems, [], "for \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        XCTAssertEqual(cases, 4_000)
        XCTAssertGreaterThan(accepted, 200, "some lines are valid requests")
    }

    /// The framing the server applies to a connection's bytes.
    func testFraming() {
        XCTAssertNil(ControlProtocol.frame(Array("ping".utf8), ended: false), "waits for the line's end")
        XCTAssertEqual(ControlProtocol.frame(Array("ping".utf8), ended: true), .line("ping"))
        XCTAssertEqual(ControlProtocol.frame(Array(" ping \r\nreload\n".utf8), ended: false), .line("ping"))
        XCTAssertEqual(ControlProtocol.frame([0x70, 0xC3, 0x0A], ended: false), .line("p\u{FFFD}"))
        let long = [UInt8](repeating: 0x61, count: ControlProtocol.maxLine)
        XCTAssertEqual(ControlProtocol.frame(long, ended: false), .tooLong)
        XCTAssertEqual(
            ControlProtocol.frame(Array(long.dropLast()), ended: true), .line(String(repeating: "a", count: 511)))
        let push = Array("push note ".utf8) + long
        XCTAssertNil(ControlProtocol.frame(push, ended: false), "a push may be longer")
        XCTAssertEqual(ControlProtocol.frame([], ended: true), .line(""))
    }
}
