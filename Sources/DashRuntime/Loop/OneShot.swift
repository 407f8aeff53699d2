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
        /// Real timelines for local widgets; sample data (the preview snapshot) for network ones.
        case sample
    }

    /// Runs the loads the scheduler asks for at `state.now`, concurrently, and feeds their
    /// results back through `App.update`.
    public static func load(_ state: inout AppState, source: DataSource) async {
        let jobs = App.update(&state, .tick(state.now)).compactMap { e -> LoadJob? in
            if case .startLoad(let j) = e { return j }
            return nil
        }
        typealias Outcome = (job: LoadJob, result: Result<AnyTimeline, any Error>, sample: Bool)
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for job in jobs {
                group.addTask {
                    let widget = job.request.widget
                    if source == .sample && widget.cost(for: job.request.configuration) == .budgeted {
                        var ctx = job.context
                        ctx.isPreview = true
                        let entry = await widget.snapshot(for: job.request.configuration, in: ctx)
                        return (job, .success(AnyTimeline(entries: [entry], policy: .never)), true)
                    }
                    return (job, await Loads.run(job), false)
                }
            }
            var out: [Outcome] = []
            for await o in group { out.append(o) }
            return out
        }
        for o in outcomes where o.sample { state.sampleInstances.insert(o.job.id) }
        _ = App.update(&state, batch: outcomes.map { .loaded(id: $0.job.id, token: $0.job.token, result: $0.result) })
    }
}
