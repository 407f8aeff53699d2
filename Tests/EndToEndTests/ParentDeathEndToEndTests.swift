import XCTest
import Foundation
import DashTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// A SIGKILLed swiftdash takes its extensions and its provider host with it, even ones that
/// ignore end of file on their input: they are started through the parent-death trampoline
/// (`swiftdash-fetch --exec-with-parent-death`). Without the trampoline they live on.
final class ParentDeathEndToEndTests: XCTestCase {
    var folder: ShellExtensionFolder!

    override func setUpWithError() throws {
        try XCTSkipUnless(builtProduct("swiftdash") != nil, "swiftdash is not built")
        try XCTSkipUnless(builtProduct("swiftdash-fetch") != nil, "swiftdash-fetch is not built")
        folder = try ShellExtensionFolder(prefix: "swiftdash-pdeath")
    }

    override func tearDownWithError() throws { folder?.remove() }

    /// Whether `pid` is a live process (a zombie waiting for its new parent to reap it is not).
    static func alive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
    }

    /// Waits until `condition` holds (a generous bound ends a test that would hang); whether it held.
    static func eventually(_ condition: () -> Bool) -> Bool { Eventually.wait(condition) }

    /// The pid a process wrote to `file`, once it has.
    func pid(in file: String) -> pid_t? {
        var pid: pid_t?
        _ = Self.eventually {
            pid = (try? String(contentsOfFile: file, encoding: .utf8)).flatMap {
                pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return pid != nil
        }
        return pid
    }

    /// An extension in the widgets folder that records its pid, then sleeps without ever reading
    /// its input (so end of file tells it nothing) or answering.
    func configWithHangingExtension() throws -> URL {
        let config = folder.url.appendingPathComponent("config")
        let widgets = config.appendingPathComponent("swiftdash/widgets")
        try FileManager.default.createDirectory(at: widgets, withIntermediateDirectories: true)
        let script = "#!/bin/sh\necho $$ > \(folder.path)/extension.pid\nexec sleep 600\n"
        try script.write(toFile: widgets.appendingPathComponent("hang").path, atomically: true, encoding: .utf8)
        chmod(widgets.appendingPathComponent("hang").path, 0o755)
        return config
    }

    /// Runs `swiftdash widgets` (which describes every extension, waiting up to 3 s for each),
    /// SIGKILLs it once the extension runs, and returns the extension's pid.
    func killSwiftdashWhileItDescribes(extra: [String: String] = [:]) throws -> pid_t {
        let config = try configWithHangingExtension()
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_CONFIG_HOME": config.path,
            "XDG_CACHE_HOME": folder.url.appendingPathComponent("cache").path,
        ].merging(extra) { $1 }
        let swiftdash = try XCTUnwrap(builtProduct("swiftdash")).path
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(swiftdash), strdup("widgets"), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var child: pid_t = 0
        XCTAssertEqual(posix_spawn(&child, swiftdash, &actions, nil, argv, envp), 0)
        let ext = pid(in: folder.path + "/extension.pid")
        kill(child, SIGKILL)
        var status: Int32 = 0
        XCTAssertEqual(waitpid(child, &status, 0), child)
        XCTAssertEqual(status & 0x7f, SIGKILL, "swiftdash was killed, not done")
        return try XCTUnwrap(ext, "the extension never started")
    }

    func testAnExtensionThatIgnoresEndOfFileDiesWithAKilledSwiftdash() throws {
        let ext = try killSwiftdashWhileItDescribes()
        defer { kill(ext, SIGKILL) }
        XCTAssertTrue(Self.eventually { !Self.alive(ext) }, "extension \(ext) outlived swiftdash")
    }

    func testWithoutTheTrampolineItWouldOutliveSwiftdash() throws {
        // What the test above guards against: the same extension, started directly (the
        // trampoline missing) is still running after swiftdash is gone.
        let ext = try killSwiftdashWhileItDescribes(extra: ["SWIFTDASH_FETCH": "/nonexistent/swiftdash-fetch"])
        defer { kill(ext, SIGKILL) }
        XCTAssertTrue(Self.alive(ext), "started directly, it is not killed by swiftdash's death")
    }

    func testTheProviderHostDiesWithAKilledHomeScreen() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
        let fetch = try XCTUnwrap(builtProduct("swiftdash-fetch")).path
        // A provider host that records its pid and never reads (so never sees end of file); as the
        // trampoline it is the real one.
        let host = try folder.write(
            "fake-host",
            """
            #!/bin/sh
            if [ "$1" = --exec-with-parent-death ]; then exec '\(fetch)' "$@"; fi
            echo $$ > \(folder.path)/host.pid
            exec sleep 600
            """)
        let config = folder.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(
            at: config.appendingPathComponent("swiftdash"), withIntermediateDirectories: true)
        try "tiles:\n  - family: small\n    widget: clock\n".write(
            to: config.appendingPathComponent("swiftdash/home.yaml"), atomically: true, encoding: .utf8)
        let t = try TmuxSession(
            width: 80, height: 24,
            env: [
                "SWIFTDASH_FETCH": host, "XDG_CONFIG_HOME": config.path,
                "XDG_CACHE_HOME": folder.url.appendingPathComponent("cache").path,
            ])
        defer { t.close() }
        let hostPID = try XCTUnwrap(pid(in: folder.path + "/host.pid"), "the provider host never started")
        defer { kill(hostPID, SIGKILL) }
        let swiftdash = t.childPID()
        XCTAssertGreaterThan(swiftdash, 0)
        kill(swiftdash, SIGKILL)
        XCTAssertTrue(Self.eventually { !Self.alive(hostPID) }, "provider host \(hostPID) outlived swiftdash")
    }
}
