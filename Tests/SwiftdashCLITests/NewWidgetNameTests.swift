import XCTest
import Foundation
import DashTestSupport
@testable import swiftdash

/// Issue 37 point 8: `new-widget provider` / `self` / `widget` / `view` / `date` / `string` wrote
/// packages that did not compile (the type name clashed with one the code uses, or a keyword),
/// and `new-widget` into a dangling link printed a raw `NSCocoaErrorDomain Code=516`.
final class NewWidgetNameTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// The built SwiftdashKit module, for a type check of a generated file without building a package.
    var modules: URL? {
        guard let exe = builtProduct("swiftdash") else { return nil }
        let m = exe.deletingLastPathComponent().appendingPathComponent("Modules")
        return FileManager.default.fileExists(atPath: m.appendingPathComponent("SwiftdashKit.swiftmodule").path)
            ? m : nil
    }

    func typecheck(_ file: URL, module: String) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["swiftc", "-typecheck", "-parse-as-library", "-module-name", module, "-I", modules!.path, file.path]
        return try runToEnd(p)
    }

    func testNewWidgetNamesThatClashWithTheGeneratedCodeAreRenamedAndCompile() throws {
        let names = ["provider", "self", "widget", "view", "date", "string", "simple-entry", "timeline", "any"]
        for name in names {
            let folder = dir.appendingPathComponent(name)
            let r = try runSwiftdash(["new-widget", folder.path, "--swiftdash", NewWidgetCLITests.repo.path])
            XCTAssertEqual(r.status, 0, "\(name): \(r.err)")
            let type = NewWidgetTemplate.typeName(name)
            XCTAssertTrue(type.hasSuffix("Widget"), "\(name) → \(type)")
            let source = folder.appendingPathComponent("Sources/\(name)/\(type).swift")
            let text = try String(contentsOf: source, encoding: .utf8)
            XCTAssertTrue(text.contains("struct \(type): Widget"), text)
            XCTAssertTrue(text.contains("let kind: String = \"\(name)\""), "the kind keeps the name")
            XCTAssertTrue(r.out.contains("swiftdash add \(name)"), r.out)
        }
        XCTAssertEqual(NewWidgetTemplate.typeName("tea-timer"), "TeaTimer", "other names are as they were")
        // Compiled as SwiftPM compiles the target (its module is the name, - as _).
        guard modules != nil else { throw XCTSkip("no built SwiftdashKit module next to the swiftdash binary") }
        for name in names {
            let type = NewWidgetTemplate.typeName(name)
            let source = dir.appendingPathComponent("\(name)/Sources/\(name)/\(type).swift")
            let r = try typecheck(source, module: name.replacingOccurrences(of: "-", with: "_"))
            XCTAssertEqual(r.status, 0, "\(name): \(r.err)")
        }
    }

    func testEveryNameTheTemplateUsesIsReserved() {
        let source = NewWidgetTemplate.files(name: "x", swiftdash: "/s").first { $0.0.hasPrefix("Sources/") }!.1
        // The code only: comments and string literals say what they like.
        let code = source.split(separator: "\n").map { line in
            let noComment = line.components(separatedBy: "//")[0]
            return noComment.replacingOccurrences(of: #""[^"]*""#, with: "", options: .regularExpression)
        }.joined(separator: "\n")
        var words: Set<String> = []
        var word = ""
        for c in code + " " {
            if c.isLetter || c.isNumber || c == "_" { word.append(c); continue }
            if let f = word.first, f.isUppercase { words.insert(word) }
            word = ""
        }
        words.remove("X")
        words.remove("XEntryView")
        XCTAssertEqual(words.subtracting(NewWidgetTemplate.reservedTypeNames), [], "names the template uses")
    }

    func testNewWidgetNamesThatWouldHideAModuleAreRefused() throws {
        for name in ["foundation", "SwiftdashKit", "swift", NewWidgetCLITests.repo.lastPathComponent] {
            let r = try runSwiftdash(
                ["new-widget", dir.appendingPathComponent(name).path, "--swiftdash", NewWidgetCLITests.repo.path])
            XCTAssertEqual(r.status, 2, name)
            XCTAssertTrue(r.err.contains("choose another name"), r.err)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path), name)
        }
    }

    func testNewWidgetIntoADanglingLinkSaysWhatHappenedInWords() throws {
        let link = dir.appendingPathComponent("tea")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/nonexistent/place")
        let r = try runSwiftdash(["new-widget", link.path, "--swiftdash", NewWidgetCLITests.repo.path])
        XCTAssertEqual(r.status, 2, r.err)
        XCTAssertTrue(r.err.contains("is a link to /nonexistent/place, which does not exist"), r.err)
        XCTAssertFalse(r.err.contains("NSCocoaErrorDomain") || r.err.contains("Code="), r.err)
        // A folder that cannot be written: the reason in words, not Foundation's code.
        let locked = dir.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("plain-file")
        try Data().write(to: file)
        let under = try runSwiftdash(
            ["new-widget", file.appendingPathComponent("tea").path, "--swiftdash", NewWidgetCLITests.repo.path])
        XCTAssertNotEqual(under.status, 0)
        XCTAssertTrue(under.err.contains("plain-file is a file, not a folder"), under.err)
        XCTAssertFalse(under.err.contains("NSCocoaErrorDomain") || under.err.contains("Code="), under.err)
    }
}
