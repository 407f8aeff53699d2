import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashApp
import DashHome
import DashRuntime

/// `swiftdash bench --tiles 10,100,1000,10000`: how the home screen's cost grows with its tiles
/// (issue 25). For each N, a home of N tiles (mixed kinds, one in five a stack, as many pages as
/// they take) runs in the runtime at 160x48 with the bench's terminal (ANSI to /dev/null), and the
/// bench reports the time to the first frame, one turn with nothing to do, the turn that applies
/// one load result, all N first loads finishing together (total, and the longest turn: how long a
/// key can wait), and the resident memory the home adds (sizes run in
/// increasing order: memory a smaller home freed is reused first). Providers run before the clock starts: the
/// figures are the home screen's own cost. Then the log-log growth exponent of each figure
/// between the smallest N of 100 or more and the largest.
enum ScaleBench {
    struct Row {
        var tiles: Int
        var widgets: Int
        var firstFrame: Double
        var idleTurn: Double
        var loadTurn: Double
        var allLoads: Double
        var longestTurn: Double
        var turnsForLoads: Int
        var bytes: Double
        var render: Double { firstFrame + allLoads }
    }

    /// Kinds that load without the network in the bench (network ones answer with their sample).
    static let singles = ["clock", "note", "crypto", "weather", "clock", "system", "news", "note"]
    static let stacks = [["crypto", "news"], ["clock", "weather", "note"]]

    /// A home of `n` tiles: one in five a stack, each in a family all its widgets support.
    static func home(tiles n: Int, bundle: WidgetBundle) -> HomeConfig {
        var tiles: [TileInstance] = []
        var w = 0
        tiles.reserveCapacity(n)
        for t in 0..<n {
            let kinds = (t % 5 == 4 ? stacks[(t / 5) % stacks.count] : [singles[t % singles.count]]).filter {
                bundle[$0] != nil
            }
            let families = kinds.compactMap { bundle[$0]?.supportedFamilies }
            let common = WidgetFamily.allCases.filter { f in families.allSatisfy { $0.contains(f) } }
            guard let family = common.first(where: { $0 != .extraLarge && $0 != .large }) ?? common.first else {
                continue
            }
            let items = kinds.map { kind -> WidgetInstance in
                w += 1
                return WidgetInstance(id: "w\(w)", kind: kind)
            }
            tiles.append(TileInstance(id: "t\(t + 1)", family: family, items: items))
        }
        return HomeConfig(tiles: tiles)
    }

    final class Box: @unchecked Sendable { var value: [Msg] = [] }

    /// Runs `body` to the end on Swift's pool and waits for it (the bench is a plain command).
    static func blocking(_ body: @escaping @Sendable () async -> [Msg]) -> [Msg] {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value
    }

    /// Each job's result, as `render` makes it: network widgets give their sample.
    static func results(_ jobs: [LoadJob]) -> [Msg] {
        blocking {
            await withTaskGroup(of: Msg.self) { group in
                for job in jobs {
                    group.addTask {
                        let widget = job.request.widget
                        let result: Result<AnyTimeline, any Error>
                        if widget.cost(for: job.request.configuration) == .budgeted {
                            var ctx = job.context
                            ctx.isPreview = true
                            let entry = await widget.snapshot(for: job.request.configuration, in: ctx)
                            result = .success(AnyTimeline(entries: [entry], policy: .never))
                        } else {
                            result = await Loads.run(job)
                        }
                        return .loaded(id: job.id, token: job.token, result: result)
                    }
                }
                var out: [Msg] = []
                for await m in group { out.append(m) }
                return out
            }
        }
    }

