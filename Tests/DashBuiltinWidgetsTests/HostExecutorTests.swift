import XCTest
import Foundation
@testable import DashNetworking
import DashTestSupport

/// The provider host's own thread for providers (issue 35.1): tasks with its preference run
/// there, and their sleeps (`ProviderSleep` in the host) wait on its timers, not on Swift's pool.
final class HostExecutorTests: XCTestCase {
    final class Threads: @unchecked Sendable {
        let lock = NSLock()
        var names: [String] = []
        func note() { lock.withLock { names.append(Thread.current.name ?? "?") } }
    }

    func testATaskRunsOnTheProvidersThreadBeforeAndAfterItsSleep() async throws {
        let executor = HostExecutor(name: "providers test")
        let seen = Threads()
        try await Task.detached(executorPreference: executor) {
            seen.note()
            try await executor.sleep(.milliseconds(1))
            seen.note()
        }.value
        XCTAssertEqual(seen.names, ["providers test", "providers test"])
    }

    func testACancelledSleepEndsAtOnceWithCancellation() async throws {
        let executor = HostExecutor(name: "providers cancel")
        let seen = Threads()
        let task = Task.detached(executorPreference: executor) { () -> Bool in
            do {
                seen.note()
                try await executor.sleep(.seconds(3600))
                return false
            } catch {
                return error is CancellationError
            }
        }
        XCTAssertTrue(Eventually.wait { seen.lock.withLock { !seen.names.isEmpty } }, "the task did not start")
        task.cancel()
        let cancelled = await task.value
        XCTAssertTrue(cancelled, "an hour's sleep, cancelled, ends with CancellationError")
    }
}
