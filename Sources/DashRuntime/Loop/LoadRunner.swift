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

    /// Runs a widget's timeline provider with the widget's timeout. Every load passes here, so
    /// here the secrets it sent are masked out of what it brought back (issue 37.4): the entries
    /// (and so the tile, `snapshot`, the cache) and the error (the tile, `timeline`, the log).
    public static func run(
        _ widget: Widget, configuration: WidgetConfig,
        in context: TimelineContext
    ) async -> Result<AnyTimeline, any Error> {
        let secrets = SecretMask.of(configuration, schema: widget.schema, environment: context.environment)
        do {
            let t = try await withTimeout(widget.timeout) {
                try await widget.timeline(for: configuration, in: context)
            }
            guard let entries = secrets.masking(t.entries, of: widget) else {
                return .failure(MaskedFailure("the answer held a secret, and the widget could not show it masked"))
            }
            return .success(AnyTimeline(entries: entries, policy: t.policy))
        } catch {
            let text = String(describing: error), said = (error as? LocalizedError)?.errorDescription ?? ""
            guard secrets.finds(in: text) || secrets.finds(in: said) else { return .failure(error) }
            return .failure(MaskedFailure(secrets.mask(said.isEmpty ? text : said)))
        }
    }

    /// Runs the load a scheduler asked for.
    public static func run(_ job: LoadJob) async -> Result<AnyTimeline, any Error> {
        await run(job.request.widget, configuration: job.request.configuration, in: job.context)
    }
}
