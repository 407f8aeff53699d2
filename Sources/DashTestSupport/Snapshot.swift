import Foundation
import XCTest
import DashCore

/// Text snapshots, one rule for every test target: `__Snapshots__/NAME.txt` beside the test
/// file, one line per screen row, ending with a newline; `RECORD_SNAPSHOTS=1` (any value but
/// empty or 0) rewrites them; a missing snapshot is recorded and the test fails once.
public enum SnapshotFile {
    public enum Outcome: Equatable {
        case matches
        case recorded(String)
        case differs(String)
    }

    public static var recording: Bool {
        ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"].map { !$0.isEmpty && $0 != "0" } ?? false
    }

    /// Compares `text` with `NAME.txt` in the `__Snapshots__` folder beside `testFile`.
    public static func check(_ text: String, named name: String, besides testFile: String) -> Outcome {
        let dir = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
        let url = dir.appendingPathComponent("\(name).txt")
        let body = text.hasSuffix("\n") ? text : text + "\n"
        if recording || !FileManager.default.fileExists(atPath: url.path) {
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try? body.write(to: url, atomically: true, encoding: .utf8)
            return recording ? .matches : .recorded("Recorded new snapshot \(name); check it in and run again.")
        }
        let expected = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        guard expected != body else { return .matches }
        let diff = zip(
            expected.split(separator: "\n", omittingEmptySubsequences: false),
            body.split(separator: "\n", omittingEmptySubsequences: false)
        ).enumerated()
            .first { $0.element.0 != $0.element.1 }
        let detail =
            diff.map { "first difference at line \($0.offset + 1):\n- \($0.element.0)\n+ \($0.element.1)" }
            ?? "lengths differ"
        return .differs(
            "Snapshot \(name) does not match (\(detail)).\nActual:\n\(body)\nRe-record with RECORD_SNAPSHOTS=1.")
    }
}

/// XCTest's front end to `SnapshotFile`.
public func assertSnapshot(_ text: String, named name: String, file: StaticString = #filePath, line: UInt = #line) {
    switch SnapshotFile.check(text, named: name, besides: "\(file)") {
    case .matches: break
    case .recorded(let m), .differs(let m): XCTFail(m, file: file, line: line)
    }
}

/// A buffer's text dump framed by a ruler, so trailing blank columns show in snapshots.
public func framedDump(_ buffer: CellBuffer) -> String {
    let rule = "+" + String(repeating: "-", count: buffer.width) + "+"
    var lines = [rule]
    for y in 0..<buffer.height {
        var row = buffer.rowText(y)
        let w = DisplayWidth.of(row)
        if w < buffer.width { row += String(repeating: " ", count: buffer.width - w) }
        lines.append("|" + row + "|")
    }
    lines.append(rule)
    return lines.joined(separator: "\n")
}
