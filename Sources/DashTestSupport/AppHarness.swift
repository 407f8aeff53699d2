import Foundation
import XCTest
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashApp
import DashHome
import DashHomeFiles
import DashRuntime

/// Drives the real runtime (`Runtime`: the one effect interpreter) on a virtual clock and a
/// headless terminal, with fake services that record the work the app hands out, for tests that
/// read like the product (the Composable Architecture's `TestStore`): send keys and messages,
/// advance the clock, see the effects `update` returned, answer the loads, actions and form work
/// it started, and read the whole screen as text.
///
/// Exhaustive by default, as `TestStore` is: work the app handed out and the test never answered
/// (a load, an action, a form's option load or preview, a directory listing) fails the test when
/// the harness goes away. A test that means to leave work running says so with
/// `skipPendingWork()`, or sets `exhaustivity = .off`.
public final class AppHarness {
    public enum Exhaustivity: Sendable { case on, off }
    public var exhaustivity = Exhaustivity.on

    /// The runtime the harness drives, with its headless terminal.
    public let runtime: Runtime
    public let terminal: HeadlessTerminal
    public var state: AppState { runtime.state }
    public let clock: VirtualClock
    /// Every effect returned since the last `takeEffects()`.
    public private(set) var effects: [Effect] = []
    /// Loads started and not yet answered, oldest first.
    public var loads: [LoadJob] { work.loads }
    /// URLs the app asked to open.
    public var opened: [String] { work.opened }
    public private(set) var redraws = 0
    /// How often the app rang the terminal bell.
    public var bells: Int { terminal.bells }
    /// The use history the app last asked to save.
    public var savedUsage: UsageHistory? { work.savedUsage }
    /// Home screens the app asked to write (`Effect.writeHome`), oldest first.
    public var homeWrites: [HomeConfig] { work.homeWrites }
    /// Answers `Effect.writeHome` like the runtime's service (e.g. `HomeFile.write`). nil: an
    /// in-memory home.yaml answers (the app's minimal edit of the text it knows).
    public var homeWriter: (@Sendable (HomeConfig, HomeFileState?) -> Result<String, HomeWriteFailure>)? {
        get { work.homeWriter }
        set { work.homeWriter = newValue }
    }
    /// Reads home.yaml for `Effect.catchUpHome` as the runtime's `readHome` does; nil: nothing is read.
    public var homeReader: (@Sendable () -> Msg?)? {
        get { work.homeReader }
        set { work.homeReader = newValue }
    }

    /// Actions started and not yet answered, oldest first (see AppHarness+Actions).
    public internal(set) var actionJobs: [ActionJob] {
        get { work.actionJobs }
        set { work.actionJobs = newValue }
    }
    /// The files the app asked to watch, last set.
    public var watchedFiles: [String] { work.watchedFiles }

    /// Work asked for by the form and the gallery, not yet answered (see AppHarness+Edit).
    public internal(set) var edits: [EditEffect] {
        get { work.edits }
        set { work.edits = newValue }
    }
    /// Every home screen the app asked to write to home.yaml, in order.
    public var written: [HomeConfig] { work.homeWrites }

    /// What the fake services were handed.
    let work: HarnessWork

    public init(
        widgets: [Widget], home: HomeConfig, size: Size = Size(width: 80, height: 24), now: Date,
        timeZone: TimeZone = TimeZone(identifier: "UTC")!, theme: Theme = .dark,
        scheduler: Scheduler = Scheduler(), usage: UsageHistory = UsageHistory(),
        environment: [String: String] = [:]
    ) {
        clock = VirtualClock(now: now)
        var state = AppState(
            environment: AppEnvironment(
                bundle: WidgetBundle(widgets), timeZone: timeZone,
                variables: environment), home: home,
            screen: size, theme: theme, alternateTheme: theme.isDark ? .light : .dark, now: now,
            scheduler: scheduler)
        state.restoreUsage(usage)
        let work = HarnessWork(bundle: state.bundle)
        self.work = work
        terminal = HeadlessTerminal(size: size)
        runtime = Runtime(
            state: state, terminal: terminal, clock: clock, inbox: Inbox(wake: {}), services: work.services,
            inlineFileWork: true)
        runtime.loadLimit = .max
        runtime.observeEffects = { [unowned self] fx in
            effects += fx
            redraws += fx.filter { if case .redraw = $0 { return true } else { return false } }.count
        }
        runtime.applyPending()
        send(.tick(now))
    }

