import XCTest
import Foundation
import DashTestSupport

/// Issue 34.5: what SwiftdashKit does not offer fails to compile with a message that names what to
/// use, never a bare "cannot find": the census's not-offered SwiftUI symbols, in the shapes app
/// code writes them, type-checked against the built SwiftdashKit module.
final class NotOfferedTests: XCTestCase {
    func testEachNotOfferedAPIFailsToCompileNamingWhatToUse() throws {
        guard let exe = builtProduct("swiftdash") else { throw XCTSkip("no built swiftdash") }
        let modules = exe.deletingLastPathComponent().appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("SwiftdashKit.swiftmodule").path)
        else { throw XCTSkip("no built SwiftdashKit module next to the swiftdash binary") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-notoffered-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Screen.swift")
        try """
        import SwiftdashKit

        struct Screen: View {
            @State var on = false
            var body: some View {
                NavigationStack { Text("a") }
                NavigationLink("b", destination: Text("c"))
                List { Text("d") }
                ScrollView { Text("e") }
                Button("f", action: {})
                Toggle("g", isOn: $on)
                TextField("h", text: .constant(""))
                Text("i").navigationTitle("j").onTapGesture {}.onAppear {}.task {}
                Text("k").sheet(isPresented: .constant(true)) { Text("l") }
                Text("m").onChange(of: on) { _ in }
            }
        }
        """.write(to: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "swiftc", "-typecheck", "-parse-as-library", "-swift-version", "5", "-module-name", "Screen", "-I",
            modules.path, file.path,
        ]
        let r = try runToEnd(p)
        XCTAssertNotEqual(r.status, 0)
        let said = r.out + r.err
        XCTAssertFalse(said.contains("cannot find"), said)
        for (symbol, use) in [
            ("'NavigationStack' is unavailable", "Link or widgetURL"),
            ("'NavigationLink' is unavailable", "Link or widgetURL"),
            ("'List' is unavailable", "VStack with ForEach"),
            ("'ScrollView' is unavailable", "ViewThatFits"),
            ("'init(_:action:)' is unavailable", "Button(_:intent:)"),
            ("'init(_:isOn:)' is unavailable", "Toggle(_:isOn:intent:)"),
            ("'TextField' is unavailable", "AppIntent @Parameter"),
            ("'navigationTitle' is unavailable", "show the title as Text"),
            ("'onTapGesture(count:perform:)' is unavailable", "Button(intent:)"),
            ("'onAppear(perform:)' is unavailable", "TimelineProvider"),
            ("'task(priority:_:)' is unavailable", "TimelineProvider"),
            ("'sheet(isPresented:content:)' is unavailable", "Link or widgetURL"),
            ("'onChange(of:perform:)' is unavailable", "TimelineProvider"),
        ] {
            let line = said.split(separator: "\n").first { $0.contains(symbol) } ?? ""
            XCTAssertTrue(line.contains(use), "\(symbol) names \(use)\n\(said)")
        }
    }
}
