import XCTest
import Foundation
import DashTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// The real binary with its providers in the provider host (issue 15 point 2): a clock-only
/// home screen starts no worker pool, so between minute changes it does not wake at all.
final class ProviderHostTmuxTests: XCTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
        try XCTSkipUnless(builtProduct("swiftdash-fetch") != nil, "swiftdash-fetch is not built")
    }

    func children(_ pid: pid_t) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { t in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(t)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").map(String.init)
        }
    }

    /// Context switches of every thread of `pid`.
    func switches(_ pid: pid_t) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, t in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(t)/status", encoding: .utf8)) ?? ""
            return sum
                + status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
                .reduce(0, +)
        }
    }

    func testAClockOnlyHomeScreenDoesNotWakeBetweenMinuteChanges() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-idle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "tiles:\n  - family: small\n    widget: clock\n".write(
            to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let clock = try TmuxSession(
            width: 80, height: 24,
            env: TmuxSession.folders(in: home).merging(["SWIFTDASH_HOST_IDLE": "0.5"]) { $1 })
        defer { clock.close() }
        clock.waitFor("the clock's timeline") { $0.contains("UTC") }
        let pid = clock.childPID()
        XCTAssertGreaterThan(pid, 0)
        // The host answered, idled for half a second, exited and was reaped.
        let end = Date().addingTimeInterval(20)
        while !children(pid).isEmpty && Date() < end { usleep(50_000) }
        XCTAssertEqual(children(pid), [], "the provider host did not exit when idle")

        // A window that holds no minute change.
        while Int(Date().timeIntervalSince1970) % 60 > 50 { usleep(200_000) }
        let before = switches(pid)
        let started = Date()
        sleep(5)
        let after = switches(pid)
        if Int(started.timeIntervalSince1970) / 60 == Int(Date().timeIntervalSince1970) / 60 {
            // libdispatch's pool monitor alone would wake it 5 times here (decision 21).
            XCTAssertLessThanOrEqual(after - before, 1, "the idle home screen woke up")
        }
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count ?? 0
        XCTAssertLessThanOrEqual(
            threads, 5, "no worker pool: the loop, the control socket, home.yaml's and the widgets folder's watchers")
    }
}
