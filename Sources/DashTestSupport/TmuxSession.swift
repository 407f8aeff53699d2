import Foundation
import XCTest
import DashHome
import DashRuntime
#if canImport(Glibc)
    import Glibc
#endif

/// Drives the real `swiftdash` binary inside tmux, as a person would: keys in with
/// `send-keys`, the screen out with `capture-pane`.
public final class TmuxSession {
    public let name: String
    public let socket: String
    public let home: URL
    /// The events file the program reports to (`SWIFTDASH_TEST_EVENTS`: `frame N` per frame).
    public let events: URL

    public static var binary: String { builtProduct("swiftdash")?.path ?? "swiftdash" }

    public static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
            || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
    }

    /// Runs tmux through `/bin/sh` with posix_spawn and waitpid, its output going to a temp
    /// file (a pipe would be inherited by the tmux server and never reach end of file).
    @discardableResult
    public static func tmux(_ socket: String, _ args: [String], capture: Bool = true) -> String {
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let command =
            (["tmux", "-L", socket] + args).map(quote).joined(separator: " ")
            + " </dev/null >" + quote(out.path) + " 2>/dev/null"
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { for a in argv { free(a) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else { return "" }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return capture ? ((try? String(contentsOf: out, encoding: .utf8)) ?? "") : ""
    }

    /// The configuration, cache and state folders under `dir` (`config/`, `cache/`, `state/`), as
    /// swiftdash's environment.
    public static func folders(in dir: URL) -> [String: String] {
        [
            "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path,
            "XDG_STATE_HOME": dir.appendingPathComponent("state").path,
        ]
    }

    /// The environment swiftdash runs with (a CLI call that should reach it uses the same).
    public private(set) var environment: [String: String] = [:]

    /// Starts `swiftdash ARGS` in a new tmux server of its own at `width`x`height`. `clock`: the
    /// program's clock (`SWIFTDASH_TEST_CLOCK`: `DATE` stands still, `DATE*RATE` runs), so a test
    /// never waits for a minute boundary and a status note never expires under it; nil: the
    /// system clock. `program`: another program than swiftdash (a shell, with its arguments).
    public init(
        width: Int, height: Int, args: [String] = [], env: [String: String] = [:], clock: String? = nil,
        program: [String]? = nil
    ) throws {
        name = "sd"
        socket = "swiftdash-e2e-\(UUID().uuidString.prefix(8))"
        home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var vars = [
            "HOME": home.path, "TERM": "tmux-256color", "TZ": "UTC", "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": home.path,
        ]
        vars.merge(Self.folders(in: home)) { $1 }
        events = home.appendingPathComponent("events")
        _ = FileManager.default.createFile(atPath: events.path, contents: nil)
        vars["SWIFTDASH_TEST_EVENTS"] = events.path
        if let clock { vars["SWIFTDASH_TEST_CLOCK"] = clock }
        vars.merge(env) { $1 }
        environment = vars
        let envArgs = vars.map { "\($0.key)=\($0.value)" }.sorted()
        // COLUMNS and LINES the test runner may export are not swiftdash's to see, unless asked.
        let command = (["env", "-u", "COLUMNS", "-u", "LINES"] + envArgs + (program ?? [Self.binary] + args)).map { "'\($0)'" }
            .joined(separator: " ")
        // After swiftdash exits, print its status and keep the pane so the test can read it.
        let script = "\(command); echo \"EXITED $?\"; sleep 60"
        Self.tmux(
            socket, ["-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", script],
            capture: false)
        Self.tmux(socket, ["set-option", "-t", name, "status", "off"])
    }

    public func keys(_ keys: String...) { Self.tmux(socket, ["send-keys", "-t", name] + keys) }
    public func screen() -> String { Self.tmux(socket, ["capture-pane", "-t", name, "-p"]) }
    public func resize(_ w: Int, _ h: Int) {
        Self.tmux(socket, ["resize-window", "-t", name, "-x", "\(w)", "-y", "\(h)"])
    }
    /// The swiftdash process: the child of the pane's shell.
    public func childPID() -> pid_t {
        let shell = Self.tmux(socket, ["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return pid_t(children.split(separator: " ").first.map(String.init) ?? "") ?? 0
    }
    public func pid() -> Int32? {
        Int32(
            Self.tmux(socket, ["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(
                in: .whitespacesAndNewlines))
    }

    /// Sends one control-socket line to the program (`clock DATE` moves a test clock on) and
    /// returns its answer.
    @discardableResult
    public func control(_ line: String) throws -> String {
        try ControlSocket.send(line, to: AppPaths(environment: environment).socket.path)
    }

    /// How many frames the program has reported drawing (`frame N` lines in `events`).
    public func framesDrawn() -> Int {
        let text = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").reduce(0) { $1.hasPrefix("frame ") ? $0 + 1 : $0 }
    }

    /// Waits until the screen satisfies `condition`; returns the last screen. The screen is read
    /// again each time the program reports a new frame (and a moment after, for tmux to catch up
    /// with the bytes of the last one). `timeout` is only a bound for a program that never gets
    /// there, generous because a busy machine (CI beside other jobs) is slow, not wrong.
    @discardableResult
    public func waitFor(
        _ what: String, timeout: Double = 90, file: StaticString = #filePath, line: UInt = #line,
        _ condition: (String) -> Bool
    ) -> String {
        let end = Date().addingTimeInterval(timeout)
        var s = screen()
        var seen = framesDrawn()
        while !condition(s) && Date() < end {
            // The next event: a new frame, or (for tmux to read what the last one wrote) 100 ms.
            Eventually.wait(timeout: 0.1) { framesDrawn() != seen }
            seen = framesDrawn()
            s = screen()
        }
        if !condition(s) {
            XCTFail(
                "timed out waiting for \(what) (\(framesDrawn()) frames drawn); screen:\n\(s)", file: file, line: line)
        }
        return s
    }

    /// Waits until the program reports drawing a frame after `frames` (bounded like `waitFor`).
    @discardableResult
    public func waitForFrame(after frames: Int, timeout: Double = 90) -> Bool {
        Eventually.wait(timeout: timeout) { framesDrawn() > frames }
    }

    public func close() {
        Self.tmux(socket, ["kill-server"])
        try? FileManager.default.removeItem(at: home)
    }
}

/// Runs a program to its end with `input` on standard input.
public func runProgram(
    _ exe: String, _ args: [String], env: [String: String], input: String = "", in dir: URL? = nil
) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: exe)
    p.arguments = args
    p.environment = env
    if let dir { p.currentDirectoryURL = dir }
    let inPipe = Pipe(), out = Pipe(), err = Pipe()
    p.standardInput = inPipe
    p.standardOutput = out
    p.standardError = err
    try p.run()
    inPipe.fileHandleForWriting.write(Data(input.utf8))
    try inPipe.fileHandleForWriting.close()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}
