import Foundation
import DashWidgets

final class WidgetBox: Sendable {
    let widget: Widget
    init(_ widget: Widget) { self.widget = widget }
}

/// A load in flight.
struct InFlight: Sendable {
    var token: UInt64
    var reason: LoadReason
    var startedAt: Date
    var deadline: Date
    var timeout: TimeInterval
    /// The configuration changed while it ran: its result is dropped.
    var obsolete: Bool
}

/// The scheduler's state for one widget instance. All time arithmetic is on `Double`
/// seconds since the reference date (what `Date` stores) to keep the hot path cheap.
struct Instance: Sendable {
    // Hot: read on every event. Declared first and together so that an event touches
    // few cache lines of the instance (10,000 instances do not fit in the cache).

    /// Entry dates, sorted (stable: equal dates keep their list order); parallel to `entries`.
    var dates: [Double] = []
    /// Index of the entry shown, -1 when none of `entries` is due yet.
    var current = -1
    /// The key of this instance's live deadline in the queue, and its generation.
    var queuedAt: Double? = nil
    var retryAt: Double? = nil
    /// The date the policy reload may start (the requested date held back by the budget).
    var policyAt: Double? = nil
    var generation: UInt32 = 0
    /// False once unregistered: the slot waits for reuse.
    var alive = true
    /// Whether the id is in the scheduler's changed / cache-changed lists.
    var changedMark = false
    var cacheMark = false
    /// When its record was last handed out to be saved (`takeCacheChanges(at:)`).
    var lastCacheSave: Double? = nil
    /// An explicit request (initial, manual, WidgetCenter, configuration change) waiting to start.
    var pending: LoadReason? = nil
    private(set) var cost: ReloadCost
    var failures = 0
    var inFlight: InFlight? = nil
    /// Its entries came by push (kept across restarts): see `Widget.keepsPushedContent`.
    var pushed = false

    // Cold.

    let id: InstanceID
    /// The widget, boxed: `Widget` is large.
    private var widgetBox: WidgetBox
    var widget: Widget {
        get { widgetBox.widget }
        set {
            widgetBox = WidgetBox(newValue)
            cost = newValue.cost(for: configuration)
        }
    }
    /// Not on screen (another page, behind a stack's front item): a local widget's policy
    /// reloads wait until it shows again (a system monitor samples only while visible).
    var offScreen = false
    var configuration: WidgetConfig { didSet { cost = widget.cost(for: configuration) } }
    var family: WidgetFamily
    var entries: [AnyEntry] = []
    var hasTimeline = false
    var policy: ReloadPolicy? = nil
    /// The entry shown before the last timeline arrived, kept until its first entry is due.
    var carry: AnyEntry? = nil
    var isStale = false
    var lastError: String? = nil
    var ledger = BudgetLedger()
    var lastLoadStart: Date? = nil
    var lastSuccess: Date? = nil
    /// The date the policy asks for.
    var policyRequested: Double? = nil

    init(id: InstanceID, widget: Widget, configuration: WidgetConfig, family: WidgetFamily) {
        self.id = id
        self.widgetBox = WidgetBox(widget)
        self.cost = widget.cost(for: configuration)
        self.configuration = configuration
        self.family = family
    }

    /// Frees what an unregistered instance held and stops its deadlines.
    mutating func retire() {
        alive = false
        entries = []
        dates = []
        carry = nil
        inFlight = nil
        pending = nil
        queuedAt = nil
        generation &+= 1
    }

    // MARK: entries

