import Foundation
import DashWidgets
import DashSpawn
import DashApp
import DashHome
#if canImport(Glibc)
    import Glibc
#endif

/// One extension executable, spoken to over pipes with the JSON-lines protocol. Requests are
/// serialised (one at a time per process). The process runs in its own session and process
/// group, with no terminal; a timeout, garbage, an oversized answer or a crash kills the whole
/// group, and the next request starts it again after a back-off. Every method blocks its caller:
/// call it from a load's own thread, never from the main loop.
public final class ExtensionProcess: @unchecked Sendable {
    public let path: String
    /// Arguments after the path (the provider host's `--serve`).
    public let arguments: [String]
    public let limits: ExtensionLimits
    let environment: [String: String]
    /// The trampoline that makes the process die with this one (`ParentDeath`); nil, or a file
    /// that is not there, starts it directly. Set before the first request.
    public var launcher: String?
    let log: @Sendable (String) -> Void

    private let lock = NSLock()
    private var pid: pid_t = 0 {
        didSet { groupLock.withLock { group = pid } }
    }
    /// `pid`, readable while a request holds `lock` (`stop` during a hang).
    private let groupLock = NSLock()
    private var group: pid_t = 0
    private var stdinFD: Int32 = -1
    private var stdoutFD: Int32 = -1
    private var buffer: [UInt8] = []
    private var nextID = 1
    private var failures = 0
    private var restartAt: Double = 0
    private var lastProblem: String?
    /// The running process's stderr, for the fatal error it printed before it crashed.
    private var tail = StderrTail()
    /// How often the process was started (for tests and the log).
    public private(set) var starts = 0
    /// Whether a request now would be refused with "restarting in N s" (between requests; a
    /// test waits for the back-off to pass instead of sleeping its length).
    public var isBackingOff: Bool { lock.withLock { Self.monotonic() < restartAt } }
    /// Its executable was removed or replaced (`retire`): it is never started again.
    private var retired = false
    /// The Live Activity kinds its `describe` declared (it answers `activity` for them), set
    /// once when it is described, before anyone else sees it.
    public internal(set) var activityKinds: [String] = []

    public init(
        path: String, arguments: [String] = [], name: String? = nil, environment: [String: String],
        limits: ExtensionLimits = ExtensionLimits(), log: @escaping @Sendable (String) -> Void
    ) {
        self.path = path
        self.arguments = arguments
        self.name = name ?? URL(fileURLWithPath: path).lastPathComponent
        self.environment = environment
        self.limits = limits
        self.log = log
        self.launcher = ParentDeath.launcher(environment: environment)
    }

    deinit { stop() }

    /// The name the log and errors use: the file name unless given.
    public let name: String

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Sends one request and waits at most `timeout` seconds for its answer's `result`.
    public func request(_ method: String, params: [String: JSONValue] = [:], timeout: TimeInterval) throws -> JSONValue
    {
        switch try exchange(method, params: params, timeout: timeout, whole: false) {
        case .value(let v): return v
        case .line: return .null
        }
    }

    /// Sends one request and returns its answer's whole line, unparsed but for its `id` and
    /// `error` (checked, limited and refused as `request` does): a caller that knows the answer's
    /// shape decodes it once, straight into its types (issue 25.3: the provider host's
    /// timelines went through `JSONValue` and Codable four times on a load's thread).
    public func requestLine(_ method: String, params: [String: JSONValue] = [:], timeout: TimeInterval) throws -> Data
    {
        switch try exchange(method, params: params, timeout: timeout, whole: true) {
        case .line(let d): return d
        case .value: return Data()
        }
    }

    private func exchange(_ method: String, params: [String: JSONValue], timeout: TimeInterval, whole: Bool) throws
        -> Answered
    {
        lock.lock()
        defer { lock.unlock() }
        try ensureRunning()
        let id = nextID
        nextID += 1
        let message = JSONValue.object([
            "id": .number(Double(id)), "method": .string(method),
            "protocol": .number(Double(ExtensionProtocol.version)),
            "params": .object(params),
        ])
        // Sorted keys: `id` comes first and `method` second, which a shell extension can rely on.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(message)
        line.append(0x0A)
        let deadline = Self.monotonic() + timeout
        do {
            let answer: (line: Data?, json: JSONValue)
            do {
                try write(line, deadline: deadline, method: method, timeout: timeout)
                answer = try readAnswer(id: id, deadline: deadline, method: method, timeout: timeout, whole: whole)
            } catch let e as Crash where e.cleanExit {
                // It exited with status 0 just before this request reached it (one answer per
                // process is allowed): start it again and ask once more.
                closePipes()
                try spawn()
                try write(line, deadline: deadline, method: method, timeout: timeout)
                answer = try readAnswer(id: id, deadline: deadline, method: method, timeout: timeout, whole: whole)
            }
            failures = 0
            if let e = answer.json["error"] {
                let text = e.string ?? e["message"]?.string ?? "error"
                throw ExtensionError("\(name): \(TextSanitizer.singleLine(text).prefix(200))")
            }
            if let whole = answer.line { return .line(whole) }
            return .value(answer.json["result"] ?? .null)
        } catch let e as Crash {
            kill(reason: e.reason)
            throw ExtensionError("\(name): \(e.reason)")
        }
    }

