import Foundation
import ArgumentParser
import Logging
import DashCore
import DashWidgets
import DashRender
import DashScheduler
import DashApp
import DashHome
import DashRuntime

struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Show each widget's timeline: entries, reload policy, next reload, budget, last error.",
        discussion: """
            Reads the cache that a running (or the last) swiftdash left; an instance with no cached \
            timeline is loaded once from its provider. Works whether or not swiftdash runs.

            Without KIND it ends with every stack's Smart Rotate account: each item's relevance and \
            use, the item shown and why, and when the next decision can happen.
            """)

    @Argument(help: "Only instances of this widget kind.", completion: ShellCompletion.kinds)
    var kind: String?

    @Option(help: "Show the state as of this time (ISO 8601).")
    var at: String?

    @OptionGroup var homeOption: HomeOption

    func run() async throws {
        try HomeOption.requireExisting()
        if let kind, bundle[kind] == nil {
            throw unknownWidget(kind)
        }
        let now = try parseInstant(at)
        let paths = AppPaths(environment: processEnvironment)
        StateFolder.migrate(paths)  // usage.json moved out of the cache folder (0.5)
        let home = try loadHome(useDefault: false)
        let store = TimelineCacheStore(directory: paths.cache)
        let (stored, warnings) = store.load()
        let snapshot = SecretFingerprint.reveal(stored, home: home, bundle: bundle)
        for w in warnings {
            printError("swiftdash: warning: \(TextSanitizer.singleLine(w))")
        }
        var cached = Scheduler()
        cached.restore(snapshot)
        var shown = home
        if let kind {
            shown.tiles = home.tiles.compactMap { t in
                var t = t
                t.items = t.items.filter { $0.kind == kind }
                return t.items.isEmpty ? nil : t
            }
        }
        // The same state, families and contexts as the home screen (the user's time zone).
        // Providers run in the provider host, as on the home screen.
        let host = ProviderHosting.start { _ in }
        defer { host?.stop() }
        var state = AppState(
            environment: ProviderHosting.hosted(appEnvironment, by: host), home: shown,
            screen: Size(width: 80, height: 24),
            theme: .dark, alternateTheme: .light, now: now, scheduler: cached)
        // Smart Rotate as the home screen would decide now, with nothing focused.
        state.restoreUsage(UsageStore(directory: paths.state).load())
        state.focusedTile = nil
        // Ask the providers only for instances that have nothing cached.
        // (Secrets' commands run first: a load waits for the secret it needs.)
        let (jobs, _) = OneShot.jobs(&state, after: .tick(now)) { job in
            job.request.reason == .initial ? nil : "timeline asks a provider only for what nothing cached shows"
        }
        let results = await withTaskGroup(of: (LoadJob, Result<AnyTimeline, any Error>).self) { group in
            for job in jobs { group.addTask { (job, await Loads.run(job)) } }
            var out: [(LoadJob, Result<AnyTimeline, any Error>)] = []
            for await x in group { out.append(x) }
            return out
        }
        for (job, r) in results { _ = App.update(&state, .loaded(id: job.id, token: job.token, result: r)) }
        let scheduler = state.scheduler

        let statuses = scheduler.statuses(at: now).sorted { $0.id.localizedStandardCompare($1.id) == .orderedAscending }
        if statuses.isEmpty { printOut(kind.map { "no \($0) widget on the home screen" } ?? "the home screen is empty") }
        let fromCache = Set(snapshot.records.keys)
        for s in statuses {
            printOut(Self.describe(s, now: now, cached: fromCache.contains(s.id), schema: bundle[s.kind]?.schema))
        }
        if kind == nil { printOut(SmartStacks.report(state), terminator: "") }
    }

    static func time(_ d: Date?) -> String {
        guard let d else { return "—" }
        return d.formatted(.iso8601)
    }

    /// "in 30 s", "in 4 min 10 s", "in 2 h 5 min", "now".
    static func span(_ seconds: TimeInterval) -> String {
        let t = Int(clamping: seconds.rounded())
        if t <= 0 { return "now" }
        if t < 60 { return "in \(t) s" }
        if t < 3600 { return "in \(t / 60) min" + (t % 60 == 0 ? "" : " \(t % 60) s") }
        return "in \(t / 3600) h" + ((t % 3600) / 60 == 0 ? "" : " \((t % 3600) / 60) min")
    }

    static func describe(_ s: InstanceStatus, now: Date, cached: Bool, schema: ConfigurationSchema?) -> String {
        var lines: [String] = []
        let config = s.configuration.values.keys.sorted().compactMap { key -> String? in
            guard let v = s.configuration[key], let p = schema?.parameter(key) else { return nil }
            return "\(key)=\(p.display(v))"
        }
        lines.append(
            "\(s.id) \(s.kind) (\(s.family.rawValue))" + (config.isEmpty ? "" : " " + config.joined(separator: " "))
                + (cached
                    ? "  [from cache]" : s.entries.isEmpty && s.lastError != nil ? "  [load failed]" : "  [loaded now]")
        )
        lines.append("  policy:      \(s.policy.map { "\($0)" } ?? "—")")
        let when =
            s.nextReload.map { d -> String in
                return "\(time(d)) (\(Self.span(d.timeIntervalSince(now))))"
            } ?? "—"
        lines.append("  next reload: \(when) — \(s.nextReloadReason)")
        let b = s.budget
        if let limit = b.limit {
            lines.append(
                "  budget:      \(b.used) of \(limit) used in the last 24 h, \(b.left ?? 0) left; minimum interval \(Int(clamping: b.minimumInterval)) s"
            )
        } else {
            lines.append("  budget:      local widget, no daily cap; minimum interval \(Int(clamping: b.minimumInterval)) s")
        }
        lines.append(
            "  last error:  \(s.lastError.map { TextSanitizer.singleLine($0) } ?? "none")"
                + (s.isStale && !s.entries.isEmpty ? " (showing the last good entry, marked stale)" : ""))
        lines.append("  entries:     \(s.entries.count)" + (s.isPlaceholder ? " (placeholder shown)" : ""))
        let shown = s.entries.enumerated().filter { i, _ in
            guard let c = s.currentIndex else { return i < 5 }
            return i >= c - 1 && i <= c + 3
        }
        for (i, e) in shown {
            let mark = i == s.currentIndex ? "▶" : " "
            let rel = e.relevance.map { String(format: " relevance %.2f", $0.score) } ?? ""
            lines.append("   \(mark) \(time(e.date))\(rel)  \(TextSanitizer.singleLine(e.summary))")
        }
        if shown.count < s.entries.count { lines.append("     … \(s.entries.count - shown.count) more") }
        return lines.joined(separator: "\n") + "\n"
    }
}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the scheduler and the renderer (build with -c release for real figures).",
        usage: "swiftdash bench [<options>]",
        discussion: "The scheduler runs INSTANCES instances with ENTRIES entries each through HOURS virtual hours.")

    @Option(help: "Scheduler instances.") var instances = 10_000
    @Option(help: "Entries per timeline.") var entries = 100
    @Option(help: "Virtual hours.") var hours = 24.0
    @Option(help: "Frames to render for the render benchmark.") var frames = 200
    @Option(help: "Keystrokes for the Edit Widget benchmark.") var keystrokes = 400
    @Flag(help: "Only the Edit Widget benchmark (a keystroke in the form to the frame written).") var formOnly = false
    @Option(help: "Only the scale benchmark, for homes of these numbers of tiles (e.g. 10,100,1000,10000).")
    var tiles: String?

    func run() throws {
        if formOnly { return FormBench.run(keystrokes: keystrokes) }
        if let tiles {
            let sizes = tiles.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !sizes.isEmpty, sizes.allSatisfy({ (1...100_000).contains($0) }) else {
                throw ValidationError("--tiles takes numbers from 1 to 100000, separated by commas")
            }
            return ScaleBench.run(sizes: sizes, environment: appEnvironment)
        }
        let r = SchedulerBenchmark.run(
            instances: instances, entriesPerTimeline: entries, virtualHours: hours, wallClock: SystemClock())
        printOut("\(r)")

        // Render: the default home screen at 160x48, one full frame then frames where only the clock moves.
        let clock = SystemClock()
        var state = AppState(
            environment: appEnvironment, home: HomeConfig.defaultHome(bundle: bundle),
            screen: Size(width: 160, height: 48), theme: .dark, alternateTheme: .light,
            now: Date(timeIntervalSince1970: 1_795_426_200))
        let t0 = clock.now
        var last = AppView.render(state).buffer
        let first = clock.now.timeIntervalSince(t0)
        var cells = 0
        let t1 = clock.now
        for i in 0..<frames {
            state.now = Date(timeIntervalSince1970: 1_795_426_200 + Double(i) * 60)
            let f = AppView.render(state).buffer
            cells += FrameDiff.runs(from: last, to: f).reduce(0) { $0 + $1.cells.count }
            last = f
        }
        let per = clock.now.timeIntervalSince(t1) / Double(max(1, frames))
        printOut("render 160x48 (default home, placeholders):")
        printOut(String(format: "  first frame:   %.2f ms", first * 1000))
        printOut(
            String(
                format: "  next frames:   %.2f ms each (%d frames), %.0f changed cells per frame", per * 1000, frames,
                Double(cells) / Double(max(1, frames))))
        FormBench.run(keystrokes: keystrokes)
        var usage = rusage()
        if getrusage(RUSAGE_SELF.rawValue, &usage) == 0 {
            printOut("  peak RSS:      \(usage.ru_maxrss / 1024) MB (whole bench)")
        }
    }
}

