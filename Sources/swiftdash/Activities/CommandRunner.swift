import Foundation
import Glibc
import DashSpawn
import DashActivities

/// Runs a command in the foreground for `swiftdash run`, changing nothing it does: it reads the same
/// standard input, its output reaches the same place byte for byte, its exit status and a signal
/// that killed it are ours. Meanwhile the output is read (`OutputScanner`) for the activity.
/// - Standard output a terminal: the command runs on a pseudo-terminal of its own, as `script` does
///   (it still sees a terminal, colours and all); our terminal is put in raw mode and what is typed
///   is passed on (Ctrl-C reaches the command through its terminal), the window size is passed on
///   when it changes, and its output is copied to ours. When Ctrl-Z stops the command we stop too,
///   our terminal restored, and `fg` continues both.
/// - Otherwise (a pipe, a file): standard input is the command's own; standard output and error
///   that are not terminals are pipes we copy from, each to the same descriptor (a terminal one is
///   the command's own). It shares our process group, so Ctrl-C reaches it directly; we ignore
///   SIGINT and SIGQUIT while it runs, as a shell does.
/// SIGTERM and SIGHUP sent to us are passed on to it.
final class CommandRunner {
    enum Ending {
        case exited(Int32)
        case signalled(Int32)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// The exit status a shell gives it (127: not found, 126: not runnable).
        var status: Int32
    }

    let argv: [String]
    var scanner = OutputScanner()
    /// Called when the scanner saw something new (at most `reportInterval` apart), once `onStart`
    /// was called.
    var onOutput: (OutputScanner) -> Void = { _ in }
    /// The shortest time between two `onOutput` calls.
    var reportInterval: TimeInterval = 1
    /// Called once when the command has run `startDelay` and still runs: the moment its activity
    /// is worth showing. A command that ends before never calls it (`started` stays false), and
    /// its activity is written once, at its end: the bookkeeping happens while the command runs,
    /// never before it starts or between two short commands.
    var onStart: (OutputScanner) -> Void = { _ in }
    var startDelay: TimeInterval = 0.05
    /// Whether `onStart` was called.
    private(set) var started = false
    /// When the command was started.
    private(set) var spawnedAt = Date()

    private var child: pid_t = 0
    private var savedTermios: termios?
    private var lastReport = Date.distantPast
    private var unreported = false

    init(argv: [String]) { self.argv = argv }

    /// Starts the command; returns its pid, or why it could not start.
    func start() throws(Failure) -> pid_t {
        SignalPipe.install([SIGCHLD, SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT])
        // A write to a reader that went fails (EPIPE) instead of killing us before the activity ends.
        signal(SIGPIPE, SIG_IGN)
        if isatty(1) != 0, let pty = PosixExtras.openPty() {
            try startOnPty(pty)
        } else {
            try startOnPipes()
        }
        return child
    }

    private var master: Int32 = -1
    private var outputs: [(from: Int32, to: Int32)] = []
    private var forwardInput = false

    private func startOnPty(_ pty: (master: Int32, slave: String)) throws(Failure) {
        master = pty.master
        let stdinIsTTY = isatty(0) != 0
        // The new terminal starts as ours: its modes and size.
        let slave = open(pty.slave, O_RDWR | O_NOCTTY | O_CLOEXEC)
        if slave >= 0 {
            var t = termios()
            if tcgetattr(stdinIsTTY ? 0 : 1, &t) == 0 { tcsetattr(slave, TCSANOW, &t) }
            close(slave)
        }
        copyWindowSize()
        // Opened by the new session's leader, the slave becomes the command's controlling terminal.
        try spawn(setsid: true) { actions in
            if stdinIsTTY {
                posix_spawn_file_actions_addopen(actions, 0, pty.slave, O_RDWR, 0)
                posix_spawn_file_actions_adddup2(actions, 0, 1)
            } else {
                posix_spawn_file_actions_addopen(actions, 1, pty.slave, O_RDWR, 0)
            }
            posix_spawn_file_actions_adddup2(actions, 1, 2)
        }
        outputs = [(master, 1)]
        forwardInput = stdinIsTTY
        if stdinIsTTY {
            var t = termios()
            if tcgetattr(0, &t) == 0 {
                savedTermios = t
                var raw = t
                cfmakeraw(&raw)
                tcsetattr(0, TCSANOW, &raw)
            }
        }
        PosixExtras.setNonBlocking(master)
    }

    private func startOnPipes() throws(Failure) {
        var pipes: [(read: Int32, write: Int32, fd: Int32)] = []
        for fd: Int32 in [1, 2] where isatty(fd) == 0 && fcntl(fd, F_GETFD) >= 0 {
            guard let p = PosixExtras.cloexecPipe() else { continue }
            pipes.append((p.read, p.write, fd))
        }
        defer { for p in pipes { close(p.write) } }
        try spawn(setsid: false) { actions in
            for p in pipes { posix_spawn_file_actions_adddup2(actions, p.write, p.fd) }
        }
        outputs = pipes.map { ($0.read, $0.fd) }
        for o in outputs { PosixExtras.setNonBlocking(o.from) }
    }

