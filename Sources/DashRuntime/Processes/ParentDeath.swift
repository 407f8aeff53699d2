import Foundation
import DashApp
import DashHome
#if canImport(Glibc)
    import Glibc
#endif

/// Children that die with swiftdash, even when it is killed with SIGKILL and nothing of it runs
/// to kill them (an extension that ignores end of file on its input would otherwise live on).
///
/// posix_spawn cannot set PR_SET_PDEATHSIG, so a child is started through a trampoline:
/// `swiftdash-fetch --exec-with-parent-death PID FD -- PATH ARGS...` sets it to SIGKILL, checks
/// that its parent is still PID (swiftdash may have died before that), and execs PATH with the
/// same pid, session, process group, pipes and environment; the setting survives the exec. FD is
/// a close-on-exec pipe on which an exec that failed reports its errno, so "cannot start" reads
/// as it did without the trampoline. When the trampoline is missing, children are spawned
/// directly as before (and the log says so once).
///
/// The kernel sends the signal when the *thread* that spawned the child ends, not the process:
/// every spawn therefore runs on `Spawner`'s thread, which lives as long as the process (a load's
/// or a describe's thread ends after its request, and would take the extension with it).
public enum ParentDeath {
    public static let flag = "--exec-with-parent-death"

    /// The trampoline: `$SWIFTDASH_FETCH`, else `swiftdash-fetch` next to the running executable
    /// (the rule of `SubprocessTransport.defaultExecutable`, which DashApp cannot import; a test
    /// checks that the two agree).
    public static func launcher(environment: [String: String]) -> String {
        if let path = environment["SWIFTDASH_FETCH"], !path.isEmpty { return (path as NSString).expandingTildeInPath }
        let arg0 = CommandLine.arguments.first ?? ""
        let exe: URL
        if !arg0.contains("/"), let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        {
            exe = URL(fileURLWithPath: link)
        } else {
            exe = URL(fileURLWithPath: arg0).resolvingSymlinksInPath()
        }
        return exe.deletingLastPathComponent().appendingPathComponent("swiftdash-fetch").path
    }

    /// What to exec and with which argv: through `launcher` when given, else `path` itself.
    static func command(launcher: String?, path: String, arguments: [String], parent: pid_t, reportFD: Int32)
        -> (executable: String, argv: [String])
    {
        guard let launcher else { return (path, [path] + arguments) }
        return (launcher, [launcher, flag, String(parent), String(reportFD), "--", path] + arguments)
    }

    /// What the trampoline said on its report pipe before the pipe closed.
    enum Report: Equatable {
        /// It set the signal and exec'd the target (`P`, then the pipe closed on exec).
        case execed
        /// `P`, then the errno of an exec (or of the prctl) that failed.
        case failed(Int32)
        /// Nothing: not a trampoline (an older swiftdash-fetch, another program).
        case notATrampoline
    }

    /// The byte the trampoline writes just before its exec.
    public static let readyByte: UInt8 = 0x50

    /// Reads the report pipe to its end (the trampoline's exec closes it).
    static func readReport(_ fd: Int32) -> Report {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8)
        while bytes.count < 8 {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        guard bytes.first == readyByte else { return .notATrampoline }
        guard bytes.count >= 5 else { return .execed }
        let code = bytes[1..<5].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
        return .failed(code == 0 ? EIO : code)
    }

    private static let missing = NSLock()
    nonisolated(unsafe) private static var warned: Set<String> = []

    /// The trampoline if it can be run; otherwise nil, and the log says so the first time (for each path).
    static func usable(_ launcher: String?, log: (String) -> Void) -> String? {
        guard let launcher else { return nil }
        if access(launcher, X_OK) == 0 { return launcher }
        let first = missing.withLock { warned.insert(launcher).inserted }
        if first {
            log(
                "no \(launcher) to start extensions and the provider host through: they are started directly "
                    + "and may outlive swiftdash if it is killed")
        }
        return nil
    }
}

/// The one thread that spawns children (see `ParentDeath`): created at the first spawn, it then
/// sleeps on a condition until the next one, so it costs no wakeups.
final class Spawner: @unchecked Sendable {
    static let shared = Spawner()

    private let condition = NSCondition()
    private var jobs: [Job] = []

    private init() {
        let thread = Thread { [self] in loop() }
        thread.name = "swiftdash spawner"
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// One call to run; `body` is dropped before `done` is set, so the caller's closure has not
    /// escaped when `run` returns.
    private final class Job {
        var body: (() -> Void)?
        var done = false
    }

    private final class Box<T> {
        var value: T?
    }

    /// Runs `body` on the spawner thread and returns its result; the caller waits.
    func run<T>(_ body: () -> T) -> T {
        withoutActuallyEscaping(body) { body in
            let box = Box<T>()
            let job = Job()
            job.body = { box.value = body() }
            condition.lock()
            jobs.append(job)
            condition.broadcast()
            while !job.done { condition.wait() }
            condition.unlock()
            return box.value!
        }
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            Self.perform(job)
            condition.lock()
            job.done = true
            condition.broadcast()
            condition.unlock()
        }
    }

    private static func perform(_ job: Job) {
        let body = job.body
        job.body = nil
        body?()
    }
}