/// From a keystroke in the Edit Widget form to the frame written, at 200x60: the runtime's
/// whole path (update, view, frame diff) and the escape sequences a terminal is sent,
/// written to /dev/null. Providers and previews do not run (they answer later, as
/// messages; the frame for the keystroke does not wait for them).
enum FormBench {
    /// A terminal that turns changed cells into ANSI bytes, as a real one is sent them.
    final class AnsiSink: Terminal {
        let size: Size
        let colorDepth = ColorDepth.trueColor
        let out = FileHandle(forWritingAtPath: "/dev/null")
        var bytes = 0
        var cells = 0
        init(size: Size) { self.size = size }
        func draw(_ runs: [CellRun], full: Bool) {
            var text = full ? "\u{1B}[2J" : ""
            for run in runs {
                text += "\u{1B}[\(run.y + 1);\(run.x + 1)H"
                var style: Style? = nil
                for cell in run.cells where !cell.isContinuation {
                    if cell.style != style {
                        text += ANSI.sgr(cell.style, depth: colorDepth)
                        style = cell.style
                    }
                    text += cell.text
                }
                cells += run.cells.count
            }
            let data = Data(text.utf8)
            bytes += data.count
            out?.write(data)
        }
        func readEvent(timeout: Double?) -> InputEvent? { nil }
    }

