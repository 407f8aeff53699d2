import Foundation
import DashWidgets

/// The scheduler's rules: the reload budget, minimum intervals and the retry back-off.
public struct SchedulerPolicy: Sendable, Hashable, Codable {
    /// Charged (policy) reloads a `.budgeted` widget instance may make per `budgetWindow`.
    public var dailyBudget: Int
    /// The rolling window the budget counts over (24 hours).
    public var budgetWindow: TimeInterval
    /// Minimum time between a policy reload of a `.budgeted` widget and the reload before it.
    public var minimumInterval: TimeInterval
    /// Minimum time between a policy reload of a `.local` widget and the reload before it.
    public var localMinimumInterval: TimeInterval
    /// First retry after a failure; doubles with every further failure...
    public var initialRetryDelay: TimeInterval
    /// ...up to this.
    public var maximumRetryDelay: TimeInterval
    /// When an instance is registered with a cached timeline: also load it at once
    /// (an uncharged `.initial` load). Off by default: the cached timeline's own policy
    /// (and the ledger, which survives restarts) decide when to reload.
    public var reloadCachedOnStart: Bool

    public init(
        dailyBudget: Int = 70, budgetWindow: TimeInterval = 24 * 3600,
        minimumInterval: TimeInterval = 5 * 60, localMinimumInterval: TimeInterval = 1,
        initialRetryDelay: TimeInterval = 30, maximumRetryDelay: TimeInterval = 30 * 60,
        reloadCachedOnStart: Bool = false
    ) {
        self.dailyBudget = dailyBudget
        self.budgetWindow = budgetWindow
        self.minimumInterval = minimumInterval
        self.localMinimumInterval = localMinimumInterval
        self.initialRetryDelay = initialRetryDelay
        self.maximumRetryDelay = maximumRetryDelay
        self.reloadCachedOnStart = reloadCachedOnStart
    }

    public static let `default` = SchedulerPolicy()

    /// The delay before retry number `attempt` (1-based): 30 s, 60 s, 120 s … 30 min.
    public func retryDelay(attempt: Int) -> TimeInterval {
        let n = max(1, attempt)
        if n > 40 { return maximumRetryDelay }
        return Swift.min(maximumRetryDelay, initialRetryDelay * Double(1 << (n - 1)))
    }

    public func minimumInterval(for cost: ReloadCost) -> TimeInterval {
        cost == .local ? localMinimumInterval : minimumInterval
    }
}

/// The record of charged reloads of one instance: their start times within the last
/// budget window, oldest first. Codable so it survives restarts (it lives in the cache).
public struct BudgetLedger: Sendable, Hashable, Codable {
    /// Start times of charged reloads, ascending. Only the last window's are kept.
    public private(set) var charges: [Date]

    public init(charges: [Date] = []) { self.charges = charges.sorted() }

    /// Charged reloads in the window that ends at `now`.
    public func used(at now: Date, window: TimeInterval) -> Int {
        let from = now.addingTimeInterval(-window)
        // charges are ascending: count those after `from`.
        var lo = 0, hi = charges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if charges[mid] > from { hi = mid } else { lo = mid + 1 }
        }
        return charges.count - lo
    }

    /// The earliest date from which one more charged reload fits in `cap` per `window`.
    /// Nil when it fits at any time.
    public func capFrees(cap: Int, window: TimeInterval) -> Date? {
        guard charges.count >= cap else { return nil }
        guard cap > 0 else { return .distantFuture }
        // In (t - window, t] there must be fewer than cap charges: t >= charges[count - cap] + window.
        return charges[charges.count - cap].addingTimeInterval(window)
    }

    /// Records a charged reload at `now` and forgets those that left the window.
    public mutating func charge(at now: Date, window: TimeInterval) {
        let from = now.addingTimeInterval(-window)
        if let first = charges.first, first <= from {
            charges.removeAll { $0 <= from }
        }
        if let last = charges.last, last > now {
            charges.append(now)
            charges.sort()
        } else {
            charges.append(now)
        }
    }
}

/// An instance's budget as `swiftdash timeline` shows it.
public struct BudgetStatus: Sendable, Hashable {
    public var cost: ReloadCost
    /// Charged reloads in the last window.
    public var used: Int
    /// The cap per window; nil for `.local` widgets (no daily cap).
    public var limit: Int?
    /// What is left of the cap; nil for `.local` widgets.
    public var left: Int? { limit.map { Swift.max(0, $0 - used) } }
    public var minimumInterval: TimeInterval
    /// When the next charged reload is allowed (min interval and cap); nil if now.
    public var nextAllowed: Date?
}
