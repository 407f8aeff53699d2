import Foundation
import DashWidgets

/// The system tile: small is CPU, memory, the first disk, load and uptime; medium adds
/// swap, a CPU sparkline and network rates; large adds the host, every core, more
/// disks, network history and the top processes; extraLarge puts a longer process
/// table beside it. Each row links to its detail pane.
enum SystemViews {
    static func tile(_ e: SystemEntry, _ ctx: TimelineContext) -> TileView {
        let view: TileView
        switch ctx.family {
        // A small tile a big screen made tall (9 rows or more) fills them (`roomySmall`).
        case .small:
            view = ctx.size.height >= 9 ? roomySmall(e, rows: ctx.size.height, width: ctx.size.width) : small(e)
        case .medium: view = medium(e)
        // A taller tile (a big screen grows the grid) lists more processes.
        case .large: view = large(e, processRows: 4 + extraRows(ctx))
        case .extraLarge: view = extraLarge(e, processRows: 12 + extraRows(ctx))
        }
        return e.isPlaceholder ? view.redacted() : view
    }

    /// `CPU ▆▆▆▆░░  37%`: a label, a gauge coloured by level, the percent.
    static func meter(
        _ label: String, _ percent: Double?, labelWidth: Int = 3, trailing: String? = nil,
        trailingWidth: Int = 0
    ) -> TileView {
        HStack {
            if labelWidth > 0 { Text(label).font(.caption).lineLimit(1).frame(width: labelWidth) }
            Gauge(value: (percent ?? 0) / 100, color: SysFmt.color(percent))
            Text(SysFmt.percent(percent)).font(.monospacedDigit).frame(width: 4, alignment: .trailing)
            if let trailing {
                Text(trailing).font(.caption).lineLimit(1).frame(width: trailingWidth, alignment: .trailing)
            }
        }
    }

    /// A mount point as a short label: `/` for the root, else its last part (`home`).
    static func mountLabel(_ m: String, width: Int) -> String {
        if m.count <= width { return m }
        let last = m.split(separator: "/").last.map(String.init) ?? m
        return String(last.prefix(width))
    }

    static func netLine(_ e: SystemEntry) -> TileView {
        HStack(spacing: 0) {
            Text("↓").foregroundStyle(.positive)
            Text(SysFmt.rate(e.received))
            Text(" ")
            Text("↑").foregroundStyle(.accent)
            Text(SysFmt.rate(e.sent))
        }
    }

    static func small(_ e: SystemEntry) -> TileView {
        VStack {
            meter("CPU", e.cpu, labelWidth: 4)
            meter("Mem", e.memory.percent, labelWidth: 4)
            if let d = e.disks.first { meter(mountLabel(d.mountPoint, width: 4), d.percent, labelWidth: 4) }
            Text("load " + SysFmt.load(Array(e.load.prefix(2)))).lineLimit(1)
            Text("up " + SysFmt.uptime(e.uptime)).font(.caption)
        }.widgetURL(SystemWidget.link("overview"))
    }

