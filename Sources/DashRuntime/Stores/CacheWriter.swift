import Foundation
import DashScheduler

/// Writes timeline records to the cache on a thread of its own (`OffLoopWriter`), so the loop
/// never waits for the disk: each record is a file written, synced and renamed, and a reload of
/// 1,000 tiles handed the loop 1,000 of them at once (issue 25: keys waited seconds behind the
/// fsyncs). Records wait by instance, the latest one kept, and are written in the order they
/// first came.
public final class CacheWriter: Sendable {
    /// Records waiting, the latest per instance, in the order the instances first came.
    struct Waiting: Sendable {
        var records: [String: InstanceRecord] = [:]
        var order: [String] = []

        init(_ new: [InstanceRecord]) { add(new) }

        mutating func add(_ new: [InstanceRecord]) {
            for r in new where records.updateValue(r, forKey: r.id) == nil { order.append(r.id) }
        }

        static func merged(_ a: Waiting, _ b: Waiting) -> Waiting {
            var out = a
            out.add(b.order.compactMap { b.records[$0] })
            return out
        }
    }

    private let writer: OffLoopWriter<Waiting>

    /// `write` runs on the writer's thread, one call per batch.
    public init(write: @escaping @Sendable ([InstanceRecord]) -> Void) {
        writer = OffLoopWriter(name: "cache writer", merge: Waiting.merged) { waiting in
            write(waiting.order.compactMap { waiting.records[$0] })
        }
    }

    /// Hands records over to be written; returns at once.
    public func save(_ records: [InstanceRecord]) {
        guard !records.isEmpty else { return }
        writer.save(Waiting(records))
    }

    /// Waits until every record handed over is written (before the process ends).
    public func flush() { writer.flush() }
}
