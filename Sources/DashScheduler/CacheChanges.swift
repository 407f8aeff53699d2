import Foundation
import DashWidgets

/// What the cache is told: the instances whose saved state changed, at most once a minute for a
/// sample that is stale within seconds anyway, and the warnings about records that could not be used.
extension Scheduler {
    /// The instances whose cached state (timeline, stale mark, error, ledger) changed
    /// since the last call: save their `record(_:)`s. With `now`, an instance whose policy asks to
    /// reload within `fastSaveInterval` (a system sample each second) is handed out at most once
    /// in that interval, and held until then: what it shows is stale within seconds whatever the
    /// cache says, and the cache is for a restart (issue 35.1: the system tile's record was
    /// renamed into place every second).
    public mutating func takeCacheChanges(at now: Date? = nil) -> [InstanceID] {
        var out: [InstanceID] = []
        var held: [Int] = []
        let t = now?.timeIntervalSinceReferenceDate
        for s in cacheChanged where slots[s].cacheMark {
            if let t, slots[s].alive, let last = slots[s].lastCacheSave, t - last < Self.fastSaveInterval,
                let gap = slots[s].reloadGap, gap <= Self.fastSaveInterval
            {
                held.append(s)
                continue
            }
            slots[s].cacheMark = false
            guard slots[s].alive else { continue }
            out.append(slots[s].id)
            if let t { slots[s].lastCacheSave = t }
        }
        cacheChanged = held
        return out
    }

    /// How often at most the record of an instance that reloads within this many seconds is saved.
    public static let fastSaveInterval: Double = 60

    /// Log lines about cache records that could not be used (one per record).
    public mutating func takeWarnings() -> [String] {
        let out = warnings
        warnings.removeAll()
        return out
    }

    mutating func noteCacheChange(_ slot: Int) {
        guard !slots[slot].cacheMark else { return }
        slots[slot].cacheMark = true
        cacheChanged.append(slot)
    }
}
