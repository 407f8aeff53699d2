import XCTest
import Foundation
import DashTestSupport

/// Issue 37 point 5: `make install` writes a manifest and `make uninstall` removes exactly its
/// lines, with PREFIX and DESTDIR of spaces and glob characters (Tests/package/install-uninstall.sh,
/// on stand-in files: no release build).
final class InstallManifestTests: XCTestCase {
    func testUninstallRemovesOnlyWhatInstallWrote() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/make") else { throw XCTSkip("no make") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [repo.appendingPathComponent("Tests/package/install-uninstall.sh").path]
        p.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": NSTemporaryDirectory()]
        let r = try runToEnd(p)
        XCTAssertEqual(r.status, 0, r.out + r.err)
        XCTAssertTrue(r.out.contains(" passed, 0 failed"), r.out + r.err)
        XCTAssertFalse(r.out.contains("FAILED"), r.out)
    }

    /// Issue 38 point 5: an installed swiftdash's `new-widget` builds against the SDK installed with
    /// it. The test-built swiftdash is installed (with stand-ins for the rest of a build) into a
    /// scratch PREFIX; its `help new-widget` names PREFIX/share/swiftdash/sdk, the package it
    /// writes depends on that folder and builds there, and `make uninstall` takes the SDK away.
    func testAnInstalledNewWidgetBuildsAgainstTheInstalledSDK() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/make") else { throw XCTSkip("no make") }
        guard let built = builtProduct("swiftdash") else { return XCTFail("no built swiftdash") }
        let fm = FileManager.default
        let scratch = fm.temporaryDirectory.appendingPathComponent("swiftdash-installed-sdk-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: scratch) }
        let bin = scratch.appendingPathComponent("built/bin"), stage = scratch.appendingPathComponent("built/stage")
        for dir in ["man", "completions"] {
            try fm.createDirectory(at: stage.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        try fm.createDirectory(at: bin, withIntermediateDirectories: true)
        try fm.copyItem(at: built, to: bin.appendingPathComponent("swiftdash"))
        let standIns = [
            "built/bin/swiftdash-fetch": "#!/bin/sh\n", "built/stage/man/swiftdash.1": ".Dd x\n",
            "built/stage/completions/swiftdash.bash": "complete -F _swiftdash swiftdash\n",
            "built/stage/completions/_swiftdash": "#compdef swiftdash\n",
            "built/stage/completions/swiftdash.fish": "complete -c swiftdash\n",
        ]
        for (path, text) in standIns {
            try text.write(to: scratch.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        chmod(bin.appendingPathComponent("swiftdash-fetch").path, 0o755)
        let prefix = scratch.appendingPathComponent("prefix").path
        let sdk = prefix + "/share/swiftdash/sdk"
        let env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": scratch.path, "TZ": "UTC"]
        func make(_ target: String) throws -> (status: Int32, out: String, err: String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/make")
            p.arguments = [
                "--no-print-directory", "-C", repo.path, target, "PREFIX=\(prefix)", "BIN=\(bin.path)",
                "STAGE=\(stage.path)",
            ]
            p.environment = env
            return try runToEnd(p)
        }
        func installed(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: prefix + "/bin/swiftdash")
            p.arguments = args
            p.environment = env
            return try runToEnd(p)
        }
        let install = try make("install-files")
        XCTAssertEqual(install.status, 0, install.out + install.err)
        XCTAssertTrue(fm.fileExists(atPath: sdk + "/Package.swift"))
        XCTAssertTrue(fm.fileExists(atPath: sdk + "/Sources/SwiftdashKit/Widget.swift"))

        // The help names the folder new-widget will use: the installed SDK here, this checkout for
        // the development build the tests run.
        let help = try installed(["help", "new-widget"])
        XCTAssertEqual(help.status, 0, help.err)
        let flat = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(flat.contains("(default: \(sdk))"), help.out)
        let development = try runSwiftdash(["help", "new-widget"])
        XCTAssertTrue(
            development.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                .contains("(default: \(repo.standardizedFileURL.path))"), development.out)

        let folder = scratch.appendingPathComponent("widgets/tea-timer")
        try fm.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        let made = try installed(["new-widget", folder.path])
        XCTAssertEqual(made.status, 0, made.err)
        XCTAssertTrue(made.out.contains("It builds against the swiftdash SDK in \(sdk)."), made.out)
        XCTAssertTrue(made.out.contains("  cd \(folder.path) && swift build -c release\n"), made.out)
        XCTAssertTrue(made.out.contains("  swiftdash add tea-timer && swiftdash preview tea-timer\n"), made.out)
        let manifest = try String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8)
        XCTAssertTrue(manifest.contains(#".package(path: "\#(sdk)")"#), manifest)
        XCTAssertTrue(manifest.contains(#".product(name: "SwiftdashKit", package: "sdk")"#), manifest)

        // Built as the user would, against the installed SDK (debug, to keep the suite's build short).
        let swift = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/swift" }.first { fm.isExecutableFile(atPath: $0) }
        if let swift {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: swift)
            p.arguments = ["build", "--package-path", folder.path, "--scratch-path", scratch.appendingPathComponent("build").path]
            let log = Pipe()
            (p.standardOutput, p.standardError, p.standardInput) = (log, log, FileHandle.nullDevice)
            try p.run()
            let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, String(text.suffix(3000)))
            XCTAssertTrue(fm.isExecutableFile(atPath: scratch.appendingPathComponent("build/debug/tea-timer").path))
        }

        let uninstall = try make("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.out + uninstall.err)
        XCTAssertFalse(fm.fileExists(atPath: sdk), "uninstall left the SDK")
        XCTAssertFalse(fm.fileExists(atPath: prefix + "/share/swiftdash"), "uninstall left share/swiftdash")
        if swift == nil { throw XCTSkip("no swift on PATH: the generated package was not built") }
    }
}
