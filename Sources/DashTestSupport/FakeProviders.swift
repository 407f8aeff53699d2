import Foundation
import DashWidgets
import DashScheduler

// Fake providers whose answers a test controls, and a harness that drives a
// `Scheduler` with a `VirtualClock` the way the runtime does (process at each wake,
// run the loads, report the results), but synchronously and without real time.

/// The entry of fake widgets: a date and a value to recognise it by.
public struct FakeEntry: TimelineEntry, Hashable {
    public var date: Date
    public var value: String
    public var score: Double?

    public init(date: Date, value: String, score: Double? = nil) {
        self.date = date
        self.value = value
        self.score = score
    }

    public var relevance: Relevance? { score.map { Relevance(score: $0) } }
    public var summary: String { value }
}

/// The error a fake provider throws.
public struct FakeError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var errorDescription: String? { message }
}

/// How a fake provider answers one load.
public indirect enum FakeResponse: Sendable {
    /// Entries and a policy, at once.
    case timeline([FakeEntry], ReloadPolicy)
    /// Throws `FakeError(message)`, at once.
    case failure(String)
    /// Never answers: the scheduler's timeout decides.
    case hang
    /// Waits for the test: `SchedulerHarness.finish(_:with:)`.
    case manual
    /// Answers after this many (virtual) seconds.
    case delayed(TimeInterval, FakeResponse)
}

/// What a fake provider was asked.
public struct FakeCall: Sendable {
    public var configuration: WidgetConfig
    public var family: WidgetFamily
    public var now: Date
}

/// The answers of a fake provider: queued responses first, then `fallback`.
public final class FakeScript: @unchecked Sendable {
    private let lock = NSLock()
    private var queued: [FakeResponse] = []
    private var fallback: @Sendable (FakeCall) -> FakeResponse
    private var _calls: [FakeCall] = []

    /// By default every load answers one entry at `now` with value "v1", "v2"…, policy `.never`.
    public init(fallback: (@Sendable (FakeCall) -> FakeResponse)? = nil) {
        let counter = Counter()
        self.fallback =
            fallback ?? { call in
                .timeline([FakeEntry(date: call.now, value: "v\(counter.next())")], .never)
            }
    }

    public var calls: [FakeCall] { lock.withLock { _calls } }

    /// Queues answers for the next loads, in order.
    public func enqueue(_ responses: FakeResponse...) {
        lock.withLock { queued.append(contentsOf: responses) }
    }

    /// Answers every load without a queued answer.
    public func setFallback(_ f: @escaping @Sendable (FakeCall) -> FakeResponse) {
        lock.withLock { fallback = f }
    }

    /// The answer to a load (records the call).
    public func next(_ call: FakeCall) -> FakeResponse {
        lock.withLock {
            _calls.append(call)
            return queued.isEmpty ? fallback(call) : queued.removeFirst()
        }
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func next() -> Int {
            lock.withLock {
                n += 1
                return n
            }
        }
    }
}

/// A provider that answers from a `FakeScript`. Through the async API, delays and
/// `.manual` are answered at once and `.hang` sleeps until cancelled; the harness
/// below uses the script directly, on virtual time.
public struct FakeProvider: TimelineProvider {
    public let script: FakeScript
    public init(script: FakeScript) { self.script = script }

    public func placeholder(in context: TimelineContext) -> FakeEntry {
        FakeEntry(date: context.now, value: "placeholder")
    }

    public func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> FakeEntry {
        FakeEntry(date: context.now, value: "snapshot")
    }

    public func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<
        FakeEntry
    > {
        var response = script.next(FakeCall(configuration: configuration, family: context.family, now: context.now))
        while true {
            switch response {
            case .timeline(let entries, let policy): return Timeline(entries: entries, policy: policy)
            case .failure(let message): throw FakeError(message)
            case .hang, .manual:
                try await Task.sleep(nanoseconds: UInt64.max / 2)
                throw CancellationError()
            case .delayed(_, let inner): response = inner
            }
        }
    }
}

/// A widget backed by a `FakeScript`.
public func fakeWidget(
    kind: String = "fake", cost: ReloadCost = .budgeted, timeout: TimeInterval = 10,
    script: FakeScript
) -> Widget {
    Widget(
        kind: kind, displayName: "Fake \(kind)", description: "A widget for tests",
        supportedFamilies: WidgetFamily.allCases, cost: cost, timeout: timeout,
        provider: FakeProvider(script: script),
        view: { entry, _ in Text(entry.value) })
}

/// Drives a `Scheduler` on a `VirtualClock` like the runtime does: whenever the clock
/// reaches `nextWake` it calls `process(now:)`, answers each load from the instance's
/// `FakeScript` (at once, after a virtual delay, never, or when the test says), and
/// reports the result with `loadFinished`. Everything is synchronous.
public final class SchedulerHarness {
    public let clock: VirtualClock
    public var scheduler: Scheduler
    /// Every load started, in order.
    public private(set) var loads: [LoadRequest] = []
    /// Loads answered `.manual`, waiting for `finish`.
    public private(set) var waiting: [InstanceID: LoadRequest] = [:]
    /// Every reported outcome, in order.
    public private(set) var outcomes: [(id: InstanceID, token: UInt64, outcome: LoadOutcome)] = []
    public private(set) var scripts: [InstanceID: FakeScript] = [:]
    private var armed: (token: VirtualClock.Token, at: Date)? = nil