    /// Takes a new timeline at `now`. Entries are sorted by date, keeping list order for equal dates.
    mutating func setTimeline(_ timeline: AnyTimeline, now: Date) {
        let previous = visible(now: now)
        var list = timeline.entries
        var ds = list.map { $0.date.timeIntervalSinceReferenceDate }
        var sorted = true
        if ds.count > 1 {
            for i in 1..<ds.count where ds[i] < ds[i - 1] {
                sorted = false
                break
            }
        }
        if !sorted {
            let order = ds.indices.sorted { ds[$0] != ds[$1] ? ds[$0] < ds[$1] : $0 < $1 }
            list = order.map { list[$0] }
            ds = order.map { ds[$0] }
        }
        entries = list
        dates = ds
        hasTimeline = true
        policy = timeline.policy
        current = -1
        carry = previous.flatMap { $0.isPlaceholder ? nil : $0.entry }
        _ = advance(to: now.timeIntervalSinceReferenceDate)
    }

    /// Moves `current` to the last entry due at `t`. True if the shown entry changed.
    mutating func advance(to t: Double) -> Bool {
        var i = current
        let n = dates.count
        while i + 1 < n && dates[i + 1] <= t { i += 1 }
        guard i != current else { return false }
        // `carry` only matters while nothing is due (current == -1): clear it on the first switch.
        if current < 0 { carry = nil }
        current = i
        return true
    }

