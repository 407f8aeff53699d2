import Foundation
import Testing
import DashWidgets
import DashScheduler
import DashTestSupport
@testable import DashBuiltinWidgets

/// A copy of a fake /proc tree in a temporary folder, so a test can move the machine on
/// from one sample (`proc-a`) to the next (`proc-b`) under the same root.
final class FakeMachine: @unchecked Sendable {
    let root: URL

    init(_ tree: String = "proc-a") throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-proc-\(UUID().uuidString)")
        try load(tree)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Replaces the machine's /proc with the fixture tree `tree`.
    func load(_ tree: String) throws {
        let fm = FileManager.default
        try? fm.removeItem(at: root)
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        try fm.copyItem(
            at: testsDirectory.appendingPathComponent("Fixtures").appendingPathComponent(tree)
                .appendingPathComponent("proc"),
            to: root.appendingPathComponent("proc"))
    }

    static let gib: UInt64 = 1 << 30
    /// statvfs of the fake machine's file systems.
    static let disks: [String: DiskSpace] = [
        "/": DiskSpace(total: 100 * gib, used: 40 * gib, available: 55 * gib),
        "/home": DiskSpace(total: 500 * gib, used: 450 * gib, available: 50 * gib),
        "/srv/bind": DiskSpace(total: 500 * gib, used: 450 * gib, available: 50 * gib),
        "/mnt/my disk": DiskSpace(total: 10 * gib, used: 5 * gib, available: 5 * gib),
        "/mnt/nfs": DiskSpace(total: 9000 * gib, used: 1 * gib, available: 8999 * gib),
        "/snap/core/1": DiskSpace(total: 1 * gib, used: 1 * gib, available: 0),
        "/run": DiskSpace(total: 1 * gib, used: 0, available: 1 * gib),
    ]

    var proc: ProcFS {
        ProcFS(root: root.path, clockTicks: 100, pageSize: 4096, diskSpace: { FakeMachine.disks[$0] })
    }

    func widget(store: SystemSamplerStore = SystemSamplerStore()) -> Widget {
        SystemWidget.make(proc: proc, store: store, warmup: .zero)
    }
}

@Suite("system widget")
struct SystemWidgetTests {
    func entry(_ t: AnyTimeline) throws -> SystemEntry {
        try #require(t.entries.first?.base as? SystemEntry)
    }

    /// Two samples of the fake machine, two seconds of its uptime apart.
    func twoSamples(_ family: WidgetFamily = .large, config: WidgetConfig = WidgetConfig())
        async throws -> (first: SystemEntry, second: SystemEntry, widget: Widget, machine: FakeMachine)
    {
        let machine = try FakeMachine()
        let widget = machine.widget()
        let first = try entry(try await widget.timeline(for: config, in: context(family)))
        try machine.load("proc-b")
        var later = context(family)
        later.now = testNow.addingTimeInterval(2)
        let second = try entry(try await widget.timeline(for: config, in: later))
        return (first, second, widget, machine)
    }

    @Test func parsersReadProcFiles() throws {
        let cpus = ProcParse.cpuTicks("cpu  1750 0 650 8850 650 50 50 0 100 0\ncpu0 1 2 3 4\nintr 5\ncpu9 1 1 1 1\n")
        #expect(cpus.count == 2)
        // Guest time is inside user already: left out of the total. Idle is idle + iowait.
        #expect(cpus[0] == CPUTicks(busy: 2500, total: 12000))
        #expect(cpus[1] == CPUTicks(busy: 6, total: 10))

        let mem = ProcParse.meminfo("MemTotal:  100 kB\nHugePages_Total:  3\nbroken line\n")
        #expect(mem["MemTotal"] == 102_400)
        #expect(mem["HugePages_Total"] == 3)

        let load = try #require(ProcParse.loadavg("0.56 0.69 0.35 2/90 12895\n"))
        #expect(load.load == [0.56, 0.69, 0.35] && load.running == 2 && load.total == 90)
        #expect(ProcParse.loadavg("garbage") == nil)
        #expect(ProcParse.uptime("477.62 697.99\n") == 477.62)

        let net = ProcParse.netDev(String(decoding: fixture("proc-a/proc/net/dev"), as: UTF8.self))
        #expect(net.map(\.name) == ["lo", "eth0", "veth1a2b", "wlan0"])
        #expect(net[1].counters == NetCounters(received: 1_000_000, sent: 200_000))

        let mounts = ProcParse.mounts("/dev/sdb1 /mnt/my\\040disk ext4 rw 0 0\nshort\n/dev/x /a\\134b ext4 rw 0 0\n")
        #expect(mounts.map(\.mountPoint) == ["/mnt/my disk", "/a\\b"])
        #expect(ProcParse.deviceFilesystems("nodev\tproc\n\text4\n\txfs\n") == ["ext4", "xfs"])

        // A name with spaces and parentheses; a kernel thread by its flags.
        let p = try #require(ProcParse.procStat(String(decoding: fixture("proc-b/proc/4242/stat"), as: UTF8.self)))
        #expect(p.pid == 4242 && p.name == "my (weird) proc" && p.state == "R" && p.ppid == 1)
        #expect(p.ticks == 4200 && p.startTicks == 50000 && p.rssPages == 25600 && p.threads == 8)
        #expect(!p.isKernelThread)
        let k = try #require(ProcParse.procStat(String(decoding: fixture("proc-a/proc/2/stat"), as: UTF8.self)))
        #expect(k.isKernelThread)
        #expect(ProcParse.procStat("12 (cut short) R 1 2") == nil)
    }