    /// A problem that ends the process.
    struct Crash: Error {
        var reason: String
        /// The process exited with status 0 before reading or answering anything of this request.
        var cleanExit = false
    }

    /// Starts the process if it is not running (an exit between requests is noticed here).
    private func ensureRunning() throws {
        if groupLock.withLock({ retired }) { throw ExtensionError("\(name): no longer in the widgets folder") }
        if pid > 0 && !reapedBetweenRequests() { return }
        let now = Self.monotonic()
        if now < restartAt {
            let wait = Int(clamping: (restartAt - now).rounded(.up))
            throw ExtensionError("\(name): \(lastProblem ?? "crashed"); restarting in \(wait) s")
        }
        try spawn()
    }

    private func noteFailure(_ reason: String) {
        failures += 1
        lastProblem = reason
        let delay = min(limits.restartMax, limits.restartBase * pow(2, Double(max(0, failures - 1))))
        restartAt = Self.monotonic() + delay
        log("extension \(name): \(reason); next start in \(Int(clamping: delay.rounded(.up))) s")
    }

    private func spawn() throws {
        if let trampoline = ParentDeath.usable(launcher, log: log) {
            if try start(through: trampoline) { return }
            // Not a trampoline (an older swiftdash-fetch): started directly from now on.
            log("extension \(name): \(trampoline) cannot start it with \(ParentDeath.flag); started directly")
            launcher = nil
        }
        _ = try start(through: nil)
    }

