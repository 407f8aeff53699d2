// `swiftdash-fetch --exec-with-parent-death PID FD -- PATH [ARGS...]`: the trampoline through
// which swiftdash starts extensions and the provider host (DashApp's ParentDeath). posix_spawn
// cannot ask for a signal at the parent's death; this process asks for SIGKILL with prctl, checks
// that its parent is still PID (it may have died in between: then nothing is started), and execs
// PATH in its place: same pid, session, process group, pipes and environment, and the setting
// survives the exec. FD (or `-`) is a pipe that gets `P` just before the exec and the errno
// after it if the exec failed; it is close-on-exec, so a successful exec closes it. When PATH is
// this very program (the provider host), there is no exec: the arguments are returned and run
// here, which saves a second start of this program's libraries (about 18 ms in a debug build).
#if canImport(Glibc)
    import Glibc
#endif

/// glibc's prctl is variadic (Swift does not import it); its arguments are plain integers.
@_silgen_name("prctl")
private func systemPrctl(_ option: Int32, _ a2: UInt, _ a3: UInt, _ a4: UInt, _ a5: UInt) -> Int32

private let prSetPdeathsig: Int32 = 1

func execWithParentDeath(_ args: ArraySlice<String>) -> [String] {
    let args = Array(args)
    guard args.count >= 4, let parent = pid_t(args[0]), args[1] == "-" || Int32(args[1]) != nil, args[2] == "--"
    else {
        let usage = "usage: swiftdash-fetch --exec-with-parent-death PID FD|- -- PATH [ARGS...]\n"
        _ = usage.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    let report = Int32(args[1]) ?? -1
    if report >= 0 { _ = fcntl(report, F_SETFD, FD_CLOEXEC) }
    func fail(_ code: Int32) -> Never {
        if report >= 0 {
            var bytes = [ParentDeathByte.ready]
            withUnsafeBytes(of: code) { bytes += $0 }
            _ = bytes.withUnsafeBytes { write(report, $0.baseAddress, $0.count) }
        }
        _exit(127)
    }
    guard systemPrctl(prSetPdeathsig, UInt(SIGKILL), 0, 0, 0) == 0 else { fail(errno) }
    // The parent died before the prctl: the signal will never come, so start nothing.
    guard getppid() == parent else { _exit(1) }
    let target = Array(args[3...])
    if isThisProgram(target[0]) {
        if report >= 0 {
            var ready = ParentDeathByte.ready
            _ = write(report, &ready, 1)
            close(report)
        }
        return target
    }
    // Exactly the signal state posix_spawn gave this process (the Swift runtime may have set
    // handlers; an exec resets those anyway, but not an ignored signal).
    for sig in 1..<65 where sig != SIGKILL && sig != SIGSTOP { signal(Int32(sig), SIG_DFL) }
    var none = sigset_t()
    sigemptyset(&none)
    sigprocmask(SIG_SETMASK, &none, nil)
    let argv: [UnsafeMutablePointer<CChar>?] = target.map { strdup($0) } + [nil]
    if report >= 0 {
        var ready = ParentDeathByte.ready
        _ = write(report, &ready, 1)
    }
    execve(target[0], argv, environ)
    // Only the report pipe says more than `P` then.
    let code = errno
    if report >= 0 {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: code) { bytes += $0 }
        _ = bytes.withUnsafeBytes { write(report, $0.baseAddress, $0.count) }
    }
    _exit(127)
}

/// Whether `path` is the file this process runs (same device and inode).
private func isThisProgram(_ path: String) -> Bool {
    var mine = stat()
    var theirs = stat()
    guard stat("/proc/self/exe", &mine) == 0, stat(path, &theirs) == 0 else { return false }
    return mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino
}

enum ParentDeathByte {
    /// DashApp's `ParentDeath.readyByte` (this target does not link DashApp).
    static let ready: UInt8 = 0x50
}