    /// The resident memory now (`/proc/self/statm`), in bytes.
    static func residentBytes() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE)))
    }

    final class Jobs: @unchecked Sendable {
        private let lock = NSLock()
        private var jobs: [LoadJob] = []
        func add(_ j: LoadJob) {
            lock.lock()
            jobs.append(j)
            lock.unlock()
        }
        func take() -> [LoadJob] {
            lock.lock()
            defer { lock.unlock() }
            let out = jobs
            jobs.removeAll()
            return out
        }
    }

    static func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

    static func measure(tiles n: Int, environment: AppEnvironment) -> Row {
        let clock = SystemClock()
        let screen = Size(width: 160, height: 48)
        let heap0 = residentBytes()
        let home = home(tiles: n, bundle: environment.bundle)
        let jobs = Jobs()
        let sink = FormBench.AnsiSink(size: screen)
        var services = RuntimeServices(startLoad: { job, _ in
            jobs.add(job)
            return nil
        })
        services.watchFiles = { _, _ in }
        services.perform = { _, _ in }
        // The first frame: the state (registering every widget, the layout), the runtime, one turn.
        let t0 = clock.now
        let state = AppState(
            environment: environment, home: home, screen: screen, theme: .dark, alternateTheme: .light,
            now: clock.now)
        let runtime = Runtime(state: state, terminal: sink, clock: clock, inbox: Inbox(wake: {}), services: services)
        runtime.turn()
        let firstFrame = clock.now.timeIntervalSince(t0)
        // Every first load finishes together: the loads in flight (at most 24 at a time) all
        // answer at once, then those their answers let start, until none is left.
        var longest = 0.0
        var turns = 0
        var allLoads = 0.0  // the turns only: making the answers is the providers' part
        var started = jobs.take()
        var rounds = 0
        while !started.isEmpty && rounds < 10_000 {
            rounds += 1
            for m in results(started) { runtime.inbox.post(m) }
            repeat {
                let s = clock.now
                runtime.turn()
                longest = max(longest, clock.now.timeIntervalSince(s))
                allLoads += clock.now.timeIntervalSince(s)
                turns += 1
            } while runtime.hasBacklog
            started = jobs.take()
        }
        // Turns with nothing to do.
        var idle: [Double] = []
        for _ in 0..<21 {
            let s = clock.now
            runtime.turn()
            idle.append(clock.now.timeIntervalSince(s))
        }
        _ = jobs.take()
        // One load result: `r` reloads the focused tile, its result arrives, one turn applies it.
        var one: [Double] = []
        for _ in 0..<11 {
            runtime.handle(.key(.char("r")))
            runtime.turn()
            let answers = results(jobs.take())
            guard !answers.isEmpty else { break }
            for m in answers { runtime.inbox.post(m) }
            let s = clock.now
            runtime.turn()
            one.append(clock.now.timeIntervalSince(s))
        }
        let bytes = residentBytes() - heap0
        withExtendedLifetime(runtime) {}
        return Row(
            tiles: n, widgets: home.allInstances.count, firstFrame: firstFrame, idleTurn: median(idle),
            loadTurn: one.isEmpty ? .nan : median(one), allLoads: allLoads, longestTurn: longest,
            turnsForLoads: turns, bytes: bytes)
    }

    static func run(sizes: [Int], environment: AppEnvironment) {
        printOut("scale: N tiles at 160x48 (one in five a stack), providers excluded; times in ms")
        printOut(
            "  tiles  widgets  first frame  idle turn  1-load turn  N loads (turns, longest)   render*  RSS/tile")
        var rows: [Row] = []
        for n in sizes {
            let r = measure(tiles: n, environment: environment)
            rows.append(r)
            func ms(_ x: Double) -> String { FixedFormat.decimal(x * 1000, places: 3) }
            let loads = "\(ms(r.allLoads)) (\(r.turnsForLoads), \(ms(r.longestTurn)))"
            printOut(
                "  "
                    + [
                        pad("\(r.tiles)", 5), pad("\(r.widgets)", 7), pad(ms(r.firstFrame), 11), pad(ms(r.idleTurn), 9),
                        pad(ms(r.loadTurn), 11), pad(loads, 25), pad(ms(r.render), 8),
                        pad(FixedFormat.decimal(r.bytes / Double(max(1, r.tiles)) / 1024, places: 1) + " KB", 9),
                    ].joined(separator: "  "))
        }
        printOut("  * render: first frame + every first load applied and drawn (what `swiftdash render` waits for)")
        guard let a = rows.first(where: { $0.tiles >= 100 }), let b = rows.last, b.tiles > a.tiles else { return }
        func slope(_ f: (Row) -> Double) -> String {
            let x = f(a), y = f(b)
            guard x > 0, y > 0 else { return "n/a" }
            return FixedFormat.decimal(log(y / x) / log(Double(b.tiles) / Double(a.tiles)), places: 2)
        }
        printOut("growth exponent \(a.tiles) → \(b.tiles) tiles (log-log slope; target ≤ 1.1):")
        printOut(
            "  first frame \(slope(\.firstFrame)), idle turn \(slope(\.idleTurn)), 1-load turn \(slope(\.loadTurn)), "
                + "N loads \(slope(\.allLoads)), render \(slope(\.render)), RSS \(slope(\.bytes))")
    }

    static func pad(_ s: String, _ n: Int) -> String {
        String(repeating: " ", count: max(0, n - s.count)) + s
    }
}
