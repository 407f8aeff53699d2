import Foundation
import DashScheduler

/// The wall clock. The scheduler never uses it: the runtime (and `swiftdash bench`) pass
/// its `now` in.
public struct SystemClock: DashClock {
    public init() {}
    public var now: Date { Date() }
}

/// A clock for end-to-end tests of the real binary (`SWIFTDASH_TEST_CLOCK`): it starts at a
/// fixed date and runs at `rate` times the wall clock (0: it stands still, so a status note or an
/// entry never changes under a test that is reading the screen), and a test may move it on
/// (`jump(to:)`, through the control socket's `clock DATE`). Read only from the environment a
/// test sets; the home screen uses `SystemClock` otherwise.
public final class ScaledClock: DashClock, @unchecked Sendable {
    public let rate: Double
    private let lock = NSLock()
    private var start: Date
    /// The wall-clock date `start` corresponds to.
    private var origin: Date
    private let wallNow: @Sendable () -> Date

    public init(start: Date, rate: Double, wallNow: @escaping @Sendable () -> Date = { Date() }) {
        self.start = start
        self.rate = max(0, rate)
        self.wallNow = wallNow
        self.origin = wallNow()
    }

    public var now: Date {
        lock.withLock { start.addingTimeInterval(wallNow().timeIntervalSince(origin) * rate) }
    }

    /// Moves the clock to `date` (never backwards), going on at its rate from there.
    public func jump(to date: Date) {
        let current = now
        lock.withLock {
            start = max(date, current)
            origin = wallNow()
        }
    }

    public func wallDate(of date: Date) -> Date? {
        guard rate > 0 else { return nil }
        return lock.withLock { origin.addingTimeInterval(date.timeIntervalSince(start) / rate) }
    }

    public func secondsUntil(_ date: Date) -> Double? {
        guard rate > 0 else { return nil }
        return max(0, date.timeIntervalSince(now)) / rate
    }

    /// `2026-11-23T09:29:58Z` (standing still) or `2026-11-23T09:29:58Z*60` (a minute a second);
    /// nil for anything else.
    public static func parse(_ text: String, wallNow: @escaping @Sendable () -> Date = { Date() }) -> ScaledClock? {
        let parts = text.split(separator: "*", maxSplits: 1).map(String.init)
        guard let first = parts.first, let start = ISO8601DateFormatter().date(from: first) else { return nil }
        var rate = 0.0
        if parts.count == 2 {
            guard let r = Double(parts[1]), r.isFinite, r >= 0, r <= 1_000_000 else { return nil }
            rate = r
        }
        return ScaledClock(start: start, rate: rate, wallNow: wallNow)
    }
}
