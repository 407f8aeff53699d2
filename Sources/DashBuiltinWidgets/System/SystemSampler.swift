import Foundation
import DashWidgets
#if canImport(Glibc)
    import Glibc
#endif

// Reading the machine's counters from /proc and statvfs, and remembering the previous
// sample so that CPU % and network rates (which are differences) can be worked out.
//
// Cost: one sample opens /proc/stat, /proc/meminfo, /proc/loadavg, /proc/uptime,
// /proc/net/dev, /proc/self/mounts, /proc/filesystems and the host name, calls statvfs
// once per shown file system, and — only for the large sizes, which show the top
// processes — reads /proc/PID/stat of every process (one read each). Files are read
// with plain open/read into one buffer; nothing is kept between samples except the few
// counters the next sample needs (`SystemSamplerStore`).

/// CPU time counters of one CPU line of /proc/stat, in clock ticks. `busy` and `total`
/// are counted as psutil counts them: guest time is already inside user and nice, so
/// it is left out of the total; idle is idle + iowait.
public struct CPUTicks: Sendable, Hashable, Codable {
    public var busy: UInt64
    public var total: UInt64
    public init(busy: UInt64, total: UInt64) {
        self.busy = busy
        self.total = total
    }

    /// Percent busy between `earlier` and `self`; nil when no time passed.
    func percent(since earlier: CPUTicks) -> Double? {
        guard total > earlier.total else { return nil }
        let b = busy >= earlier.busy ? Double(busy - earlier.busy) : 0
        return min(100, max(0, b / Double(total - earlier.total) * 100))
    }

    /// Percent busy since boot.
    var sinceBoot: Double? { total > 0 ? Double(busy) / Double(total) * 100 : nil }
}

/// Bytes received and sent, summed over the chosen interfaces.
public struct NetCounters: Sendable, Hashable, Codable {
    public var received: UInt64
    public var sent: UInt64
    public init(received: UInt64 = 0, sent: UInt64 = 0) {
        self.received = received
        self.sent = sent
    }
}

/// What /proc/PID/stat says about one process.
struct ProcStat: Sendable, Hashable {
    var pid: Int32
    var name: String
    var state: Character
    var ppid: Int32
    var isKernelThread: Bool
    /// utime + stime, in clock ticks.
    var ticks: UInt64
    /// Clock ticks after boot when the process started.
    var startTicks: UInt64
    var threads: Int
    /// Resident pages.
    var rssPages: UInt64
}

/// Free space of one file system, as statvfs reports it (bytes).
public struct DiskSpace: Sendable, Hashable, Codable {
    public var total: UInt64
    public var used: UInt64
    public var available: UInt64
    public init(total: UInt64, used: UInt64, available: UInt64) {
        self.total = total
        self.used = used
        self.available = available
    }
}

/// One mounted file system, from /proc/self/mounts.
struct MountEntry: Sendable, Hashable {
    var device: String
    var mountPoint: String
    var fsType: String
}

/// The counters that need a previous sample (CPU and network), read at one moment.
struct SystemRawSample: Sendable {
    /// Seconds since boot (/proc/uptime): the time base of every rate.
    var uptime: Double
    /// [0] is the "cpu" line (all CPUs), then cpu0, cpu1…
    var cpus: [CPUTicks]
    var net: NetCounters
    var interfaces: [String: NetCounters]
    /// pid → utime + stime; nil when processes were not read for this sample.
    var processTicks: [Int32: UInt64]?
}

/// Pure parsers of the /proc files the system widget reads; text in, values out.
enum ProcParse {
    static func fields(_ line: Substring) -> [Substring] { line.split(whereSeparator: { $0 == " " || $0 == "\t" }) }

    /// /proc/stat: the "cpu" line, then "cpuN" lines.
    static func cpuTicks(_ text: String) -> [CPUTicks] {
        var out: [CPUTicks] = []
        for line in text.split(separator: "\n") {
            guard line.hasPrefix("cpu") else {
                if !out.isEmpty { break }
                continue
            }
            let f = fields(line)
            guard f.count >= 5 else { continue }
            let v = f.dropFirst().map { UInt64($0) ?? 0 }
            // user nice system idle iowait irq softirq steal guest guest_nice
            func at(_ i: Int) -> UInt64 { i < v.count ? v[i] : 0 }
            let all = v.reduce(0, &+)
            let total = all &- at(8) &- at(9)
            let idle = at(3) &+ at(4)
            out.append(CPUTicks(busy: total >= idle ? total - idle : 0, total: total))
        }
        return out
    }

