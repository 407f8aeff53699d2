import XCTest
import Foundation
import DashTestSupport

/// Runs the built `swiftdash` binary as a user would.
func runSwiftdash(_ args: [String], env extra: [String: String] = [:]) throws -> (
    status: Int32, out: String, err: String
) {
    guard let exe = builtProduct("swiftdash") else { throw CocoaError(.fileNoSuchFile) }
    let p = Process()
    p.executableURL = exe
    p.arguments = args
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-cli-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    var env = ["HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    env.merge(extra) { $1 }
    p.environment = env
    return try runToEnd(p)
}

/// Starts `p` and returns its exit status and what it wrote to standard output and error.
func runToEnd(_ p: Process) throws -> (status: Int32, out: String, err: String) {
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

final class CLITests: XCTestCase {
    func testHelpExplains() throws {
        let r = try runSwiftdash(["--help"])
        XCTAssertEqual(r.status, 0)
        for word in ["home screen", "preview", "render", "widgets"] { XCTAssertTrue(r.out.contains(word), word) }
    }

    func testWidgetsListsKindsFamiliesAndParameters() throws {
        let r = try runSwiftdash(["widgets"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.out.contains("clock — Clock"))
        XCTAssertTrue(r.out.contains("sizes: small, medium, large"))
        XCTAssertTrue(r.out.contains("--set timeZone="))
    }

    func testPreviewUnknownKindNamesTheAvailableOnes() throws {
        let r = try runSwiftdash(["preview", "nope"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("unknown widget 'nope'; available: clock"), r.err)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, "a one-line error")
    }

    func testPreviewUnsupportedFamilyAndBadSet() throws {
        let f = try runSwiftdash(["preview", "clock", "--family", "extraLarge"])
        XCTAssertEqual(f.status, 2)
        XCTAssertTrue(f.err.contains("clock has no extraLarge size; it supports small, medium, large"), f.err)
        let g = try runSwiftdash(["preview", "clock", "--family", "huge"])
        XCTAssertEqual(g.status, 2)
        XCTAssertTrue(g.err.contains("use small, medium, large, extraLarge or all"), g.err)
        let s = try runSwiftdash(["preview", "clock", "--set", "timeZone=Not a zone!"])
        XCTAssertEqual(s.status, 2)
        XCTAssertTrue(
            s.err.contains("timeZone: 'Not a zone!' is not a time zone name such as Europe/Paris or UTC"), s.err)
        let k = try runSwiftdash(["preview", "clock", "--set", "colour=red"])
        XCTAssertEqual(k.status, 2)
        XCTAssertTrue(k.err.contains("colour: no such parameter; this widget has: timeZone, label"), k.err)
        let n = try runSwiftdash(["preview", "clock", "--set", "novalue"])
        XCTAssertEqual(n.status, 2)
        XCTAssertTrue(n.err.contains("is not key=value"), n.err)
    }

    func testPreviewDrawsEveryFamilySideBySide() throws {
        let r = try runSwiftdash(["preview", "clock", "--at", "2026-11-23T09:30:00Z", "--set", "timeZone=Asia/Tokyo"])
        XCTAssertEqual(r.status, 0, r.err)
        let first = r.out.split(separator: "\n").first { $0.contains("╭") } ?? ""
        XCTAssertTrue(
            first.contains("╭─ Small") && first.contains("╭─ Medium") && first.contains("╭─ Large"), String(first))
        XCTAssertTrue(r.out.contains("18:30"), "the zone setting is applied")
        XCTAssertTrue(r.out.contains("Asia/Tokyo"))
        XCTAssertTrue(r.out.contains("Small 19x7"))
    }

    func testPreviewPlaceholderIsRedacted() throws {
        let r = try runSwiftdash(["preview", "clock", "--family", "small", "--placeholder"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("▆▆▆▆▆"))
        XCTAssertFalse(r.out.contains(":"), "no real time in a placeholder")
    }

    func testRenderAtSizeAndTime() throws {
        let r = try runSwiftdash(["render", "--size", "80x24", "--at", "2026-11-23T09:30:00Z"])
        XCTAssertEqual(r.status, 0, r.err)
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, 24)
        XCTAssertTrue(lines[0].hasPrefix("╭─ Clock"))
        XCTAssertTrue(lines[23].contains("09:30") && lines[23].contains("? help"))
        let ansi = try runSwiftdash(["render", "--size", "40x10", "--ansi"])
        XCTAssertTrue(ansi.out.contains("\u{1B}["), "--ansi colours the output")
    }

    func testRenderRejectsBadSizeAndTime() throws {
        let a = try runSwiftdash(["render", "--size", "big"])
        XCTAssertEqual(a.status, 2)
        XCTAssertTrue(a.err.contains("size must be COLSxROWS with 19..1000 columns and 8..1000 rows"), a.err)
        let tiny = try runSwiftdash(["render", "--size", "10x5"])
        XCTAssertEqual(tiny.status, 2)
        XCTAssertTrue(tiny.err.contains("too small for one tile"), tiny.err)
        let b = try runSwiftdash(["render", "--at", "noon"])
        XCTAssertEqual(b.status, 2)
        XCTAssertTrue(b.err.contains("is not an ISO 8601 time"))
    }

    func testBrokenHomeYamlNamesTheLineAndIsKept() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-cfg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let dir = home.appendingPathComponent("swiftdash")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("home.yaml")
        let text = "tiles:\n  - family: small\n    widget: clok\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let r = try runSwiftdash(["render"], env: ["XDG_CONFIG_HOME": home.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("home.yaml:3: unknown widget `clok`; available: clock"), r.err)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), text, "the broken file is not overwritten")
    }

    func testTimelineLoadsClocksInTheUsersZone() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-tz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let dir = home.appendingPathComponent("swiftdash")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "tiles:\n  - family: small\n    widget: clock\n".write(
            to: dir.appendingPathComponent("home.yaml"),
            atomically: true, encoding: .utf8)
        let r = try runSwiftdash(
            ["timeline", "--at", "2026-11-23T09:30:00Z"],
            env: [
                "XDG_CONFIG_HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                "TZ": "Asia/Tokyo",
            ])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("18:30 Asia/Tokyo"), r.out)
    }

    /// The hardening issue's item 7: values quoted in errors used to reach the terminal raw.
    func testEscapeSequencesNeverReachTheTerminalThroughErrors() throws {
        let osc52 = "\u{1B}]52;c;aGVsbG8=\u{07}", title = "\u{1B}]0;pwned\u{1B}\\", csi = "\u{1B}[31m", c1 = "\u{9B}2J"
        let bidi = "\u{202E}txt"
        func assertClean(_ r: (status: Int32, out: String, err: String), _ what: String) {
            for (name, text) in [("stdout", r.out), ("stderr", r.err)] {
                let bad = text.unicodeScalars.filter {
                    $0.value == 0x1B || (0x80...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                        || (0x2066...0x2069).contains($0.value) || $0.value == 0x07
                }
                XCTAssertTrue(bad.isEmpty, "\(what): \(name) carries \(bad.map { String($0.value, radix: 16) })")
            }
        }
        assertClean(try runSwiftdash(["preview", osc52]), "preview KIND")
        assertClean(try runSwiftdash(["preview", "clock", "--set", "zone\(csi)=x"]), "--set key")
        assertClean(try runSwiftdash(["preview", "clock", "--set", "timeZone=\(title)"]), "--set value")
        assertClean(try runSwiftdash(["render", "--theme", c1]), "--theme")
        assertClean(try runSwiftdash(["render", "--size", bidi]), "--size")
        assertClean(try runSwiftdash(["--nope\(csi)"]), "ArgumentParser's own error")
        assertClean(try runSwiftdash(["reload", osc52]), "reload KIND")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-esc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let dir = home.appendingPathComponent("swiftdash")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for yaml in [
            "tiles:\n  - family: small\n    widget: \"clo\(csi)ck\"\n",
            "tiles:\n  - family: small\n    widget: clock\n    config: { timeZone: \"Mars/\(osc52)\" }\n",
            "tiles:\n  - family: small\n    widget: clock\n    config: { nope\(c1): 1 }\n",
            "tiles: [\(title)\n  - : :\n",
        ] {
            try yaml.write(to: dir.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
            let r = try runSwiftdash(["render"], env: ["XDG_CONFIG_HOME": home.path])
            XCTAssertNotEqual(r.status, 0)
            assertClean(r, "home.yaml \(yaml.debugDescription)")
        }
    }
}
