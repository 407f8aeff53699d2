import Foundation
import DashWidgets

/// One instance as WidgetKit's `WidgetInfo` describes it (for `currentConfigurations`).
public struct WidgetInfo: Sendable, Hashable {
    public var id: InstanceID
    public var kind: String
    public var family: WidgetFamily
    public var configuration: WidgetConfig

    public init(id: InstanceID, kind: String, family: WidgetFamily, configuration: WidgetConfig) {
        self.id = id
        self.kind = kind
        self.family = family
        self.configuration = configuration
    }
}

/// The entry an instance shows.
public struct VisibleEntry: Sendable {
    public var entry: AnyEntry
    /// True before the first timeline arrived: the widget's placeholder, drawn redacted.
    public var isPlaceholder: Bool
    /// Index into the instance's (date-sorted) entries; nil for a placeholder or for the
    /// previous timeline's entry kept until the new timeline's first entry is due.
    public var index: Int?
}

/// Why, and for what, the next reload of an instance is planned.
public enum NextReloadReason: Sendable, Hashable, CustomStringConvertible {
    /// A load is in flight; `nextReload` is its timeout.
    case loading(LoadReason)
    /// A request waits to start (at the next `process`).
    case pending(LoadReason)
    /// A retry after `failures` failed loads.
    case retry(failures: Int)
    /// The timeline's policy.
    case policy(ReloadPolicy)
    /// The policy asked for `requested`, but the budget or the minimum interval holds it
    /// back until `nextReload`.
    case budget(requested: Date)
    /// `.never`: only an explicit reload.
    case never
    /// No timeline yet and nothing planned.
    case none

    public var description: String {
        switch self {
        case .loading(let r): return "loading (\(r))"
        case .pending(let r): return "\(r) reload requested"
        case .retry(let n): return "retry after \(n) failure\(n == 1 ? "" : "s")"
        case .policy(let p): return "policy \(p)"
        case .budget(let d): return "policy asked for \(d.formatted(.iso8601)), held back by the budget"
        case .never: return "policy never: only on request"
        case .none: return "nothing planned"
        }
    }
}

/// Everything `swiftdash timeline` shows about one instance.
public struct InstanceStatus: Sendable {
    public var id: InstanceID
    public var kind: String
    public var family: WidgetFamily
    public var configuration: WidgetConfig
    /// The timeline's entries, sorted by date (stable), empty before the first timeline.
    public var entries: [AnyEntry]
    /// The index of the entry shown now, if one of `entries`.
    public var currentIndex: Int?
    public var isPlaceholder: Bool
    public var policy: ReloadPolicy?
    public var nextReload: Date?
    public var nextReloadReason: NextReloadReason
    public var budget: BudgetStatus
    public var isStale: Bool
    public var lastError: String?
    public var consecutiveFailures: Int
    public var isLoading: Bool
    public var lastReload: Date?
    public var lastSuccess: Date?
}

/// Counters, for the benchmark and diagnostics.
public struct SchedulerStats: Sendable, Hashable {
    /// Deadlines handled (entry changes, reloads, retries, timeouts, requests).
    public var events: Int = 0
    public var loadsStarted: Int = 0
    public var loadsSucceeded: Int = 0
    public var loadsFailed: Int = 0
    public var resultsIgnored: Int = 0
    public var entryChanges: Int = 0
}

/// `InstanceStatus` as plain Codable data, for `swiftdash timeline` over the socket.
public struct InstanceStatusReport: Codable, Sendable, Hashable {
    public struct Entry: Codable, Sendable, Hashable {
        public var date: Date
        public var summary: String
        public var isCurrent: Bool
    }
    public var id: InstanceID
    public var kind: String
    public var family: WidgetFamily
    public var entries: [Entry]
    public var showsPlaceholder: Bool
    public var policy: String?
    public var nextReload: Date?
    public var nextReloadReason: String
    public var budgetUsed: Int
    public var budgetLimit: Int?
    public var budgetLeft: Int?
    public var isStale: Bool
    public var lastError: String?
    public var isLoading: Bool
    public var lastReload: Date?
    public var lastSuccess: Date?
}

extension InstanceStatus {
    public var report: InstanceStatusReport {
        InstanceStatusReport(
            id: id, kind: kind, family: family,
            entries: entries.enumerated().map { i, e in
                .init(date: e.date, summary: e.summary, isCurrent: i == currentIndex)
            },
            showsPlaceholder: isPlaceholder, policy: policy?.description, nextReload: nextReload,
            nextReloadReason: nextReloadReason.description, budgetUsed: budget.used, budgetLimit: budget.limit,
            budgetLeft: budget.left, isStale: isStale, lastError: lastError, isLoading: isLoading,
            lastReload: lastReload, lastSuccess: lastSuccess)
    }
}
