import Foundation
import DashWidgets
import DashSpawn
#if canImport(Glibc)
    import Glibc
#endif

/// `Effect.refreshTmuxStatus`: runs `tmux refresh-client -S` so tmux runs the status line's
/// `#(swiftdash snapshot --line …)` again now, not at its next `status-interval` (decision 51).
/// No shell, argv only; standard input, output and error are /dev/null; in a session of its own
/// (it never touches the home screen's terminal); fire and forget: a short thread waits for it
/// so no zombie stays, and how it ended is not looked at. The app asks at most once a second.
public enum TmuxStatus {
    /// The argv run (the program found on `$PATH`).
    public static let arguments = ["refresh-client", "-S"]

    /// Starts the refresh; nothing when $TMUX is unset or there is no tmux on `$PATH`. Returns
    /// the thread's wait, for tests (nil: nothing was started).
    @discardableResult
    public static func refresh(environment: [String: String]) -> DispatchSemaphore? {
        guard environment["TMUX"] != nil,
            let exe = Browser.executable("tmux", path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        else { return nil }
        // One at a time: a tmux that hangs does not collect threads.
        guard
            running.withLock({ () -> Bool in
                if runningNow { return false }
                runningNow = true
                return true
            })
        else { return nil }
        let done = DispatchSemaphore(value: 0)
        OffLoopThread.start("tmux refresh", stackSize: 128 * 1024) {
            run(exe.path, environment: environment)
            running.withLock { runningNow = false }
            done.signal()
        }
        return done
    }

    private static let running = NSLock()
    nonisolated(unsafe) private static var runningNow = false

    /// Spawns `path refresh-client -S` and waits for it.
    static func run(_ path: String, environment: [String: String]) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        _ = SpawnActions.addClosefrom?(&actions, 3)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        SpawnSession.apply(&attr)
        let argv = SpawnStrings.argv([path] + arguments)
        let envp = SpawnStrings.envp(environment)
        defer {
            SpawnStrings.release(argv)
            SpawnStrings.release(envp)
        }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, &attr, argv, envp) == 0 else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
