import Foundation
import DashCore
import DashWidgets
import DashScheduler

/// Asking tmux to redraw its status line when what `swiftdash snapshot --line` prints changed
/// (decision 51), so `status-interval` can stay long. A step that redrew, other than input (a key,
/// the mouse, a resize: they change no value, and a flood of keys must stay cheap), is looked at:
/// when any tile's shown instance, kind, summary or state (ok, stale, failed, waiting) differs from the
/// last time, `Effect.refreshTmuxStatus` is returned, at most once a second (a change within the
/// second is sent when it is over: `nextDeadline` wakes the loop for it).
public struct TmuxRefreshState: Sendable, Equatable {
    /// Inside tmux ($TMUX, read by the runtime at start) and not turned off (`--no-tmux-refresh`).
    public var enabled = false
    /// What the line showed when tmux was last told (a hash of every tile's fields); nil: not yet.
    var shown: Int?
    /// A change tmux has not been told of yet.
    var pending = false
    /// A step redrew since the line's values were last looked at.
    var unlooked = false
    var lastRefresh: Date?
    /// When the values were last compared with what tmux shows (not the first look, which only
    /// records them).
    var lastLook: Date?

    /// The fewest seconds between two refreshes.
    public static let interval: TimeInterval = 1

    public init(enabled: Bool = false) { self.enabled = enabled }

    /// When a refresh may be sent again, or the values looked at, if a change may wait for it
    /// (nil: none waits).
    var nextRefresh: Date? {
        guard enabled else { return nil }
        let send = pending ? lastRefresh : nil
        let look = unlooked ? [lastRefresh, lastLook].compactMap { $0 }.max() : nil
        return [send, look].compactMap { $0 }.min().map { $0.addingTimeInterval(Self.interval) }
    }

    /// Whether a second has passed since `date` (or there was none).
    func over(_ date: Date?, at now: Date) -> Bool {
        date.map { now >= $0.addingTimeInterval(Self.interval) } ?? true
    }
}

extension App {
    /// After a step: the refresh effect when the line's values changed and the last refresh is a
    /// second old (`fx`: the step's effects; only a step that redrew can have changed a value).
    /// The values (a pass over every tile) are looked at once a second at most, and only when a
    /// refresh could be sent: redraws in between are only noted, and looked at once when the
    /// second is over (issue 25: 1,000 tiles' loads redraw many times a second, most of them
    /// changing nothing the line shows).
    static func tmuxRefresh(_ s: inout AppState, after fx: [Effect]) -> [Effect] {
        guard s.tmuxRefresh.enabled else { return [] }
        if fx.contains(where: { if case .redraw = $0 { true } else { false } }) { s.tmuxRefresh.unlooked = true }
        let r = s.tmuxRefresh
        guard r.over(r.lastRefresh, at: s.now) else { return [] }
        if r.unlooked, r.over(r.lastLook, at: s.now) {
            s.tmuxRefresh.unlooked = false
            let now = lineSignature(s)
            // The first look only records what shows (tmux's line already ran a snapshot).
            if r.shown != nil { s.tmuxRefresh.lastLook = s.now }
            if now != r.shown {
                if r.shown != nil { s.tmuxRefresh.pending = true }
                s.tmuxRefresh.shown = now
            }
        }
        guard s.tmuxRefresh.pending else { return [] }
        s.tmuxRefresh.pending = false
        s.tmuxRefresh.lastRefresh = s.now
        return [.refreshTmuxStatus]
    }

    /// What `snapshot --line` can show of every tile, as one hash.
    static func lineSignature(_ s: AppState) -> Int {
        var h = Hasher()
        for t in s.home.tiles {
            guard let inst = s.shownInstance(t.id) else { continue }
            let entry = s.entry(ofInstance: inst.id)
            h.combine(t.id)
            h.combine(inst.id)
            h.combine(inst.kind)
            h.combine(entry?.summary ?? "")
            h.combine(entry == nil ? s.scheduler.lastError(inst.id) != nil : s.scheduler.isStale(inst.id))
            h.combine(entry == nil)
        }
        return h.finalize()
    }
}
