import XCTest
import Foundation

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
}