    /// /proc/meminfo: values in bytes by key (the file says kB).
    static func meminfo(_ text: String) -> [String: UInt64] {
        var out: [String: UInt64] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon])
            let f = fields(line[line.index(after: colon)...])
            guard let n = f.first.flatMap({ UInt64($0) }) else { continue }
            out[key] = f.count > 1 && f[1] == "kB" ? n * 1024 : n
        }
        return out
    }

    /// /proc/loadavg: "0.56 0.69 0.35 2/90 12895".
    static func loadavg(_ text: String) -> (load: [Double], running: Int, total: Int)? {
        let f = fields(Substring(text))
        guard f.count >= 4 else { return nil }
        let load = f.prefix(3).compactMap { Double($0) }
        guard load.count == 3 else { return nil }
        let rt = f[3].split(separator: "/")
        return (load, rt.first.flatMap { Int($0) } ?? 0, rt.count > 1 ? Int(rt[1]) ?? 0 : 0)
    }

    /// /proc/uptime: seconds since boot.
    static func uptime(_ text: String) -> Double? {
        fields(Substring(text)).first.flatMap { Double($0) }
    }

    /// /proc/net/dev: bytes received and sent by interface.
    static func netDev(_ text: String) -> [(name: String, counters: NetCounters)] {
        var out: [(String, NetCounters)] = []
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let f = fields(line[line.index(after: colon)...])
            guard f.count >= 9, let rx = UInt64(f[0]), let tx = UInt64(f[8]) else { continue }
            out.append((name, NetCounters(received: rx, sent: tx)))
        }
        return out
    }

    /// /proc/self/mounts; octal escapes (\040 for a space) decoded.
    static func mounts(_ text: String) -> [MountEntry] {
        text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count >= 3 else { return nil }
            return MountEntry(device: unescape(f[0]), mountPoint: unescape(f[1]), fsType: String(f[2]))
        }
    }

    static func unescape(_ s: Substring) -> String {
        guard s.contains("\\") else { return String(s) }
        var bytes: [UInt8] = []
        let u = Array(s.utf8)
        var i = 0
        while i < u.count {
            let octal =
                i + 3 < u.count && u[i] == 0x5C
                && u[(i + 1)...(i + 3)].allSatisfy { (0x30...0x37).contains($0) }
            if octal {
                bytes.append(u[(i + 1)...(i + 3)].reduce(0) { $0 &* 8 &+ ($1 - 0x30) })
                i += 4
            } else {
                bytes.append(u[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// /proc/filesystems: the types that need a block device (lines without "nodev").
    static func deviceFilesystems(_ text: String) -> Set<String> {
        var out = Set<String>()
        for line in text.split(separator: "\n") where !line.hasPrefix("nodev") {
            if let t = fields(line).last { out.insert(String(t)) }
        }
        return out
    }

    /// /proc/PID/stat from its bytes, the hot path of a large tile (one per process):
    /// no String but the name, only the fields the widget uses parsed.
    static func procStat(bytes b: UnsafeBufferPointer<UInt8>) -> ProcStat? {
        guard let open = b.firstIndex(of: 0x28), let close = b.lastIndex(of: 0x29), open < close else { return nil }
        var pid: Int32 = 0
        var i = 0
        while i < open, b[i] == 0x20 { i += 1 }
        guard i < open else { return nil }
        while i < open, b[i] != 0x20 {
            guard (0x30...0x39).contains(b[i]) else { return nil }
            pid = pid &* 10 &+ Int32(b[i] - 0x30)
            i += 1
        }
        // Fields after the name, numbered as in proc(5): the state is field 3.
        var values = [UInt64](repeating: 0, count: 25)
        var state: UInt8 = 0x3F
        var field = 2
        i = close + 1
        while i < b.count, field < 25 {
            while i < b.count, b[i] == 0x20 || b[i] == 0x0A { i += 1 }
            guard i < b.count else { break }
            field += 1
            if field == 3 { state = b[i] }
            var v: UInt64 = 0
            var negative = false
            while i < b.count, b[i] != 0x20, b[i] != 0x0A {
                let c = b[i]
                if c == 0x2D { negative = true } else if (0x30...0x39).contains(c) { v = v &* 10 &+ UInt64(c - 0x30) }
                i += 1
            }
            if field < 25 { values[field] = negative ? 0 : v }
        }
        guard field >= 24 else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: b[(open + 1)..<close]), as: UTF8.self)
        return ProcStat(
            pid: pid, name: name, state: Character(Unicode.Scalar(state)),
            ppid: Int32(truncatingIfNeeded: values[4]),
            isKernelThread: values[9] & 0x0020_0000 != 0, ticks: values[14] &+ values[15],
            startTicks: values[22], threads: Int(values[20]), rssPages: values[24])
    }

    /// /proc/PID/stat. The name is inside the first "(" and the last ")": it may hold
    /// spaces and parentheses itself.
    static func procStat(_ text: String) -> ProcStat? {
        var t = text
        return t.withUTF8 { procStat(bytes: $0) }
    }
}

/// The machine as /proc shows it under `root` ("" for the real one; tests give a folder
/// holding a fake `proc/` tree).
public struct ProcFS: Sendable {
    public var root: String
    /// Clock ticks per second (`getconf CLK_TCK`).
    public var clockTicks: Double
    public var pageSize: UInt64
    /// Free space of a mounted file system; statvfs on the real machine.
    public var diskSpace: @Sendable (String) -> DiskSpace?

    public init(
        root: String = "", clockTicks: Double? = nil, pageSize: UInt64? = nil,
        diskSpace: (@Sendable (String) -> DiskSpace?)? = nil
    ) {
        var r = root
        while r.hasSuffix("/") { r.removeLast() }
        self.root = r
        self.clockTicks = clockTicks ?? Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
        self.pageSize = pageSize ?? UInt64(max(1, sysconf(Int32(_SC_PAGESIZE))))
        self.diskSpace = diskSpace ?? ProcFS.statvfsSpace
    }

    static let statvfsSpace: @Sendable (String) -> DiskSpace? = { path in
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { return nil }
        let unit = UInt64(s.f_frsize)
        let total = UInt64(s.f_blocks) * unit
        let free = UInt64(s.f_bfree) * unit
        return DiskSpace(total: total, used: total >= free ? total - free : 0, available: UInt64(s.f_bavail) * unit)
    }

    func path(_ rel: String) -> String { root + "/proc/" + rel }

    /// Reads a whole (small) file with open/read; nil if it cannot be read.
    func read(_ rel: String, limit: Int = 1 << 20) -> String? {
        ProcFS.readFile(path(rel), limit: limit)
    }

    static func readFile(_ path: String, limit: Int = 1 << 20) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while out.count < limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Every process id under /proc.
    func pids() -> [Int32] {
        guard let dir = opendir(root + "/proc") else { return [] }
        defer { closedir(dir) }
        var out: [Int32] = []
        while let ent = readdir(dir) {
            let name = withUnsafePointer(to: &ent.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if let first = name.utf8.first, (0x30...0x39).contains(first), let pid = Int32(name) { out.append(pid) }
        }
        return out
    }

    /// Interfaces counted by default: not loopback, nor the virtual ones that repeat
    /// traffic another interface already counts (container veths, bridges, ifb mirrors).
    static func isCountedByDefault(_ name: String) -> Bool {
        if name == "lo" { return false }
        return !["veth", "docker", "br-", "virbr", "ifb", "cni", "flannel", "cali"].contains { name.hasPrefix($0) }
    }

    /// The CPU and network counters (and, when asked, every process's CPU ticks).
    func rawSample(interfaces wanted: [String], processes: [ProcStat]?) throws -> SystemRawSample {
        guard let stat = read("stat"), case let cpus = ProcParse.cpuTicks(stat), !cpus.isEmpty else {
            throw DataSourceError(.notFound, "cannot read \(path("stat")): the system widget needs Linux's /proc")
        }
        let up = read("uptime").flatMap(ProcParse.uptime) ?? 0
        var sum = NetCounters()
        var per: [String: NetCounters] = [:]
        for (name, c) in ProcParse.netDev(read("net/dev") ?? "") {
            let counted = wanted.isEmpty ? ProcFS.isCountedByDefault(name) : wanted.contains(name)
            guard counted else { continue }
            per[name] = c
            sum.received &+= c.received
            sum.sent &+= c.sent
        }
        var ticks: [Int32: UInt64]? = nil
        if let processes {
            var t: [Int32: UInt64] = [:]
            t.reserveCapacity(processes.count)
            for p in processes { t[p.pid] = p.ticks }
            ticks = t
        }
        return SystemRawSample(uptime: up, cpus: cpus, net: sum, interfaces: per, processTicks: ticks)
    }

    /// Every user-space process (kernel threads left out, as htop does by default).
    func processes() -> [ProcStat] {
        var out: [ProcStat] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        let base = root + "/proc/"
        for pid in pids() {
            let fd = open(base + String(pid) + "/stat", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            close(fd)
            guard n > 0 else { continue }
            let p = buffer.withUnsafeBufferPointer {
                ProcParse.procStat(bytes: UnsafeBufferPointer(rebasing: $0[0..<n]))
            }
            if let p, !p.isKernelThread { out.append(p) }
        }
        return out
    }

    /// Resident pages from /proc/PID/statm (what psutil and top report; the rss field of
    /// /proc/PID/stat is summed from per-CPU counters less exactly on recent kernels).
    func residentPages(_ pid: Int32) -> UInt64? {
        guard let text = read("\(pid)/statm", limit: 256) else { return nil }
        let f = ProcParse.fields(Substring(text))
        return f.count > 1 ? UInt64(f[1]) : nil
    }

    /// The command line of a process, arguments joined by spaces; "" for kernel threads
    /// or a process that is gone.
    func commandLine(_ pid: Int32) -> String {
        guard let raw = read("\(pid)/cmdline", limit: 4096) else { return "" }
        return TextSanitizer.singleLine(raw.replacingOccurrences(of: "\u{0}", with: " "))
    }

    /// The mounted file systems worth showing: those `wanted` (in that order) or else
    /// every file system on a block device, plus `/` whatever its type (a container's
    /// overlay), without pseudo and network file systems, and each device once.
    func fileSystems(wanted: [String]) -> [(MountEntry, DiskSpace)] {
        let mounts = ProcParse.mounts(read("self/mounts") ?? read("mounts") ?? "")
        var out: [(MountEntry, DiskSpace)] = []
        if !wanted.isEmpty {
            for w in wanted {
                let m = mounts.last { $0.mountPoint == w } ?? MountEntry(device: "", mountPoint: w, fsType: "")
                if let s = diskSpace(w) { out.append((m, s)) }
            }
            return out
        }
        let deviceTypes = ProcParse.deviceFilesystems(read("filesystems") ?? "")
        let skipped: Set<String> = ["squashfs", "iso9660", "udf"]
        var seen = Set<String>()
        // Shortest mount point first, so a device mounted twice (bind mounts) shows once, at its top.
        for m in mounts.sorted(by: { ($0.mountPoint.count, $0.mountPoint) < ($1.mountPoint.count, $1.mountPoint) }) {
            let real =
                (deviceTypes.contains(m.fsType) || ["zfs", "btrfs", "bcachefs"].contains(m.fsType))
                && !skipped.contains(m.fsType)
            guard real || m.mountPoint == "/" else { continue }
            guard seen.insert(m.device.isEmpty ? m.mountPoint : m.device).inserted else { continue }
            guard let s = diskSpace(m.mountPoint), s.total > 0 else { continue }
            out.append((m, s))
        }
        return out.sorted { a, b in
            a.0.mountPoint == "/" ? true : b.0.mountPoint == "/" ? false : a.0.mountPoint < b.0.mountPoint
        }
    }
}

/// Recent history of the system widget, oldest first.
public struct SystemHistory: Sendable, Hashable, Codable {
    public var cpu: [Double] = []
    public var memory: [Double] = []
    public var received: [Double] = []
    public var sent: [Double] = []
    /// The uptime of the last point, so points are spaced at least `minSpacing` apart.
    var lastUptime: Double = -.infinity
    public init() {}

    enum CodingKeys: String, CodingKey { case cpu, memory, received, sent }
}

/// The system widget's memory between samples, one slot per instance configuration.
///
/// Providers are stateless values, but CPU % and network rates are differences between
/// two readings. So each `timeline` call hands its fresh reading to this actor and gets
/// back the earlier reading to compare with, plus the recent history for the sparklines.
/// One store serves the whole process (`shared`); the key is the /proc root, the
/// instance's resolved configuration and whether its size reads processes, so two
/// differently configured tiles keep apart, while the same configuration shown twice
/// shares one history (same machine, same numbers). It keeps a few readings per key
/// (enough to pick one at least half an interval old, so that `preview --live` drawing
/// four sizes in a row does not divide by a few milliseconds) and at most `capacity`
/// keys, dropping the least recently used.
public actor SystemSamplerStore {
    public static let shared = SystemSamplerStore()

    struct Key: Hashable {
        var root: String
        var config: WidgetConfig
        /// Sizes that read processes keep their own slot: their readings carry process counters.
        var processes = false
    }
    struct Slot {
        var recent: [SystemRawSample] = []
        var history = SystemHistory()
        var used: UInt64 = 0
    }

    private var slots: [Key: Slot] = [:]
    private var clock: UInt64 = 0
    let capacity: Int
    let historyLength: Int

    public init(capacity: Int = 32, historyLength: Int = 90) {
        self.capacity = capacity
        self.historyLength = historyLength
    }

    /// True if a reading for `key` is already stored.
    func hasBaseline(_ key: Key) -> Bool { !(slots[key]?.recent.isEmpty ?? true) }

    /// Stores `sample` and returns the reading to compare it with: the newest stored one
    /// at least `minWindow` seconds older, else the oldest one (nil if none, or if the
    /// machine rebooted since, which the uptime tells).
    func exchange(_ key: Key, _ sample: SystemRawSample, minWindow: Double) -> SystemRawSample? {
        clock &+= 1
        var slot = slots[key] ?? Slot()
        slot.used = clock
        slot.recent.removeAll { $0.uptime > sample.uptime }
        let baseline = slot.recent.last { sample.uptime - $0.uptime >= minWindow } ?? slot.recent.first
        slot.recent.append(sample)
        // Keep what a later call may still pick: one reading older than the window, and the ones after it.
        if let keep = slot.recent.lastIndex(where: { sample.uptime - $0.uptime >= minWindow }), keep > 0 {
            slot.recent.removeFirst(keep)
        }
        if slot.recent.count > 8 { slot.recent.removeFirst(slot.recent.count - 8) }
        slots[key] = slot
        if slots.count > capacity, let lru = slots.min(by: { $0.value.used < $1.value.used })?.key {
            slots[lru] = nil
        }
        return baseline
    }

    /// Adds a point to the history of `key` unless the last point is less than
    /// `minSpacing` seconds older, and returns the history.
    func record(
        _ key: Key, uptime: Double, cpu: Double?, memory: Double?, net: (Double, Double)?,
        minSpacing: Double
    ) -> SystemHistory {
        guard var slot = slots[key] else { return SystemHistory() }
        var h = slot.history
        if uptime < h.lastUptime { h = SystemHistory() }  // rebooted
        if uptime - h.lastUptime >= minSpacing {
            func push(_ a: inout [Double], _ v: Double?) {
                guard let v else { return }
                a.append(v)
                if a.count > historyLength { a.removeFirst(a.count - historyLength) }
            }
            push(&h.cpu, cpu)
            push(&h.memory, memory)
            push(&h.received, net?.0)
            push(&h.sent, net?.1)
            h.lastUptime = uptime
        }
        slot.history = h
        slots[key] = slot
        return h
    }

    /// Number of configurations remembered (for tests).
    var count: Int { slots.count }
}