    deinit {
        guard exhaustivity == .on else { return }
        let pending = pendingWork
        if !pending.isEmpty {
            XCTFail(
                "work the test never answered: \(pending.joined(separator: ", ")); answer it, or say "
                    + "skipPendingWork() / exhaustivity = .off where leaving it is the point")
        }
    }

    /// What the app handed out and nobody answered yet.
    public var pendingWork: [String] {
        loads.map { "load of \($0.id)" } + actionJobs.map { "action of \($0.instanceID)" }
            + edits.map { "\($0)" } + work.activityJobs.map { "activity views of \($0.key.id)" }
    }

    /// Forgets the work still running: the test does not care how it ends.
    public func skipPendingWork() {
        work.loads.removeAll()
        work.actionJobs.removeAll()
        work.edits.removeAll()
        work.activityJobs.removeAll()
    }

    /// Sends one message through `update` in the runtime, runs its effects there, and applies
    /// what the services answered at once; returns the effects of this message.
    @discardableResult
    public func send(_ msg: Msg) -> [Effect] {
        work.answered(by: msg)
        let before = effects.count
        runtime.send(msg)
        let direct = Array(effects[before...])
        runtime.applyPending()
        return direct
    }

    /// Runs a step of the app on its state (a state function such as `Editing.changeHome`) in the
    /// runtime, and keeps its effects like `send` does.
    @discardableResult
    public func run(_ step: (inout AppState) -> [Effect]) -> [Effect] {
        let before = effects.count
        runtime.perform(step)
        let direct = Array(effects[before...])
        runtime.applyPending()
        return direct
    }

    /// Presses keys in order (the clock's time comes first, as in the runtime).
    public func press(_ keys: Key...) {
        for k in keys {
            send(.tick(clock.now))
            send(.key(k))
        }
    }

    /// Types text, one key per character.
    public func type(_ text: String) {
        for c in text { press(.char(c)) }
    }

    public func advance(by seconds: TimeInterval) {
        clock.advance(by: seconds)
        send(.tick(clock.now))
    }

    public func advance(to date: Date) {
        clock.advance(to: date)
        send(.tick(clock.now))
    }

    public func takeEffects() -> [Effect] {
        defer { effects.removeAll() }
        return effects
    }

    /// The oldest unanswered load of an instance.
    public func load(of id: String) -> LoadJob? { loads.first { $0.id == id } }

    /// Answers the oldest load of `id` with a timeline.
    public func finish(_ id: String, entries: [any TimelineEntry], policy: ReloadPolicy = .never) {
        guard let i = loads.firstIndex(where: { $0.id == id }) else { return }
        let job = work.loads.remove(at: i)
        send(
            .loaded(
                id: id, token: job.token,
                result: .success(AnyTimeline(entries: entries.map { AnyEntry($0) }, policy: policy))))
    }

    /// Answers the oldest load of `id` with an error.
    public func fail(_ id: String, _ error: any Error) {
        guard let i = loads.firstIndex(where: { $0.id == id }) else { return }
        let job = work.loads.remove(at: i)
        send(.loaded(id: id, token: job.token, result: .failure(error)))
    }

    /// Answers every open load by running its provider for real (for local widgets).
    public func runLoads() async {
        while !loads.isEmpty {
            let job = work.loads.removeFirst()
            send(.loaded(id: job.id, token: job.token, result: await Loads.run(job)))
        }
    }

    /// Sets what the app knows of its home.yaml (as the executable does at start).
    public func useHomeFile(_ file: HomeFileState?) {
        run { s in
            s.homeFile = file
            return []
        }
    }

    /// A tile cache as the runtime keeps one: every frame a test looks at is drawn with it, and
    /// checked against a fresh draw of the whole screen (decision 53).
    public let tileCache = TileCellCache()

    public var frame: HomeFrame {
        let cached = AppView.render(state, cache: tileCache)
        let fresh = AppView.render(state)
        if cached.buffer != fresh.buffer || cached.tapRegions != fresh.tapRegions
            || cached.controlRegions != fresh.controlRegions || cached.nextLiveChange != fresh.nextLiveChange
        {
            XCTFail("a frame drawn with the tile cache differs from a fresh draw:\n\(cached.buffer.textDump)")
        }
        return cached
    }
    /// The whole screen, one line per row.
    public var screen: String { frame.buffer.textDump }
}

extension LoadRequest {
    /// Runs the provider the way the app does (`Loads.run`), in a context of the request's
    /// family and start time (UTC, no size): for scheduler-level tests of real widgets.
    public func perform() async -> Result<AnyTimeline, any Error> {
        await Loads.run(widget, configuration: configuration, in: TimelineContext(family: family, now: startedAt))
    }
}
