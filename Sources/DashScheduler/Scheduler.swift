import Foundation
import DashWidgets

/// One queued deadline: an instance slot, the generation it was queued with, and when.
struct Deadline: Comparable, Sendable {
    var time: Double
    var slot: Int32
    var generation: UInt32

    static func < (a: Deadline, b: Deadline) -> Bool {
        a.time != b.time ? a.time < b.time : a.slot < b.slot
    }
    static func == (a: Deadline, b: Deadline) -> Bool {
        a.time == b.time && a.slot == b.slot && a.generation == b.generation
    }
}

/// The timeline scheduler: for every widget instance, which entry is current, when to
/// wake next and when to ask the provider for a new timeline, the way WidgetKit does.
///
/// A synchronous state machine. It never reads a clock, starts a task or does I/O:
/// the runtime passes `now` in, performs the loads `process(now:)` returns, and reports
/// their results with `loadFinished(_:token:result:at:)`. After anything that changes
/// the schedule (registering, a reload request, a result), call `process(now:)` again;
/// then sleep until `nextWake`.
///
/// Every instance has at most one live deadline in a binary heap (the earliest of its
/// next entry date, its load's timeout, a waiting request, a retry and its policy
/// reload); rescheduling pushes a new one with a new generation and the old one is
/// skipped when it surfaces, so one event costs O(log n) in the number of instances.
///
/// The runtime's side, one turn of its loop:
///
///     var s = Scheduler()
///     s.restore(cacheStore.load(log: log))            // before registering
///     s.register("tile-1", widget: w, configuration: c, family: .small, at: clock.now)
///     // each turn (after input, a wake, or a `.loaded` message):
///     for req in s.process(now: clock.now) {          // start these loads
///         Task { let r = await Loads.run(job(req)); post(.loaded(req.id, req.token, r)) }
///     }
///     // on `.loaded(id, token, r)`: s.loadFinished(id, token: token, result: r, at: clock.now)
///     redraw(s.takeChanged())                          // only the tiles whose entry changed
///     try cacheStore.saveChanges(of: &s, at: clock.now)
///     sleep until s.nextWake (a date not after now: process again at once), or input
///
/// Decisions (see the report of the scheduler issue):
/// - Only `.policy` reloads are charged. Initial, manual, WidgetCenter, configuration
///   changes and retries are not; retries are limited by their own back-off instead.
/// - The minimum interval for a policy reload counts from the last reload of any kind,
///   so a provider that answers with a reload date in the past cannot make the
///   scheduler spin right after an uncharged reload.
/// - A new timeline whose entries are all in the future keeps showing the entry shown
///   before it until its first entry is due (no flash of the placeholder).
/// - A configuration or family change drops the old timeline (it shows data for the
///   old configuration) and the result of a load still in flight for it.
/// - A cached timeline restores without an initial load; its policy and the restored
///   ledger decide the next reload (`SchedulerPolicy.reloadCachedOnStart` to change).
///   A cached stale timeline is retried at once.
public struct Scheduler: Sendable {
    public var policy: SchedulerPolicy

    var slots: [Instance] = []
    var slotOf: [InstanceID: Int] = [:]
    var freeSlots: [Int] = []
    var queue = PriorityQueue<Deadline>()
    var nextToken: UInt64 = 1
    /// Slots whose visible entry changed / whose cache record changed, each once (see the marks).
    var changed: [Int] = []
    var cacheChanged: [Int] = []
    var restored: [InstanceID: InstanceRecord] = [:]
    var warnings: [String] = []
    var liveCount = 0
    /// The latest `now` seen by `process`: a smaller one means the wall clock went back.
    var lastProcessed = -Double.infinity

    public private(set) var stats = SchedulerStats()

    public init(policy: SchedulerPolicy = .default) {
        self.policy = policy
    }

    // MARK: - Instances

    /// The instances registered, in registration order of their slots.
    public var instanceIDs: [InstanceID] { slots.compactMap { $0.alive ? $0.id : nil } }

    public var count: Int { liveCount }

    public func contains(_ id: InstanceID) -> Bool { slotOf[id] != nil }

