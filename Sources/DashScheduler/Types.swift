import Foundation
import DashWidgets

/// A widget instance on the home screen, stable across restarts ("tile-3").
public typealias InstanceID = String

/// Why a timeline load was started.
public enum LoadReason: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The first load of an instance that has no cached timeline. Not charged.
    case initial
    /// The timeline's reload policy came due. Charged against the budget.
    case policy
    /// A retry after a failed load, on the back-off schedule. Not charged.
    case retry
    /// The user asked (`r`, `R`, `swiftdash reload`). Not charged.
    case manual
    /// `WidgetCenter.reloadTimelines(ofKind:)` / `reloadAllTimelines()`. Not charged.
    case widgetCenter
    /// The user edited the instance's configuration (or family). Not charged.
    case configurationChanged

    /// Whether a load for this reason counts against the daily budget.
    public var isCharged: Bool { self == .policy }

    public var description: String { rawValue }

    /// Which reason a coalesced request keeps.
    var rank: Int {
        switch self {
        case .policy: return 0
        case .retry: return 1
        case .initial: return 2
        case .widgetCenter: return 3
        case .manual: return 4
        case .configurationChanged: return 5
        }
    }
}

/// A timeline load the runtime has to perform: call `widget.timeline(for:in:)` (or
/// `perform()`), then report the result with `Scheduler.loadFinished(_:token:result:at:)`.
public struct LoadRequest: Sendable {
    public let id: InstanceID
    /// Identifies this load; a result with another token is ignored.
    public let token: UInt64
    public let reason: LoadReason
    public let widget: Widget
    public let configuration: WidgetConfig
    public let family: WidgetFamily
    public let startedAt: Date
    /// When the load counts as failed if no result came.
    public let deadline: Date

    public var kind: String { widget.kind }

    /// The context the provider is asked in.
    public func context(size: (width: Int, height: Int) = (0, 0), colorScheme: ColorScheme = .dark,
                        environment: [String: String] = [:]) -> TimelineContext {
        TimelineContext(family: family, size: size, now: startedAt, colorScheme: colorScheme, environment: environment)
    }

    /// Runs the provider. The runtime calls this from its own task; the scheduler never does.
    public func perform(size: (width: Int, height: Int) = (0, 0), colorScheme: ColorScheme = .dark,
                        environment: [String: String] = [:]) async -> Result<AnyTimeline, any Error> {
        do {
            let t = try await widget.timeline(for: configuration,
                                              in: context(size: size, colorScheme: colorScheme, environment: environment))
            return .success(t)
        } catch {
            return .failure(error)
        }
    }
}

/// What happened to a reported load result.
public enum LoadOutcome: Sendable, Hashable {
    /// The timeline was taken.
    case applied
    /// The load failed; the last good timeline stays, marked stale; a retry is scheduled.
    case failed(message: String)
    /// The result was ignored: unknown instance, a token that is not the one in flight
    /// (timed out, or superseded), or a load made for a configuration since changed.
    case ignored
}

/// The load failed because the provider did not answer in time.
public struct LoadTimeoutError: Error, Sendable, Hashable, CustomStringConvertible {
    public var timeout: TimeInterval
    public init(timeout: TimeInterval) { self.timeout = timeout }
    public var description: String { "timed out after \(formatSeconds(timeout))" }
}

func formatSeconds(_ t: TimeInterval) -> String {
    if t == t.rounded(), abs(t) < 1e15 { return "\(Int(t)) s" }
    return "\(t) s"
}

/// The message a failure is shown with.
func errorMessage(_ error: any Error) -> String {
    if let e = error as? LocalizedError, let d = e.errorDescription { return d }
    return String(describing: error)
}

/// One instance as WidgetKit's `WidgetInfo` describes it (for `currentConfigurations`).
public struct WidgetInfo: Sendable, Hashable {
    public var id: InstanceID
    public var kind: String
    public var family: WidgetFamily
    public var configuration: WidgetConfig

    public init(id: InstanceID, kind: String, family: WidgetFamily, configuration: WidgetConfig) {
        self.id = id; self.kind = kind; self.family = family; self.configuration = configuration
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
            entries: entries.enumerated().map { i, e in .init(date: e.date, summary: e.summary, isCurrent: i == currentIndex) },
            showsPlaceholder: isPlaceholder, policy: policy?.description, nextReload: nextReload,
            nextReloadReason: nextReloadReason.description, budgetUsed: budget.used, budgetLimit: budget.limit,
            budgetLeft: budget.left, isStale: isStale, lastError: lastError, isLoading: isLoading,
            lastReload: lastReload, lastSuccess: lastSuccess)
    }
}
