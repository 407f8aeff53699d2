import Foundation
import DashWidgets
import DashSpawn
import DashApp
#if canImport(Glibc)
    import Glibc
#endif

/// Runs a secret's command (decision 48): no shell unless the file asked for one, stdin from
/// /dev/null, a session of its own (no controlling terminal: a passphrase prompt cannot take
/// over the screen, and the timeout ends everything it started), signals at their defaults, no
/// descriptor past 2 inherited. Standard output is read up to `outputCap` and its first line,
/// trimmed, is the value; standard error only gives a failure's reason. Nothing it printed is
/// logged.
public enum SecretCommandRunner {
    /// Standard output past this is not a secret: the command is stopped and refused.
    public static let outputCap = 64 * 1024
    /// What is kept of standard error for the reason of a failure.
    static let errorCap = 4 * 1024

    /// Runs `command` on a thread of its own and posts `.secretCommandFinished` to `inbox`.
    public static func post(
        _ command: SecretCommand, environment: [String: String], groups: RunningGroups = running, to inbox: Inbox
    ) {
        OffLoopThread.start("swiftdash secret") {
            inbox.post(.secretCommandFinished(command, run(command, environment: environment, groups: groups)))
        }
    }

    /// Runs `command` to its end (or its timeout) on the calling thread, its process group noted
    /// in `groups` while it runs.
    public static func run(
        _ command: SecretCommand, environment: [String: String], groups: RunningGroups = running
    ) -> Result<
        SecretText, SecretCommandFailure
    > {
        let argv = command.command
        guard let program = argv.first, !program.isEmpty else { return .failure(SecretCommandFailure("is empty")) }
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard systemPipe2(&out, O_CLOEXEC) == 0 else {
            return .failure(SecretCommandFailure("could not start: no pipe"))
        }
        guard systemPipe2(&err, O_CLOEXEC) == 0 else {
            out.forEach { close($0) }
            return .failure(SecretCommandFailure("could not start: no pipe"))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        _ = SpawnActions.addClosefrom?(&actions, 3)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        SpawnSession.apply(&attr)
        let cArgs = SpawnStrings.argv(argv)
        let cEnv = SpawnStrings.envp(environment)
        defer {
            SpawnStrings.release(cArgs)
            SpawnStrings.release(cEnv)
        }
        var pid: pid_t = 0
        let rc = groups.spawn {
            let rc = posix_spawnp(&pid, program, &actions, &attr, cArgs, cEnv)
            return (rc, pid)
        }
        close(out[1])
        close(err[1])
        defer {
            close(out[0])
            close(err[0])
        }
        guard rc == 0 else {
            let why = rc == ENOENT ? "no such program (check the name and PATH)" : String(cString: strerror(rc))
            return .failure(SecretCommandFailure("could not start: \(why)"))
        }
        let deadline = monotonic() + command.timeout
        var stdout: [UInt8] = [], stderr: [UInt8] = []
        var open = [out[0], err[0]]
        var tooLong = false, timedOut = false
        var chunk = [UInt8](repeating: 0, count: 16384)
        while !open.isEmpty {
            let left = deadline - monotonic()
            if left <= 0 {
                timedOut = true
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let r = poll(&fds, nfds_t(fds.count), Int32(clamping: (left * 1000).rounded(.up), to: 1...1000, nan: 1))
            if r < 0 && errno != EINTR { break }
            for p in fds where p.revents != 0 {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(p.fd, $0.baseAddress, $0.count) }
                if n <= 0 {
                    if n == 0 || (errno != EINTR && errno != EAGAIN) { open.removeAll { $0 == p.fd } }
                    continue
                }
                if p.fd == out[0] {
                    stdout.append(contentsOf: chunk[0..<n])
                    if stdout.count > outputCap { tooLong = true }
                } else if stderr.count < errorCap {
                    stderr.append(contentsOf: chunk[0..<min(n, errorCap - stderr.count)])
                }
            }
            if tooLong { break }
        }
        if tooLong || timedOut { stop(pid) }
        var status: Int32 = 0
        while true {
            if groups.reap(pid, &status) { break }
            if monotonic() >= deadline && !timedOut {
                timedOut = true
                stop(pid)
            } else {
                usleep(2000)
            }
        }
        // Zeroed before it goes: the bytes of a secret do not stay in freed memory longer than needed.
        defer { for i in stdout.indices { stdout[i] = 0 } }
        if timedOut {
            return .failure(
                SecretCommandFailure(
                    "did not finish within \(Int(clamping: command.timeout)) s (it may be waiting for a passphrase: "
                        + "unlock your keyring or agent first)"))
        }
        if tooLong {
            return .failure(SecretCommandFailure("printed more than \(outputCap / 1024) KB; a secret is one line"))
        }
        let reason = firstLine(stderr).map { " (\(String($0.prefix(120))))" } ?? ""
        if status & 0x7f != 0 { return .failure(SecretCommandFailure("was ended by signal \(status & 0x7f)\(reason)")) }
        let code = (status >> 8) & 0xff
        if code != 0 { return .failure(SecretCommandFailure("exited with status \(code)\(reason)")) }
        guard let value = firstLine(stdout), !value.isEmpty else {
            return .failure(SecretCommandFailure("printed nothing\(reason)"))
        }
        return .success(SecretText(value))
    }

    /// The first line of `bytes` as UTF-8, spaces and a carriage return trimmed; nil when empty.
    static func firstLine(_ bytes: [UInt8]) -> String? {
        let line =
            bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// Where commands run without a runtime of their own are noted (`render --live`, which waits
    /// for them). A runtime notes its own in `RuntimeServices.secretCommands` and ends them at quit.
    public static let running = RunningGroups()

    /// Ends the command's session: SIGTERM, a tenth of a second, then SIGKILL.
    static func stop(_ pid: pid_t) {
        kill(-pid, SIGTERM)
        usleep(100_000)
        kill(-pid, SIGKILL)
    }

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// Spawn attributes for a child in a session of its own (no controlling terminal, its own
/// process group for a kill of everything it started), every signal at its default and none
/// blocked: extensions and secrets' commands.
enum SpawnSession {
    static func apply(_ attr: inout posix_spawnattr_t) {
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setflags(&attr, Int16(0x80 | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))  // 0x80: SETSID
    }
}

/// The process groups of running commands. A group is noted under the lock that spawns it and
/// forgotten under the lock that reaps its leader, so `stopAll` never signals a group that is
/// not there yet or whose number may have been given to another process.
public final class RunningGroups: @unchecked Sendable {
    private let lock = NSLock()
    private var groups: Set<pid_t> = []
    private var stopped = false

    public init() {}

    /// Runs `spawn` (posix_spawn's result and the new session leader's pid) and notes the group;
    /// after `stopAll` the new group is killed at once. posix_spawn's result.
    func spawn(_ spawn: () -> (Int32, pid_t)) -> Int32 {
        lock.withLock {
            let (rc, pid) = spawn()
            guard rc == 0 else { return rc }
            groups.insert(pid)
            if stopped { kill(-pid, SIGKILL) }
            return rc
        }
    }

    /// waitpid(pid, WNOHANG): whether the leader is gone (reaped, or not our child), forgetting
    /// its group then.
    func reap(_ pid: pid_t, _ status: inout Int32) -> Bool {
        lock.withLock {
            let w = waitpid(pid, &status, WNOHANG)
            let gone = w == pid || (w < 0 && errno == ECHILD)
            if gone { groups.remove(pid) }
            return gone
        }
    }

    public func stopAll() {
        lock.withLock {
            stopped = true
            for pid in groups { kill(-pid, SIGKILL) }
        }
    }

    var count: Int { lock.withLock { groups.count } }
}
