import XCTest
import Foundation
import DashTestSupport

/// External widgets in the commands a script runs, like built-in ones: `widgets`, `preview` and
/// `timeline` (a stack with an external widget, the budget), from the widgets folder and from
/// home.yaml's `extensions:`.
final class ExtensionCLITests: XCTestCase {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/extensions")

    var home: URL!
    var config: URL { home.appendingPathComponent("config/swiftdash") }
    var env: [String: String] {
        [
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
        ]
    }

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "the example needs python3")
        home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-extcli-\(UUID().uuidString)")
        let widgets = config.appendingPathComponent("widgets")
        try FileManager.default.createDirectory(at: widgets, withIntermediateDirectories: true)
        // countdown from the widgets folder; uptime from a path home.yaml lists.
        try FileManager.default.copyItem(
            at: Self.examples.appendingPathComponent("countdown.py"), to: widgets.appendingPathComponent("countdown"))
        chmod(widgets.appendingPathComponent("countdown").path, 0o755)
        try "#!/bin/sh\necho 'not today' >&2\nexit 3\n".write(
            to: widgets.appendingPathComponent("broken"), atomically: true, encoding: .utf8)
        chmod(widgets.appendingPathComponent("broken").path, 0o755)
    }

    override func tearDownWithError() throws { if let home { try? FileManager.default.removeItem(at: home) } }

    func writeHome(_ tiles: String) throws {
        let uptime = Self.examples.appendingPathComponent("uptime.sh").path
        try "extensions:\n  - \(uptime)\ntiles:\n\(tiles)".write(
            to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
    }

    func testWidgetsListsExternalWidgetsLikeBuiltInOnesAndNamesABrokenOne() throws {
        try writeHome("  - {family: small, widget: clock}\n")
        let r = try runSwiftdash(["widgets"], env: env)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("clock — Clock"), "the built-in ones are still there")
        XCTAssertTrue(r.out.contains("countdown — Countdown\n  Days and a live timer until a date"), r.out)
        XCTAssertTrue(r.out.contains("sizes: small, medium  (local: reloads are free)"), r.out)
        XCTAssertTrue(r.out.contains("--set until=…  Date\n"), "no help: no dangling ':'\n\(r.out)")
        XCTAssertTrue(r.out.contains("one of days, timer; default: days"), r.out)
        XCTAssertTrue(r.out.contains("uptime — Uptime"), "from home.yaml's extensions:\n\(r.out)")
        XCTAssertFalse(r.out.contains("broken"), r.out)
        XCTAssertTrue(r.err.contains("broken: broken: exited with status 3"), "left out, with the reason: \(r.err)")
        // Said once, as a command's warning, not as the home screen's log lines.
        let said = r.err.split(separator: "\n").filter { $0.contains("exited with status 3") }
        XCTAssertEqual(said.count, 1, r.err)
        XCTAssertTrue(said.first?.hasPrefix("swiftdash: warning: ") ?? false, r.err)
    }

    /// `widgets` is a fresh process: an extension copied into the folder since the last run is
    /// listed, one removed is not, and a file left without `chmod +x` is named with the reason.
    func testWidgetsReadsTheFolderAsItIsNow() throws {
        try writeHome("  - {family: small, widget: clock}\n")
        let widgets = config.appendingPathComponent("widgets")
        let before = try runSwiftdash(["widgets"], env: env)
        XCTAssertTrue(before.out.contains("countdown — Countdown"), before.out)
        XCTAssertFalse(before.out.contains("greeting — Greeting"), before.out)
        try FileManager.default.removeItem(at: widgets.appendingPathComponent("countdown"))
        let greeting = widgets.appendingPathComponent("greeting")
        try ShellExtensionFolder.script(kind: "greeting", displayName: "Greeting")
            .write(to: greeting, atomically: true, encoding: .utf8)
        chmod(greeting.path, 0o755)
        try "notes\n".write(to: widgets.appendingPathComponent("todo.txt"), atomically: true, encoding: .utf8)
        let r = try runSwiftdash(["widgets"], env: env)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains("countdown — Countdown"), "removed since the last run\n\(r.out)")
        XCTAssertTrue(r.out.contains("greeting — Greeting"), "added since the last run\n\(r.out)")
        XCTAssertTrue(r.err.contains("todo.txt: not executable (chmod +x to use it)"), r.err)
    }

    func testPreviewDrawsAnExternalWidgetInEachFamilyAndAsItsPlaceholder() throws {
        try writeHome("  - {family: small, widget: clock}\n")
        let r = try runSwiftdash(
            ["preview", "countdown", "--at", "2026-11-23T09:30:00Z", "--set", "title=Trip"], env: env)
        XCTAssertEqual(r.status, 0, r.err)
        let first = r.out.split(separator: "\n").first { $0.contains("╭") } ?? ""
        XCTAssertTrue(first.contains("╭─ Small") && first.contains("╭─ Medium"), String(first))
        XCTAssertFalse(first.contains("Large"), "only the families it supports")
        XCTAssertTrue(r.out.contains("12 days"), "the snapshot's sample data\n\(r.out)")
        XCTAssertTrue(r.out.contains("[ ] Remind me"), r.out)
        let p = try runSwiftdash(["preview", "countdown", "--family", "small", "--placeholder"], env: env)
        XCTAssertEqual(p.status, 0, p.err)
        XCTAssertTrue(p.out.contains("▆"), "drawn redacted\n\(p.out)")
        XCTAssertFalse(p.out.contains("Launch"), p.out)
        let bad = try runSwiftdash(["preview", "countdown", "--family", "large"], env: env)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.err.contains("countdown has no large size; it supports small, medium"), bad.err)
        let set = try runSwiftdash(["preview", "countdown", "--set", "style=huge"], env: env)
        XCTAssertEqual(set.status, 2, "the extension's schema checks values like a built-in one")
        XCTAssertTrue(set.err.contains("style:"), set.err)
    }

    func testTimelineShowsAnExternalWidgetsEntriesBudgetAndItsStack() throws {
        try writeHome(
            """
              - family: small
                stack:
                  - widget: countdown
                    config: { title: Trip, until: "2026-11-24" }
                  - widget: uptime
              - {family: medium, widget: countdown, config: { title: Far, until: "2027-06-01" }}

            """)
        let r = try runSwiftdash(["timeline", "--at", "2026-11-23T09:30:00Z"], env: env)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("w1 countdown (small) title=Trip until=2026-11-24T00:00:00Z  [loaded now]"), r.out)
        XCTAssertTrue(r.out.contains("▶ 2026-11-23T09:30:00Z relevance 1.00  Trip: 0 days"), r.out)
        XCTAssertTrue(r.out.contains("budget:      local widget, no daily cap"), r.out)
        XCTAssertTrue(r.out.contains("w2 uptime (small)  [loaded now]"), r.out)
        XCTAssertTrue(r.out.contains("▶ 2026-11-23T09:30:00Z  up "), "the request's time, not the clock's\n\(r.out)")
        XCTAssertTrue(r.out.contains("Far: 189 days"), r.out)
        XCTAssertTrue(r.out.contains("stack t1 (small, 2 items): Smart Rotate on"), r.out)
        XCTAssertTrue(r.out.contains("the day is near"), "its relevance reason explains the stack\n\(r.out)")
    }

    /// An extension that answers `preview` (as SwiftdashKit does for a widget's own `#Preview`),
    /// and one that does not (an older extension): the first's canvas shows every entry its
    /// author wrote, in order, two of them with equal dates, each captioned with the preview's
    /// name (cleaned of escapes), "entry N of M" and the date; `--entry` picks one, `--at` the one
    /// current then; the second is drawn from its preview snapshot, as a sample.
    func testPreviewDrawsEveryEntryOfAWidgetsOwnPreviewAndEntryPicksOne() throws {
        try writeHome("  - {family: small, widget: clock}\n")
        let script = config.appendingPathComponent("widgets/previewer")
        try Self.previewer.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        var canvas = ""
        for args in [
            ["pv-own", "--family", "small"], ["pv-own", "--family", "medium", "--entry", "2"],
            ["pv-own", "--family", "small", "--at", "2026-11-23T09:00:00Z"], ["pv-old", "--family", "small"],
        ] {
            let r = try runSwiftdash(["preview"] + args, env: env)
            XCTAssertEqual(r.status, 0, r.err)
            canvas += (["$ swiftdash preview"] + args).joined(separator: " ") + "\n" + r.out
        }
        XCTAssertFalse(canvas.contains("\u{1B}"), "the name is cleaned of escapes")
        assertSnapshot(canvas, named: "extension-own-preview-entries")
        let beyond = try runSwiftdash(["preview", "pv-own", "--family", "small", "--entry", "4"], env: env)
        XCTAssertEqual(beyond.status, 2)
        XCTAssertTrue(beyond.err.contains("--entry 4: the #Preview \"Morning\" for small has 3 entries"), beyond.err)
        let old = try runSwiftdash(["preview", "pv-old", "--entry", "1"], env: env)
        XCTAssertEqual(old.status, 2)
        XCTAssertTrue(old.err.contains("pv-old has no #Preview of its own"), old.err)
    }

    static let previewer = #"""
        #!/usr/bin/env python3
        import json, sys
        def view(text):
            return {"views": {"default": {"vstack": [{"text": text, "font": "headline"}]}}}
        def describe():
            own = {"kind": "pv-own", "displayName": "Own", "families": ["small", "medium"], "previews": True}
            old = {"kind": "pv-old", "displayName": "Old", "families": ["small"]}
            return {"protocol": 1, "widgets": [own, old]}
        def preview(params):
            t = 1795424400
            entries = [dict(view("first"), date=t), dict(view("same date"), date=t), dict(view("an hour on"), date=t + 3600)]
            return {"previews": [{"name": "Morning\u001b[31m", "family": "small", "place": "Own.swift:9", "entries": entries}]}
        for line in sys.stdin:
            req = json.loads(line)
            m, p = req.get("method"), req.get("params", {})
            if m == "describe":
                out = {"result": describe()}
            elif m == "preview" and p.get("kind") == "pv-own":
                out = {"result": preview(p)}
            elif m in ("snapshot", "placeholder", "timeline"):
                e = dict(view("snapshot of " + p.get("kind", "")), date=p.get("context", {}).get("now", 0))
                out = {"result": {"entries": [e]} if m == "timeline" else e}
            else:
                out = {"error": "unknown method " + str(m)}
            out["id"] = req.get("id")
            print(json.dumps(out), flush=True)
        """#
}
