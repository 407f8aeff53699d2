import Foundation
import DashCore
import DashWidgets
import DashRender

/// Loading data once, outside the live runtime: `render`, `preview --live`, `timeline`.
public enum OneShot {
    public struct TimeoutError: Error, CustomStringConvertible {
        public var seconds: Double
        public var description: String { "timed out after \(Int(seconds)) s" }
    }

    /// Runs `work` but gives up after `seconds`.
    public static func withTimeout<T: Sendable>(_ seconds: Double, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                throw TimeoutError(seconds: seconds)
            }
            let first = try await group.next()!
            group.cancelAll()
            return first
        }
    }

    /// Where `render` takes each widget's data from.
    public enum DataSource: String, Sendable, CaseIterable {
        /// Real timelines for every widget (network widgets go to the network).
        case live
        /// Real timelines for local widgets; sample data (the preview snapshot) for network ones.
        case sample
    }

    /// Fills `state.display` for every instance on the home screen, loading concurrently.
    public static func load(_ state: inout AppState, source: DataSource) async {
        let instances = state.home.tiles.flatMap { t in t.items.map { (t, $0) } }
        let s = state
        let results = await withTaskGroup(of: (String, InstanceDisplay).self) { group in
            for (tile, inst) in instances {
                guard let widget = s.bundle[inst.kind] else { continue }
                let family = s.layout.tile(tile.id)?.family ?? tile.family
                let ctx = s.context(for: family)
                group.addTask {
                    if source == .sample && widget.cost == .budgeted {
                        var pctx = ctx; pctx.isPreview = true
                        return (inst.id, InstanceDisplay(entry: await widget.snapshot(for: inst.config, in: pctx), isSample: true))
                    }
                    do {
                        let t = try await withTimeout(widget.timeout) { try await widget.timeline(for: inst.config, in: ctx) }
                        return (inst.id, InstanceDisplay(entry: t.entry(at: ctx.now) ?? t.entries.min { $0.date < $1.date }))
                    } catch {
                        return (inst.id, InstanceDisplay(entry: nil, staleMessage: TextSanitizer.singleLine("\(error)")))
                    }
                }
            }
            var out: [(String, InstanceDisplay)] = []
            for await r in group { out.append(r) }
            return out
        }
        for (id, d) in results { state.display[id] = d }
    }
}
