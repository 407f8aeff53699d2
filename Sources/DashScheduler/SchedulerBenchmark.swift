import Foundation
import DashWidgets

/// Figures from `SchedulerBenchmark.run`.
public struct SchedulerBenchmarkResult: Sendable, CustomStringConvertible {
    public var instances: Int
    public var entriesPerTimeline: Int
    public var virtualHours: Double
    /// Deadlines the scheduler handled (entry changes, reloads, timeouts).
    public var events: Int
    /// Timeline loads started (and answered at once by the benchmark's provider).
    public var loads: Int
    /// Times an instance's visible entry changed.
    public var entryChanges: Int
    /// Wall time for registering, the initial loads and 24 virtual hours.
    public var seconds: Double
    /// Of `seconds`, the time the benchmark's provider spent building timelines.
    public var providerSeconds: Double
    /// Of `seconds`, the scheduler's own time.
    public var schedulerSeconds: Double { seconds - providerSeconds }
    public var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }

    public var description: String {
        let eps = eventsPerSecond
        return """
            scheduler benchmark: \(instances) instances x \(entriesPerTimeline) entries, \(virtualHours) virtual hours
              events:        \(events)
              loads:         \(loads)
              entry changes: \(entryChanges)
              total time:    \(String(format: "%.3f", seconds)) s (scheduler \(String(format: "%.3f", schedulerSeconds)) s, building timelines \(String(format: "%.3f", providerSeconds)) s)
              events/s:      \(String(format: "%.0f", eps))
            """
    }
}

/// The scheduler benchmark: many instances with long timelines, driven through a day
/// of virtual time the way the runtime drives it (process at each `nextWake`, answer
/// the loads, collect the changed instances).
public enum SchedulerBenchmark {
    struct Entry: TimelineEntry {
        var date: Date
        var value: Int
    }

    struct Provider: TimelineProvider {
        func placeholder(in context: TimelineContext) -> Entry { Entry(date: context.now, value: 0) }
        func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> Entry {
            Entry(date: context.now, value: 0)
        }
        func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<Entry> {
            Timeline(entries: [Entry(date: context.now, value: 0)], policy: .atEnd)
        }
    }

    /// Workload: `instances` instances, each timeline `entriesPerTimeline` entries spread
    /// evenly over the virtual day (each instance at its own phase, so deadlines rarely
    /// coincide). Nine in ten instances reload `.atEnd` (one in those ten is a `.local`
    /// widget), one in ten `.after` one hour (a budgeted reload every hour). Loads are
    /// answered at once with a fresh timeline. `wallClock` measures the run (pass
    /// `SystemClock()`); the scheduler never sees it.
    public static func run(
        instances: Int = 10_000, entriesPerTimeline: Int = 100, virtualHours: Double = 24,
        wallClock: any DashClock
    ) -> SchedulerBenchmarkResult {
        let budgeted = Widget(
            kind: "bench", displayName: "Bench", description: "benchmark", cost: .budgeted,
            provider: Provider(), view: { _, _ in Text("") })
        let local = Widget(
            kind: "bench-local", displayName: "Bench local", description: "benchmark", cost: .local,
            provider: Provider(), view: { _, _ in Text("") })
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let end = start.addingTimeInterval(virtualHours * 3600)
        let spacing = virtualHours * 3600 / Double(max(1, entriesPerTimeline))
        let n = max(0, entriesPerTimeline)

        func timeline(for index: Int, at now: Date) -> AnyTimeline {
            let phase = Double((index &* 7919) % 997) / 997 * spacing
            var entries: [AnyEntry] = []
            entries.reserveCapacity(n)
            let base = now.timeIntervalSinceReferenceDate
            for k in 0..<n {
                let d = Date(timeIntervalSinceReferenceDate: base + (k == 0 ? 0 : phase + Double(k) * spacing))
                entries.append(AnyEntry(Entry(date: d, value: k)))
            }
            let policy: ReloadPolicy = index % 10 == 0 ? .after(now.addingTimeInterval(3600)) : .atEnd
            return AnyTimeline(entries: entries, policy: policy)
        }

        let began = wallClock.now
        var scheduler = Scheduler()
        var indexOf: [InstanceID: Int] = [:]
        indexOf.reserveCapacity(instances)
        for i in 0..<instances {
            let id = "tile-\(i)"
            indexOf[id] = i
            scheduler.register(id, widget: i % 10 == 1 ? local : budgeted, family: .small, at: start)
        }
        var now = start
        var changed = 0
        var providerSeconds = 0.0
        while let wake = scheduler.nextWake, wake <= end {
            if wake > now { now = wake }
            let requests = scheduler.process(now: now)
            if !requests.isEmpty {
                let t = wallClock.now
                let timelines = requests.map { timeline(for: indexOf[$0.id]!, at: now) }
                providerSeconds += wallClock.now.timeIntervalSince(t)
                for (r, tl) in zip(requests, timelines) {
                    scheduler.loadFinished(r.id, token: r.token, result: .success(tl), at: now)
                }
            }
            changed += scheduler.takeChanged().count
        }
        let seconds = wallClock.now.timeIntervalSince(began)
        _ = changed
        let stats = scheduler.stats
        return SchedulerBenchmarkResult(
            instances: instances, entriesPerTimeline: entriesPerTimeline,
            virtualHours: virtualHours, events: stats.events, loads: stats.loadsStarted,
            entryChanges: stats.entryChanges, seconds: seconds,
            providerSeconds: providerSeconds)
    }
}