    /// The index of the entry due at `t` (binary search), -1 if none.
    func index(at t: Double) -> Int {
        var lo = 0, hi = dates.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if dates[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    func visible(now: Date) -> VisibleEntry? {
        let i = index(at: now.timeIntervalSinceReferenceDate)
        if i >= 0 { return VisibleEntry(entry: entries[i], isPlaceholder: false, index: i) }
        if let carry { return VisibleEntry(entry: carry, isPlaceholder: false, index: nil) }
        return nil
    }

    var nextEntryDate: Double? { current + 1 < dates.count ? dates[current + 1] : nil }

    // MARK: reloads

    /// The earliest date a policy reload may start: the minimum interval after the last
    /// reload of any kind, and for budgeted widgets the daily cap.
    func budgetAllows(policy rules: SchedulerPolicy) -> Double {
        var t = -Double.infinity
        if let last = lastLoadStart {
            t = last.timeIntervalSinceReferenceDate + rules.minimumInterval(for: cost)
        }
        if cost == .budgeted, let frees = ledger.capFrees(cap: rules.dailyBudget, window: rules.budgetWindow) {
            t = Swift.max(t, frees.timeIntervalSinceReferenceDate)
        }
        return t
    }

    /// How long after its last timeline came the policy asks for the next (nil: never, or none
    /// came yet); read whether the next load has begun or not.
    var reloadGap: Double? {
        guard hasTimeline, let p = policy, let got = lastSuccess?.timeIntervalSinceReferenceDate else { return nil }
        switch p {
        case .never: return nil
        case .after(let d): return d.timeIntervalSinceReferenceDate - got
        case .atEnd: return (dates.last ?? got) - got
        }
    }

    /// Works out when the timeline's policy reloads, held back by the budget.
    mutating func planPolicyReload(policy rules: SchedulerPolicy) {
        policyRequested = nil
        policyAt = nil
        guard hasTimeline, let p = policy else { return }
        let requested: Double
        switch p {
        case .never:
            return
        case .after(let d):
            requested = d.timeIntervalSinceReferenceDate
        case .atEnd:
            if let last = dates.last {
                requested = last
            } else {
                requested = (lastSuccess ?? lastLoadStart ?? .distantPast).timeIntervalSinceReferenceDate
            }
        }
        policyRequested = requested
        policyAt = Swift.max(requested, budgetAllows(policy: rules))
    }

    /// The earliest deadline of this instance: the next entry, the load's timeout, a
    /// waiting request (at once), a retry, or the policy reload.
    func nextDeadline() -> Double? {
        var d = nextEntryDate ?? .infinity
        if let f = inFlight {
            d = Swift.min(d, f.deadline.timeIntervalSinceReferenceDate)
        } else if pending != nil {
            d = Date.distantPast.timeIntervalSinceReferenceDate
        } else if let r = retryAt {
            d = Swift.min(d, r)
        } else if let p = policyAt, !(offScreen && cost == .local) {
            d = Swift.min(d, p)
        }
        return d == .infinity ? nil : d
    }

    /// Moves the queued deadline to `nextDeadline()`; returns what to push, if anything.
    mutating func requeue() -> (Double, UInt32)? {
        let next = nextDeadline()
        if next == queuedAt { return nil }
        generation &+= 1
        queuedAt = next
        return next.map { ($0, generation) }
    }

    /// Records a failed load: keep the timeline, mark it stale, plan the retry.
    mutating func fail(message: String, now: Date, policy rules: SchedulerPolicy) {
        isStale = true
        lastError = message
        failures += 1
        retryAt = now.timeIntervalSinceReferenceDate + rules.retryDelay(attempt: failures)
    }

    /// Records a good timeline.
    /// What every success records, the entries aside; alone when a load leaves pushed entries in
    /// place (`Widget.keepsPushedContent`).
    mutating func succeedKeepingEntries(now: Date) {
        isStale = false
        lastError = nil
        failures = 0
        retryAt = nil
        lastSuccess = now
    }

    mutating func succeed(_ timeline: AnyTimeline, now: Date, policy rules: SchedulerPolicy) {
        setTimeline(timeline, now: now)
        succeedKeepingEntries(now: now)
        planPolicyReload(policy: rules)
    }

    /// Asks for an explicit load; coalesces with one already waiting or in flight.
    mutating func request(_ reason: LoadReason) {
        if let p = pending, p.rank >= reason.rank { return }
        pending = reason
    }

    /// What is due at `now`: the timeout of the load in flight, entry changes, and which
    /// load (if any) should start now. The caller assigns the token.
    mutating func fire(now: Date, policy rules: SchedulerPolicy) -> (start: LoadReason?, changed: Bool) {
        let t = now.timeIntervalSinceReferenceDate
        var changed = false
        if let f = inFlight, t >= f.deadline.timeIntervalSinceReferenceDate {
            inFlight = nil
            if !f.obsolete {
                fail(message: LoadTimeoutError(timeout: f.timeout).description, now: now, policy: rules)
                changed = true
            }
        }
        if advance(to: t) { changed = true }
        guard inFlight == nil else { return (nil, changed) }
        if let p = pending {
            pending = nil
            return (p, changed)
        }
        if let r = retryAt {
            if r <= t {
                retryAt = nil
                return (.retry, changed)
            }
            return (nil, changed)
        }
        if let p = policyAt, p <= t, !(offScreen && cost == .local) {
            // The plan already respects the budget, but it may have changed since.
            let allowed = budgetAllows(policy: rules)
            if allowed <= t {
                return (.policy, changed)
            }
            policyAt = allowed
        }
        return (nil, changed)
    }

    /// Marks the load started.
    mutating func begin(_ reason: LoadReason, token: UInt64, now: Date, policy rules: SchedulerPolicy) -> InFlight {
        // A zero timeout must still end after `now`, or `process` would time it out at once, forever.
        let timeout = Swift.max(widget.timeout, 0.001)
        let f = InFlight(
            token: token, reason: reason, startedAt: now,
            deadline: now.addingTimeInterval(timeout), timeout: timeout, obsolete: false)
        inFlight = f
        lastLoadStart = now
        if reason.isCharged && cost == .budgeted {
            ledger.charge(at: now, window: rules.budgetWindow)
        }
        policyAt = nil
        policyRequested = nil
        return f
    }

    func budgetStatus(now: Date, policy rules: SchedulerPolicy) -> BudgetStatus {
        let next = budgetAllows(policy: rules)
        return BudgetStatus(
            cost: cost,
            used: cost == .budgeted ? ledger.used(at: now, window: rules.budgetWindow) : 0,
            limit: cost == .budgeted ? rules.dailyBudget : nil,
            minimumInterval: rules.minimumInterval(for: cost),
            nextAllowed: next > now.timeIntervalSinceReferenceDate ? Date(timeIntervalSinceReferenceDate: next) : nil)
    }
}
