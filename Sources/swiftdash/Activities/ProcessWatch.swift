import Foundation
import Glibc
import DashActivities
import DashActivityFiles

/// Waiting for a process that is not our child (`activity watch`): a pidfd becomes readable when it
/// exits (no polling); without pidfds (glibc before 2.36, Linux before 5.3) it asks once a second.
/// Its exit status is the parent's to collect: we read it from /proc only while the process is a
/// zombie its parent has not collected yet (`exit_code` in /proc/PID/stat, Linux 3.5).
struct ProcessWatch {
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Gone, and the system no longer says how.
        case unknown
        /// We were asked to stop watching.
        case interrupted
    }

    let pid: pid_t
    let pidfd: Int32

    init(pid: pid_t) {
        self.pid = pid
        pidfd = PosixExtras.pidfdOpen.map { $0(pid, 0) } ?? -1
    }

    func orFailure() throws -> ProcessWatch { self }

    static func exists(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

    /// The process's command line from /proc, cleaned; nil when it cannot be read.
    static func commandLine(_ pid: pid_t) -> String? {
        guard let h = FileHandle(forReadingAtPath: "/proc/\(pid)/cmdline") else { return nil }
        defer { try? h.close() }
        let data = (try? h.read(upToCount: 4096)) ?? Data()
        let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let text = ActivityInput.text(words.joined(separator: " "), max: 200)
        return text.isEmpty ? nil : text
    }

    /// Waits until the process exits, or SIGINT, SIGTERM or SIGHUP reaches us.
    func wait() -> Ending {
        SignalPipe.install([SIGINT, SIGTERM, SIGHUP])
        while true {
            var fds = [pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0)]
            if pidfd >= 0 { fds.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&fds, nfds_t(fds.count), pidfd >= 0 ? -1 : 1000)
            if !SignalPipe.drain().isEmpty { return .interrupted }
            if pidfd >= 0 ? fds[1].revents != 0 : !Self.alive(pid) {
                return Self.zombieStatus(pid) ?? .unknown
            }
        }
    }

    /// Alive and not a zombie.
    static func alive(_ pid: pid_t) -> Bool {
        guard exists(pid) else { return false }
        return stat(pid)?.state != "Z"
    }

    /// The exit status a zombie holds for its parent.
    static func zombieStatus(_ pid: pid_t) -> Ending? {
        guard let s = stat(pid), s.state == "Z", let code = s.exitCode else { return nil }
        let sig = code & 0x7f
        return sig == 0 ? .exited((code >> 8) & 0xff) : .signalled(sig)
    }

    /// /proc/PID/stat's state letter and, when we may read it, exit_code (field 52).
    static func stat(_ pid: pid_t) -> (state: Character, exitCode: Int32?)? {
        guard let fields = ProcessIdentity.statFields(pid), let state = fields.first?.first else { return nil }
        // Fields from 3 on: state is field 3, exit_code field 52.
        let exit = fields.count >= 50 ? Int32(fields[49].trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        return (state, exit)
    }
}
