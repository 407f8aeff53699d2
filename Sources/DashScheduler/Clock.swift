import Foundation

/// A source of the current time. The scheduler never reads the time itself: the
/// runtime passes `now` in, taken from a clock like this one (`SystemClock` and
/// `ScaledClock` live in DashRuntime: nothing here reads the system time).
public protocol DashClock: Sendable {
    var now: Date { get }
    /// The wall-clock date at which this clock shows `date` (nil: never).
    func wallDate(of date: Date) -> Date?
    /// Seconds of waiting until this clock shows `date` (nil: never).
    func secondsUntil(_ date: Date) -> Double?
}

/// A clock for tests: time stands still until `advance(to:)` or `advance(by:)` moves
/// it, and moving it runs every callback scheduled up to the target date, in date
/// order (equal dates in the order they were scheduled), each with `now` set to its
/// own date. Synchronous: no tasks, no sleeping, no `Task.yield`.
///
/// Callbacks may schedule further callbacks; those that fall due before the target
/// date run in the same `advance`. Meant to be driven from one thread; the lock only
/// keeps `now` readable from elsewhere.
public final class VirtualClock: DashClock, @unchecked Sendable {
    public struct Token: Hashable, Sendable { let value: UInt64 }

    private struct Item: Comparable {
        var date: Date
        var seq: UInt64
        static func < (a: Item, b: Item) -> Bool { a.date != b.date ? a.date < b.date : a.seq < b.seq }
        static func == (a: Item, b: Item) -> Bool { a.seq == b.seq }
    }

    private let lock = NSLock()
    private var _now: Date
    private var queue = PriorityQueue<Item>()
    private var actions: [UInt64: () -> Void] = [:]
    private var seq: UInt64 = 0

    public init(now: Date) { _now = now }

    public var now: Date { lock.withLock { _now } }

    /// Number of callbacks waiting.
    public var pendingCount: Int { lock.withLock { actions.count } }

    /// The date of the earliest waiting callback.
    public var nextDeadline: Date? {
        lock.withLock {
            pruneCancelled()
            return queue.min?.date
        }
    }

    /// Runs `action` when the clock reaches `date` (at the next `advance` if `date` is
    /// not after `now`).
    @discardableResult
    public func schedule(at date: Date, _ action: @escaping () -> Void) -> Token {
        lock.withLock {
            seq += 1
            queue.push(Item(date: date, seq: seq))
            actions[seq] = action
            return Token(value: seq)
        }
    }

    @discardableResult
    public func schedule(after interval: TimeInterval, _ action: @escaping () -> Void) -> Token {
        schedule(at: now.addingTimeInterval(interval), action)
    }

    public func cancel(_ token: Token) {
        lock.withLock { _ = actions.removeValue(forKey: token.value) }
    }

    /// Moves the clock to `date`, running every callback due on the way in date order.
    /// Time never goes backwards: a date before `now` only runs what is already due.
    public func advance(to date: Date) {
        while let (when, action) = takeNext(upTo: date) {
            lock.withLock { if when > _now { _now = when } }
            action()
        }
        lock.withLock { if date > _now { _now = date } }
    }

    public func advance(by interval: TimeInterval) {
        advance(to: now.addingTimeInterval(interval))
    }

    /// Runs the callbacks already due at `now`.
    public func runDue() { advance(to: now) }

    private func takeNext(upTo date: Date) -> (Date, () -> Void)? {
        lock.withLock {
            pruneCancelled()
            guard let top = queue.min, top.date <= date else { return nil }
            queue.popMin()
            guard let action = actions.removeValue(forKey: top.seq) else { return nil }
            return (top.date, action)
        }
    }

    private func pruneCancelled() {
        while let top = queue.min, actions[top.seq] == nil { queue.popMin() }
    }
}

extension DashClock {
    /// The wall-clock date at which this clock shows `date` (nil: never, a clock that stands
    /// still). The runtime sleeps until it; for the system clock it is `date` itself.
    public func wallDate(of date: Date) -> Date? { date }
    public func secondsUntil(_ date: Date) -> Double? { max(0, date.timeIntervalSince(now)) }
}
