import Foundation
import DashCore
import DashWidgets
import DashScheduler

/// Time moving on: the status note expires, the scheduler switches entries and starts loads.
extension App {
    /// Time moved on: expire the status note, let the scheduler switch entries and start loads.
    static func tick(_ s: inout AppState, _ now: Date) -> [Effect] {
        // The wall clock went back (NTP, `date -s`): what shows must be looked at again.
        var fx: [Effect] = now < s.now ? [.redraw(full: false)] : []
        // Smart Stacks' dates were for a later time: every tile is looked at again.
        if now < s.now { s.smart.quiet = nil }
        let previous = s.now
        s.now = now
        fx += activitiesTick(&s, previous: previous)
        if let n = s.note, now >= n.expires {
            s.nextNote()
            fx.append(.redraw(full: false))
        }
        return fx + pump(&s)
    }

    /// Runs the scheduler's due deadlines and turns what it says into effects: loads to start,
    /// cache records to save, a redraw when an entry changed.
    static func pump(_ s: inout AppState) -> [Effect] {
        var fx: [Effect] = []
        let requests = s.scheduler.process(now: s.now)
        let switched = s.scheduler.takeChanged()
        if !switched.isEmpty { fx.append(.redraw(full: false)) }
        s.smart.touched.formUnion(switched)
        // An entry that asks for the bell (a recipe step beginning) rings it when it comes on
        // time — not when a restart or a reload shows one that began a while ago.
        for id in switched {
            if let e = s.entry(ofInstance: id), e.base.ringsBell, s.now.timeIntervalSince(e.date) < 5 {
                fx.append(.bell)
                break
            }
        }
        for w in s.scheduler.takeWarnings() { fx.append(.log(w)) }
        let changed = s.scheduler.takeCacheChanges(at: s.now)
        if !changed.isEmpty {
            let now = s.now
            // Entries are encoded by the cache writer, off the loop (issue 25.3).
            let records = changed.compactMap { s.scheduler.recordToSave($0, at: now) }
            if !records.isEmpty { fx.append(.saveCache(records)) }
        }
        for r in requests { fx += SecretCommands.start(&s, r) }
        fx += actionPump(&s)
        return fx
    }
}