    /// Starts the process, through `trampoline` if given (`ParentDeath`); false when the
    /// trampoline did not say it is one (nothing is left running then).
    private func start(through trampoline: String?) throws -> Bool {
        signal(SIGPIPE, SIG_IGN)
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        var reportPipe: [Int32] = [-1, -1]
        guard systemPipe2(&inPipe, O_CLOEXEC) == 0 else { throw ExtensionError("\(name): no pipe") }
        guard systemPipe2(&outPipe, O_CLOEXEC) == 0 else {
            inPipe.forEach { close($0) }
            throw ExtensionError("\(name): no pipe")
        }
        guard systemPipe2(&errPipe, O_CLOEXEC) == 0, trampoline == nil || systemPipe2(&reportPipe, O_CLOEXEC) == 0
        else {
            (inPipe + outPipe + errPipe).filter { $0 >= 0 }.forEach { close($0) }
            throw ExtensionError("\(name): no pipe")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // The trampoline's report pipe is its descriptor 3 (close-on-exec again in the trampoline at
        // once); nothing past that is inherited, whatever another thread opened without
        // close-on-exec (another extension's pipes, a test runner's files).
        let reportFD: Int32 = trampoline != nil ? 3 : -1
        if trampoline != nil { posix_spawn_file_actions_adddup2(&actions, reportPipe[1], reportFD) }
        _ = SpawnActions.addClosefrom?(&actions, trampoline != nil ? 4 : 3)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // Its own session (no controlling terminal) and so its own process group; default signals.
        SpawnSession.apply(&attr)
        var env = environment
        env["SWIFTDASH_PROTOCOL"] = String(ExtensionProtocol.version)
        // SwiftdashKit's WidgetCenter asks the running home screen through its control socket, and
        // an extension keeps its files in a state folder of its own (unless the environment says).
        let paths = AppPaths(environment: environment)
        if env["SWIFTDASH_CONTROL"] == nil { env["SWIFTDASH_CONTROL"] = paths.socket.path }
        if env["SWIFTDASH_STATE"] == nil {
            let name = URL(fileURLWithPath: path).lastPathComponent
            env["SWIFTDASH_STATE"] = paths.state.appendingPathComponent("extensions/\(name)").path
        }
        let (executable, command) = ParentDeath.command(
            launcher: trampoline, path: path, arguments: arguments, parent: getpid(), reportFD: reportFD)
        let argv = SpawnStrings.argv(command)
        let envp = SpawnStrings.envp(env)
        defer {
            SpawnStrings.release(argv)
            SpawnStrings.release(envp)
        }
        var child: pid_t = 0
        // On the spawner thread: the parent-death signal follows the thread that spawned.
        let rc = Spawner.shared.run { posix_spawn(&child, executable, &actions, &attr, argv, envp) }
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        var report = ParentDeath.Report.execed
        if trampoline != nil {
            close(reportPipe[1])
            if rc == 0 { report = ParentDeath.readReport(reportPipe[0]) }
            close(reportPipe[0])
        }
        var failed = rc
        switch report {
        case .execed: break
        case .failed(let code): failed = code
        case .notATrampoline: break
        }
        if failed != 0 || report == .notATrampoline {
            close(inPipe[1])
            close(outPipe[0])
            close(errPipe[0])
            if rc == 0 {
                // The trampoline exits after a report; whatever else ran there is ended.
                if report == .notATrampoline { Glibc.kill(-child, SIGKILL) }
                var status: Int32 = 0
                _ = waitpid(child, &status, 0)
            }
            if report == .notATrampoline { return false }
            let why = "cannot start: \(String(cString: strerror(failed)))"
            noteFailure(why)
            throw ExtensionError("\(name): \(why)")
        }
        pid = child
        starts += 1
        stdinFD = inPipe[1]
        stdoutFD = outPipe[0]
        _ = fcntl(stdinFD, F_SETFL, fcntl(stdinFD, F_GETFL) | O_NONBLOCK)
        _ = fcntl(stdoutFD, F_SETFL, fcntl(stdoutFD, F_GETFL) | O_NONBLOCK)
        buffer = []
        let spawned = child
        tail = StderrTail()
        StderrDrain.start(fd: errPipe[0], name: name, limits: limits, log: log, tail: tail) { [weak self] in
            self?.reap(spawned)
        }
        return true
    }

    private func write(_ data: Data, deadline: Double, method: String, timeout: TimeInterval) throws {
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(stdinFD, $0.baseAddress, $0.count) }
            if n > 0 {
                offset += n
                continue
            }
            if n < 0 && errno == EPIPE { throw ended(default: "closed its input", answered: false) }
            if n < 0 && errno != EAGAIN && errno != EINTR { throw Crash(reason: "cannot write to it") }
            let left = deadline - Self.monotonic()
            guard left > 0 else { throw Crash(reason: "did not read the \(method) request within \(Int(clamping: timeout)) s") }
            var p = pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, Int32(clamping: left * 1000, to: 0...Int32.max - 1) + 1)
        }
    }

    /// The answer to request `id`: its JSON, or with `whole` its line and a JSON of its `error`
    /// only (`Head`).
    private func readAnswer(id: Int, deadline: Double, method: String, timeout: TimeInterval, whole: Bool) throws -> (
        line: Data?, json: JSONValue
    ) {
        var stray = 0
        var answered = !buffer.isEmpty
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            // Lines are taken from the front by index, and the buffer shortened once per read (not
            // once per line, which is quadratic in a chunk of tiny lines).
            var start = buffer.startIndex
            while let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = buffer[start..<nl]
                start = nl + 1
                // A blank line answers nothing either: it counts, so endless blank output ends too.
                if !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
                    let parsed: JSONValue?
                    var head: Head? = nil
                    do {
                        if whole {
                            let data = Data(line)
                            try JSONValue.checkLimits(data, maxBytes: limits.maxAnswerBytes)
                            do { head = try JSONDecoder().decode(Head.self, from: data) } catch {
                                throw ViewJSONError("not valid JSON")
                            }
                            parsed = .object(head?.error.map { ["error": $0] } ?? [:])
                        } else {
                            parsed = try JSONValue.parse(Data(line), maxBytes: limits.maxAnswerBytes)
                        }
                    } catch {
                        // Valid JSON past a limit is said as that limit, not as garbage.
                        if let e = error as? ViewJSONError, !e.message.hasPrefix("not valid JSON") {
                            throw Crash(reason: "sent an answer refused: \(e.message)")
                        }
                        parsed = nil
                    }
                    guard let json = parsed, json.object != nil else {
                        let shown = TextSanitizer.singleLine(String(decoding: line.prefix(60), as: UTF8.self))
                        throw Crash(reason: "sent garbage instead of JSON: \(shown)")
                    }
                    if let n = whole ? head?.id : json["id"]?.number, Int(exactly: n) == id {
                        let answer = whole ? Data(line) : nil
                        buffer.removeSubrange(..<start)
                        return (answer, json)
                    }
                }
                stray += 1
                if stray > limits.maxStrayLines {
                    throw Crash(reason: "sent more than \(limits.maxStrayLines) lines that answer nothing")
                }
            }
            buffer.removeSubrange(..<start)
            if buffer.count > limits.maxAnswerBytes {
                throw Crash(reason: "sent a line longer than \(limits.maxAnswerBytes / 1024) KB")
            }
            // Checked before every read, not only when the pipe runs dry: output that never pauses ends too.
            guard deadline > Self.monotonic() else {
                throw Crash(reason: "did not answer \(method) within \(Self.seconds(timeout))")
            }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(stdoutFD, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer += chunk[0..<n]
                answered = true
                continue
            }
            if n == 0 { throw ended(default: "closed its output", answered: answered) }
            if errno != EAGAIN && errno != EINTR { throw Crash(reason: "cannot read from it") }
            let left = deadline - Self.monotonic()
            guard left > 0 else { throw Crash(reason: "did not answer \(method) within \(Self.seconds(timeout))") }
            var p = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(clamping: min(left, 3600) * 1000, to: 0...Int32.max - 1) + 1)
        }
    }

    static func seconds(_ t: TimeInterval) -> String {
        t == t.rounded() ? "\(Int(clamping: t)) s" : "\(t) s"
    }

    /// The process ended: why, and whether asking a fresh one again is right.
    private func ended(default fallback: String, answered: Bool) -> Crash {
        var status: Int32 = -1
        let reason = exitReason(default: fallback, status: &status)
        return Crash(reason: reason, cleanExit: !answered && status == 0)
    }

    /// How the process ended, if it has (waits briefly for the exit status after EOF).
    private func exitReason(default fallback: String, status: inout Int32) -> String {
        guard pid > 0 else { return fallback }
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                return describe(status)
            }
            usleep(2_000)
        }
        return fallback
    }

    static func exitedCleanly(_ status: Int32) -> Bool { status & 0x7f == 0 && (status >> 8) & 0xff == 0 }

    static func describe(_ status: Int32) -> String {
        let sig = status & 0x7f
        if sig == 0 { return "exited with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(sig)"
    }

    /// Why it ended, with the fatal error it printed if it crashed (`crashed: File.swift:N: Fatal error: why`).
    private func describe(_ status: Int32) -> String {
        guard status & 0x7f != 0, let fatal = tail.fatalLine() else { return Self.describe(status) }
        return "crashed: \(fatal)"
    }

    /// Kills the process group and reaps the process; the next request starts it after the back-off.
    private func kill(reason: String) {
        terminate()
        noteFailure(reason)
    }

    private func terminate() {
        if pid > 0 {
            Glibc.kill(-pid, SIGKILL)
            Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            pid = 0
        }
        closePipes()
    }

    private func closePipes() {
        if stdinFD >= 0 { close(stdinFD) }
        if stdoutFD >= 0 { close(stdoutFD) }
        stdinFD = -1
        stdoutFD = -1
        buffer = []
    }

    /// Ends the process (its whole group). While a request runs on another thread (a hang), the
    /// group is killed without waiting for it: that request then fails at once and cleans up, so
    /// quitting never waits out an extension's timeout.
    public func stop() {
        guard lock.lock(before: Date().addingTimeInterval(0.2)) else {
            let running = groupLock.withLock { group }
            if running > 0 { Glibc.kill(-running, SIGKILL) }
            return
        }
        terminate()
        lock.unlock()
    }

    /// Ends the process for good: its executable was removed from the widgets folder or
    /// replaced, so a request still made to it (a load in flight) fails instead of starting it.
    public func retire() {
        groupLock.withLock { retired = true }
        stop()
    }

    /// Its stderr closed: if it exited between requests (the provider host when idle), reap it
    /// now rather than leave a zombie until the next request. A request in flight reaps it itself.
    private func reap(_ child: pid_t) {
        guard lock.try() else { return }
        defer { lock.unlock() }
        for _ in 0..<100 where pid == child {
            if reapedBetweenRequests() { return }
            usleep(5_000)
        }
    }

    /// If the process has exited (no request in flight: the caller holds `lock`), reaps it,
    /// closes its pipes and notes why: a crash counts toward the back-off, a clean exit does not.
    private func reapedBetweenRequests() -> Bool {
        guard pid > 0 else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        let why = describe(status)
        closePipes()
        pid = 0
        if !Self.exitedCleanly(status) {
            noteFailure("\(why) between requests")
        } else if limits.logsCleanExit {
            log("extension \(name): \(why) between requests; starting it again")
        }
        return true
    }

    /// Whether the process has ended (reaped now if so); false while it runs or before its start.
    public func hasExited() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return reapedBetweenRequests()
    }

    /// The process id while it runs (tests); does not wait for a request in flight.
    public var processID: pid_t? {
        groupLock.withLock { group > 0 ? group : nil }
    }
}
