import Foundation
import DashWidgets
#if canImport(Glibc)
    import Glibc
#endif

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
