import Foundation
import CNcursesw

/// Waits for input, a wake-up, or an absolute wall-clock deadline (decision 26).
///
/// `poll()` with a relative timeout ends late (Linux lets a poll timeout slip by 0.1% of its
/// length, up to 100 ms: a 60 s wait for the next minute ended 46–64 ms after it), and counts
/// monotonic time, which stops while a laptop sleeps. A `CLOCK_REALTIME` timer fd armed for
/// the absolute deadline with `TFD_TIMER_CANCEL_ON_SET` ends on time, fires at once after a
/// resume past the deadline, and reports any step of the wall clock (NTP, `date -s`). An
/// inotify watch on /etc tells when /etc/localtime (the system time zone) changes.
public final class WallClockWaiter {
    public struct Woke: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let input = Woke(rawValue: 1)
        public static let wake = Woke(rawValue: 2)
        public static let deadline = Woke(rawValue: 4)
        public static let clockChanged = Woke(rawValue: 8)
        public static let timeZoneChanged = Woke(rawValue: 16)
    }

    let timer: Int32
    let zoneWatch: Int32
    /// A pipe through which tests inject a clock change (setting the clock needs root).
    let injectRead: Int32
    let injectWrite: Int32

    /// `watchTimeZone`: watch /etc/localtime (pointless when `TZ` is set: it wins).
    public init(watchTimeZone: Bool, zoneDirectory: String = "/etc") {
        timer = sd_timerfd_create()
        zoneWatch = watchTimeZone ? sd_inotify_dir(zoneDirectory) : -1
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        injectRead = fds[0]
        injectWrite = fds[1]
    }

    deinit {
        for fd in [timer, zoneWatch, injectRead, injectWrite] where fd >= 0 { close(fd) }
    }

    /// Makes the next `wait` report a clock change, as the kernel does when the clock is set.
    public func injectClockChange() {
        var c: UInt8 = 1
        _ = write(injectWrite, &c, 1)
    }

    /// Waits until `input` or `wake` is readable, the wall clock reaches `deadline` (seconds
    /// since 1970; nil: no deadline), the clock is set, or the time zone file changes.
    /// An empty result means a signal interrupted the wait.
    public func wait(input: Int32, wake: Int32, until deadline: Double?) -> Woke {
        if let asked = deadline {
            // Held to 31,000 years ahead, and a past or NaN deadline is due: the conversions to
            // whole seconds and nanoseconds below must not trap whatever a caller hands in
            // (issue 37.1; the runtime holds it too).
            let d = asked.isNaN ? 0 : min(max(asked, 0), 1e12)
            let sec = d.rounded(.down)
            let nsec = Int(((d - sec) * 1e9).rounded(.down))
            // A zero time would disarm the timer: a deadline at the epoch is simply due.
            _ = sd_timerfd_arm(
                timer, Int64(max(sec, 0)) == 0 && nsec == 0 ? 0 : Int64(sec), max(0, min(nsec, 999_999_999)))
            if sec == 0 && nsec == 0 { return .deadline }
        } else {
            _ = sd_timerfd_arm(timer, 0, 0)
        }
        let fds: [Int32] = [input, wake, timer, zoneWatch, injectRead]
        let bits = fds.withUnsafeBufferPointer { sd_wait_fds($0.baseAddress, Int32($0.count)) }
        if bits < 0 { return [] }
        var woke: Woke = []
        if bits & 1 != 0 { woke.insert(.input) }
        if bits & 2 != 0 { woke.insert(.wake) }
        if bits & 4 != 0 {
            switch sd_timerfd_read(timer) {
            case 1: woke.insert(.deadline)
            case 2: woke.insert(.clockChanged)
            default: break
            }
        }
        if bits & 8 != 0, sd_inotify_drain(zoneWatch, "localtime") != 0 { woke.insert(.timeZoneChanged) }
        if bits & 16 != 0 {
            var buf = [UInt8](repeating: 0, count: 16)
            while read(injectRead, &buf, buf.count) > 0 {}
            woke.insert(.clockChanged)
        }
        return woke
    }

    /// The system time zone now, read from /etc/localtime (Foundation caches the one it read
    /// at start). Nil if it cannot be told.
    public static func systemTimeZone(localtime: String = "/etc/localtime") -> TimeZone? {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtime),
            let range = target.range(of: "zoneinfo/")
        {
            let name = String(target[range.upperBound...])
            if let tz = TimeZone(identifier: name) { return tz }
        }
        NSTimeZone.resetSystemTimeZone()
        return TimeZone.current
    }
}
