import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
@testable import DashApp

/// A hung extension costs only its own tile: the loop answers keys and other tiles keep changing.
final class ExtensionRuntimeTests: XCTestCase {
    func testAHungExtensionLeavesKeysAndOtherTilesAlone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("extrt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("hang").path
        try """
        #!/bin/sh
        read l
        echo '{"id":1,"result":{"protocol":1,"widgets":[{"kind":"hang","timeout":1}]}}'
        while read l; do sleep 30; done
        """.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        let process = ExtensionProcess(path: path, environment: ["PATH": "/usr/bin:/bin"], log: { _ in })
        defer { process.stop() }
        let d = try ExtensionWidgetDescription.parse(process.request("describe", timeout: 5))[0]
        let hang = Extensions.widget(d, process: process, placeholder: nil)
        let script = FakeScript()
        let start = Date()
        let ticks = (0..<40).map { FakeEntry(date: start.addingTimeInterval(Double($0) * 0.1), value: "tick \($0)") }
        script.enqueue(.timeline(ticks, .never))
        let other = fakeWidget(kind: "fake", cost: .local, script: script)
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "hang")]),
            TileInstance(id: "t2", family: .small, items: [WidgetInstance(id: "w2", kind: "fake")]),
        ])
        let terminal = HeadlessTerminal(size: Size(width: 80, height: 24))
        let state = AppState(
            bundle: WidgetBundle([hang, other]), home: home, screen: terminal.size, theme: .dark,
            alternateTheme: .light, timeZone: TimeZone(identifier: "UTC")!, now: Date())
        let runtime = Runtime(state: state, terminal: terminal, clock: SystemClock(), inbox: Inbox(wake: {}))
        var slowest = 0.0
        var seen: Set<String> = []
        let end = Date().addingTimeInterval(2.5)
        while Date() < end {
            runtime.turn()
            let t0 = Date()
            runtime.handle(.key(.right))
            runtime.turn()
            slowest = max(slowest, Date().timeIntervalSince(t0))
            if let tick = terminal.screen.textDump.split(separator: "\n").compactMap({ l in
                l.range(of: "tick \\d+", options: .regularExpression).map { String(l[$0]) }
            }).first {
                seen.insert(tick)
            }
            usleep(20_000)
        }
        XCTAssertLessThan(slowest, 0.05, "a key is answered within 50 ms while the extension hangs")
        XCTAssertGreaterThan(seen.count, 10, "the other tile keeps changing: \(seen.sorted())")
        XCTAssertEqual(runtime.state.scheduler.lastError("w1"), "hang: did not answer timeline within 1 s")
        XCTAssertTrue(terminal.screen.textDump.contains("tick"), terminal.screen.textDump)
    }
}