    public init(start: Date, policy: SchedulerPolicy = .default) {
        clock = VirtualClock(now: start)
        scheduler = Scheduler(policy: policy)
    }

    public var now: Date { clock.now }

    /// Registers an instance of a fake widget and runs what is due.
    @discardableResult
    public func add(
        _ id: InstanceID, kind: String = "fake", cost: ReloadCost = .budgeted, timeout: TimeInterval = 10,
        family: WidgetFamily = .small, configuration: WidgetConfig = WidgetConfig(),
        script: FakeScript = FakeScript()
    ) -> FakeScript {
        add(
            id, widget: fakeWidget(kind: kind, cost: cost, timeout: timeout, script: script), script: script,
            family: family, configuration: configuration)
    }

    @discardableResult
    public func add(
        _ id: InstanceID, widget: Widget, script: FakeScript, family: WidgetFamily = .small,
        configuration: WidgetConfig = WidgetConfig()
    ) -> FakeScript {
        scripts[id] = script
        scheduler.register(id, widget: widget, configuration: configuration, family: family, at: clock.now)
        pump()
        return script
    }

    /// Changes the scheduler (a reload, an edit) and runs what is due.
    public func change(_ body: (inout Scheduler, Date) -> Void) {
        body(&scheduler, clock.now)
        pump()
    }

    public func advance(to date: Date) { clock.advance(to: date) }
    public func advance(by seconds: TimeInterval) { clock.advance(by: seconds) }

    /// Answers a load that waits (`.manual`) with `response`, now.
    @discardableResult
    public func finish(_ id: InstanceID, with response: FakeResponse) -> LoadOutcome? {
        guard let req = waiting.removeValue(forKey: id) else { return nil }
        let o = answer(req, response)
        pump()
        return o
    }

    /// Reports a result for any token (to test late or stale results).
    @discardableResult
    public func report(_ id: InstanceID, token: UInt64, _ result: Result<AnyTimeline, any Error>) -> LoadOutcome {
        let o = scheduler.loadFinished(id, token: token, result: result, at: clock.now)
        outcomes.append((id, token, o))
        pump()
        return o
    }

    /// The value of the entry `id` shows now ("placeholder" before any timeline).
    public func shown(_ id: InstanceID) -> String? {
        guard let v = scheduler.currentEntry(id, at: clock.now) else { return nil }
        return (v.entry.base as? FakeEntry)?.value
    }

    /// Loads started for `id`, optionally for one reason.
    public func loads(of id: InstanceID, reason: LoadReason? = nil) -> [LoadRequest] {
        loads.filter { $0.id == id && (reason == nil || $0.reason == reason) }
    }

    /// Processes what is due now, answers loads, and sets the clock for the next wake.
    public func pump() {
        var rounds = 0
        while true {
            rounds += 1
            precondition(rounds < 100_000, "scheduler keeps asking for loads at \(clock.now)")
            let requests = scheduler.process(now: clock.now)
            for req in requests {
                loads.append(req)
                let call = FakeCall(configuration: req.configuration, family: req.family, now: req.startedAt)
                let response = scripts[req.id]?.next(call) ?? .hang
                dispatch(req, response)
            }
            guard let wake = scheduler.nextWake, wake <= clock.now else { break }
        }
        rearm()
    }

    private func dispatch(_ req: LoadRequest, _ response: FakeResponse) {
        switch response {
        case .hang: break
        case .manual: waiting[req.id] = req
        case .delayed(let d, let inner):
            clock.schedule(at: clock.now.addingTimeInterval(d)) { [unowned self] in
                self.dispatch(req, inner)
                self.pump()
            }
        case .timeline, .failure:
            _ = answer(req, response)
        }
    }

    private func answer(_ req: LoadRequest, _ response: FakeResponse) -> LoadOutcome? {
        let result: Result<AnyTimeline, any Error>
        switch response {
        case .timeline(let entries, let policy):
            result = .success(AnyTimeline(entries: entries.map(AnyEntry.init), policy: policy))
        case .failure(let message):
            result = .failure(FakeError(message))
        case .hang, .manual, .delayed:
            dispatch(req, response)
            return nil
        }
        let o = scheduler.loadFinished(req.id, token: req.token, result: result, at: clock.now)
        outcomes.append((req.id, req.token, o))
        return o
    }

    private func rearm() {
        guard let wake = scheduler.nextWake else {
            if let a = armed {
                clock.cancel(a.token)
                armed = nil
            }
            return
        }
        if let a = armed {
            if a.at == wake { return }
            clock.cancel(a.token)
        }
        let at = max(wake, clock.now)
        let token = clock.schedule(at: at) { [unowned self] in
            self.armed = nil
            self.pump()
        }
        armed = (token, wake)
    }
}
