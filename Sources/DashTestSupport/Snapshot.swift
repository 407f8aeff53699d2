import Foundation
import XCTest
import DashCore

/// Compares text with a snapshot file beside the test, under `__Snapshots__/`.
/// Set `RECORD_SNAPSHOTS=1` to write the current text as the new snapshot.
public func assertSnapshot(_ text: String, named name: String, file: StaticString = #filePath, line: UInt = #line) {
    let testFile = URL(fileURLWithPath: "\(file)")
    let dir = testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let url = dir.appendingPathComponent("\(name).txt")
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"].map { !$0.isEmpty && $0 != "0" } ?? false
    let body = text.hasSuffix("\n") ? text : text + "\n"
    if record || !FileManager.default.fileExists(atPath: url.path) {
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try? body.write(to: url, atomically: true, encoding: .utf8)
        if !record {
            XCTFail("Recorded new snapshot \(name); check it in and run again.", file: file, line: line)
        }
        return
    }
    let expected = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    if expected != body {
        let diff = zip(expected.split(separator: "\n", omittingEmptySubsequences: false),
                       body.split(separator: "\n", omittingEmptySubsequences: false)).enumerated()
            .first { $0.element.0 != $0.element.1 }
        let detail = diff.map { "first difference at line \($0.offset + 1):\n- \($0.element.0)\n+ \($0.element.1)" } ?? "lengths differ"
        XCTFail("Snapshot \(name) does not match (\(detail)).\nActual:\n\(body)\nRe-record with RECORD_SNAPSHOTS=1.",
                file: file, line: line)
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
