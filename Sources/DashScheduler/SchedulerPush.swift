import Foundation
import DashWidgets

extension Scheduler {
    /// A timeline handed in from outside (`swiftdash push`): shown like a loaded one, never charged
    /// to the budget and not counted as a reload (the minimum interval still counts from the last
    /// real load). A load in flight is overtaken: its result is dropped. False for an unknown id.
    @discardableResult
    public mutating func push(_ id: InstanceID, timeline: AnyTimeline, at now: Date) -> Bool {
        guard let slot = slotOf[id] else { return false }
        slots[slot].inFlight?.obsolete = true
        slots[slot].pending = nil
        slots[slot].succeed(timeline, now: now, policy: policy)
        slots[slot].pushed = true
        markChanged(slot)
        noteCacheChange(slot)
        reschedule(slot)
        trimQueue()
        return true
    }
}
