import Foundation
import DashActivities
#if canImport(Glibc)
    import Glibc
#endif

/// Names a process so that a later reader can tell whether that very process still runs: its pid,
/// its start time in clock ticks after boot (field 22 of /proc/PID/stat) and the boot's id
/// (/proc/sys/kernel/random/boot_id). A pid taken again by another process, or the same pid after
/// a restart, is not the owner.
public enum ProcessIdentity {
    /// This process, or nil where /proc does not say (then its activities carry no owner and end
    /// only by themselves or the 8-hour limit, as before).
    public static func current() -> ActivityOwner? { of(getpid()) }

    /// The process `pid` as it is now; nil when it is gone or /proc cannot be read.
    public static func of(_ pid: Int32) -> ActivityOwner? {
        guard let boot = bootID, let ticks = startTicks(pid) else { return nil }
        return ActivityOwner(pid: pid, startTicks: ticks, boot: boot)
    }

    /// Whether the owner is certainly gone: another boot, no such process, or another process with
    /// its pid. When /proc cannot say (not mounted, hidden), it is taken as alive.
    public static func isGone(_ owner: ActivityOwner) -> Bool {
        guard let boot = bootID else { return false }
        if boot != owner.boot { return true }
        if kill(owner.pid, 0) != 0 && errno == ESRCH { return true }
        guard let ticks = startTicks(owner.pid) else { return false }
        if ticks != owner.startTicks { return true }
        return state(owner.pid) == "Z"
    }

    static let bootID: String? = {
        guard let text = read("/proc/sys/kernel/random/boot_id") else { return nil }
        let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }()

    /// Field 22 of /proc/PID/stat.
    static func startTicks(_ pid: Int32) -> UInt64? {
        guard let fields = statFields(pid), fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }

    /// Field 3: R, S, Z …
    static func state(_ pid: Int32) -> Character? { statFields(pid)?.first?.first }

    /// The fields of /proc/PID/stat after the command's name (which is in parentheses and may hold
    /// spaces), from field 3 (state) on; nil when the process is gone or hidden.
    public static func statFields(_ pid: Int32) -> [Substring]? {
        guard let text = read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = Glibc.read(fd, &buf, buf.count)
        guard n > 0 else { return nil }
        return String(decoding: buf[0..<n], as: UTF8.self)
    }
}
