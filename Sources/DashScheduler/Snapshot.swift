import Foundation
import DashWidgets

/// What the cache keeps of one instance: the last timeline (entries encoded by the
/// widget, `Widget.encodeEntries`), its policy, the stale mark and error, and the
/// budget ledger. Keyed by kind, configuration and family: a timeline made for another
/// configuration is not shown; the ledger belongs to the instance id whatever its
/// configuration.
public struct InstanceRecord: Codable, Sendable, Hashable {
    /// Tells our cache files from foreign JSON.
    public static let currentFormat = "swiftdash.timeline-cache"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var id: InstanceID
    public var kind: String
    public var family: WidgetFamily
    public var configuration: WidgetConfig
    /// The entries as the widget encodes them (JSON); nil without a timeline.
    public var entries: Data?
    public var policy: ReloadPolicy?
    public var isStale: Bool
    public var lastError: String?
    public var consecutiveFailures: Int
    public var ledger: BudgetLedger
    public var lastReload: Date?
    public var lastSuccess: Date?
    public var savedAt: Date
    /// The entries came by push (nil in caches written before this existed: false).
    public var pushed: Bool?
    /// Entries still to be encoded (`Scheduler.recordToSave`): the writer's thread encodes them
    /// (`withEntriesEncoded`), not the loop. Never in the JSON.
    public var pendingEntries: PendingEntries? = nil

    enum CodingKeys: String, CodingKey {
        case format, version, id, kind, family, configuration, entries, policy, isStale, lastError
        case consecutiveFailures, ledger, lastReload, lastSuccess, savedAt, pushed
    }

    public init(
        id: InstanceID, kind: String, family: WidgetFamily, configuration: WidgetConfig,
        entries: Data?, policy: ReloadPolicy?, isStale: Bool, lastError: String?,
        consecutiveFailures: Int, ledger: BudgetLedger, lastReload: Date?, lastSuccess: Date?,
        savedAt: Date, pushed: Bool? = nil
    ) {
        self.pushed = pushed
        self.format = Self.currentFormat
        self.version = Self.currentVersion
        self.id = id
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.entries = entries
        self.policy = policy
        self.isStale = isStale
        self.lastError = lastError
        self.consecutiveFailures = consecutiveFailures
        self.ledger = ledger
        self.lastReload = lastReload
        self.lastSuccess = lastSuccess
        self.savedAt = savedAt
    }

    /// Whether this is a record this version can read (not a foreign or future file).
    public var isCurrentFormat: Bool { format == Self.currentFormat && version == Self.currentVersion }

    /// Cache records as JSON: sorted keys, dates as seconds since 1970 (pending entries encoded).
    public func encoded() throws -> Data { try JSONEncoder.dash.encode(withEntriesEncoded().record) }

    /// Decodes a record; throws `CacheRecordError` for JSON of another kind.
    public static func decode(_ data: Data) throws -> InstanceRecord {
        struct Header: Decodable {
            var format: String?
            var version: Int?
        }
        let header = try JSONDecoder.dash.decode(Header.self, from: data)
        guard header.format == currentFormat else {
            throw CacheRecordError.foreign(header.format.map { "format '\($0)'" } ?? "no format field")
        }
        guard header.version == currentVersion else {
            throw CacheRecordError.foreign(
                "version \(header.version.map(String.init) ?? "missing"), expected \(currentVersion)")
        }
        return try JSONDecoder.dash.decode(InstanceRecord.self, from: data)
    }
}

public enum CacheRecordError: Error, Sendable, Hashable, CustomStringConvertible {
    case foreign(String)
    public var description: String {
        switch self {
        case .foreign(let what): return "not a swiftdash timeline cache (\(what))"
        }
    }
}

/// The scheduler's whole cached state: one record per instance.
public struct SchedulerSnapshot: Codable, Sendable, Hashable {
    public var records: [InstanceID: InstanceRecord]
    public init(records: [InstanceID: InstanceRecord] = [:]) { self.records = records }
}

extension Scheduler {
    /// The cache record of one instance at `now`. Entries that the widget cannot encode
    /// are left out (the record still carries the ledger) and reported by `takeWarnings()`.
    public mutating func record(_ id: InstanceID, at now: Date) -> InstanceRecord? {
        guard let slot = slotOf[id] else { return nil }
        let inst = slots[slot]
        var data: Data? = nil
        if inst.hasTimeline {
            do {
                data = try inst.widget.encodeEntries(inst.entries)
            } catch {
                warnings.append("cache: cannot encode the entries of \(id) (\(inst.widget.kind)): \(error)")
            }
        }
        return InstanceRecord(
            id: id, kind: inst.widget.kind, family: inst.family, configuration: inst.configuration,
            entries: data, policy: data == nil ? nil : inst.policy, isStale: inst.isStale, lastError: inst.lastError,
            consecutiveFailures: inst.failures, ledger: inst.ledger, lastReload: inst.lastLoadStart,
            lastSuccess: inst.lastSuccess, savedAt: now, pushed: inst.pushed && data != nil ? true : nil)
    }

    /// Every instance's record.
    public mutating func snapshot(at now: Date) -> SchedulerSnapshot {
        var out = SchedulerSnapshot()
        for id in instanceIDs {
            if let r = record(id, at: now) { out.records[id] = r }
        }
        return out
    }

    /// Hands the scheduler the cached records (before registering instances): each is
    /// used when its instance registers. Records for instances that are already
    /// registered are ignored.
    public mutating func restore(_ snapshot: SchedulerSnapshot) {
        for (id, record) in snapshot.records where slotOf[id] == nil {
            restored[id] = record
        }
    }

    /// Fills a new instance from its record. True when its timeline was restored (no
    /// initial load needed).
    func restoreRecord(_ record: InstanceRecord, into inst: inout Instance, now: Date) -> (Bool, String?) {
        inst.ledger = record.ledger
        inst.lastLoadStart = record.lastReload
        guard record.isCurrentFormat, record.kind == inst.widget.kind, record.family == inst.family,
            record.configuration == inst.configuration
        else {
            return (false, nil)
        }
        // The last error shows even without a timeline (placeholder plus error).
        inst.lastSuccess = record.lastSuccess
        inst.isStale = record.isStale
        inst.lastError = record.lastError
        inst.failures = record.consecutiveFailures
        guard let data = record.entries else { return (false, nil) }
        let entries: [AnyEntry]
        do {
            entries = try inst.widget.decodeEntries(data)
        } catch {
            return (false, "cache: skipping the timeline of \(inst.id) (\(inst.widget.kind)): \(errorMessage(error))")
        }
        inst.setTimeline(AnyTimeline(entries: entries, policy: record.policy ?? .atEnd), now: now)
        inst.pushed = record.pushed ?? false
        if record.isStale {
            // It failed last time: try again now (not charged), then back off as before.
            inst.retryAt = now.timeIntervalSinceReferenceDate
        }
        inst.planPolicyReload(policy: policy)
        return (true, nil)
    }

    mutating func restore(_ record: InstanceRecord, into inst: inout Instance, now: Date) -> Bool {
        let (ok, warning) = restoreRecord(record, into: &inst, now: now)
        if let warning { warnings.append(warning) }
        return ok
    }
}
