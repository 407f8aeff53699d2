import Foundation
import DashWidgets
import DashScheduler
import DashApp
import DashHome

/// Running providers, one way for every caller: the home screen, `render`, `preview` and
/// `timeline` (the pure part, the context a provider is asked in, is `Loads.context` in DashApp).
extension Loads {
    /// Runs `work`, giving up after `seconds` with `LoadTimeoutError`.
    public static func withTimeout<T: Sendable>(
        _ seconds: TimeInterval,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(clamping: seconds * 1_000_000_000))
                throw LoadTimeoutError(timeout: seconds)
            }
            guard let first = try await group.next() else { throw LoadTimeoutError(timeout: seconds) }
            group.cancelAll()
            return first
        }
    }

    /// Runs a widget's timeline provider with the widget's timeout.
    public static func run(
        _ widget: Widget, configuration: WidgetConfig,
        in context: TimelineContext
    ) async -> Result<AnyTimeline, any Error> {
        do {
            return .success(
                try await withTimeout(widget.timeout) {
                    try await widget.timeline(for: configuration, in: context)
                })
        } catch {
            return .failure(error)
        }
    }

    /// Runs the load a scheduler asked for.
    public static func run(_ job: LoadJob) async -> Result<AnyTimeline, any Error> {
        await run(job.request.widget, configuration: job.request.configuration, in: job.context)
    }
}