    private func spawn(setsid: Bool, _ fileActions: (UnsafeMutablePointer<posix_spawn_file_actions_t>) -> Void)
        throws(Failure)
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        fileActions(&actions)
        _ = SpawnActions.addClosefrom?(&actions, 3)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // The command gets the signal dispositions and mask a shell would give it.
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attr, &all)
        posix_spawnattr_setsigmask(&attr, &none)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if setsid { flags |= PosixExtras.spawnSetsid }
        posix_spawnattr_setflags(&attr, Int16(flags))
        let args = SpawnStrings.argv(argv)
        defer { SpawnStrings.release(args) }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, argv[0], &actions, &attr, args, environ)
        guard rc == 0 else {
            restoreTerminal()
            let name = argv[0]
            if rc == ENOENT { throw Failure(description: "\(name): command not found", status: 127) }
            throw Failure(description: "\(name): \(String(cString: strerror(rc)))", status: 126)
        }
        child = pid
        spawnedAt = Date()
    }

    private func copyWindowSize() {
        guard master >= 0 else { return }
        var ws = winsize()
        for fd: Int32 in [0, 1, 2] where ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0 {
            _ = ioctl(master, UInt(TIOCSWINSZ), &ws)
            return
        }
    }

    func restoreTerminal() {
        if var t = savedTermios {
            tcsetattr(0, TCSADRAIN, &t)
            savedTermios = nil
        }
    }

    /// Copies input and output until the command has exited and its output is read; returns how
    /// it ended.
    func wait() -> Ending {
        var ending: Ending?
        var inputOpen = forwardInput
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            var fds = [pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0)]
            for o in outputs { fds.append(pollfd(fd: o.from, events: Int16(POLLIN), revents: 0)) }
            if inputOpen { fds.append(pollfd(fd: 0, events: Int16(POLLIN), revents: 0)) }
            let timeout: Int32 =
                ending != nil ? 0
                : !started ? Int32(max(0, startDelay - Date().timeIntervalSince(spawnedAt)) * 1000) + 1
                : unreported ? Int32(max(0, min(1000, reportInterval - Date().timeIntervalSince(lastReport)) * 1000)) : -1
            let n = poll(&fds, nfds_t(fds.count), timeout)
            if n < 0 && errno != EINTR { break }
            // The signal pipe is read only when poll says a signal came (a flood of output would
            // otherwise cost a failed read per chunk).
            for sig in fds[0].revents != 0 ? SignalPipe.drain() : [] {
                switch sig {
                case SIGCHLD:
                    var status: Int32 = 0
                    if ending == nil, waitpid(child, &status, WNOHANG | WUNTRACED) == child {
                        let code = status & 0x7f
                        if code == 0x7f {
                            suspendWithChild()
                        } else {
                            ending = code == 0 ? .exited((status >> 8) & 0xff) : .signalled(code)
                        }
                    }
                case SIGWINCH: copyWindowSize()
                case SIGINT, SIGQUIT:
                    // From the keyboard the command got it too (pipes); from kill, pass it on.
                    if master >= 0 { kill(child, sig) }
                default: kill(child, sig)
                }
            }
            var progressed = false
            for (i, o) in outputs.enumerated() where fds[1 + i].revents != 0 {
                let r = read(o.from, &buf, buf.count)
                if r > 0 {
                    let written = buf.withUnsafeBytes {
                        let chunk = UnsafeRawBufferPointer(rebasing: $0[0..<r])
                        scanner.feed(chunk)
                        return PosixExtras.writeAll(o.to, chunk)
                    }
                    if !written {
                        // Our reader went (`| head`): the command's next write fails as it would
                        // without us (SIGPIPE), and we stay to end the activity.
                        close(o.from)
                        outputs.remove(at: i)
                        progressed = true
                        break
                    }
                    progressed = true
                } else if r == 0 || (errno != EAGAIN && errno != EINTR) {
                    // The pipe's end, or EIO: nobody holds the terminal's other side any more.
                    outputs.remove(at: i)
                    progressed = true
                    break
                }
            }
            if inputOpen, let last = fds.last, last.fd == 0, last.revents != 0 {
                let r = read(0, &buf, buf.count)
                if r > 0 {
                    buf.withUnsafeBytes { _ = PosixExtras.writeAll(master, UnsafeRawBufferPointer(rebasing: $0[0..<r])) }
                } else if r == 0 || (errno != EAGAIN && errno != EINTR) {
                    inputOpen = false
                }
            }
            if scanner.take() { unreported = true }
            if !started, ending == nil, Date().timeIntervalSince(spawnedAt) >= startDelay {
                started = true
                unreported = false
                lastReport = Date()
                onStart(scanner)
            }
            if started, unreported, Date().timeIntervalSince(lastReport) >= reportInterval {
                report()
            }
            // Done when the command has exited and its output is read (what is left now: a child of
            // its may keep the pipe open; we do not wait for it).
            if let ending, !progressed { 
                // What it printed last reaches the activity with its end (one write, not two).
                scanner.flush()
                restoreTerminal()
                return ending
            }
        }
        restoreTerminal()
        return ending ?? .exited(1)
    }

    /// The command stopped (Ctrl-Z on its own terminal): we stop too, so the shell takes the
    /// terminal back (`fg` continues us), then give the command its terminal back and continue it.
    private func suspendWithChild() {
        guard master >= 0 else { return }
        let raw = savedTermios != nil
        restoreTerminal()
        kill(getpid(), SIGSTOP)
        // Continued.
        var t = termios()
        if raw, tcgetattr(0, &t) == 0 {
            savedTermios = t
            cfmakeraw(&t)
            tcsetattr(0, TCSANOW, &t)
        }
        copyWindowSize()
        kill(child, SIGCONT)
    }

    private func report() {
        unreported = false
        lastReport = Date()
        onOutput(scanner)
    }
}

extension CommandRunner {
    /// Prints a message of ours while the terminal may be raw: in cooked mode for the moment.
    func restoreTerminalForMessage(_ say: () -> Void) {
        guard let original = savedTermios else { return say() }
        var cooked = original
        tcsetattr(0, TCSADRAIN, &cooked)
        say()
        var raw = original
        cfmakeraw(&raw)
        tcsetattr(0, TCSADRAIN, &raw)
    }
}
