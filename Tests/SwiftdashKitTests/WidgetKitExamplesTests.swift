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
            "pocket-widgets": ["shopping-widget", "commute-widget", "charge-widget"],
        ]
        for (product, kinds) in expected.sorted(by: { $0.key < $1.key }) {
            let exe = bin.appendingPathComponent(product)
            let describe = try answers(exe, [.object(["id": .number(1), "method": .string("describe")])])
            let widgets = try ExtensionWidgetDescription.parse(try XCTUnwrap(describe.first?["result"], product))
            XCTAssertEqual(widgets.map(\.kind), kinds, product)
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
    /// examples turn on) and a preview snapshot draws the entries its author wrote: the entry
    /// current at `now`, else the first. `#Preview { View }` compiles and adds nothing.
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
        for a in answers {
            XCTAssertNil(a["error"], "\(a)")
            XCTAssertEqual(a["result"]?["summary"]?.string, "🛒 Shopping ○ Green tea", "the #Preview's first entry")
        }
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
}
