import Foundation
import DashWidgets

/// Memory and swap, in bytes (/proc/meminfo).
public struct SystemMemory: Codable, Sendable, Hashable {
    public var total: UInt64
    /// MemAvailable: what programs can still get without swapping.
    public var available: UInt64
    public var free: UInt64
    public var buffers: UInt64
    public var cached: UInt64
    public var swapTotal: UInt64
    public var swapFree: UInt64

    public init(
        total: UInt64, available: UInt64, free: UInt64, buffers: UInt64, cached: UInt64,
        swapTotal: UInt64, swapFree: UInt64
    ) {
        self.total = total
        self.available = available
        self.free = free
        self.buffers = buffers
        self.cached = cached
        self.swapTotal = swapTotal
        self.swapFree = swapFree
    }

    /// Total minus available (what `free` calls used, and psutil's percent counts).
    public var used: UInt64 { total >= available ? total - available : 0 }
    public var percent: Double { total > 0 ? Double(used) / Double(total) * 100 : 0 }
    public var swapUsed: UInt64 { swapTotal >= swapFree ? swapTotal - swapFree : 0 }
    public var swapPercent: Double { swapTotal > 0 ? Double(swapUsed) / Double(swapTotal) * 100 : 0 }
}

/// One mounted file system and its use.
public struct SystemDisk: Codable, Sendable, Hashable {
    public var mountPoint: String
    public var device: String
    public var fsType: String
    public var space: DiskSpace

    /// Used of what is usable (df's Use%: reserved blocks count as neither).
    public var percent: Double {
        let base = space.used + space.available
        return base > 0 ? Double(space.used) / Double(base) * 100 : 0
    }
}

/// One network interface: its rates (nil without an earlier sample) and totals.
public struct SystemInterface: Codable, Sendable, Hashable {
    public var name: String
    public var received: Double?
    public var sent: Double?
    public var receivedTotal: UInt64
    public var sentTotal: UInt64
}

/// One process of the top list.
public struct SystemProcess: Codable, Sendable, Hashable {
    public var pid: Int32
    public var name: String
    /// Its command line (only the top few are read), sanitised.
    public var command: String
    /// Percent of one core, as htop shows it (can pass 100 for a multi-threaded process).
    public var cpu: Double
    /// Resident memory in bytes.
    public var memory: UInt64
    public var threads: Int
    public var state: String
}

/// What the system tile shows at one moment.
public struct SystemEntry: TimelineEntry, Hashable {
    public var date: Date
    public var host: String
    /// Seconds since boot.
    public var uptime: Double
    /// Seconds between samples (the configured interval).
    public var interval: Double
    /// CPU busy percent of all cores; nil when it could not be measured.
    public var cpu: Double?
    /// Seconds `cpu` was measured over; nil when it is the average since boot (no earlier sample).
    public var cpuWindow: Double?
    public var cores: [Double]
    /// Load average over 1, 5 and 15 minutes.
    public var load: [Double]
    /// Runnable tasks and all tasks (/proc/loadavg).
    public var runnable: Int
    public var tasks: Int
    public var memory: SystemMemory
    public var disks: [SystemDisk]
    /// Bytes per second over the counted interfaces; nil without an earlier sample.
    public var received: Double?
    public var sent: Double?
    public var receivedTotal: UInt64
    public var sentTotal: UInt64
    public var interfaces: [SystemInterface]
    /// Top processes by CPU.
    public var processes: [SystemProcess]
    /// True when process CPU was measured over the window; false: averaged over each one's life.
    public var processesMeasured: Bool
    public var history: SystemHistory
    public var isPlaceholder: Bool

    public var summary: String {
        var parts = ["CPU \(SysFmt.percent(cpu))", "mem \(SysFmt.percent(memory.percent))"]
        if let l = load.first { parts.append("load \(FixedFormat.decimal(l, places: 2))") }
        if let d = disks.first { parts.append("\(d.mountPoint) \(SysFmt.percent(d.percent))") }
        if let rx = received, let tx = sent { parts.append("net ↓\(SysFmt.rate(rx)) ↑\(SysFmt.rate(tx))") }
        return parts.joined(separator: " · ")
    }

