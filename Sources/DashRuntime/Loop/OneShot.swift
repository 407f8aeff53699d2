import Foundation
import DashWidgets
import DashScheduler
import DashApp
import DashHome

/// Loading data once, outside the live runtime (`render`): the same scheduler and `update`
/// as the home screen, with every load run to completion before drawing.
public enum OneShot {
    /// Where `render` takes each widget's data from.
    public enum DataSource: String, Sendable, CaseIterable {
        /// Real timelines for every widget (network widgets go to the network).
        case live
        /// Real timelines for local widgets; for network ones the cached timeline (restored into
        /// the scheduler by the caller) when there is one, else sample data (the preview
        /// snapshot), and the tile says "sample".
        case sample
    }

    /// An effect a one-shot command does not run, and why (`OneShotRunner`).
    public struct Refusal: Sendable, Equatable, CustomStringConvertible {
        /// The effect, as `Effect.description` names it.
        public var effect: String
        public var reason: String
        public var description: String { "\(effect): \(reason)" }
    }

    /// Runs the loads the scheduler asks for at `state.now`, concurrently, and feeds their
    /// results back through `App.update`. Returns the effects it did not run, and why.
    @discardableResult
    public static func load(_ state: inout AppState, source: DataSource) async -> [Refusal] {
        var (jobs, refused) = Self.jobs(&state, after: .tick(state.now))
        // A cached timeline with nothing to show at `now` (drawn as of a time before the home
        // screen last ran) is loaded again rather than drawn as a placeholder.
        let blank = state.scheduler.instanceIDs.filter { id in
            !state.scheduler.isLoading(id) && state.scheduler.currentEntry(id, at: state.now)?.isPlaceholder != false
        }
        for id in blank {
            let more = Self.jobs(&state, after: .widgetCenter(.reloadInstance(id)))
            jobs += more.jobs
            refused += more.refused
        }
        typealias Outcome = (job: LoadJob, result: Result<AnyTimeline, any Error>, sample: Bool)
        // At most `Runtime.maxLoadsInFlight` at once, as in the home screen (a command widget
        // starts a process per load): the next starts as one ends.
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            var waiting = jobs[...]
            func start(_ job: LoadJob) {
                let shown = state.scheduler.currentEntry(job.id, at: state.now)
                let cached = shown?.isPlaceholder == false ? shown?.entry : nil
                group.addTask {
                    let widget = job.request.widget
                    if source == .sample && widget.cost(for: job.request.configuration) == .budgeted {
                        // What the cache held is drawn as it is, not replaced by a sample.
                        if let cached {
                            return (job, .success(AnyTimeline(entries: [cached], policy: .never)), false)
                        }
                        var ctx = job.context
                        ctx.isPreview = true
                        let entry = await widget.snapshot(for: job.request.configuration, in: ctx)
                        return (job, .success(AnyTimeline(entries: [entry], policy: .never)), true)
                    }
                    return (job, await Loads.run(job), false)
                }
            }
            for job in waiting.prefix(Runtime.maxLoadsInFlight) { start(job) }
            waiting = waiting.dropFirst(Runtime.maxLoadsInFlight)
            var out: [Outcome] = []
            for await o in group {
                out.append(o)
                if let job = waiting.popFirst() { start(job) }
            }
            return out
        }
        _ = App.update(
            &state,
            batch: outcomes.map { o in
                if o.sample, case .success(let timeline) = o.result {
                    return .sampled(id: o.job.id, token: o.job.token, timeline: timeline)
                }
                return .loaded(id: o.job.id, token: o.job.token, result: o.result)
            })
        return refused
    }

    /// The cached timelines `render` draws: those of network widgets. A local widget (the
    /// clock, the system monitor) runs its real timeline at the time asked for instead.
    public static func networkRecords(_ snapshot: SchedulerSnapshot, bundle: WidgetBundle) -> SchedulerSnapshot {
        var out = snapshot
        out.records = snapshot.records.filter { _, r in
            bundle[r.kind].map { $0.cost(for: r.configuration) == .budgeted } ?? false
        }
        return out
    }

    /// The loads `msg` asks for, with the secrets' commands they wait for run first (all at
    /// once, each to its end or its timeout) and their outcomes fed back through `App.update`,
    /// until none is asked for; every effect goes through the one interpreter. `refuseLoad` says
    /// why a load is not wanted (nil: it is).
    public static func jobs(
        _ state: inout AppState, after msg: Msg, refuseLoad: @escaping (LoadJob) -> String? = { _ in nil }
    ) -> (jobs: [LoadJob], refused: [Refusal]) {
        let runner = OneShotRunner(refuseLoad: refuseLoad)
        EffectInterpreter.run(App.update(&state, msg), on: runner)
        while !runner.secretCommands.isEmpty {
            let commands = runner.secretCommands
            runner.secretCommands = []
            let env = ProcessInfo.processInfo.environment
            let lock = NSLock()
            nonisolated(unsafe) var results: [Int: Result<SecretText, SecretCommandFailure>] = [:]
            DispatchQueue.concurrentPerform(iterations: commands.count) { i in
                let r = SecretCommandRunner.run(commands[i], environment: env)
                lock.lock()
                results[i] = r
                lock.unlock()
            }
            let fx = App.update(
                &state, batch: commands.indices.map { .secretCommandFinished(commands[$0], results[$0]!) })
            EffectInterpreter.run(fx, on: runner)
        }
        return (runner.loads, runner.refused)
    }
}