    /// The small tile with room: swap, a second disk, the CPU's history, the network and, in
    /// the rows left, the top processes; the numbers of the 5-row tile stay first. One target,
    /// as a small tile has.
    static func roomySmall(_ e: SystemEntry, rows: Int, width: Int) -> TileView {
        let swap = e.memory.swapTotal > 0
        let disks = Array(e.disks.prefix(2))
        let chart = e.history.cpu.count >= 2
        // Wide enough, each meter says what its percent is of.
        let wide = width >= 30
        let mem = SysFmt.bytes(e.memory.used) + "/" + SysFmt.bytes(e.memory.total)
        // CPU, its chart (2), Mem, swap, disks, net, load, up.
        let machineRows = 5 + (chart ? 2 : 0) + (swap ? 1 : 0) + disks.count
        let processRows = rows - machineRows - 2  // a gap and the header
        return VStack {
            meter(
                "CPU", e.cpu, labelWidth: 4, trailing: wide ? e.cores.count.description + " cores" : nil,
                trailingWidth: 9)
            if chart { Sparkline(e.history.cpu, color: SysFmt.color(e.cpu), height: 2) }
            meter("Mem", e.memory.percent, labelWidth: 4, trailing: wide ? mem : nil, trailingWidth: 9)
            if swap { meter("Swap", e.memory.swapPercent, labelWidth: 4) }
            for d in disks {
                meter(
                    mountLabel(d.mountPoint, width: 4), d.percent, labelWidth: 4,
                    trailing: wide ? SysFmt.bytes(d.space.available) + " free" : nil, trailingWidth: 9)
            }
            netLine(e)
            Text("load " + SysFmt.load(e.load) + " · tasks \(e.runnable)/\(e.tasks)").lineLimit(1)
            Text("up " + SysFmt.uptime(e.uptime)).font(.caption)
            if processRows >= 1, !e.processes.isEmpty {
                Text(" ")
                processHeader(e, linked: false)
                for p in e.processes.prefix(processRows) { processRow(p, linked: false) }
            }
        }.widgetURL(SystemWidget.link("overview"))
    }

    static func medium(_ e: SystemEntry) -> TileView {
        let swap = e.memory.swapTotal > 0
        let disks = Array(e.disks.prefix(swap ? 2 : 3))
        let left = VStack {
            meter("CPU", e.cpu, labelWidth: 4).link(SystemWidget.link("cpu"))
            meter("Mem", e.memory.percent, labelWidth: 4).link(SystemWidget.link("memory"))
            if swap { meter("Swap", e.memory.swapPercent, labelWidth: 4).link(SystemWidget.link("memory")) }
            for d in disks {
                meter(mountLabel(d.mountPoint, width: 4), d.percent, labelWidth: 4).link(SystemWidget.link("disk"))
            }
            if 2 + (swap ? 1 : 0) + disks.count < 5 {
                Text("tasks \(e.runnable)/\(e.tasks)").font(.caption).lineLimit(1)
            }
        }.frame(width: 15)
        let right = VStack {
            HStack {
                Text(e.host).font(.headline).foregroundStyle(.accent).lineLimit(1)
                Spacer()
                Text(SysFmt.uptime(e.uptime)).font(.caption)
            }
            Sparkline(e.history.cpu.isEmpty ? [e.cpu ?? 0] : e.history.cpu, color: SysFmt.color(e.cpu), height: 2)
                .link(SystemWidget.link("cpu"))
            netLine(e).link(SystemWidget.link("network"))
            Text("load " + SysFmt.load(Array(e.load.prefix(2)))).lineLimit(1)
        }.fillWidth()
        return HStack {
            left
            Divider()
            right
        }
    }