    /// Pressure is worth a look: CPU above 70 %, memory above 80 %, a disk above 90 %,
    /// swap in heavy use. The score is how far past the line the worst one is.
    public var relevance: Relevance? {
        guard !isPlaceholder else { return nil }
        var score = 0.0
        if let c = cpu { score = max(score, (c - 70) / 30) }
        score = max(score, (memory.percent - 80) / 20)
        for d in disks { score = max(score, (d.percent - 90) / 10) }
        if memory.swapTotal > 0 { score = max(score, (memory.swapPercent - 50) / 50) }
        guard score > 0 else { return nil }
        return Relevance(score: min(1, score), duration: max(30, interval * 5))
    }
}

/// Numbers as a system monitor writes them.
enum SysFmt {
    static func percent(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "–" }
        return "\(Int(clamping: v.rounded()))%"
    }

    /// 7.8G, 512M, 12G, 980K (powers of 1024, as free -h and htop).
    static func bytes(_ n: UInt64) -> String {
        let units = ["B", "K", "M", "G", "T", "P"]
        var v = Double(n)
        var i = 0
        while v >= 1000 && i < units.count - 1 {
            v /= 1024
            i += 1
        }
        if i == 0 { return "\(n)B" }
        return (v < 10 ? FixedFormat.decimal(v, places: 1) : String(Int(clamping: v.rounded()))) + units[i]
    }

    /// 1.2M/s, 34K/s, 0B/s; "–" when unknown.
    static func rate(_ v: Double?) -> String {
        guard let v, v.isFinite, v >= 0 else { return "–" }
        return bytes(UInt64(clamping: v.rounded())) + "/s"
    }

    /// 3d 4h, 5h 12m, 12m.
    static func uptime(_ s: Double) -> String {
        let m = Int(clamping: s, to: 0...Int.max) / 60
        let d = m / 1440, h = m % 1440 / 60, min = m % 60
        if d > 0 { return "\(d)d \(h)h" }
        if h > 0 { return "\(h)h \(min)m" }
        return "\(min)m"
    }

    static func load(_ l: [Double]) -> String {
        l.map { FixedFormat.decimal($0, places: 2) }.joined(separator: " ")
    }

    /// Calm, busy, critical.
    static func color(_ percent: Double?) -> SemanticColor {
        guard let p = percent else { return .secondary }
        return p >= 90 ? .negative : p >= 70 ? .warning : .accent
    }
}

/// The system monitor: CPU, load, memory, disks, network, uptime, and the busiest
/// processes, from /proc and statvfs; sampled every `interval` seconds (default 2, like
/// htop) as `.after` reloads of a local widget, which the budget does not charge.
public enum SystemWidget {
    public static let kind = "system"

    public static let schema = ConfigurationSchema([
        Parameter(
            key: "interval", title: "Interval", help: "Seconds between samples (htop samples every 2)",
            kind: .integer(1...3600), default: .int(2)),
        Parameter(
            key: "mounts", title: "File systems",
            help: "Mount points to show, such as /,/home; empty for every disk-backed file system",
            kind: .list(itemPattern: "/.*"), default: .list([])
        ).allowing("a mount point starting with /, such as /home"),
        Parameter(
            key: "interfaces", title: "Network interfaces",
            help: "Interfaces to count, such as eth0,wlan0; empty for all but loopback and virtual ones",
            kind: .list(itemPattern: "[A-Za-z0-9_.:@-]{1,32}"), default: .list([])
        ).allowing("an interface name such as eth0"),
    ])

    public static let widget = make()

