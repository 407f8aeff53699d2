import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender

/// Results that arrive from other threads (provider loads, the control socket), kept until
/// the loop's next turn.
public final class Inbox: @unchecked Sendable {
    public enum Item: Sendable {
        case loaded(id: String, token: UInt64, result: Result<AnyTimeline, any Error>)
        case reload(kind: String?)
    }
    private let lock = NSLock()
    private var items: [Item] = []
    private let wake: @Sendable () -> Void

    public init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    public func post(_ item: Item) {
        lock.lock(); items.append(item); lock.unlock()
        wake()
    }
    func drain() -> [Item] {
        lock.lock(); defer { lock.unlock() }
        let out = items; items.removeAll()
        return out
    }
}

/// How the runtime keeps the cache: load a snapshot at start, save records as they change.
public struct RuntimePersistence: Sendable {
    public var load: @Sendable () -> SchedulerSnapshot?
    public var save: @Sendable ([InstanceRecord]) -> Void
    public init(load: @escaping @Sendable () -> SchedulerSnapshot?, save: @escaping @Sendable ([InstanceRecord]) -> Void) {
        self.load = load; self.save = save
    }
    public static let none = RuntimePersistence(load: { nil }, save: { _ in })
}

/// Counters that show the loop is idle when nothing happens.
public struct RuntimeStats: Sendable {
    public var turns = 0
    public var frames = 0
    public var cellsSent = 0
    public var loadsStarted = 0
}

/// The loop: wait for input with a timeout equal to the next deadline (entry dates, reloads,
/// retries, live text), apply messages through `App.update`, run effects, let the
/// scheduler start loads, and draw at most once per turn, sending only changed cells.
public final class Runtime {
    public private(set) var state: AppState
    public private(set) var scheduler: Scheduler
    public private(set) var stats = RuntimeStats()
    let terminal: Terminal
    let clock: any DashClock
    public let inbox: Inbox
    let persistence: RuntimePersistence
    let openURL: @Sendable (String) -> String?
    let log: @Sendable (String) -> Void
    var lastFrame: CellBuffer?
    /// Called after each frame is sent (the end-to-end crash test uses it).
    public var afterDraw: (() -> Void)?
    var nextLiveChange: Date?
    var dirty = true
    var fullRedraw = false
    /// Runs a load; tests replace it to keep everything on one thread.
    let startLoad: @Sendable (LoadRequest, TimelineContext, Inbox) -> Void

    public init(state: AppState, terminal: Terminal, clock: any DashClock, inbox: Inbox,
                persistence: RuntimePersistence = .none, schedulerPolicy: SchedulerPolicy = .default,
                openURL: @escaping @Sendable (String) -> String? = { _ in nil },
                log: @escaping @Sendable (String) -> Void = { _ in },
                startLoad: (@Sendable (LoadRequest, TimelineContext, Inbox) -> Void)? = nil) {
        self.state = state
        self.terminal = terminal
        self.clock = clock
        self.inbox = inbox
        self.persistence = persistence
        self.openURL = openURL
        self.log = log
        self.startLoad = startLoad ?? Runtime.concurrentLoad
        self.scheduler = Scheduler(policy: schedulerPolicy)
        self.state.screen = terminal.size
        self.state.colorDepth = terminal.colorDepth
        self.state.relayout()
        if let snapshot = persistence.load() { scheduler.restore(snapshot) }
        registerInstances()
        for w in scheduler.takeWarnings() { log(w) }
    }

    /// Runs a provider's timeline on the cooperative pool, with the widget's timeout, and
    /// posts the result back. A slow provider only delays itself.
    @Sendable static func concurrentLoad(_ req: LoadRequest, _ ctx: TimelineContext, _ inbox: Inbox) {
        Task.detached {
            let result: Result<AnyTimeline, any Error>
            do {
                let w = req.widget, c = req.configuration
                result = .success(try await OneShot.withTimeout(w.timeout + 1) { try await w.timeline(for: c, in: ctx) })
            } catch {
                result = .failure(error)
            }
            inbox.post(.loaded(id: req.id, token: req.token, result: result))
        }
    }

    func registerInstances() {
        let now = clock.now
        for tile in state.home.tiles {
            let family = state.layout.tile(tile.id)?.family ?? tile.family
            for inst in tile.items {
                guard let w = state.bundle[inst.kind] else { continue }
                scheduler.register(inst.id, widget: w, configuration: inst.config, family: family, at: now)
            }
        }
    }

