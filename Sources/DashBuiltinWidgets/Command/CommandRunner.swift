import Foundation
import DashWidgets
import DashSpawn
#if canImport(Glibc)
    import Glibc
#endif

/// pipe2(2), hidden by Swift's Glibc module (it is a GNU extension); in glibc since 2.9.
/// Both ends close on exec, atomically, so no other spawn in this process inherits them.
@_silgen_name("pipe2")
private func sd_pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// What one run of a command produced.
struct CommandResult: Sendable, Hashable {
    enum Ending: Sendable, Hashable {
        case exited(Int32)
        case signalled(Int32)
    }
    /// Standard output and standard error, interleaved as written, at most the cap.
    var output: [UInt8]
    /// The output passed the cap: the process group was stopped there.
    var truncated: Bool
    var ending: Ending
    /// The timeout passed: the process group was killed.
    var timedOut: Bool
    /// The command itself had exited when the timeout passed: what held its output open was a
    /// process it left running (`sleep 100 &`), killed with the group.
    var backgroundHeldOutput = false
    /// Seconds from start to end.
    var duration: Double
}

extension CommandResult {
    /// What a tile says when the command exited but a process it left in the background kept
    /// its output open until the timeout.
    static func heldOutputMessage(_ program: String, seconds: Int) -> String {
        "\(program) exited, but a process it left running in the background kept its output open; "
            + "killed after \(seconds) s (send that process's output elsewhere: cmd > /dev/null 2>&1 &)"
    }
}

/// Why a command could not give an answer. Thrown from the provider, so the scheduler
/// keeps the last good output on screen with a stale mark and this message.
struct CommandError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    var message: String
    init(_ message: String) { self.message = TextSanitizer.singleLine(message) }
    var description: String { message }
    var errorDescription: String? { message }
}

/// Runs one command with posix_spawn: its own process group (so a timeout kills what it
/// started too), stdin from /dev/null, stdout and stderr into one pipe read with a cap
/// and a deadline, signals reset to their defaults and no inherited descriptors past 2.
enum CommandRunner {
    /// Seconds on the monotonic clock (durations and deadlines only).
    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Runs `argv` on a worker thread and returns when it has ended (never earlier than
    /// its process has been waited for).
    static func run(
        _ argv: [String], directory: String?, environment: [String: String], timeout: Double,
        outputCap: Int
    ) async throws -> CommandResult {
        try await withCheckedThrowingContinuation { (cont: CheckedContinuation<CommandResult, Error>) in
            DispatchQueue.global().async {
                do {
                    cont.resume(
                        returning: try runBlocking(
                            argv, directory: directory, environment: environment,
                            timeout: timeout, outputCap: outputCap))
                } catch {
                    cont.resume(throwing: error)
                }
            }
        }
    }

    static func runBlocking(
        _ argv: [String], directory: String?, environment: [String: String], timeout: Double,
        outputCap: Int
    ) throws -> CommandResult {
        guard let program = argv.first, !program.isEmpty else { throw CommandError("no command given") }
        let start = monotonic()
        let deadline = start + timeout

        var fds: [Int32] = [-1, -1]
        guard sd_pipe2(&fds, O_CLOEXEC) == 0 else { throw CommandError("cannot make a pipe: \(errorText(errno))") }
        let readEnd = fds[0], writeEnd = fds[1]
        var readOpen = true
        defer { if readOpen { close(readEnd) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        if let directory, !directory.isEmpty {
            guard let addChdir = SpawnActions.addChdir else {
                close(writeEnd)
                throw CommandError("a working directory needs glibc 2.29 or later")
            }
            _ = addChdir(&actions, directory)
        }
        _ = SpawnActions.addClosefrom?(&actions, 3)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attr, 0)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attr, &none)
        // Signals this process ignores (SIGPIPE) would stay ignored in the child: reset them.
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attr, &all)

        let cArgs = SpawnStrings.argv(argv)
        defer { SpawnStrings.release(cArgs) }
        let cEnv = SpawnStrings.envp(environment)
        defer { SpawnStrings.release(cEnv) }

        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, program, &actions, &attr, cArgs, cEnv)
        close(writeEnd)
        guard rc == 0 else {
            switch rc {
            case ENOENT:
                if let directory, !directory.isEmpty, access(directory, F_OK) != 0 {
                    throw CommandError("cannot run \(program): no folder \(directory)")
                }
                throw CommandError("cannot run \(program): no such program (check the name and PATH)")
            case EACCES: throw CommandError("cannot run \(program): permission denied")
            default: throw CommandError("cannot run \(program): \(errorText(rc))")
            }
        }

        var output: [UInt8] = []
        var truncated = false
        var timedOut = false
        var chunk = [UInt8](repeating: 0, count: 16384)
        reading: while true {
            let left = deadline - monotonic()
            if left <= 0 {
                timedOut = true
                break
            }
            var p = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(clamping: (left * 1000).rounded(.up), to: 1...1000, nan: 1))
            if r < 0 {
                if errno == EINTR { continue }
                break
            }
            if r == 0 { continue }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                break
            }
            if n == 0 { break }  // every writer closed the pipe
            let room = outputCap - output.count
            if n > room {
                output.append(contentsOf: chunk[0..<max(0, room)])
                truncated = true
                break reading
            }
            output.append(contentsOf: chunk[0..<n])
        }
        close(readEnd)
        readOpen = false

        // The pipe is done; the command itself may still run (it closed its output).
        var status: Int32 = 0
        var backgroundHeldOutput = false
        if timedOut, waitpid(pid, &status, WNOHANG) == pid {
            // The command had exited; a child it left in the background kept the pipe open.
            backgroundHeldOutput = true
            stopGroup(pid)
        } else if truncated || timedOut {
            stopGroup(pid)
        }
        while !backgroundHeldOutput {
            let w = waitpid(pid, &status, WNOHANG)
            if w == pid { break }
            if w < 0 && errno != EINTR { break }
            if monotonic() >= deadline && !timedOut && !truncated {
                timedOut = true
                stopGroup(pid)
                continue
            }
            usleep(5000)
        }
        let sig = status & 0x7f
        let ending: CommandResult.Ending = sig == 0 ? .exited((status >> 8) & 0xff) : .signalled(sig)
        return CommandResult(
            output: output, truncated: truncated, ending: ending, timedOut: timedOut,
            backgroundHeldOutput: backgroundHeldOutput, duration: monotonic() - start)
    }

    /// Ends the command's process group: SIGTERM, a tenth of a second to tidy up, then
    /// SIGKILL for whatever is left (the leader is reaped by the caller).
    static func stopGroup(_ pid: pid_t) {
        kill(-pid, SIGTERM)
        usleep(100_000)
        kill(-pid, SIGKILL)
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
