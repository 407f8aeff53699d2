import Foundation
import DashWidgets
import DashApp
import DashHome
import DashRuntime

extension AppHarness {
    /// The oldest unanswered action of an instance.
    public func actionJob(of id: String) -> ActionJob? { actionJobs.first { $0.instanceID == id } }

    /// Answers the oldest action of `id`: done, with the action that undoes it (if any).
    public func finishAction<A: Encodable>(_ id: String, inverse: A?) {
        answerAction(id, .success(inverse.map { ActionPayload($0) }))
    }

    /// Answers the oldest action of `id` with an error.
    public func failAction(_ id: String, _ error: any Error) {
        answerAction(id, .failure(error))
    }

    /// Answers the oldest action of `id` with `result`.
    public func answerAction(_ id: String, _ result: Result<ActionPayload?, any Error>) {
        guard let i = actionJobs.firstIndex(where: { $0.instanceID == id }) else { return }
        let job = actionJobs.remove(at: i)
        send(.performed(id: job.instanceID, actionID: job.id, result: result))
    }

    /// Runs every open action for real, in order, and feeds the results back.
    public func runActions() async {
        while !actionJobs.isEmpty {
            let job = actionJobs.removeFirst()
            send(.performed(id: job.instanceID, actionID: job.id, result: await Actions.run(job)))
        }
    }

    /// Presses the control titled `title` in a tile, as a click on it does.
    public func click(tile: String, control title: String) {
        guard let c = frame.controlRegions[tile]?.first(where: { $0.control.title == title }) else { return }
        send(.tick(clock.now))
        send(.control(tile: tile, control: c.control))
    }
}