    /// - Parameters:
    ///   - proc: where /proc is (tests give a fake tree) and how file systems are measured.
    ///   - store: the sampler memory between reloads (tests give a fresh one).
    ///   - warmup: on the very first sample of a configuration there is nothing to
    ///     compare with; the provider then reads twice this far apart (zero: the first
    ///     entry shows CPU averaged since boot and no network rates).
    public static func make(
        proc: ProcFS = ProcFS(), store: SystemSamplerStore = .shared,
        warmup: Duration = .milliseconds(250)
    ) -> Widget {
        Widget(
            kind: kind, displayName: "System",
            description: "CPU, load, memory, disks, network and top processes, from /proc",
            supportedFamilies: [.small, .medium, .large, .extraLarge],
            schema: schema, cost: .local, timeout: 10,
            provider: SystemProvider(proc: proc, store: store, warmup: warmup),
            view: { entry, ctx in SystemViews.tile(entry, ctx) },
            detail: { link, entry, ctx in SystemViews.detail(link, entry, ctx) })
    }

    static func link(_ path: String...) -> String { DeepLink.make(kind: kind, path.joined(separator: "/")) }
}

struct SystemProvider: TimelineProvider {
    let proc: ProcFS
    let store: SystemSamplerStore
    let warmup: Duration

    func placeholder(in context: TimelineContext) -> SystemEntry {
        var e = SystemSamples.entry(now: context.now)
        e.isPlaceholder = true
        return e
    }

    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> SystemEntry {
        if context.isPreview { return SystemSamples.entry(now: context.now) }
        let live = try? await timeline(for: configuration, in: context).entries.first
        return live ?? SystemSamples.entry(now: context.now)
    }

    static func interval(_ config: WidgetConfig) -> Double {
        Double(min(3600, max(1, config.int("interval") ?? 2)))
    }

    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<SystemEntry> {
        let interval = Self.interval(configuration)
        let entry = try await sample(configuration, family: context.family, now: context.now)
        return Timeline(entries: [entry], policy: .after(context.now.addingTimeInterval(interval)))
    }

    /// Reads the machine once (twice on a configuration's first sample, see `warmup`).
    func sample(_ configuration: WidgetConfig, family: WidgetFamily, now: Date) async throws -> SystemEntry {
        let interval = Self.interval(configuration)
        // Every size reads the processes: the detail pane, opened from a tile of any size,
        // and a small tile a big screen made tall list them from this entry.
        let key = SystemSamplerStore.Key(root: proc.root, config: configuration, processes: true)
        let interfaces = configuration.list("interfaces")
        // Half an interval: two loads close together still compare over a real window.
        let minWindow = max(0.2, interval / 2)

        var procs: [ProcStat]? = proc.processes()
        var raw = try proc.rawSample(interfaces: interfaces, processes: procs)
        var baseline = await store.exchange(key, raw, minWindow: minWindow)
        if baseline == nil, warmup > .zero {
            try await ProviderSleep.sleep(for: warmup)
            procs = proc.processes()
            raw = try proc.rawSample(interfaces: interfaces, processes: procs)
            baseline = await store.exchange(key, raw, minWindow: minWindow)
        }
        var entry = SystemCompute.entry(
            now: now, interval: interval, raw: raw, baseline: baseline,
            processes: procs, proc: proc, mounts: configuration.list("mounts"))
        entry.history = await store.record(
            key, uptime: raw.uptime, cpu: entry.cpu, memory: entry.memory.percent,
            net: entry.received.flatMap { rx in entry.sent.map { (rx, $0) } },
            minSpacing: minWindow)
        return entry
    }
}

/// Turns readings into an entry. Pure apart from the instantaneous files it reads
/// through `proc` (memory, load, host name, mounts, command lines of the top processes).
enum SystemCompute {
    static let topCount = 20
    static let commandCount = 12