    @Test func firstSampleAveragesSinceBootThenMeasuresTheWindow() async throws {
        let (first, second, _, _) = try await twoSamples()
        // No earlier reading: CPU since boot, no rates, processes by their lifetime average.
        #expect(first.cpu == 15)
        #expect(first.cpuWindow == nil)
        #expect(first.cores == [15, 15])
        #expect(first.received == nil && first.sent == nil)
        #expect(!first.processesMeasured)
        #expect(first.processes.first?.pid == 4242)
        #expect(abs((first.processes.first?.cpu ?? 0) - 8) < 0.001)  // 40 s of CPU over 500 s of life

        // Two seconds later (by /proc/uptime): differences over the window.
        #expect(second.cpu == 50)
        #expect(second.cpuWindow == 2)
        #expect(second.cores == [80, 20])
        #expect(second.received == 1_001_024)  // eth0 + wlan0; loopback and the veth left out
        #expect(second.sent == 50_000)
        #expect(second.interfaces.map(\.name) == ["eth0", "wlan0"])
        #expect(second.receivedTotal == 3_002_048)
        #expect(second.history.cpu == [15, 50])
        #expect(second.history.received == [1_001_024])
    }

    @Test func memoryLoadDisksAndHost() async throws {
        let e = try await twoSamples().second
        #expect(e.host == "testbox")
        #expect(e.uptime == 1002)
        #expect(e.load == [1.6, 1.3, 0.8])
        #expect(e.runnable == 2 && e.tasks == 251)
        #expect(e.memory.total == 16_384_000 * 1024)
        #expect(e.memory.used == 10_240_000 * 1024)
        #expect(e.memory.percent == 62.5)
        #expect(e.memory.cached == (4_096_000 + 204_800) * 1024)
        #expect(e.memory.swapPercent == 25)
        // Block-device file systems, root first, a bind mount of the same device once,
        // no tmpfs, proc, NFS or squashfs.
        #expect(e.disks.map(\.mountPoint) == ["/", "/home", "/mnt/my disk"])
        #expect(e.disks.map(\.fsType) == ["ext4", "xfs", "ext4"])
        #expect(abs(e.disks[0].percent - 40.0 / 95 * 100) < 1e-9)  // reserved blocks count as neither, like df
        #expect(e.disks[1].percent == 90)
    }

    @Test func topProcessesByCPUOverTheWindow() async throws {
        let e = try await twoSamples().second
        #expect(e.processesMeasured)
        #expect(e.processes.map(\.pid) == [4242, 7777, 1, 555])  // the kernel thread is left out
        #expect(e.processes.map(\.cpu) == [100, 20, 0.5, 0])  // 7777 started inside the window
        let p = e.processes[0]
        #expect(p.name == "my (weird) proc")
        #expect(p.command == "python3 -m http.server")
        #expect(p.memory == 100 << 20)
        #expect(p.threads == 8 && p.state == "R")
        // Command lines are outside text: escape sequences are gone.
        #expect(e.processes[1].command == "evil --flag")
    }

