import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The process serving one widget kind of a bundle (decision 60): the bundle's own executable,
/// started again with `SWIFTDASH_WIDGET_KIND` naming the kind. It speaks the extension protocol on
/// its standard input and output; its standard error is passed on to the bundle's (swiftdash's log
/// for the extension) and the last of it is kept, for the fatal error a trap prints.
final class KindProcess {
    let kind: String
    let pid: pid_t
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    let errors: StderrKeeper

    /// The variable that makes the executable serve one kind.
    static let kindVariable = "SWIFTDASH_WIDGET_KIND"

    /// Where the runtime writes a crash's backtrace (not on standard error: swiftdash keeps a few
    /// dozen lines of an extension's standard error a minute, and one backtrace would use them).
    let backtraces: URL

    init(kind: String, backtraces: URL) throws {
        self.kind = kind
        self.backtraces = backtraces
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard pipe(&inPipe) == 0 else { throw IntentError("no pipe for `\(kind)`") }
        guard pipe(&outPipe) == 0 else {
            inPipe.forEach { close($0) }
            throw IntentError("no pipe for `\(kind)`")
        }
        guard pipe(&errPipe) == 0 else {
            (inPipe + outPipe).forEach { close($0) }
            throw IntentError("no pipe for `\(kind)`")
        }
        // The ends this process keeps are not inherited by the next kind's process.
        for fd in [inPipe[1], outPipe[0], errPipe[0]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // In the bundle's process group (posix_spawn's default): swiftdash ends the group when it
        // ends the bundle for a hang or a timeout, and the kinds' processes with it.
        var environment = ProcessInfo.processInfo.environment
        environment[Self.kindVariable] = kind
        // The Swift runtime's backtrace names the widget's own file and line for a trap whose
        // message names the standard library's (an index out of range) or that has none (a
        // release build's force unwrap). A backtrace setting of the author's own is kept.
        if environment["SWIFT_BACKTRACE"] == nil, !backtraces.path.contains(",") {
            environment["SWIFT_BACKTRACE"] =
                "output-to=\(backtraces.path),interactive=no,color=no,threads=crashed,registers=none,images=none,limit=48"
        }
        let argv = CommandLine.arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, "/proc/self/exe", &actions, nil, argv, envp)
        [inPipe[0], outPipe[1], errPipe[1]].forEach { close($0) }
        guard status == 0 else {
            [inPipe[1], outPipe[0], errPipe[0]].forEach { close($0) }
            throw IntentError("could not start the process for `\(kind)`: \(String(cString: strerror(status)))")
        }
        (pid, input, output) = (child, inPipe[1], outPipe[0])
        errors = StderrKeeper(fd: errPipe[0])
    }

    /// Sends one request line and returns the answer line; nil when the process ended first.
    func exchange(_ line: String) -> String? {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            sent += n
        }
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let answer = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return answer
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }

    /// Why the process ended: waits for it, and for its last words on standard error (the
    /// backtrace comes from a helper the runtime starts, which may outlive the process briefly).
    func ended() -> String {
        closePipes()
        let said = errors.text(waitingForEnd: 5)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return CrashReport(stderr: said + "\n" + backtrace(), status: status).line
    }

    /// The backtrace the runtime wrote for this process (`NAME-PID-TIME.log`), read once.
    func backtrace() -> String {
        let fm = FileManager.default
        let files = (try? fm.contentsOfDirectory(atPath: backtraces.path)) ?? []
        var text = ""
        for name in files where name.contains("-\(pid)-") && name.hasSuffix(".log") {
            let file = backtraces.appendingPathComponent(name)
            text += (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            try? fm.removeItem(at: file)
        }
        return text
    }

    /// Ends the process (the bundle is stopping, or the process answered garbage).
    func stop() {
        closePipes()
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    private var closed = false
    private func closePipes() {
        guard !closed else { return }
        closed = true
        close(input)
        close(output)
    }
}

/// A kind's standard error: each chunk is written on to this process's standard error as it
/// comes, and the last 64 KB are kept for the crash report.
final class StderrKeeper: @unchecked Sendable {
    private let condition = NSCondition()
    private var kept: [UInt8] = []
    private var ended = false
    static let keep = 65_536

    init(fd: Int32) {
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                chunk.withUnsafeBytes { _ = write(2, $0.baseAddress, n) }
                condition.withLock {
                    kept += chunk[..<n]
                    if kept.count > Self.keep { kept.removeFirst(kept.count - Self.keep) }
                }
            }
            close(fd)
            condition.withLock {
                ended = true
                condition.broadcast()
            }
        }
        thread.start()
    }

    /// What was kept, once standard error ended (or after `seconds`, if something the process
    /// started still holds it open).
    func text(waitingForEnd seconds: TimeInterval) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !ended && condition.wait(until: deadline) {}
        return String(decoding: kept, as: UTF8.self)
    }
}