/// How a one-shot command (`render`, `timeline`) runs effects: it collects the loads and the
/// secrets' commands, which it runs to their end before drawing or printing once, and refuses
/// what needs the live home screen (a terminal, a browser, the files it owns), saying why.
final class OneShotRunner: EffectRunner {
    private let refuseLoad: (LoadJob) -> String?
    private(set) var loads: [LoadJob] = []
    var secretCommands: [SecretCommand] = []
    private(set) var refused: [OneShot.Refusal] = []

    init(refuseLoad: @escaping (LoadJob) -> String?) { self.refuseLoad = refuseLoad }

    private func refuse(_ effect: Effect, _ reason: String) {
        refused.append(OneShot.Refusal(effect: effect.description, reason: reason))
    }

    func startLoad(_ job: LoadJob) {
        if let reason = refuseLoad(job) { refuse(.startLoad(job), reason) } else { loads.append(job) }
    }

    func cancelLoad(id: String, token: UInt64) {
        refuse(.cancelLoad(id: id, token: token), "a one-shot command runs every load it starts to its end")
    }

    func saveCache(_ records: [InstanceRecord]) {
        refuse(.saveCache(records), "a one-shot command leaves the cache to the home screen")
    }

    func openURL(_ url: String) { refuse(.openURL(url), "a one-shot command opens no browser") }

    /// The command draws (or prints) once, after its loads.
    func redraw(full: Bool) {}

    func log(_ line: String) { refuse(.log(line), "a one-shot command keeps no log file") }

    /// The command ends by itself after drawing once.
    func quit() {}

    func saveUsage(_ usage: UsageHistory) {
        refuse(.saveUsage(usage), "a one-shot command leaves Smart Stacks' history to the home screen")
    }

    func bell() { refuse(.bell, "a one-shot command has no terminal to ring") }

    func loadTheme(_ name: String) { refuse(.loadTheme(name), "the command's theme is chosen before it starts") }

    func writeHome(_ home: HomeConfig) { refuse(.writeHome(home), "a one-shot command never writes home.yaml") }

    func perform(_ job: ActionJob) { refuse(.perform(job), "a one-shot command runs no widget action") }

    func watchFiles(_ paths: [String]) { refuse(.watchFiles(paths), "a one-shot command watches no file") }

    func edit(_ work: EditEffect) { refuse(.edit(work), "a one-shot command has no form or gallery") }

    func reply(_ answer: any ControlAnswer, _ text: String) {
        refuse(.reply(answer, text), "a one-shot command has no control socket")
    }

    func catchUpHome(then next: Msg) {
        refuse(.catchUpHome(then: next), "a one-shot command reads home.yaml once, before it starts")
    }

    func runSecretCommand(_ command: SecretCommand) { secretCommands.append(command) }

    func scanExtensions() { refuse(.scanExtensions, "a one-shot command watches no widgets folder") }

    func refreshTmuxStatus() { refuse(.refreshTmuxStatus, "a one-shot command has no tmux status line") }

    func drawActivity(_ job: ActivityViewJob) { refuse(.drawActivity(job), "a one-shot command shows no activity strip") }
}