    /// Issue 38.1: Enter on a small or medium System tile opens a pane that lists the
    /// processes, so every size reads them.
    @Test func systemDetailPaneListsProcesses() async throws {
        for family in [WidgetFamily.small, .medium] {
            let (_, e, widget, _) = try await twoSamples(family)
            #expect(e.processesMeasured && e.processes.map(\.pid) == [4242, 7777, 1, 555])
            var pane = context(.large)
            pane.size = (60, 24)
            let overview = widget.detail(for: DeepLink("swiftdash://system/overview")!, entry: AnyEntry(e), in: pane)
            let text = render(overview, width: 60, height: 24).text
            #expect(text.contains("Top processes") && text.contains("my (weird) proc") && text.contains("evil"))
        }
    }

    @Test func chosenMountsAndInterfaces() async throws {
        let config = WidgetConfig(["mounts": .list(["/home", "/"]), "interfaces": .list(["lo"])])
        let e = try await twoSamples(.medium, config: config).second
        #expect(e.disks.map(\.mountPoint) == ["/home", "/"])
        #expect(e.received == 2000)
        #expect(e.interfaces.map(\.name) == ["lo"])
        #expect(SystemWidget.schema.validate(config).isEmpty)
        #expect(!SystemWidget.schema.validate(WidgetConfig(["mounts": .list(["home"])])).isEmpty)
        #expect(!SystemWidget.schema.validate(WidgetConfig(["interval": .int(0)])).isEmpty)
    }

    @Test func schemaAndReloadPolicy() async throws {
        let keys = SystemWidget.widget.schema.parameters.map(\.key)
        #expect(keys == ["interval", "mounts", "interfaces"])
        #expect(SystemWidget.widget.schema.defaults.int("interval") == 2)
        #expect(SystemWidget.widget.cost == .local)
        #expect(SystemWidget.widget.supportedFamilies == [.small, .medium, .large, .extraLarge])
        let machine = try FakeMachine()
        let widget = machine.widget()
        let t = try await widget.timeline(for: WidgetConfig(), in: context(.small))
        #expect(t.entries.count == 1 && t.entries[0].date == testNow)
        #expect(t.policy == .after(testNow.addingTimeInterval(2)))
        let t5 = try await widget.timeline(for: WidgetConfig(["interval": .int(5)]), in: context(.small))
        #expect(t5.policy == .after(testNow.addingTimeInterval(5)))
    }

    /// The scheduler, on a virtual clock, reloads the system tile at its interval and
    /// charges none of it to the daily budget.
    @Test func reloadsOnTheVirtualClockWithoutTheBudget() async throws {
        let machine = try FakeMachine()
        var scheduler = Scheduler(policy: SchedulerPolicy(localMinimumInterval: 1))
        var now = testNow
        scheduler.register("sys", widget: machine.widget(), family: .small, at: now)
        var starts: [Date] = []
        for _ in 0..<6 {
            for req in scheduler.process(now: now) {
                starts.append(req.startedAt)
                scheduler.loadFinished(req.id, token: req.token, result: await req.perform(), at: now)
            }
            now = try #require(scheduler.nextWake)
        }
        #expect(starts.map { $0.timeIntervalSince(testNow) } == [0, 2, 4, 6, 8, 10])
        let status = try #require(scheduler.status("sys", at: now))
        #expect(status.budget.limit == nil)
        #expect(!status.isStale)
    }

    @Test func samplerStoreKeepsAWindowAndForgetsOldConfigurations() async throws {
        let store = SystemSamplerStore(capacity: 2, historyLength: 3)
        func raw(_ up: Double) -> SystemRawSample {
            SystemRawSample(
                uptime: up, cpus: [CPUTicks(busy: 0, total: 0)], net: NetCounters(), interfaces: [:],
                processTicks: nil)
        }
        let k = SystemSamplerStore.Key(root: "", config: WidgetConfig())
        #expect(await store.exchange(k, raw(100), minWindow: 1) == nil)
        // A reading a few milliseconds later compares with the oldest, not with nothing.
        #expect(await store.exchange(k, raw(100.01), minWindow: 1)?.uptime == 100)
        #expect(await store.exchange(k, raw(101.5), minWindow: 1)?.uptime == 100.01)
        #expect(await store.exchange(k, raw(102), minWindow: 1)?.uptime == 100.01)
        // A reboot (uptime went back) starts over.
        #expect(await store.exchange(k, raw(5), minWindow: 1) == nil)
        // History: spaced at least minSpacing apart, at most historyLength points.
        for (i, up) in [10.0, 10.5, 11, 12, 13].enumerated() {
            _ = await store.record(k, uptime: up, cpu: Double(i), memory: nil, net: nil, minSpacing: 1)
        }
        #expect(await store.record(k, uptime: 13.1, cpu: 99, memory: nil, net: nil, minSpacing: 1).cpu == [2, 3, 4])
        // The least recently used configuration is dropped past the capacity.
        for n in 1...3 {
            _ = await store.exchange(.init(root: "", config: WidgetConfig(["interval": .int(n)])), raw(1), minWindow: 1)
        }
        #expect(await store.count == 2)
        #expect(!(await store.hasBaseline(k)))
    }

