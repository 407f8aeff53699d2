import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashApp
import DashHome

// MARK: - The runtime's side

extension Runtime {
    /// Runs an action on a thread of its own (like a load) with the widget's action timeout,
    /// and posts the result.
    @Sendable public static func concurrentPerform(_ job: ActionJob, _ inbox: Inbox) {
        if let perform = job.widget.remote?.perform {
            OffLoopThread.start("action \(job.instanceID)") {
                let result = Result { try perform(job.action, job.configuration, job.context) }
                inbox.post(.performed(id: job.instanceID, actionID: job.id, result: result))
            }
            return
        }
        let executor = LoadThreadExecutor(name: "action \(job.instanceID)")
        Task.detached(executorPreference: executor) {
            defer { executor.finish() }
            let result = await Actions.run(job)
            inbox.post(.performed(id: job.instanceID, actionID: job.id, result: result))
        }
    }

    /// The control the last frame drew at `p`, if any.
    func control(at p: Point) -> (String, TileControl)? {
        guard let frame = lastFrame else { return nil }
        for (tile, regions) in frame.controlRegions {
            if let r = regions.first(where: { $0.rect.contains(p) }) { return (tile, r.control) }
        }
        return nil
    }
}

extension Actions {
    /// Runs a job's action with the widget's action timeout (`LoadTimeoutError` past it).
    public static func run(_ job: ActionJob) async -> Result<ActionPayload?, any Error> {
        do {
            return .success(
                try await Loads.withTimeout(job.timeout) {
                    try await job.widget.perform(job.action, configuration: job.configuration, in: job.context)
                })
        } catch {
            return .failure(error)
        }
    }
}
