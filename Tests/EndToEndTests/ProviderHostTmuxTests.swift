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
        Eventually.wait { children(pid).isEmpty }
        XCTAssertEqual(children(pid), [], "the provider host did not exit when idle")

        // A window of idleness between two minute changes: the clock changes at each minute and
        // nothing else may wake the program in between (libdispatch's pool monitor alone would
        // wake it once a second, decision 21). The work of a minute change itself (the frame,
        // the cache's write on its thread, a busy machine's preemptions) is not what this test
        // is about, so the window starts only once start-up and any minute change have settled
        // (a full second with no switch) and the minute has room for the whole window.
        func secondOfMinute() -> Int { Int(Date().timeIntervalSince1970) % 60 }
        var last = switches(pid)
        let found = Eventually.wait(timeout: 240, every: 1) {
            let now = switches(pid)
            defer { last = now }
            return now == last && (3..<50).contains(secondOfMinute())
        }
        XCTAssertTrue(found, "the home screen never settled for a second")
        let before = switches(pid)
        let started = Int(Date().timeIntervalSince1970) / 60
        sleep(5)
        let minuteChanges = Int(Date().timeIntervalSince1970) / 60 - started
        let after = switches(pid)
        // One wake may be read at the window's edge. Should a stalled machine stretch the window
        // over a minute change after all, that change's work is allowed for, generously.
        XCTAssertLessThanOrEqual(after - before, 1 + 12 * minuteChanges, "the idle home screen woke up")
        // No worker pool: the loop, the control socket, home.yaml's and the widgets folder's
        // watchers, the cache's and the history's writers, and the threads kept for the next work
        // off the loop (issue 35.1), all parked: the wake-ups above say they never run.
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count ?? 0
        XCTAssertLessThanOrEqual(threads, 6 + 4, "more threads than the home screen keeps")
    }
}