    @Test func tilesInEveryFamily() async throws {
        let (_, e, widget, _) = try await twoSamples()
        let any = AnyEntry(e)
        for family in [WidgetFamily.small, .medium, .large, .extraLarge] {
            let tile = render(widget, any, family)
            assertSnapshot(tile.text, named: "system-\(family.rawValue)")
            for line in tile.text.split(separator: "\n") { #expect(!line.isEmpty) }
            #expect(isClean(tile.text))
        }
        let small = render(widget, any, .small)
        #expect(small.widgetURL == "swiftdash://system/overview")
        #expect(small.text.contains("50%") && small.text.contains("63%"))
        let medium = render(widget, any, .medium)
        #expect(medium.links.contains("swiftdash://system/cpu") && medium.links.contains("swiftdash://system/network"))
        #expect(medium.text.contains("978K/s"))  // 1,001,024 B/s
        let large = render(widget, any, .large)
        #expect(large.text.contains("testbox") && large.text.contains("my (weird) proc"))
        #expect(large.links.contains("swiftdash://system/process/4242"))
        #expect(!medium.text.contains("weird") && !small.text.contains("Swap") && medium.text.contains("Swap"))
        let xl = render(widget, any, .extraLarge)
        #expect(xl.text.contains("evil") && xl.text.contains("1.60 1.30 0.80"))
    }

    @Test func detailPanes() async throws {
        let (_, e, widget, _) = try await twoSamples()
        var pane = context(.large)
        pane.size = (60, 24)
        func draw(_ url: String) throws -> RenderedTile {
            render(widget.detail(for: try #require(DeepLink(url)), entry: AnyEntry(e), in: pane), width: 60, height: 24)
        }
        let cpu = try draw("swiftdash://system/cpu")
        assertSnapshot(cpu.text, named: "system-detail-cpu")
        #expect(cpu.text.contains("over the last 2.0 s") && cpu.text.contains("cpu0") && cpu.text.contains("80%"))
        let memory = try draw("swiftdash://system/memory").text
        assertSnapshot(memory, named: "system-detail-memory")
        #expect(memory.contains("Available") && memory.contains("5.9G"))
        let disk = try draw("swiftdash://system/disk").text
        assertSnapshot(disk, named: "system-detail-disk")
        #expect(disk.contains("/mnt/my disk") && disk.contains("xfs on /dev/sda3"))
        let net = try draw("swiftdash://system/network").text
        assertSnapshot(net, named: "system-detail-network")
        #expect(net.contains("wlan0") && net.contains("2.9M since boot"))
        let procs = try draw("swiftdash://system/processes")
        assertSnapshot(procs.text, named: "system-detail-processes")
        #expect(procs.text.contains("python3 -m http.server"))
        #expect(procs.links.first == "swiftdash://system/process/4242")
        let one = try draw("swiftdash://system/process/7777").text
        #expect(one.contains("evil --flag") && one.contains("pid 7777"))
        #expect(try draw("swiftdash://system/process/1234").text.contains("Not among the top processes"))
        #expect(try draw("swiftdash://system/overview").text.contains("testbox"))
        let empty = widget.detail(for: DeepLink("swiftdash://system/cpu")!, entry: nil, in: pane)
        let none = render(empty, width: 60, height: 24)
        #expect(none.text.contains("No sample taken yet"))
    }

    @Test func placeholderSnapshotAndCache() async throws {
        // Preview and placeholder never touch /proc: this root does not exist.
        let widget = SystemWidget.make(
            proc: ProcFS(root: "/nonexistent-swiftdash"), store: SystemSamplerStore(),
            warmup: .zero)
        let snap = await widget.snapshot(for: WidgetConfig(), in: context(.medium, preview: true))
        #expect(render(widget, snap, .medium).text.contains("devbox"))
        let placeholder = render(widget, widget.placeholder(in: context(.small)), .small).text
        #expect(placeholder.contains("▆") && !placeholder.contains("CPU"))
        #expect(widget.placeholder(in: context(.small)).relevance == nil)

        let e = await widget.timelineError(context(.small))
        #expect(e?.contains("cannot read /nonexistent-swiftdash/proc/stat") == true)

        let (_, second, real, _) = try await twoSamples()
        let back = try real.decodeEntries(try real.encodeEntries([AnyEntry(second)]))
        #expect(render(real, back[0], .large).text == render(real, AnyEntry(second), .large).text)
        #expect(back[0].summary == "CPU 50% · mem 63% · load 1.60 · / 42% · net ↓978K/s ↑49K/s")
    }

    @Test func relevanceRisesUnderPressure() {
        var e = SystemSamples.entry(now: testNow)
        e.disks = []
        e.memory.swapTotal = 0
        e.cpu = 40
        #expect(e.relevance == nil)
        e.cpu = 85
        #expect(abs((e.relevance?.score ?? 0) - 0.5) < 1e-9)
        e.cpu = 100
        #expect(e.relevance?.score == 1)
        e.cpu = 10
        e.memory.available = e.memory.total / 20  // 95 % used
        #expect(abs((e.relevance?.score ?? 0) - 0.75) < 1e-9)
    }

    @Test func formats() {
        #expect(SysFmt.bytes(0) == "0B")
        #expect(SysFmt.bytes(1023) == "1.0K")
        #expect(SysFmt.bytes(16 << 30) == "16G")
        #expect(SysFmt.bytes(1_258_291) == "1.2M")
        #expect(SysFmt.rate(nil) == "–")
        #expect(SysFmt.uptime(59) == "0m" && SysFmt.uptime(3 * 86400 + 4 * 3600 + 1) == "3d 4h")
        #expect(SysFmt.uptime(5 * 3600 + 12 * 60) == "5h 12m")
        #expect(SystemViews.coreBlocks([0, 50, 100, 99]) == "▁▅██")
        #expect(SystemViews.mountLabel("/", width: 4) == "/")
        #expect(SystemViews.mountLabel("/var/lib/data", width: 4) == "data")
    }
}

extension Widget {
    /// The message of the error a timeline load throws, or nil if it succeeds.
    func timelineError(_ ctx: TimelineContext, _ config: WidgetConfig = WidgetConfig()) async -> String? {
        do {
            _ = try await timeline(for: config, in: ctx)
            return nil
        } catch {
            return "\(error)"
        }
    }
}

/// Tests/reference/psutil_compare.py: the live hook it drives, and the readings of this
/// machine it captured with psutil's answers for them.
@Suite("system widget against psutil")
struct SystemReferenceTests {
    struct Expected: Decodable {
        struct Memory: Decodable {
            var total: UInt64
            var available: UInt64
            var percent: Double
            var swapTotal: UInt64
            var swapUsed: UInt64
        }
        var cpuPercent: Double
        var perCPU: [Double]
        var memory: Memory
        var interfaces: [String]
        var received: UInt64
        var sent: UInt64
        var uptime: Double
        var processes: [String: [Double]]  // pid → [user + system seconds, rss bytes]
    }

    /// The machine captured at two moments (`real-a`, `real-b`); psutil read the same
    /// files through `psutil.PROCFS_PATH`, so the values must agree to rounding.
    @Test func capturedMachineMatchesPsutil() async throws {
        let dir = testsDirectory.appendingPathComponent("Fixtures/proc-real")
        let expected = try JSONDecoder().decode(
            Expected.self,
            from: Data(contentsOf: dir.appendingPathComponent("psutil.json")))
        let machine = try FakeMachine("proc-real/a")
        let widget = machine.widget()
        let config = WidgetConfig(["interfaces": .list(expected.interfaces)])
        _ = try await widget.timeline(for: config, in: context(.large))
        try machine.load("proc-real/b")
        let t = try await widget.timeline(for: config, in: context(.large))
        let e = try #require(t.entries.first?.base as? SystemEntry)
        #expect(abs((e.cpu ?? -1) - expected.cpuPercent) < 0.05)  // psutil rounds to 0.1
        #expect(e.cores.count == expected.perCPU.count)
        for (a, b) in zip(e.cores, expected.perCPU) { #expect(abs(a - b) < 0.05) }
        #expect(e.memory.total == expected.memory.total)
        #expect(e.memory.available == expected.memory.available)
        #expect(abs(e.memory.percent - expected.memory.percent) < 0.05)
        #expect(e.memory.swapTotal == expected.memory.swapTotal)
        #expect(e.memory.swapUsed == expected.memory.swapUsed)
        #expect(e.receivedTotal == expected.received && e.sentTotal == expected.sent)
        #expect(e.uptime == expected.uptime)
        for p in e.processes {
            guard let want = expected.processes[String(p.pid)] else { continue }
            #expect(Double(p.memory) == want[1], "rss of \(p.pid)")
        }
        #expect(e.processes.contains { expected.processes[String($0.pid)] != nil })
        // The live run at the same moment, committed with the capture, found nothing out of tolerance.
        let report = try String(
            contentsOf: testsDirectory.deletingLastPathComponent()
                .appendingPathComponent("reference/psutil_compare.txt"), encoding: .utf8)
        #expect(report.contains(" checks, 0 out of tolerance"))
    }

    /// The live hook: skipped unless `SWIFTDASH_SYSTEM_DUMP` names a folder with two FIFOs.
    /// Each "sample" line read from `cmd` takes one reading of this machine through the
    /// real provider (extraLarge, so processes too) and writes the entry as one JSON line
    /// to `out`, with the CPU time the reading cost; "quit" ends.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SWIFTDASH_SYSTEM_DUMP"] != nil))
    func liveDump() async throws {
        let dir = try #require(ProcessInfo.processInfo.environment["SWIFTDASH_SYSTEM_DUMP"])
        let widget = SystemWidget.make(proc: ProcFS(), store: SystemSamplerStore(), warmup: .zero)
        guard let input = fopen(dir + "/cmd", "r"), let output = fopen(dir + "/out", "w") else {
            Issue.record("cannot open the FIFOs in \(dir)")
            return
        }
        defer {
            fclose(input)
            fclose(output)
        }
        var line: UnsafeMutablePointer<CChar>? = nil
        var cap = 0
        defer { free(line) }
        while getline(&line, &cap, input) > 0 {
            let command = String(cString: line!).trimmingCharacters(in: .whitespacesAndNewlines)
            if command != "sample" { break }
            let before = cpuSeconds()
            let t = try await widget.timeline(for: WidgetConfig(), in: context(.extraLarge))
            let cost = cpuSeconds() - before
            let entry = try #require(t.entries.first?.base as? SystemEntry)
            var json = String(decoding: try JSONEncoder.dash.encode(entry), as: UTF8.self)
            json.removeLast()
            json += ",\"sampleCPUSeconds\":\(cost)}\n"
            fputs(json, output)
            fflush(output)
        }
    }

    func cpuSeconds() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }
}

extension SystemWidgetTests {
    /// A small and a large tile of one configuration: every reading has the process counters
    /// (issue 38.1), so the large one measures its processes over the newest reading old
    /// enough, the small tile's.
    @Test func smallAndLargeTilesShareTheirReadings() async throws {
        let machine = try FakeMachine()
        let widget = machine.widget()
        _ = try await widget.timeline(for: WidgetConfig(), in: context(.large))
        try machine.load("proc-b")
        _ = try await widget.timeline(for: WidgetConfig(), in: context(.small))
        // Two more seconds: the small tile's reading is now the newest one old enough.
        try "1004.00 1905.00\n".write(
            to: machine.root.appendingPathComponent("proc/uptime"), atomically: true,
            encoding: .utf8)
        let large = try #require(
            try await widget.timeline(for: WidgetConfig(), in: context(.large)).entries.first?.base
                as? SystemEntry)
        // Nothing ran since the small tile's reading two seconds before (the same counters).
        #expect(large.processesMeasured && large.processes.allSatisfy { $0.cpu == 0 })
    }
}
