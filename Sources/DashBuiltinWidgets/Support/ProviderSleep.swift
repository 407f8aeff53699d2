import Foundation

/// How a provider waits a while (the system monitor's first sample, which reads twice a moment
/// apart). Anywhere it is `Task.sleep`. The provider host sets its own (`HostExecutor.sleep`):
/// there `Task.sleep` would start libdispatch's worker pool, whose monitor then wakes the host
/// once a second for as long as it lives (decision 21), beside a sample every two seconds.
public enum ProviderSleep {
    public typealias Sleeper = @Sendable (Duration) async throws -> Void

    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed: Sleeper?

    /// The process's sleeper from now on (the provider host's, once at its start); nil: `Task.sleep`.
    public static func install(_ sleeper: Sleeper?) { lock.withLock { installed = sleeper } }

    /// Waits `duration` (throws `CancellationError` when the task is cancelled meanwhile).
    public static func sleep(for duration: Duration) async throws {
        if let sleeper = lock.withLock({ installed }) {
            try await sleeper(duration)
        } else {
            try await Task.sleep(for: duration)
        }
    }
}
