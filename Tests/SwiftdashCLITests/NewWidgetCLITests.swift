import XCTest
import Foundation
import DashTestSupport

/// `swiftdash new-widget NAME` writes a WidgetKit-style package on SwiftdashKit that builds, and
/// prints how to add it; the built widget answers the extension protocol.
final class NewWidgetCLITests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testNewWidgetWritesAPackageThatBuildsAndAnswers() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftdash-new-widget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("tea-timer")
        let r = try runSwiftdash(["new-widget", folder.path, "--swiftdash", Self.repo.path])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("swift build -c release"), r.out)
        XCTAssertTrue(r.out.contains("swiftdash add tea-timer"), r.out)
        let source = try String(
            contentsOf: folder.appendingPathComponent("Sources/tea-timer/TeaTimer.swift"), encoding: .utf8)
        XCTAssertTrue(source.contains("import SwiftdashKit") && source.contains("struct TeaTimer: Widget"))
        // A second time, the folder exists: refused, nothing overwritten.
        let again = try runSwiftdash(["new-widget", folder.path, "--swiftdash", Self.repo.path])
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.err.contains("exists already"), again.err)
        XCTAssertEqual(try runSwiftdash(["new-widget", dir.appendingPathComponent("9lives").path]).status, 2)

        // Built as the user would (debug here, to keep the suite's build short), in a scratch
        // folder of the repository's so a second run only links.
        let scratch = Self.repo.appendingPathComponent(".build-examples/new-widget")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["swift", "build", "--package-path", folder.path, "--scratch-path", scratch.path]
        let log = Pipe()
        (p.standardOutput, p.standardError, p.standardInput) = (log, log, FileHandle.nullDevice)
        try p.run()
        let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, String(text.suffix(3000)))

        let exe = Process()
        exe.executableURL = scratch.appendingPathComponent("debug/tea-timer")
        let input = Pipe(), output = Pipe()
        (exe.standardInput, exe.standardOutput) = (input, output)
        try exe.run()
        input.fileHandleForWriting.write(Data(#"{"id":1,"method":"describe"}"#.utf8 + [10]))
        input.fileHandleForWriting.write(
            Data(
                #"{"id":2,"method":"timeline","params":{"kind":"tea-timer","context":{"family":"medium"}}}"#.utf8 + [10]
            ))
        try input.fileHandleForWriting.close()
        let answers = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        exe.waitUntilExit()
        XCTAssertTrue(answers.contains(#""kind":"tea-timer""#), answers)
        XCTAssertTrue(answers.contains(#""families":["small","medium"]"#), answers)
        XCTAssertTrue(answers.contains(#""gauge":0"#), answers)
    }
}