    static func entry(
        now: Date, interval: Double, raw: SystemRawSample, baseline: SystemRawSample?,
        processes: [ProcStat]?, proc: ProcFS, mounts: [String]
    ) -> SystemEntry {
        let dt = baseline.map { raw.uptime - $0.uptime } ?? 0
        var cpu: Double? = nil
        var cpuWindow: Double? = nil
        var cores: [Double] = []
        if let b = baseline, b.cpus.count == raw.cpus.count, let p = raw.cpus[0].percent(since: b.cpus[0]) {
            cpu = p
            cpuWindow = dt > 0 ? dt : nil
            cores = zip(raw.cpus.dropFirst(), b.cpus.dropFirst()).map { $0.percent(since: $1) ?? 0 }
        } else {
            cpu = raw.cpus[0].sinceBoot
            cores = raw.cpus.dropFirst().map { $0.sinceBoot ?? 0 }
        }

        func rate(_ now: UInt64, _ then: UInt64?) -> Double? {
            guard let then, dt > 0, now >= then else { return nil }
            return Double(now - then) / dt
        }
        let rx = rate(raw.net.received, baseline?.net.received)
        let tx = rate(raw.net.sent, baseline?.net.sent)
        let interfaces = raw.interfaces.keys.sorted().map { name -> SystemInterface in
            let c = raw.interfaces[name]!
            let b = baseline?.interfaces[name]
            return SystemInterface(
                name: TextSanitizer.singleLine(name), received: rate(c.received, b?.received),
                sent: rate(c.sent, b?.sent), receivedTotal: c.received, sentTotal: c.sent)
        }

        let info = ProcParse.meminfo(proc.read("meminfo") ?? "")
        let total = info["MemTotal"] ?? 0
        let free = info["MemFree"] ?? 0
        let buffers = info["Buffers"] ?? 0
        let cached = (info["Cached"] ?? 0) + (info["SReclaimable"] ?? 0)
        let memory = SystemMemory(
            total: total, available: info["MemAvailable"] ?? min(total, free + buffers + cached),
            free: free, buffers: buffers, cached: cached,
            swapTotal: info["SwapTotal"] ?? 0, swapFree: info["SwapFree"] ?? 0)
        let loadavg = ProcParse.loadavg(proc.read("loadavg") ?? "")
        let host = TextSanitizer.singleLine(proc.read("sys/kernel/hostname", limit: 256) ?? "")
        let disks = proc.fileSystems(wanted: mounts).map { m, s in
            SystemDisk(
                mountPoint: TextSanitizer.singleLine(m.mountPoint), device: TextSanitizer.singleLine(m.device),
                fsType: TextSanitizer.singleLine(m.fsType), space: s)
        }
        let (top, measured) = topProcesses(processes, raw: raw, baseline: baseline, proc: proc)
        return SystemEntry(
            date: now, host: host.isEmpty ? "this machine" : host, uptime: raw.uptime,
            interval: interval,
            cpu: cpu, cpuWindow: cpuWindow, cores: cores, load: loadavg?.load ?? [],
            runnable: loadavg?.running ?? 0, tasks: loadavg?.total ?? 0, memory: memory, disks: disks,
            received: rx, sent: tx, receivedTotal: raw.net.received, sentTotal: raw.net.sent,
            interfaces: interfaces, processes: top, processesMeasured: measured,
            history: SystemHistory(), isPlaceholder: false)
    }

    /// The busiest processes: CPU over the window when the baseline has process
    /// counters, else each process's average over its life (what `ps` shows).
    static func topProcesses(
        _ processes: [ProcStat]?, raw: SystemRawSample, baseline: SystemRawSample?,
        proc: ProcFS
    ) -> ([SystemProcess], Bool) {
        guard let processes else { return ([], false) }
        let hz = proc.clockTicks
        let before = baseline?.processTicks
        let dt = baseline.map { raw.uptime - $0.uptime } ?? 0
        let measured = before != nil && dt > 0
        var rows: [(ProcStat, Double)] = processes.map { p in
            if measured, let before {
                // A process that started within the window counts from zero.
                let then = before[p.pid] ?? (Double(p.startTicks) / hz >= raw.uptime - dt ? 0 : p.ticks)
                let used = p.ticks >= then ? Double(p.ticks - then) / hz : 0
                return (p, used / dt * 100)
            }
            let age = raw.uptime - Double(p.startTicks) / hz
            return (p, age > 0 ? Double(p.ticks) / hz / age * 100 : 0)
        }
        rows.sort { a, b in
            a.1 != b.1 ? a.1 > b.1 : a.0.rssPages != b.0.rssPages ? a.0.rssPages > b.0.rssPages : a.0.pid < b.0.pid
        }
        let top = rows.prefix(topCount).enumerated().map { i, row -> SystemProcess in
            let (p, cpu) = row
            return SystemProcess(
                pid: p.pid, name: TextSanitizer.singleLine(p.name),
                command: i < commandCount ? proc.commandLine(p.pid) : "",
                cpu: cpu, memory: (proc.residentPages(p.pid) ?? p.rssPages) * proc.pageSize,
                threads: p.threads, state: String(p.state))
        }
        return (top, measured)
    }
}