    static func run(keystrokes: Int) {
        let clock = SystemClock()
        let screen = Size(width: 200, height: 60)
        let home = HomeConfig.defaultHome(bundle: bundle)
        var state = AppState(
            environment: appEnvironment, home: home, screen: screen, theme: .dark,
            alternateTheme: .light, now: clock.now)
        // The latest-commit tile: text fields, a path, a secret.
        state.focusedTile = home.tiles.first { $0.items.first?.kind == "commits" }?.id ?? state.focusedTile
        let sink = AnsiSink(size: screen)
        let runtime = Runtime(
            state: state, terminal: sink, clock: clock, inbox: Inbox(wake: {}),
            services: RuntimeServices(startLoad: { _, _ in nil }, edit: { _, _ in }))
        runtime.turn()
        for k in [Key.char("e"), .down, .down] {
            runtime.handle(.key(k))
            runtime.turn()
        }
        let (bytes0, cells0, frames0) = (sink.bytes, sink.cells, runtime.stats.frames)
        var times: [Double] = []
        for i in 0..<keystrokes {
            let key: Key = i % 2 == 0 ? .char("x") : .backspace
            let t0 = clock.now
            runtime.handle(.key(key))
            runtime.turn()
            times.append(clock.now.timeIntervalSince(t0) * 1000)
        }
        times.sort()
        let n = max(1, times.count)
        let frames = max(1, runtime.stats.frames - frames0)
        printOut("Edit Widget form, 200x60: a keystroke to the frame written (\(keystrokes) keys, \(frames) frames):")
        printOut(
            String(
                format: "  median %.3f ms, p95 %.3f ms, max %.3f ms (target: under 16 ms)",
                times[n / 2], times[min(n - 1, n * 95 / 100)], times.last ?? 0))
        printOut("  per frame: \((sink.cells - cells0) / frames) cells, \((sink.bytes - bytes0) / frames) bytes")
    }
}
