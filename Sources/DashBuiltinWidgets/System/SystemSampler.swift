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
