import Foundation
import DashWidgets
import DashScheduler
import DashHome

/// What Smart Stacks remembers about one widget instance.
public struct InstanceUsage: Codable, Sendable, Hashable {
    /// The widget kind the record was made for (an id reused by another kind starts afresh).
    public var kind: String
    /// Opens (taps) and manual rotations to it, decayed.
    public var use: UseRecord
    /// Content ids it has shown in its stack, newest last (a relevance that holds until seen ends).
    public var seen: [String]
    /// The content it showed when its tile was last focused (attention: "new since you looked").
    public var acknowledged: String?
    /// The relevant entry it showed when its tile was last focused.
    public var acknowledgedRelevant: String?
    /// The attention key the bell last rang for (once per entry, across restarts too).
    public var lastBell: String?
    /// The start of the current run of relevant entries (attention marks a run once).
    public var relevantSince: String?
    /// True once it has shown an entry: what it showed first (content and a relevance) is the
    /// baseline attention starts from, so a first run is calm. Nil in a file from before.
    public var started: Bool?

    public init(kind: String) {
        self.kind = kind
        use = UseRecord()
        seen = []
    }

    /// How many seen content ids are kept.
    static let seenLimit = 16

    mutating func markSeen(_ id: String) {
        guard !seen.contains(id) else { return }
        seen.append(id)
        if seen.count > Self.seenLimit { seen.removeFirst(seen.count - Self.seenLimit) }
    }
}

/// What Smart Stacks remembers about one stack, so a restart keeps the item, its dwell and a pin.
public struct StackMemory: Codable, Sendable, Hashable {
    /// The instance id shown.
    public var shown: String
    /// When the shown item last changed.
    public var since: Date?
    /// A manual rotation's pause ends here.
    public var pinnedUntil: Date?
    /// What brought the item forward, in words (kept for the explanation while it dwells).
    public var because: String?

    public init(shown: String, since: Date? = nil, pinnedUntil: Date? = nil, because: String? = nil) {
        self.shown = shown
        self.since = since
        self.pinnedUntil = pinnedUntil
        self.because = because
    }
}

/// Smart Stacks' memory in the cache directory (`usage.json`): use history, seen content,
/// attention acknowledgements and each stack's shown item. Not configuration: never in `home.yaml`.
public struct UsageHistory: Codable, Sendable, Hashable {
    public static let currentFormat = "swiftdash.usage"
    public static let currentVersion = 1

    public var format = currentFormat
    public var version = currentVersion
    /// By instance id.
    public var instances: [String: InstanceUsage] = [:]
    /// By tile id.
    public var stacks: [String: StackMemory] = [:]

    public init() {}

    /// The history without what belongs to no tile of `home` (removed tiles, other kinds).
    public func pruned(for home: HomeConfig) -> UsageHistory {
        var out = UsageHistory()
        let kinds = Dictionary(home.allInstances.map { ($0.id, $0.kind) }, uniquingKeysWith: { a, _ in a })
        for (id, u) in instances where kinds[id] == u.kind { out.instances[id] = u }
        for tile in home.tiles where tile.items.count > 1 {
            if let m = stacks[tile.id], tile.items.contains(where: { $0.id == m.shown }) { out.stacks[tile.id] = m }
        }
        return out
    }
}
