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

    /// Runs the loads the scheduler asks for at `state.now`, concurrently, and feeds their
    /// results back through `App.update`.
    public static func load(_ state: inout AppState, source: DataSource) async {
        var effects = App.update(&state, .tick(state.now))
        // A cached timeline with nothing to show at `now` (drawn as of a time before the home
        // screen last ran) is loaded again rather than drawn as a placeholder.
        let blank = state.scheduler.instanceIDs.filter { id in
            !state.scheduler.isLoading(id) && state.scheduler.currentEntry(id, at: state.now)?.isPlaceholder != false
        }
        if !blank.isEmpty {
            for id in blank { state.scheduler.reload(id) }
            effects += App.update(&state, .tick(state.now))
        }
        let jobs = resolvingSecrets(&state, effects).compactMap { e -> LoadJob? in
            if case .startLoad(let j) = e { return j }
            return nil
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
        for o in outcomes where o.sample { state.sampleInstances.insert(o.job.id) }
        _ = App.update(&state, batch: outcomes.map { .loaded(id: $0.job.id, token: $0.job.token, result: $0.result) })
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

    /// `effects` with the secrets' commands they ask for run (all at once, each to its end or its
    /// timeout) and their outcomes fed back through `App.update`, until none is asked for: the
    /// loads that waited for them come out with the others.
    public static func resolvingSecrets(_ state: inout AppState, _ effects: [Effect]) -> [Effect] {
        var out: [Effect] = []
        var pending = effects
        while true {
            var commands: [SecretCommand] = []
            for e in pending {
                if case .runSecretCommand(let c) = e { commands.append(c) } else { out.append(e) }
            }
            guard !commands.isEmpty else { return out }
            let env = ProcessInfo.processInfo.environment
            let lock = NSLock()
            nonisolated(unsafe) var results: [Int: Result<SecretText, SecretCommandFailure>] = [:]
            let asked = commands
            DispatchQueue.concurrentPerform(iterations: asked.count) { i in
                let r = SecretCommandRunner.run(asked[i], environment: env)
                lock.lock()
                results[i] = r
                lock.unlock()
            }
            pending = App.update(
                &state, batch: commands.indices.map { .secretCommandFinished(commands[$0], results[$0]!) })
        }
    }
}
