import XCTest
import Foundation
import DashTestSupport

/// An extension copied into the widgets folder of a running swiftdash (issue 23, point 6): the
/// folder does not exist when it starts; the tile home.yaml names (refused while the kind is
/// missing) comes alive, the gallery lists the widget, and removing the file makes the tile say
/// its widget is unknown. Every wait is for what the program draws.
final class ExtensionArrivalTmuxTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    static let script = ShellExtensionFolder.script(
        kind: "hello", displayName: "Hello", description: "Says hello from sh", text: "hi from sh")

    func testAnExtensionCopiedIntoTheWidgetsFolderComesAliveAndGoesWhenRemoved() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-arrive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let homeFile = config.appendingPathComponent("home.yaml")
        try "tiles:\n  - {family: small, widget: clock}\n".write(to: homeFile, atomically: true, encoding: .utf8)
        let source = dir.appendingPathComponent("hello.sh")
        try Self.script.write(to: source, atomically: true, encoding: .utf8)
        chmod(source.path, 0o755)

        let t = try TmuxSession(width: 80, height: 24, env: TmuxSession.folders(in: dir))
        defer { t.close() }
        t.waitFor("the clock") { $0.contains("Clock") }

        // home.yaml names `hello` before its extension is there: refused, the clock stays.
        try "tiles:\n  - {family: small, widget: clock}\n  - {family: small, widget: hello}\n".write(
            to: homeFile, atomically: true, encoding: .utf8)
        t.waitFor("the refusal") { $0.contains("unknown widget `hello`") }

        // Copied into a widgets folder that did not exist: the tile comes alive, no restart.
        let widgets = config.appendingPathComponent("widgets")
        try FileManager.default.createDirectory(at: widgets, withIntermediateDirectories: true)
        let installed = widgets.appendingPathComponent("hello")
        try FileManager.default.copyItem(at: source, to: installed)
        t.waitFor("the hello tile alive") { $0.contains("hi from sh") && $0.contains("Hello") }

        // The gallery lists it: typing its name finds it, with its description.
        t.keys("a")
        t.waitFor("the gallery") { $0.contains("widgets") }
        t.keys("hello")
        t.waitFor("hello in the gallery") { $0.contains("Says hello from sh") && $0.contains("1 of ") }
        t.keys("Escape")
        t.waitFor("the home screen again") { $0.contains("hi from sh") }

        // Removed: its tile says the widget is unknown; the home screen goes on.
        try FileManager.default.removeItem(at: installed)
        t.waitFor("the tile without its widget") { $0.contains("Unknown widget") && $0.contains("removed: hello") }
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
    }
}
