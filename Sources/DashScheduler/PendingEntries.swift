import Foundation
import DashWidgets

/// An instance's entries and its widget's encoder, kept in a record to save until the cache
/// writer encodes them: JSON for a thousand timelines was a fifth of the loop's time while a
/// reload of 1,000 tiles came back (issue 25.3). Records with pending entries are equal when
/// their entries encode to the same JSON.
public struct PendingEntries: Sendable, Hashable {
    public let entries: [AnyEntry]
    let encode: @Sendable ([AnyEntry]) throws -> Data

    public init(_ entries: [AnyEntry], encode: @escaping @Sendable ([AnyEntry]) throws -> Data) {
        self.entries = entries
        self.encode = encode
    }

    public func data() throws -> Data { try encode(entries) }

    public static func == (a: PendingEntries, b: PendingEntries) -> Bool { (try? a.data()) == (try? b.data()) }
    public func hash(into h: inout Hasher) { h.combine(try? data()) }
}

extension InstanceRecord {
    /// The record with its pending entries encoded, and the warning when they cannot be: then the
    /// record is saved without a timeline (as `Scheduler.record` leaves it), the ledger kept.
    public func withEntriesEncoded() -> (record: InstanceRecord, warning: String?) {
        guard let pending = pendingEntries else { return (self, nil) }
        var r = self
        r.pendingEntries = nil
        do {
            r.entries = try pending.data()
            return (r, nil)
        } catch {
            r.entries = nil
            r.policy = nil
            r.pushed = nil
            return (r, "cache: cannot encode the entries of \(id) (\(kind)): \(error)")
        }
    }
}

extension Scheduler {
    /// The cache record of one instance at `now`, its entries left for the writer to encode
    /// (`InstanceRecord.withEntriesEncoded`): what the loop hands the cache, at the cost of a copy.
    public func recordToSave(_ id: InstanceID, at now: Date) -> InstanceRecord? {
        guard let slot = slotOf[id] else { return nil }
        let inst = slots[slot]
        var r = InstanceRecord(
            id: id, kind: inst.widget.kind, family: inst.family, configuration: inst.configuration,
            entries: nil, policy: inst.hasTimeline ? inst.policy : nil, isStale: inst.isStale,
            lastError: inst.lastError, consecutiveFailures: inst.failures, ledger: inst.ledger,
            lastReload: inst.lastLoadStart, lastSuccess: inst.lastSuccess, savedAt: now,
            pushed: inst.pushed && inst.hasTimeline ? true : nil)
        if inst.hasTimeline {
            let widget = inst.widget
            r.pendingEntries = PendingEntries(inst.entries) { try widget.encodeEntries($0) }
        }
        return r
    }
}
