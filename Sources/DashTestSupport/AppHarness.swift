import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashApp
import DashHome
import DashRuntime

/// Drives the app's pure core like the runtime does, on a virtual clock, for tests that read
/// like the product (the Composable Architecture's `TestStore`, simplified): send keys and
/// messages, advance the clock, see the effects `update` returned, answer the loads it
/// started, and read the whole screen as text.
public final class AppHarness {
    public private(set) var state: AppState
    public let clock: VirtualClock
    /// Every effect returned since the last `takeEffects()`.
    public private(set) var effects: [Effect] = []
    /// Loads started and not yet answered, oldest first.
    public private(set) var loads: [LoadJob] = []
    /// URLs the app asked to open.
    public private(set) var opened: [String] = []
    public private(set) var redraws = 0
    /// How often the app rang the terminal bell.
    public private(set) var bells = 0
    /// The use history the app last asked to save.
    public private(set) var savedUsage: UsageHistory?
    /// Home screens the app asked to write (`Effect.writeHome`), oldest first.
    public private(set) var homeWrites: [HomeConfig] = []
    /// Answers `Effect.writeHome` like the runtime (e.g. `HomeFile.write`); nil: writes are only recorded.
    public var homeWriter: (@Sendable (HomeConfig, HomeFileState?) -> Result<String, HomeWriteFailure>)?
    /// Reads home.yaml for `Effect.catchUpHome` as the runtime's `readHome` does; nil: nothing is read.
    public var homeReader: (@Sendable () -> Msg?)?

    /// Actions started and not yet answered, oldest first (see AppHarness+Actions).
    public internal(set) var actionJobs: [ActionJob] = []
    /// The files the app asked to watch, last set.
    public private(set) var watchedFiles: [String] = []

    /// Work asked for by the form and the gallery, not yet answered (see AppHarness+Edit).
    public internal(set) var edits: [EditEffect] = []
    /// Every home screen the app asked to write to home.yaml, in order.
    public private(set) var written: [HomeConfig] = []

    public init(
        widgets: [Widget], home: HomeConfig, size: Size = Size(width: 80, height: 24), now: Date,
        timeZone: TimeZone = TimeZone(identifier: "UTC")!, theme: Theme = .dark,
        scheduler: Scheduler = Scheduler(), usage: UsageHistory = UsageHistory(),
        environment: [String: String] = [:]
    ) {
        clock = VirtualClock(now: now)
        state = AppState(
            environment: AppEnvironment(
                bundle: WidgetBundle(widgets), timeZone: timeZone,
                variables: environment), home: home,
            screen: size, theme: theme, alternateTheme: theme.isDark ? .light : .dark, now: now,
            scheduler: scheduler)
        state.restoreUsage(usage)
        send(.tick(now))
    }

    /// Sends one message through `update` and keeps its effects.
    @discardableResult
    public func send(_ msg: Msg) -> [Effect] {
        absorb(App.update(&state, msg))
    }

    /// Runs a step of the app on its state (a state function such as `Editing.changeHome`) and
    /// keeps its effects like `send` does.
    @discardableResult
    public func run(_ step: (inout AppState) -> [Effect]) -> [Effect] {
        absorb(step(&state))
    }

    private func absorb(_ fx: [Effect]) -> [Effect] {
        for e in fx {
            switch e {
            case .startLoad(let job): loads.append(job)
            case .cancelLoad(_, let token): loads.removeAll { $0.token == token }
            case .openURL(let url): opened.append(url)
            case .redraw: redraws += 1
            case .bell: bells += 1
            case .saveUsage(let u): savedUsage = u
            case .perform(let job): actionJobs.append(job)
            case .watchFiles(let paths): watchedFiles = paths
            case .edit(let e): edits.append(e)
            case .writeHome(let h): written.append(h)
            case .reply(let reply, let text): reply.fulfil(text)
            default: break
            }
        }
        effects += fx
        for case .writeHome(let home) in fx {
            homeWrites.append(home)
            if let homeWriter { send(.homeWritten(home, homeWriter(home, state.homeFile))) }
        }
        for case .catchUpHome(let next) in fx {
            if let m = homeReader?() { send(m) }
            send(next)
        }
        return fx
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
        let job = loads.remove(at: i)
        send(
            .loaded(
                id: id, token: job.token,
                result: .success(AnyTimeline(entries: entries.map { AnyEntry($0) }, policy: policy))))
    }

    /// Answers the oldest load of `id` with an error.
    public func fail(_ id: String, _ error: any Error) {
        guard let i = loads.firstIndex(where: { $0.id == id }) else { return }
        let job = loads.remove(at: i)
        send(.loaded(id: id, token: job.token, result: .failure(error)))
    }

    /// Answers every open load by running its provider for real (for local widgets).
    public func runLoads() async {
        while !loads.isEmpty {
            let job = loads.removeFirst()
            send(.loaded(id: job.id, token: job.token, result: await Loads.run(job)))
        }
    }

    /// Sets what the app knows of its home.yaml (as the executable does at start).
    public func useHomeFile(_ file: HomeFileState?) { state.homeFile = file }

    public var frame: HomeFrame { AppView.render(state) }
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