    /// Adds an instance. With a cached record for `id` (see `restore(_:)`) made for the
    /// same kind, configuration and family, its timeline shows at once and its policy
    /// goes on; otherwise the placeholder shows and an `.initial` load is requested.
    /// Registering an id again updates its widget, configuration and family.
    public mutating func register(
        _ id: InstanceID, widget: Widget, configuration: WidgetConfig = WidgetConfig(),
        family: WidgetFamily, at now: Date
    ) {
        if let slot = slotOf[id] {
            slots[slot].widget = widget
            update(id, configuration: configuration, family: family, at: now)
            return
        }
        var inst = Instance(id: id, widget: widget, configuration: configuration, family: family)
        var needsLoad = true
        if let record = restored.removeValue(forKey: id) {
            needsLoad = !restore(record, into: &inst, now: now)
        }
        if needsLoad || (policy.reloadCachedOnStart && inst.pending == nil) {
            inst.request(.initial)
        }
        inst.changedMark = true
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            inst.generation = slots[slot].generation &+ 1  // old queue entries of the slot stay dead
            slots[slot] = inst
        } else {
            slot = slots.count
            slots.append(inst)
        }
        slotOf[id] = slot
        liveCount += 1
        changed.append(slot)
        reschedule(slot)
        trimQueue()
    }

    /// Removes an instance; a load in flight for it is ignored when it reports.
    public mutating func unregister(_ id: InstanceID) {
        guard let slot = slotOf.removeValue(forKey: id) else { return }
        slots[slot].retire()
        freeSlots.append(slot)
        liveCount -= 1
        trimQueue()
    }

    /// The user edited an instance: a new configuration or family drops the timeline
    /// made for the old one (the placeholder shows) and requests an uncharged
    /// `.configurationChanged` load. A load in flight finishes first; its result is dropped.
    public mutating func update(
        _ id: InstanceID, configuration: WidgetConfig, family: WidgetFamily? = nil, at now: Date
    ) {
        guard let slot = slotOf[id] else { return }
        let family = family ?? slots[slot].family
        guard slots[slot].configuration != configuration || slots[slot].family != family else { return }
        modify(slot) { inst in
            inst.configuration = configuration
            inst.family = family
            inst.entries = []
            inst.dates = []
            inst.hasTimeline = false
            inst.policy = nil
            inst.current = -1
            inst.carry = nil
            inst.isStale = false
            inst.lastError = nil
            inst.failures = 0
            inst.retryAt = nil
            inst.policyAt = nil
            inst.policyRequested = nil
            inst.inFlight?.obsolete = true
            inst.request(.configurationChanged)
        }
        markChanged(slot)
        noteCacheChange(slot)
        reschedule(slot)
        trimQueue()
    }

    // MARK: - Reloads (WidgetCenter)

    /// Asks for a new timeline of one instance (`r`, `swiftdash reload ID`). Not charged.
    /// Returns false for an unknown id. The load starts at the next `process(now:)`.
    @discardableResult
    public mutating func reload(_ id: InstanceID, reason: LoadReason = .manual) -> Bool {
        guard let slot = slotOf[id] else { return false }
        requestLoad(slot, reason)
        trimQueue()
        return true
    }

    /// WidgetCenter: reloads every instance of `kind`. Not charged. Returns how many.
    @discardableResult
    public mutating func reloadTimelines(ofKind kind: String) -> Int {
        var n = 0
        for slot in slots.indices where slots[slot].alive && slots[slot].widget.kind == kind {
            requestLoad(slot, .widgetCenter)
            n += 1
        }
        trimQueue()
        return n
    }

    /// WidgetCenter: reloads every instance. Not charged. Returns how many.
    @discardableResult
    public mutating func reloadAllTimelines() -> Int {
        var n = 0
        for slot in slots.indices where slots[slot].alive {
            requestLoad(slot, .widgetCenter)
            n += 1
        }
        trimQueue()
        return n
    }

    /// WidgetCenter: the instances on the home screen and their configurations.
    public func currentConfigurations() -> [WidgetInfo] {
        slots.filter(\.alive).map {
            WidgetInfo(id: $0.id, kind: $0.widget.kind, family: $0.family, configuration: $0.configuration)
        }
    }

    mutating func requestLoad(_ slot: Int, _ reason: LoadReason) {
        modify(slot) { $0.request(reason) }
        reschedule(slot)
    }

    // MARK: - Time

    /// The earliest pending deadline of any instance: an entry change, a reload, a retry,
    /// a timeout, or a waiting request (then a date in the past: process at once).
    /// Nil when nothing is planned.
    public var nextWake: Date? {
        queue.min.map { Date(timeIntervalSinceReferenceDate: $0.time) }
    }

    /// Handles every deadline due at `now`, in date order: switches entries, times out
    /// loads, and returns the loads to start. Each instance's visible entry is the one
    /// due at `now` afterwards; `takeChanged()` says which instances to redraw.
    public mutating func process(now: Date) -> [LoadRequest] {
        let t = now.timeIntervalSinceReferenceDate
        if t < lastProcessed { clockWentBack(to: t) }
        lastProcessed = t
        var requests: [LoadRequest] = []
        while let top = queue.min, top.time <= t {
            guard isLive(top) else {
                queue.popMin()
                continue
            }
            let slot = Int(top.slot)
            stats.events += 1
            slots[slot].queuedAt = nil
            let failuresBefore = slots[slot].failures
            let (start, didChange) = slots[slot].fire(now: now, policy: policy)
            if didChange {
                stats.entryChanges += 1
                markChanged(slot)
            }
            if slots[slot].failures != failuresBefore {
                stats.loadsFailed += 1
                noteCacheChange(slot)
            }
            if let reason = start {
                let token = nextToken
                nextToken += 1
                let f = slots[slot].begin(reason, token: token, now: now, policy: policy)
                stats.loadsStarted += 1
                requests.append(
                    LoadRequest(
                        id: slots[slot].id, token: token, reason: reason, widget: slots[slot].widget,
                        configuration: slots[slot].configuration, family: slots[slot].family,
                        startedAt: now, deadline: f.deadline))
                if reason.isCharged { noteCacheChange(slot) }
            }
            // The top is still this instance's deadline: replace it rather than pop and push.
            if let (time, generation) = slots[slot].requeue() {
                queue.replaceMin(with: Deadline(time: time, slot: Int32(slot), generation: generation))
            } else {
                queue.popMin()
            }
        }
        trimQueue()
        return requests
    }

    /// Reports the result of a load. A result whose token is not the load in flight
    /// (it timed out, or the instance was removed) is ignored, as is the result of a
    /// load made for a configuration that changed since. A failure keeps the last good
    /// timeline, marks it stale with the error's message and schedules a retry
    /// (30 s, doubling to 30 min).
    @discardableResult
    public mutating func loadFinished(
        _ id: InstanceID, token: UInt64, result: Result<AnyTimeline, any Error>,
        at now: Date
    ) -> LoadOutcome {
        guard let slot = slotOf[id], let f = slots[slot].inFlight, f.token == token else {
            stats.resultsIgnored += 1
            return .ignored
        }
        slots[slot].inFlight = nil
        let outcome: LoadOutcome
        if f.obsolete {
            stats.resultsIgnored += 1
            outcome = .ignored
        } else {
            switch result {
            case .success(let timeline):
                stats.loadsSucceeded += 1
                if slots[slot].pushed && slots[slot].widget.keepsPushedContent {
                    slots[slot].succeedKeepingEntries(now: now)
                } else {
                    slots[slot].succeed(timeline, now: now, policy: policy)
                }
                outcome = .applied
            case .failure(let error):
                stats.loadsFailed += 1
                let message = errorMessage(error)
                slots[slot].fail(message: message, now: now, policy: policy)
                outcome = .failed(message: message)
            }
            markChanged(slot)
            noteCacheChange(slot)
        }
        reschedule(slot)
        trimQueue()
        return outcome
    }

    // MARK: - What to show

    /// The entry to show at `now`: the latest whose date is not after `now` (with equal
    /// dates the later one in the provider's list); before a new timeline's first entry
    /// is due, the entry shown before it arrived; before any timeline, the placeholder.
    public func currentEntry(_ id: InstanceID, at now: Date) -> VisibleEntry? {
        guard let slot = slotOf[id] else { return nil }
        let inst = slots[slot]
        if let v = inst.visible(now: now) { return v }
        let ctx = TimelineContext(family: inst.family, now: now)
        return VisibleEntry(entry: inst.widget.placeholder(in: ctx), isPlaceholder: true, index: nil)
    }

    public func isStale(_ id: InstanceID) -> Bool {
        slotOf[id].map { slots[$0].isStale } ?? false
    }

    public func lastError(_ id: InstanceID) -> String? {
        slotOf[id].flatMap { slots[$0].lastError }
    }

    /// When a failed instance is tried again by itself (its back-off); nil when no retry waits.
    public func retryDate(_ id: InstanceID) -> Date? {
        slotOf[id].flatMap { slots[$0].retryAt }.map { Date(timeIntervalSinceReferenceDate: $0) }
    }

    public func isLoading(_ id: InstanceID) -> Bool {
        slotOf[id].map { slots[$0].inFlight != nil } ?? false
    }

    public func widget(_ id: InstanceID) -> Widget? { slotOf[id].map { slots[$0].widget } }

    /// The instances whose visible entry, stale mark, error or timeline changed since the
    /// last call (in the order they changed), so only they are redrawn.
    public mutating func takeChanged() -> [InstanceID] {
        var out: [InstanceID] = []
        out.reserveCapacity(changed.count)
        for s in changed where slots[s].changedMark {
            slots[s].changedMark = false
            if slots[s].alive { out.append(slots[s].id) }
        }
        changed.removeAll(keepingCapacity: true)
        return out
    }

    /// Everything `swiftdash timeline` shows about one instance.
    public func status(_ id: InstanceID, at now: Date) -> InstanceStatus? {
        guard let slot = slotOf[id] else { return nil }
        let inst = slots[slot]
        let visible = currentEntry(id, at: now)
        var next: Date? = nil
        var why = NextReloadReason.none
        if let f = inst.inFlight {
            next = f.deadline
            why = .loading(f.reason)
        } else if let p = inst.pending {
            next = now
            why = .pending(p)
        } else if let r = inst.retryAt {
            next = Date(timeIntervalSinceReferenceDate: r)
            why = .retry(failures: inst.failures)
        } else if let p = inst.policyAt, let req = inst.policyRequested, let pol = inst.policy {
            next = Date(timeIntervalSinceReferenceDate: p)
            why = p > req ? .budget(requested: Date(timeIntervalSinceReferenceDate: req)) : .policy(pol)
        } else if inst.policy == .never {
            why = .never
        }
        return InstanceStatus(
            id: inst.id, kind: inst.widget.kind, family: inst.family, configuration: inst.configuration,
            entries: inst.entries, currentIndex: visible?.index, isPlaceholder: visible?.isPlaceholder ?? true,
            policy: inst.hasTimeline ? inst.policy : nil, nextReload: next, nextReloadReason: why,
            budget: inst.budgetStatus(now: now, policy: policy), isStale: inst.isStale, lastError: inst.lastError,
            consecutiveFailures: inst.failures, isLoading: inst.inFlight != nil,
            lastReload: inst.lastLoadStart, lastSuccess: inst.lastSuccess)
    }

    /// `status(_:at:)` of every instance, in slot order.
    public func statuses(at now: Date) -> [InstanceStatus] {
        instanceIDs.compactMap { status($0, at: now) }
    }

    /// The wall clock was set back (an NTP step, `date -s`): each instance shows the entry due
    /// at the new time and waits for its next one again. Nothing fires twice: reloads, retries
    /// and the budget keep their absolute dates, so a reload that already ran is not run again
    /// when its date comes round a second time (its `lastLoadStart` holds the minimum interval).
    mutating func clockWentBack(to t: Double) {
        for slot in slots.indices where slots[slot].alive {
            let i = slots[slot].index(at: t)
            if i != slots[slot].current {
                slots[slot].current = i
                markChanged(slot)
            }
            if i < 0, let first = slots[slot].entries.first {
                // The timeline starts after the new time: keep showing its first entry rather
                // than the placeholder, and ask for a timeline that covers now (not charged).
                slots[slot].carry = first
                slots[slot].request(.widgetCenter)
            }
            reschedule(slot)
        }
        trimQueue()
    }

    /// Tells which instances are on screen. A local widget off screen makes no policy reloads
    /// (free reloads cost CPU all the same); when it shows again an overdue one runs at once.
    public mutating func setOnScreen(_ visible: Set<InstanceID>) {
        for slot in slots.indices where slots[slot].alive {
            let off = !visible.contains(slots[slot].id)
            guard slots[slot].offScreen != off else { continue }
            slots[slot].offScreen = off
            reschedule(slot)
        }
        trimQueue()
    }

    // MARK: - Internals

    mutating func modify(_ slot: Int, _ body: (inout Instance) -> Void) {
        body(&slots[slot])
    }

    mutating func markChanged(_ slot: Int) {
        guard !slots[slot].changedMark else { return }
        slots[slot].changedMark = true
        changed.append(slot)
    }

    /// Puts the instance's earliest deadline in the queue if it moved.
    mutating func reschedule(_ slot: Int) {
        // One in-place call: reading through `slots[slot]` would copy the instance.
        if let (time, generation) = slots[slot].requeue() {
            queue.push(Deadline(time: time, slot: Int32(slot), generation: generation))
        }
    }

    func isLive(_ d: Deadline) -> Bool {
        let slot = Int(d.slot)
        guard slot < slots.count, slots[slot].alive else { return false }
        return slots[slot].generation == d.generation && slots[slot].queuedAt == d.time
    }

    /// Keeps a live deadline on top (so `nextWake` is exact) and rebuilds the queue when
    /// dead entries outnumber the live ones.
    mutating func trimQueue() {
        while let top = queue.min, !isLive(top) { queue.popMin() }
        if queue.count > 2 * liveCount + 64 {
            queue = PriorityQueue(queue.unordered.filter { isLive($0) })
        }
    }
}