    /// One block per core, its height the core's load: `▂▇▁▃`.
    static func coreBlocks(_ cores: [Double]) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        return String(cores.map { blocks[Int(clamping: ($0 / 100 * 8).rounded(.down), to: 0...7)] })
    }

    static func coresRow(_ e: SystemEntry) -> TileView {
        if e.cores.count <= 4 {
            return HStack {
                Text("cores").font(.caption)
                for c in e.cores { Text(SysFmt.percent(c)).foregroundStyle(SysFmt.color(c)) }
            }
        }
        return HStack {
            Text("\(e.cores.count) cores").font(.caption)
            Text(coreBlocks(Array(e.cores.prefix(24)))).foregroundStyle(.accent)
        }
    }

    static func cpuPercent(_ v: Double) -> String {
        v < 9.95 ? FixedFormat.decimal(v, places: 1) + "%" : "\(Int(clamping: v.rounded()))%"
    }

    static func processRow(_ p: SystemProcess, linked: Bool = true) -> TileView {
        let row = HStack {
            Text(p.name).lineLimit(1)
            Spacer(minLength: 1)
            Text(cpuPercent(p.cpu)).font(.monospacedDigit).foregroundStyle(p.cpu >= 90 ? .warning : .primary)
                .frame(width: 5, alignment: .trailing)
            Text(SysFmt.bytes(p.memory)).font(.monospacedDigit).frame(width: 5, alignment: .trailing)
        }
        return linked ? row.link(SystemWidget.link("process", String(p.pid))) : row
    }

    static func processHeader(_ e: SystemEntry, linked: Bool = true) -> TileView {
        let title = Text(e.processesMeasured ? "Top processes" : "Top processes (avg)").font(.caption)
        return HStack {
            linked ? title.link(SystemWidget.link("processes")) : title
            Spacer(minLength: 1)
            Text("CPU").font(.caption).frame(width: 5, alignment: .trailing)
            Text("MEM").font(.caption).frame(width: 5, alignment: .trailing)
        }
    }

    /// Everything but the processes, for large and extraLarge.
    static func machine(_ e: SystemEntry, disks: Int, roomy: Bool = false) -> TileView {
        let mem = SysFmt.bytes(e.memory.used) + "/" + SysFmt.bytes(e.memory.total)
        let swap = SysFmt.bytes(e.memory.swapUsed) + "/" + SysFmt.bytes(e.memory.swapTotal)
        return VStack {
            HStack {
                Text(e.host).font(.headline).foregroundStyle(.accent).lineLimit(1)
                Spacer(minLength: 1)
                Text("up " + SysFmt.uptime(e.uptime)).font(.caption)
            }.link(SystemWidget.link("overview"))
            VStack {
                meter(
                    "CPU", e.cpu, labelWidth: 4, trailing: "ld " + FixedFormat.decimal(e.load.first ?? 0, places: 2),
                    trailingWidth: 7)
                Sparkline(e.history.cpu.isEmpty ? [e.cpu ?? 0] : e.history.cpu, color: SysFmt.color(e.cpu))
                coresRow(e)
                if roomy {
                    Text("load \(SysFmt.load(e.load)) · tasks \(e.runnable)/\(e.tasks)").font(.caption).lineLimit(1)
                }
            }.link(SystemWidget.link("cpu"))
            VStack {
                meter("Mem", e.memory.percent, labelWidth: 4, trailing: mem, trailingWidth: 9)
                if roomy { Sparkline(e.history.memory.isEmpty ? [e.memory.percent] : e.history.memory, color: .accent) }
                if e.memory.swapTotal > 0 {
                    meter("Swap", e.memory.swapPercent, labelWidth: 4, trailing: swap, trailingWidth: 9)
                }
            }.link(SystemWidget.link("memory"))
            for d in e.disks.prefix(disks) {
                meter(
                    mountLabel(d.mountPoint, width: 4), d.percent, labelWidth: 4,
                    trailing: SysFmt.bytes(d.space.available) + " free", trailingWidth: 9
                )
                .link(SystemWidget.link("disk"))
            }
            HStack {
                Text("Net").font(.caption).frame(width: 4)
                netLine(e)
                Sparkline(e.history.received.isEmpty ? [0] : e.history.received, color: .positive)
            }.link(SystemWidget.link("network"))
            if roomy {
                HStack {
                    Text("Sent").font(.caption).frame(width: 4)
                    Sparkline(e.history.sent.isEmpty ? [0] : e.history.sent, color: .accent)
                }.link(SystemWidget.link("network"))
            }
        }
    }

    static func large(_ e: SystemEntry, processRows: Int) -> TileView {
        VStack {
            machine(e, disks: e.memory.swapTotal > 0 ? 1 : 2)
            processHeader(e)
            for p in e.processes.prefix(processRows) { processRow(p) }
        }
    }

    /// Rows a tile has beyond the 13 of a large or extraLarge tile at 80x24.
    static func extraRows(_ ctx: TimelineContext) -> Int { max(0, ctx.size.height - 13) }

    static func extraLarge(_ e: SystemEntry, processRows: Int = 12) -> TileView {
        HStack {
            VStack { machine(e, disks: 4, roomy: true) }.frame(width: 35)
            Divider()
            VStack {
                processHeader(e)
                for p in e.processes.prefix(processRows) { processRow(p) }
            }.fillWidth()
        }
    }

    // MARK: detail panes

    /// A short series repeated point by point to about `width` points, so a chart of a
    /// few samples fills its pane instead of a corner of it.
    static func stretch(_ values: [Double], width: Int) -> [Double] {
        guard !values.isEmpty, values.count < width else { return values }
        let k = width / values.count
        return values.flatMap { Array(repeating: $0, count: k) }
    }

    static func detail(_ link: DeepLink, _ entry: SystemEntry?, _ ctx: TimelineContext) -> TileView {
        guard let e = entry else {
            return VStack {
                Text("System").font(.title)
                Text("No sample taken yet").font(.caption)
            }
        }
        let chart = max(2, min(8, ctx.size.height / 4))
        let body: TileView
        switch link.path.first ?? "overview" {
        case "cpu": body = cpuDetail(e, chart: chart, width: ctx.size.width)
        case "memory": body = memoryDetail(e, chart: chart, width: ctx.size.width)
        case "disk": body = diskDetail(e)
        case "network": body = networkDetail(e, chart: chart, width: ctx.size.width)
        case "processes": body = processesDetail(e, rows: max(5, ctx.size.height - 6))
        case "process": body = processDetail(e, pid: link.path.count > 1 ? Int32(link.path[1]) : nil)
        default:
            body = VStack {
                machine(e, disks: 4, roomy: true)
                processHeader(e)
                for p in e.processes.prefix(5) { processRow(p) }
            }
        }
        return VStack {
            body
            Spacer()
            HStack {
                Text("\(e.host) · sampled every \(Int(clamping: e.interval)) s · updated").font(.caption)
                Text(e.date, style: .relative).font(.caption)
            }
        }
    }

    static func fact(_ label: String, _ value: String, color: SemanticColor = .primary) -> TileView {
        HStack {
            Text(label).font(.caption)
            Spacer(minLength: 1)
            Text(value).font(.monospacedDigit).foregroundStyle(color)
        }
    }

    static func cpuDetail(_ e: SystemEntry, chart: Int, width: Int) -> TileView {
        let window =
            e.cpuWindow.map { "over the last " + FixedFormat.decimal($0, places: 1) + " s" }
            ?? "average since boot"
        return VStack {
            titleRow("CPU \(SysFmt.percent(e.cpu))", window)
            Sparkline(
                stretch(e.history.cpu.isEmpty ? [e.cpu ?? 0] : e.history.cpu, width: width),
                color: SysFmt.color(e.cpu), height: chart)
            fact("Load average 1 / 5 / 15 min", SysFmt.load(e.load))
            fact("Runnable / all tasks", "\(e.runnable) / \(e.tasks)")
            Divider()
            for (i, c) in e.cores.enumerated().prefix(32) {
                meter("cpu\(i)", c, labelWidth: 6)
            }
        }
    }

    static func memoryDetail(_ e: SystemEntry, chart: Int, width: Int) -> TileView {
        let m = e.memory
        return VStack {
            titleRow("Memory \(SysFmt.percent(m.percent))", SysFmt.bytes(m.used) + " of " + SysFmt.bytes(m.total))
            Gauge(value: m.percent / 100, color: SysFmt.color(m.percent))
            Sparkline(
                stretch(e.history.memory.isEmpty ? [m.percent] : e.history.memory, width: width),
                color: .accent, height: chart)
            fact("Used (total − available)", SysFmt.bytes(m.used))
            fact("Available", SysFmt.bytes(m.available))
            fact("Free", SysFmt.bytes(m.free))
            fact("Cached", SysFmt.bytes(m.cached))
            fact("Buffers", SysFmt.bytes(m.buffers))
            Divider()
            if m.swapTotal > 0 {
                meter(
                    "Swap", m.swapPercent, labelWidth: 5,
                    trailing: SysFmt.bytes(m.swapUsed) + "/" + SysFmt.bytes(m.swapTotal), trailingWidth: 11)
            } else {
                Text("No swap").font(.caption)
            }
        }
    }

    static func diskDetail(_ e: SystemEntry) -> TileView {
        VStack {
            titleRow("File systems", "\(e.disks.count) mounted")
            if e.disks.isEmpty { Text("No disk-backed file system found").font(.caption) }
            for d in e.disks {
                HStack {
                    Text(d.mountPoint).font(.headline).lineLimit(1)
                    Spacer(minLength: 1)
                    Text("\(d.fsType) on \(d.device)").font(.caption).lineLimit(1)
                }
                meter(
                    "", d.percent, labelWidth: 0,
                    trailing: SysFmt.bytes(d.space.used) + " of " + SysFmt.bytes(d.space.used + d.space.available)
                        + ", " + SysFmt.bytes(d.space.available) + " free",
                    trailingWidth: 24)
            }
        }
    }

    static func networkDetail(_ e: SystemEntry, chart: Int, width: Int) -> TileView {
        VStack {
            titleRow("Network", e.interfaces.map(\.name).joined(separator: ", "))
            HStack {
                Text("Received").font(.caption)
                Text(SysFmt.rate(e.received)).foregroundStyle(.positive)
                Spacer()
                Text(SysFmt.bytes(e.receivedTotal) + " since boot").font(.caption)
            }
            Sparkline(
                stretch(e.history.received.isEmpty ? [0] : e.history.received, width: width), color: .positive,
                height: max(1, chart / 2))
            HStack {
                Text("Sent").font(.caption)
                Text(SysFmt.rate(e.sent)).foregroundStyle(.accent)
                Spacer()
                Text(SysFmt.bytes(e.sentTotal) + " since boot").font(.caption)
            }
            Sparkline(
                stretch(e.history.sent.isEmpty ? [0] : e.history.sent, width: width), color: .accent,
                height: max(1, chart / 2))
            Divider()
            for i in e.interfaces {
                HStack {
                    Text(i.name).frame(width: 12)
                    Text("↓ " + SysFmt.rate(i.received)).frame(width: 12)
                    Text("↑ " + SysFmt.rate(i.sent)).frame(width: 12)
                    Spacer()
                }
            }
        }
    }

    static func processesDetail(_ e: SystemEntry, rows: Int) -> TileView {
        VStack {
            titleRow("Top processes by CPU", e.processesMeasured ? "% of one core" : "average over each one's life")
            HStack {
                Text("PID").font(.caption).frame(width: 7, alignment: .trailing)
                Text("CPU").font(.caption).frame(width: 6, alignment: .trailing)
                Text("MEM").font(.caption).frame(width: 6, alignment: .trailing)
                Text("COMMAND").font(.caption)
                Spacer()
            }
            if e.processes.isEmpty { Text("No process could be read").font(.caption) }
            for p in e.processes.prefix(rows) {
                HStack {
                    Text(String(p.pid)).font(.monospacedDigit).frame(width: 7, alignment: .trailing)
                    Text(cpuPercent(p.cpu)).font(.monospacedDigit).frame(width: 6, alignment: .trailing)
                    Text(SysFmt.bytes(p.memory)).font(.monospacedDigit).frame(width: 6, alignment: .trailing)
                    Text(p.command.isEmpty ? p.name : p.command).lineLimit(1)
                    Spacer()
                }.link(SystemWidget.link("process", String(p.pid)))
            }
        }
    }

    static func processDetail(_ e: SystemEntry, pid: Int32?) -> TileView {
        guard let pid, let p = e.processes.first(where: { $0.pid == pid }) else {
            return VStack {
                Text("Process").font(.title)
                Text("Not among the top processes of the last sample").font(.caption)
            }
        }
        return VStack {
            titleRow(p.name, "pid \(p.pid)")
            Text(p.command.isEmpty ? p.name : p.command).lineLimit(3)
            Divider()
            fact("CPU" + (e.processesMeasured ? "" : " (average)"), cpuPercent(p.cpu))
            fact("Resident memory", SysFmt.bytes(p.memory))
            fact("Threads", String(p.threads))
            fact("State", p.state)
        }
    }
}
