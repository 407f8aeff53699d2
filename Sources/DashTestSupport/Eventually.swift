import Foundation

/// Waiting for something another process or thread does, the one way tests wait.
///
/// A test never sleeps a guessed time and never bounds how long something took: it waits for
/// the event it is about (a file appears, a process group is gone, a counter moves) and asserts
/// what happened. The timeout here only ends a test that would otherwise hang; it is generous
/// because a busy machine (CI beside other jobs) is slow, not wrong. Between two looks the
/// waiter pauses briefly: this is the one pause in the test code (see
/// `Tests/test-hygiene-exceptions.txt`).
public enum Eventually {
    /// How long a test waits by default before it calls an event missing.
    public static let patience: Double = 60

    /// Looks at `condition` until it holds or `timeout` seconds pass; true when it held. The
    /// looks come quickly at first, then at most 50 ms apart, or `every` seconds apart when the
    /// condition compares what it saw with what it saw last time (a screen that has settled).
    @discardableResult
    public static func wait(
        timeout: Double = patience, every: Double? = nil, _ condition: () throws -> Bool
    ) rethrows -> Bool {
        let end = Date().addingTimeInterval(timeout)
        var pause = every.map { useconds_t($0 * 1e6) } ?? 1_000
        while true {
            if try condition() { return true }
            if Date() >= end { return false }
            usleep(pause)
            if every == nil { pause = min(pause * 2, 50_000) }
        }
    }

    /// The same for a condition that awaits (it pauses without holding a thread).
    @discardableResult
    public static func waitAsync(
        timeout: Double = patience, _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let end = Date().addingTimeInterval(timeout)
        var pause: UInt64 = 1_000_000
        while true {
            if try await condition() { return true }
            if Date() >= end { return false }
            try? await Task.sleep(nanoseconds: pause)
            pause = min(pause * 2, 50_000_000)
        }
    }

    /// Whether process `pid` has ended (it is gone, or a zombie waiting for its parent).
    public static func isGone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }
}
