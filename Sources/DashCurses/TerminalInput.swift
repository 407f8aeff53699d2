import CNcursesw
import DashCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal's bytes on their way to ncurses. swiftdash reads the terminal itself, passes
/// every byte through `TerminalInputFilter`, and writes only the keys into a pipe ncurses reads
/// as its input: a reply (to the width probe, OSC 11, any later query) never reaches the key
/// decoder, whenever it arrives and however it is cut (issue 37.2). Reading everything the
/// terminal has at once also lets the loop see a whole flood of keys in one turn (issue 37.7).
final class TerminalInput {
    private(set) var filter = TerminalInputFilter()
    /// Our end of the pipe ncurses reads (non-blocking); its end is `cursesInput`.
    private let toCurses: Int32
    let cursesInput: UnsafeMutablePointer<FILE>?
    /// Keys the pipe had no room for yet (ncurses reads them first).
    private var unsent: [UInt8] = []
    /// Replies found since the last `takeReplies`.
    private var replies: [TerminalReply] = []
    private let origin = ContinuousClock.now
    /// Where reads land (one buffer: the loop pumps once per event of a flood).
    private var buf = [UInt8](repeating: 0, count: 16384)
    /// The most keys kept waiting for ncurses: a flood beyond it is no person typing.
    static let unsentLimit = 4 << 20

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
            // Room for a big paste at once (F_SETPIPE_SZ; the default 64 KiB if refused).
            _ = fcntl(fds[1], 1031, Int32(1 << 20))
            cursesInput = fdopen(fds[0], "r")
        } else {
            cursesInput = nil
        }
        toCurses = fds[1]
    }

    /// Seconds on the monotonic clock, the filter's time.
    var now: Double { (ContinuousClock.now - origin) / .seconds(1) }

    /// The replies found since the last call.
    func takeReplies() -> [TerminalReply] {
        defer { replies = [] }
        return replies
    }

    /// The cursor position reports the probe is about to ask for.
    func expectPositions(_ n: Int) { filter.expectedPositions = n }

    /// Reads everything the terminal has sent, without waiting, and passes it on; then lets
    /// the filter's deadlines pass. True when anything was read.
    @discardableResult
    func pump() -> Bool {
        flush()
        var any = false
        var total = 0
        // Bounded, so a terminal that never stops sending cannot hold the loop here.
        while total < 1 << 20, Self.readable(0) {
            let n = buf.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { break }
            total += n
            any = true
            absorb(filter.feed(buf[0..<n], at: now))
        }
        absorb(filter.expire(at: now))
        flush()
        return any
    }

    /// Waits up to `ms` milliseconds for the terminal to send something, then pumps it.
    @discardableResult
    func wait(milliseconds ms: Int32) -> Bool {
        _ = Self.readable(ms)
        return pump()
    }

    /// Seconds until the filter has something to decide by itself (a held ESC, an unfinished
    /// reply), nil when nothing is pending: a wait for input ends then.
    var secondsToDeadline: Double? { filter.nextDeadline.map { max(0, $0 - now) } }

    /// Whether keys are waiting that ncurses has not been given.
    var hasUnsent: Bool { !unsent.isEmpty }

    private func absorb(_ out: TerminalInputFilter.Output) {
        replies += out.replies
        guard !out.keys.isEmpty else { return }
        if unsent.count < Self.unsentLimit { unsent += out.keys.prefix(Self.unsentLimit - unsent.count) }
    }

    private func flush() {
        guard !unsent.isEmpty, toCurses >= 0 else { return }
        let n = unsent.withUnsafeBytes { write(toCurses, $0.baseAddress, $0.count) }
        if n > 0 { unsent.removeFirst(n) }
    }

    static func readable(_ ms: Int32) -> Bool {
        var fd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, ms) > 0 && fd.revents & Int16(POLLIN) != 0
    }

    /// At exit: what the terminal still sends (the rest of a flood, keys typed meanwhile) is
    /// read and dropped until it has been quiet for `quiet` seconds (at most `limit`), so none
    /// of it is typed into the shell (issue 38.7).
    func drainAtExit(quiet: Int32 = 50, limit: Double = 2) {
        let end = now + limit
        var buf = [UInt8](repeating: 0, count: 16384)
        while now < end, Self.readable(quiet) {
            if read(STDIN_FILENO, &buf, buf.count) <= 0 && errno != EINTR { break }
        }
        unsent = []
    }
}
