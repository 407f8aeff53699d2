import XCTest
import Foundation
import DashWidgets
import DashBuiltinWidgets
@testable import DashApp

/// Issue 38 point 7: the man page has a key and a home.yaml reference, written from the key
/// table and the widgets' schemas (so they cannot drift), and groff reads it without a warning.
final class ManualTests: XCTestCase {
    func testTheManPageHasTheKeyAndHomeYAMLReference() throws {
        let keys = Manual.keys()
        for b in KeyTable.bindings {
            XCTAssertTrue(keys.contains(".It Sy \(Manual.argument(b.label))\n\(Manual.text(b.help))\n"), b.label)
        }
        for (action, _) in KeyTable.mouse { XCTAssertTrue(keys.contains(Manual.argument(action)), action) }
        let settings = Manual.widgetSettings(BuiltinWidgets.bundle)
        for w in BuiltinWidgets.bundle.widgets {
            XCTAssertTrue(settings.contains(".Ss \"\(w.kind)\"") || settings.contains(".Ss \(w.kind)\n"), w.kind)
            for p in w.schema.parameters {
                XCTAssertTrue(settings.contains(".It Cm \"\(p.key)\" Ar \"\(p.kind.typeName)\""), "\(w.kind).\(p.key)")
            }
        }
        XCTAssertTrue(settings.contains("Allowed: decimal degrees such as 52.52, or nothing."), settings)
        // No line of running text is read as a request.
        for line in (keys + settings).split(separator: "\n") where !line.hasPrefix(".") {
            XCTAssertFalse(line.hasPrefix("'"), String(line))
        }
    }

    /// The sections after a minimal page, through groff's mdoc as man runs it: no warning.
    func testGroffReadsTheSectionsWithoutAWarning() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else {
            throw XCTSkip("groff is not installed")
        }
        let page =
            ".Dd November 23, 2026\n.Dt SWIFTDASH 1\n.Os\n.Sh NAME\n.Nm swiftdash\n.Nd a home screen\n"
            + Manual.keys() + Manual.widgetSettings(BuiltinWidgets.bundle)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        p.arguments = ["-k", "-mdoc", "-Tutf8", "-ww", "-z"]  // -k: preconv, as man runs it
        let input = Pipe(), errors = Pipe()
        p.standardInput = input
        p.standardError = errors
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        input.fileHandleForWriting.write(Data(page.utf8))
        try input.fileHandleForWriting.close()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertEqual(said, "", "groff warns")
    }
}
