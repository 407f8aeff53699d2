import XCTest
import Foundation
import DashTestSupport

/// Interactive widgets in the real binary: a reminders tile ticked with Space and with a mouse
/// click, the todo.txt file checked byte for byte, an outside edit shown at once, `u` undoing.
final class InteractiveTmuxTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
    }

    /// A mouse press and release at a cell (0-based), in the X10 encoding ncurses asked tmux for.
    func click(_ t: TmuxSession, x: Int, y: Int) {
        func hex(_ b: Int) -> String { String(b, radix: 16) }
        let (cx, cy) = (hex(32 + x + 1), hex(32 + y + 1))
        TmuxSession.tmux(
            t.socket,
            [
                "send-keys", "-t", t.name, "-H", "1b", "5b", "4d", "20", cx, cy,
                "1b", "5b", "4d", "23", cx, cy,
            ])
    }

    /// Waits (bounded) until the file holds `expected`.
    func waitForFile(
        _ url: URL, _ expected: Data, timeout: Double = Eventually.patience, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        var data = Data()
        Eventually.wait(timeout: timeout) {
            data = (try? Data(contentsOf: url)) ?? Data()
            return data == expected
        }
        XCTAssertEqual(
            String(decoding: data, as: UTF8.self), String(decoding: expected, as: UTF8.self),
            file: file, line: line)
        XCTAssertEqual(data, expected, "byte for byte", file: file, line: line)
    }

    func testTickARemindersWithSpaceAndWithAClickEditOutsideThenUndo() throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("swiftdash-todo-e2e-\(UUID().uuidString)")
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let todo = dir.appendingPathComponent("todo.txt")
        let original = Data("(A) Call mom +family\r\nBuy milk @store\r\n\r\nid:9 Water the plants +home".utf8)
        try original.write(to: todo)
        try "tiles:\n  - family: medium\n    widget: reminders\n    config: { file: \(todo.path) }\n"
            .write(to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(
            width: 80, height: 24,
            env: TmuxSession.folders(in: dir))
        defer { t.close() }
        t.waitFor("the tasks") { $0.contains("[ ] Call mom") }
        let day = ISO8601DateFormatter.string(
            from: Date(), timeZone: TimeZone(identifier: "UTC")!,
            formatOptions: [.withFullDate])

        // Tab highlights the first checkbox, Space ticks it: only that line changes.
        t.keys("Tab")
        t.keys("Space")
        let done = "x \(day) Call mom +family pri:A\r\n"
        let afterSpace = Data((done + "Buy milk @store\r\n\r\nid:9 Water the plants +home").utf8)
        waitForFile(todo, afterSpace)
        var s = t.waitFor("the list without the ticked task") { !$0.contains("] Call mom") }
        XCTAssertTrue(s.contains("Call mom: done · u undoes"), s)

        // A click on the checkbox of "Water the plants".
        let lines = s.split(separator: "\n", omittingEmptySubsequences: false)
        let y = try XCTUnwrap(lines.firstIndex { $0.contains("[ ] Water the plants") })
        let box = try XCTUnwrap(lines[y].range(of: "[ ]"))
        let x = lines[y].distance(from: lines[y].startIndex, to: box.lowerBound)
        click(t, x: x + 1, y: y)
        let afterClick = Data((done + "Buy milk @store\r\n\r\nx \(day) id:9 Water the plants +home").utf8)
        waitForFile(todo, afterClick)
        s = t.waitFor("the clicked task to go") { !$0.contains("] Water the plants") }

        // An edit from outside shows at once (inotify, no polling).
        let handle = try FileHandle(forWritingTo: todo)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\r\nFeed the cat".utf8))
        try handle.close()
        t.waitFor("the outside edit") { $0.contains("[ ] Feed the cat") }

        // u undoes the last tick: that line comes back exactly.
        t.keys("u")
        let undone = Data((done + "Buy milk @store\r\n\r\nid:9 Water the plants +home\r\nFeed the cat").utf8)
        waitForFile(todo, undone)
        t.waitFor("the task back") { $0.contains("[ ] Water the plants") }
        t.keys("q")
        t.waitFor("exit") { $0.contains("EXITED 0") }
    }
}
