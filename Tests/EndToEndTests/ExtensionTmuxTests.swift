import XCTest
import Foundation
import DashTestSupport

/// An external widget in the real binary: the Python example from the widgets folder, its
/// toggle flipped with Space and with a mouse click, `u` undoing, and no extension process
/// left behind after `q`.
final class ExtensionTmuxTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "the Python example needs python3")
    }

    static let countdown = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/extensions/countdown.py")

    /// Live processes whose command line mentions `path`.
    static func processes(running path: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { e in
            guard Int(e) != nil, let data = FileManager.default.contents(atPath: "/proc/\(e)/cmdline") else {
                return false
            }
            let stat = (try? String(contentsOfFile: "/proc/\(e)/stat", encoding: .utf8)) ?? ""
            let state = stat.split(separator: ")").last?.split(separator: " ").first
            return state != "Z" && String(decoding: data, as: UTF8.self).contains(path)
        }
    }

    /// A new `prefix-UUID` folder holding `config/swiftdash/widgets/` (for XDG_CONFIG_HOME).
    func configFolder(_ prefix: String) throws -> (dir: URL, config: URL, widgets: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)\(UUID().uuidString)")
        let config = dir.appendingPathComponent("config/swiftdash")
        let widgets = config.appendingPathComponent("widgets")
        try FileManager.default.createDirectory(at: widgets, withIntermediateDirectories: true)
        return (dir, config, widgets)
    }

    func testAnExtensionsToggleWithSpaceAClickAndUndoThenNothingLeftAfterQuit() throws {
        let (dir, config, widgets) = try configFolder("swiftdash-ext-e2e-")
        defer { try? FileManager.default.removeItem(at: dir) }
        let exe = widgets.appendingPathComponent("countdown")
        try FileManager.default.copyItem(at: Self.countdown, to: exe)
        chmod(exe.path, 0o755)
        try """
        tiles:
          - family: medium
            widget: countdown
            config: { title: Trip, until: "2099-01-01" }
        """.write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(
            width: 80, height: 24,
            env: TmuxSession.folders(in: dir))
        defer { t.close() }
        t.waitFor("the countdown with its toggle") { $0.contains("[ ] Remind me") }
        XCTAssertEqual(Self.processes(running: exe.path).count, 1, "the extension runs once")

        // Tab highlights the toggle, Space flips it: `perform` runs in the extension.
        t.keys("Tab")
        t.keys("Space")
        var s = t.waitFor("the toggle on") { $0.contains("[x] Remind me") && !$0.contains("⋯") }
        t.waitFor("the status line") { $0.contains("Remind me: done · u undoes") }

        // A click on the toggle flips it back.
        let lines = s.split(separator: "\n", omittingEmptySubsequences: false)
        let y = try XCTUnwrap(lines.firstIndex { $0.contains("[x] Remind me") })
        let box = try XCTUnwrap(lines[y].range(of: "[x]"))
        let x = lines[y].distance(from: lines[y].startIndex, to: box.lowerBound)
        func hex(_ b: Int) -> String { String(b, radix: 16) }
        let (cx, cy) = (hex(32 + x + 2), hex(32 + y + 1))
        TmuxSession.tmux(
            t.socket, ["send-keys", "-t", t.name, "-H", "1b", "5b", "4d", "20", cx, cy, "1b", "5b", "4d", "23", cx, cy])
        s = t.waitFor("the toggle off after the click") { $0.contains("[ ] Remind me") && !$0.contains("⋯") }

        // u undoes the click: the extension named `remind` as the undo.
        t.keys("u")
        t.waitFor("the toggle on again") { $0.contains("[x] Remind me") && !$0.contains("⋯") }
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
        Eventually.wait { Self.processes(running: exe.path).isEmpty }
        XCTAssertEqual(Self.processes(running: exe.path), [], "the extension ended with the home screen")
    }

    func testQuitDoesNotWaitForAHungExtension() throws {
        let (dir, config, widgets) = try configFolder("swiftdash-ext-hang-")
        defer { try? FileManager.default.removeItem(at: dir) }
        let exe = widgets.appendingPathComponent("stuck")
        let inside = dir.appendingPathComponent("inside").path
        try """
        #!/bin/sh
        while IFS= read -r l; do
        id=${l#*\\"id\\":}; id=${id%%[,\\}]*}
        case $l in
        *'"method":"describe"'*)
            echo '{"id":'$id',"result":{"protocol":1,"widgets":[{"kind":"stuck","displayName":"Stuck","timeout":3600}]}}' ;;
        *'"method":"timeline"'*) : > \(inside); sleep 7200 ;;
        *) echo '{"id":'$id',"error":"no"}' ;;
        esac
        done
        """.write(to: exe, atomically: true, encoding: .utf8)
        chmod(exe.path, 0o755)
        try "tiles:\n  - {family: small, widget: stuck}\n  - {family: small, widget: clock}\n".write(
            to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(
            width: 80, height: 24,
            env: TmuxSession.folders(in: dir))
        defer { t.close() }
        t.waitFor("both tiles") { $0.contains("Stuck") && $0.contains(":") }
        XCTAssertTrue(
            Eventually.wait { FileManager.default.fileExists(atPath: inside) }, "the timeline request hangs")
        // Quit does not wait for the extension's hour-long timeout (the wait below would end first).
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
        XCTAssertEqual(Self.processes(running: exe.path), [], "its process group is gone")
    }
}