/// Sample data for the placeholder, the gallery and `preview`.
enum SystemSamples {
    static func wave(_ n: Int, base: Double, amplitude: Double, seed: Double) -> [Double] {
        (0..<n).map { i in
            let x = Double(i) + seed
            return max(0, base + amplitude * (sin(x / 3.1) * 0.6 + sin(x / 1.7 + 1) * 0.4))
        }
    }

    static func entry(now: Date) -> SystemEntry {
        let gib: UInt64 = 1 << 30
        var history = SystemHistory()
        history.cpu = wave(60, base: 35, amplitude: 25, seed: 0)
        history.memory = wave(60, base: 58, amplitude: 3, seed: 4)
        history.received = wave(60, base: 900_000, amplitude: 700_000, seed: 2)
        history.sent = wave(60, base: 90_000, amplitude: 60_000, seed: 7)
        let processes = [
            SystemProcess(
                pid: 48213, name: "swift-frontend",
                command: "swift-frontend -frontend -c Sources/App/main.swift",
                cpu: 98.2, memory: 1_288_490_188, threads: 4, state: "R"),
            SystemProcess(
                pid: 1822, name: "firefox", command: "/usr/lib/firefox/firefox", cpu: 23.5,
                memory: 987_654_321, threads: 92, state: "S"),
            SystemProcess(
                pid: 913, name: "Xorg", command: "/usr/lib/Xorg :0", cpu: 6.1, memory: 156_237_824,
                threads: 12, state: "S"),
            SystemProcess(
                pid: 30117, name: "swiftdash", command: "swiftdash", cpu: 0.5, memory: 27_262_976,
                threads: 3, state: "S"),
            SystemProcess(
                pid: 2240, name: "pipewire", command: "/usr/bin/pipewire", cpu: 0.4, memory: 18_874_368,
                threads: 3, state: "S"),
            SystemProcess(
                pid: 1, name: "systemd", command: "/sbin/init", cpu: 0.0, memory: 13_631_488,
                threads: 1, state: "S"),
        ]
        return SystemEntry(
            date: now, host: "devbox", uptime: 3 * 86400 + 4 * 3600 + 12 * 60, interval: 2,
            cpu: 37, cpuWindow: 2, cores: [52, 31, 88, 12, 40, 7, 35, 29], load: [1.52, 1.20, 0.98],
            runnable: 2, tasks: 412,
            memory: SystemMemory(
                total: 16 * gib, available: 6 * gib + 700 << 20, free: 2 * gib, buffers: 300 << 20,
                cached: 4 * gib, swapTotal: 2 * gib, swapFree: 2 * gib - 180 << 20),
            disks: [
                SystemDisk(
                    mountPoint: "/", device: "/dev/nvme0n1p2", fsType: "ext4",
                    space: DiskSpace(total: 476 * gib, used: 231 * gib, available: 221 * gib)),
                SystemDisk(
                    mountPoint: "/home", device: "/dev/sda1", fsType: "xfs",
                    space: DiskSpace(total: 931 * gib, used: 780 * gib, available: 151 * gib)),
            ],
            received: 1_258_291, sent: 98_304, receivedTotal: 48 * gib, sentTotal: 3 * gib,
            interfaces: [
                SystemInterface(
                    name: "eth0", received: 1_258_291, sent: 98_304,
                    receivedTotal: 48 * gib, sentTotal: 3 * gib)
            ],
            processes: processes, processesMeasured: true, history: history, isPlaceholder: false)
    }
}
