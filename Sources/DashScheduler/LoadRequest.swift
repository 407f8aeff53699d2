import Foundation
import DashWidgets

/// A timeline load the runtime has to perform: call `widget.timeline(for:in:)` (DashApp's
/// `Loads.run` does it), then report the result with `Scheduler.loadFinished(_:token:result:at:)`.
public struct LoadRequest: Sendable {
    public let id: InstanceID
    /// Identifies this load; a result with another token is ignored.
    public let token: UInt64
    public let reason: LoadReason
    public let widget: Widget
    /// Variable so the runtime's job can carry secrets a command printed (never the scheduler's copy).
    public var configuration: WidgetConfig
    public let family: WidgetFamily
    public let startedAt: Date
    /// When the load counts as failed if no result came.
    public let deadline: Date

    public var kind: String { widget.kind }
}

/// What happened to a reported load result.
public enum LoadOutcome: Sendable, Hashable {
    /// The timeline was taken.
    case applied
    /// The load failed; the last good timeline stays, marked stale; a retry is scheduled.
    case failed(message: String)
    /// The result was ignored: unknown instance, a token that is not the one in flight
    /// (timed out, or superseded), or a load made for a configuration since changed.
    case ignored
}

/// The load failed because the provider did not answer in time.
public struct LoadTimeoutError: Error, Sendable, Hashable, CustomStringConvertible {
    public var timeout: TimeInterval
    public init(timeout: TimeInterval) { self.timeout = timeout }
    public var description: String { "timed out after \(formatSeconds(timeout))" }
}

func formatSeconds(_ t: TimeInterval) -> String {
    if t == t.rounded(), abs(t) < 1e15 { return "\(Int(clamping: t)) s" }
    return "\(t) s"
}

/// The message a failure is shown with (the provider host words its failures the same way).
func errorMessage(_ error: any Error) -> String { RemoteFailure.message(error) }