    /// Copies what the scheduler shows into the view state.
    func refreshDisplay(now: Date) {
        for inst in state.home.allInstances {
            guard let v = scheduler.currentEntry(inst.id, at: now) else { continue }
            let error = scheduler.lastError(inst.id)
            state.display[inst.id] = InstanceDisplay(entry: v.isPlaceholder ? nil : v.entry,
                                                     staleMessage: v.isPlaceholder ? error : (scheduler.isStale(inst.id) ? error : nil))
        }
    }

    /// One turn without waiting: take results, let due deadlines fire, draw if needed.
    /// Returns the time to wait for the next deadline (nil: nothing is due, sleep until input).
    @discardableResult
    public func turn() -> Double? {
        stats.turns += 1
        let now = clock.now
        state.now = now
        for item in inbox.drain() {
            switch item {
            case .loaded(let id, let token, let result):
                if case .failure(let e) = result { log("\(id): load failed: \(e)") }
                _ = scheduler.loadFinished(id, token: token, result: result, at: now)
            case .reload(let kind):
                run(App.update(&state, .reloadRequest(kind: kind)))
                dirty = true
            }
        }
        let requests = scheduler.process(now: now)
        if !scheduler.takeChanged().isEmpty { dirty = true }
        refreshDisplay(now: now)
        let changes = scheduler.takeCacheChanges()
        if !changes.isEmpty {
            persistence.save(changes.compactMap { scheduler.record($0, at: now) })
        }
        if let live = nextLiveChange, now >= live { dirty = true }
        let messageEnds = state.messageSince.map { $0.addingTimeInterval(AppState.messageLifetime) }
        if let end = messageEnds, now >= end { state.message = nil; dirty = true }
        if dirty { draw() }
        // Loads start after the frame is out: they compete for the same cores, and the
        // first frame (placeholders) should not wait for them.
        for req in requests {
            let family = state.home.tiles.first { $0.items.contains { $0.id == req.id } }
                .map { state.layout.tile($0.id)?.family ?? $0.family } ?? .small
            var ctx = state.context(for: family)
            ctx.now = now
            stats.loadsStarted += 1
            startLoad(req, ctx, inbox)
        }
        let deadlines = [scheduler.nextWake, nextLiveChange, state.message == nil ? nil : messageEnds].compactMap { $0 }
        guard let next = deadlines.min() else { return nil }
        return max(0, next.timeIntervalSince(clock.now))
    }

    func draw() {
        let frame = AppView.render(state)
        let runs = FrameDiff.runs(from: fullRedraw ? nil : lastFrame, to: frame.buffer)
        if !runs.isEmpty || fullRedraw {
            terminal.draw(runs, full: fullRedraw)
            stats.frames += 1
            afterDraw?()
            stats.cellsSent += runs.reduce(0) { $0 + $1.cells.count }
        }
        fullRedraw = false
        lastFrame = frame.buffer
        nextLiveChange = frame.nextLiveChange
        _ = App.update(&state, .framed(tapRegions: frame.tapRegions))
        dirty = false
    }

    /// Applies one input event.
    public func handle(_ event: InputEvent) {
        switch event {
        case .key(let k): run(App.update(&state, .key(k)))
        case .mouse(let m): run(App.update(&state, .mouse(m)))
        case .resize(let size):
            // A tile drawn smaller on a narrow screen keeps its timeline: the same entries draw
            // in any family, and telling the scheduler would discard them and reload.
            run(App.update(&state, .resize(size)))
            lastFrame = nil
        case .wake: return
        }
        dirty = true
    }

    func run(_ effects: [Effect]) {
        for e in effects {
            switch e {
            case .reload(let ids): for id in ids { _ = scheduler.reload(id, reason: .manual) }
            case .reloadKind(let kind):
                if let kind { _ = scheduler.reloadTimelines(ofKind: kind) } else { _ = scheduler.reloadAllTimelines() }
            case .openExternal(let url): if let problem = openURL(url) { state.message = problem }
            case .redrawAll: fullRedraw = true
            case .quit: state.quitting = true
            }
        }
    }

    /// Runs until the user quits.
    public func run() {
        while !state.quitting {
            let timeout = turn()
            if state.quitting { break }
            if let event = terminal.readEvent(timeout: timeout) { handle(event) }
        }
        // Save what changed since the last turn.
        let now = clock.now
        let changes = scheduler.takeCacheChanges()
        if !changes.isEmpty { persistence.save(changes.compactMap { scheduler.record($0, at: now) }) }
    }
}
