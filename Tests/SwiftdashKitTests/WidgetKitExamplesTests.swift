import XCTest
import Foundation
import DashWidgets

/// The porting rule on the seeds' own listings: examples/widgetkit (one package, a product per
/// seed) is built with `swift build` into `.build-examples`, and each product answers the
/// extension protocol as swiftdash asks it (describe, then a preview snapshot in every family it
/// supports), its answers read by swiftdash's own parsers. No network: snapshots use sample data.
final class WidgetKitExamplesTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func build() throws -> URL {
        let scratch = repo.appendingPathComponent(".build-examples")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-widgetkit-examples.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let out = try FileHandle(forWritingTo: log)
        defer { try? out.close() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "swift", "build", "--package-path", repo.appendingPathComponent("examples/widgetkit").path,
            "--scratch-path", scratch.path,
        ]
        (p.standardOutput, p.standardError, p.standardInput) = (out, out, FileHandle.nullDevice)
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw NSError(domain: "swift build of examples/widgetkit failed:\n\(text.suffix(3000))", code: 1)
        }
        return scratch.appendingPathComponent("debug")
    }

    /// The answers of an extension to `requests`, one line each, in order.
    func answers(_ exe: URL, _ requests: [JSONValue]) throws -> [JSONValue] {
        let p = Process()
        p.executableURL = exe
        let input = Pipe(), output = Pipe()
        (p.standardInput, p.standardOutput) = (input, output)
        p.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        try p.run()
        for r in requests {
            input.fileHandleForWriting.write(try JSONEncoder().encode(r) + Data("\n".utf8))
        }
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return try data.split(separator: UInt8(ascii: "\n")).map { try JSONValue.parse(Data($0)) }
    }

    func testEachSeedsWidgetBuildsAndAnswersTheProtocolInEveryFamily() throws {
        let bin = try Self.build()
        let expected = [
            "crypto-widget": ["crypto-widget-extension"], "stories-widget": ["stories-widget"],
            "commit-checker": ["commit-checker-widget"], "headlines-widget": ["headlines-widget"],
            "pocket-widgets": ["shopping-widget", "commute-widget", "charge-widget", "track-widget"],
        ]
        for (product, kinds) in expected.sorted(by: { $0.key < $1.key }) {
            let exe = bin.appendingPathComponent(product)
            let describe = try answers(exe, [.object(["id": .number(1), "method": .string("describe")])])
            let widgets = try ExtensionWidgetDescription.parse(try XCTUnwrap(describe.first?["result"], product))
            XCTAssertEqual(widgets.map(\.kind), kinds, product)
            // pocket-widgets holds a Live Activity beside its widgets (decision 68).
            XCTAssertEqual(
                try ExtensionWidgetDescription.activityKinds(try XCTUnwrap(describe.first?["result"])),
                product == "pocket-widgets" ? ["delivery-attributes"] : [], product)
            for (widget, kind) in zip(widgets, kinds) {
                let families = widget.families
                let requests: [JSONValue] = families.enumerated().map { i, f in
                    .object([
                        "id": .number(Double(i + 2)), "method": .string("snapshot"),
                        "params": .object([
                            "kind": .string(kind),
                            "context": .object(["family": .string(f.rawValue), "isPreview": .bool(true)]),
                        ]),
                    ])
                }
                let snapshots = try answers(exe, requests)
                XCTAssertEqual(snapshots.count, families.count, product)
                for (s, f) in zip(snapshots, families) {
                    XCTAssertNil(s["error"], "\(product) \(f): \(s)")
                    let entry = try ExtensionProtocol.entry(try XCTUnwrap(s["result"]), kind: kind)
                    XCTAssertNotNil(s["result"]?["views"]?[f.rawValue], "\(product) \(f)")
                    _ = entry
                }
            }
        }
    }

    /// `#Preview(as:) { … } timeline: { … }` compiles (the macro, with the `Previews` trait the
    /// examples turn on) and a preview snapshot draws the entries its author wrote for the asked
    /// family: the entry current at `now`, else the first. `#Preview { View }` compiles and adds
    /// nothing.
    func testAWidgetsOwnPreviewIsWhatAPreviewSnapshotDraws() throws {
        let exe = try Self.build().appendingPathComponent("pocket-widgets")
        func preview(_ family: String, now: Double?) -> JSONValue {
            var context: [String: JSONValue] = ["family": .string(family), "isPreview": .bool(true)]
            if let now { context["now"] = .number(now) }
            return .object([
                "id": .number(1), "method": .string("snapshot"),
                "params": .object(["kind": .string("shopping-widget"), "context": .object(context)]),
            ])
        }
        let answers = try answers(exe, [preview("small", now: nil), preview("medium", now: 0)])
        XCTAssertEqual(answers.count, 2)
        for a in answers { XCTAssertNil(a["error"], "\(a)") }
        XCTAssertEqual(answers[0]["result"]?["summary"]?.string, "🛒 Shopping ○ Green tea", "the #Preview's first entry")
        XCTAssertEqual(answers[1]["result"]?["summary"]?.string, "🛒 Shopping ○ Rice", "the medium #Preview's")
        // Without a preview context the provider answers, as on the home screen.
        let home = try self.answers(exe, [
            .object([
                "id": .number(1), "method": .string("snapshot"),
                "params": .object(["kind": .string("shopping-widget"), "context": .object(["family": .string("small")])]),
            ])
        ])
        XCTAssertFalse(home.first?["result"]?["summary"]?.string?.contains("Green tea") ?? true, "\(home)")
        // The other forms: `using:` an intent, and `timelineProvider:` (its timeline's entries).
        for kind in ["commute-widget", "charge-widget"] {
            let answer = try self.answers(exe, [
                .object([
                    "id": .number(1), "method": .string("snapshot"),
                    "params": .object([
                        "kind": .string(kind),
                        "context": .object(["family": .string("small"), "isPreview": .bool(true)]),
                    ]),
                ])
            ])
            XCTAssertNil(answer.first?["error"], "\(kind): \(answer)")
            XCTAssertNotNil(answer.first?["result"]?["views"], "\(kind): \(answer)")
        }
    }

    /// The `preview` request (what `swiftdash preview KIND` asks): every entry of the widget's own
    /// `#Preview`s for the asked family, in the order written, equal dates included; a named
    /// preview keeps its name; a family with no `#Preview` gets the first; the `timelineProvider:`
    /// form gives the provider's timeline entries and the `using:` form its entries.
    func testThePreviewRequestAnswersEveryEntryTheAuthorWrote() throws {
        let exe = try Self.build().appendingPathComponent("pocket-widgets")
        func preview(_ kind: String, _ family: String) -> JSONValue {
            .object([
                "id": .number(1), "method": .string("preview"),
                "params": .object([
                    "kind": .string(kind), "context": .object(["family": .string(family), "isPreview": .bool(true)]),
                ]),
            ])
        }
        let describe = try answers(exe, [.object(["id": .number(1), "method": .string("describe")])])
        let widgets = try ExtensionWidgetDescription.parse(try XCTUnwrap(describe.first?["result"]))
        XCTAssertTrue(widgets.allSatisfy(\.previews), "SwiftdashKit says it answers `preview`")
        let got = try answers(
            exe,
            [
                preview("shopping-widget", "small"), preview("shopping-widget", "medium"),
                preview("charge-widget", "small"), preview("commute-widget", "small"),
            ])
        XCTAssertEqual(got.count, 4)
        for a in got { XCTAssertNil(a["error"], "\(a)") }
        let small = try ExtensionProtocol.previews(try XCTUnwrap(got[0]["result"]), kind: "shopping-widget")
        XCTAssertEqual(small.count, 1)
        XCTAssertNil(small.first?.name)
        XCTAssertEqual(small.first?.family, .small)
        XCTAssertTrue(small.first?.place?.hasPrefix("PocketWidgets/Shopping.swift:") ?? false, "\(small)")
        let entries = try XCTUnwrap(small.first?.entries)
        XCTAssertEqual(
            entries.map { ($0.base as? ExternalEntry)?.summary },
            ["🛒 Shopping ○ Green tea", "🛒 Shopping ✔ Green tea", "🛒 Shopping ✔ Green tea ○ Oat milk"])
        XCTAssertEqual(entries[0].date, entries[1].date, "two entries with equal dates, both answered")
        XCTAssertEqual(entries[2].date.timeIntervalSince(entries[1].date), 3600, accuracy: 1)
        let medium = try ExtensionProtocol.previews(try XCTUnwrap(got[1]["result"]), kind: "shopping-widget")
        XCTAssertEqual(medium.map(\.name), ["Week"])
        XCTAssertEqual(medium.first?.entries.count, 1)
        let charge = try ExtensionProtocol.previews(try XCTUnwrap(got[2]["result"]), kind: "charge-widget")
        XCTAssertEqual(charge.first?.entries.count, 6, "the provider's timeline, every entry")
        let commute = try ExtensionProtocol.previews(try XCTUnwrap(got[3]["result"]), kind: "commute-widget")
        XCTAssertEqual(commute.first?.family, .medium, "no small #Preview: the first, as written")
        XCTAssertEqual(commute.first?.entries.count, 1)
    }

    /// `swiftdash preview` on the real `#Preview`s, the bundle listed under home.yaml's
    /// `extensions:`: every entry in order, each captioned from its `#Preview` (never "sample")
    /// with "entry N of 3", the two equal dates alike; `--entry 3` draws the third alone.
    func testSwiftdashPreviewDrawsEachEntryOfTheWidgetsOwnPreview() throws {
        let exe = try Self.build().appendingPathComponent("pocket-widgets")
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var found: URL?
        for _ in 0..<4 where found == nil {
            let candidate = dir.appendingPathComponent("swiftdash")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { found = candidate }
            dir = dir.deletingLastPathComponent()
        }
        let swiftdash = try XCTUnwrap(found, "swift build builds swiftdash beside the tests")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-kitprev-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "extensions:\n  - \(exe.path)\ntiles:\n  - {family: small, widget: clock}\n".write(
            to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        func preview(_ args: [String]) throws -> String {
            let p = Process()
            p.executableURL = swiftdash
            p.arguments = ["preview", "shopping-widget"] + args
            p.environment = [
                "HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            ]
            let out = Pipe()
            (p.standardOutput, p.standardError) = (out, FileHandle.nullDevice)
            try p.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, text)
            return text
        }
        let all = try preview(["--family", "small"])
        for n in 1...3 { XCTAssertTrue(all.contains("entry \(n) of 3"), all) }
        XCTAssertFalse(all.contains("sample"), all)
        let lines = all.split(separator: "\n").map(String.init)
        let captions = try XCTUnwrap(lines.first { $0.contains("entry 1 of 3") })
        XCTAssertTrue(captions.contains("entry 2 of 3"), "side by side\n\(all)")
        let dates = try XCTUnwrap(lines.firstIndex(of: captions)).advanced(by: 1)
        let shown = lines[dates].split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        XCTAssertEqual(shown.count, 6, "three dates (day and time)\n\(all)")
        if shown.count == 6 { XCTAssertEqual(shown[0...1], shown[2...3], "two entries with equal dates\n\(all)") }
        let third = try preview(["--family", "small", "--entry", "3"])
        XCTAssertTrue(third.contains("entry 3 of 3") && third.contains("Oat milk"), third)
        XCTAssertFalse(third.contains("entry 1 of 3"), third)
        let medium = try preview(["--family", "medium"])
        XCTAssertTrue(medium.contains("#Preview \"Week\"") && medium.contains("entry 1 of 1"), medium)
    }
}

