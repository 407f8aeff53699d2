import Foundation
import DashCore
import DashWidgets
import DashScheduler

/// What a tmux status line showed of the home screen, as `snapshot --line --tmux` asked for it:
/// the tiles (or instances) and kinds it chose, nil for all.
public struct TmuxLineWatch: Sendable, Equatable {
    public var tiles: [String]?
    public var kinds: [String]?
    public init(tiles: [String]? = nil, kinds: [String]? = nil) {
        self.tiles = tiles
        self.kinds = kinds
    }

    /// The control line `snapshot --line --tmux` sends: `snapshot tmux TILES KINDS`, `-` for all.
    public var controlLine: String {
        func list(_ l: [String]?) -> String { l.map { $0.isEmpty ? "-" : $0.joined(separator: ",") } ?? "-" }
        return "snapshot tmux \(list(tiles)) \(list(kinds))"
    }

    /// The watch a control line asks for (nil: a plain `snapshot`, or not one of these).
    public static func parse(_ line: String) -> TmuxLineWatch? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.count == 4, words[0] == "snapshot", words[1] == "tmux" else { return nil }
        func list(_ w: String) -> [String]? {
            w == "-" ? nil : Array(w.split(separator: ",").map(String.init).prefix(most))
        }
        return TmuxLineWatch(tiles: list(words[2]), kinds: list(words[3]))
    }

    /// How many tiles or kinds a watch keeps (a control line is at most 512 bytes anyway).
    static let most = 256
}

/// Asking tmux to redraw its status line when what `swiftdash snapshot --line` prints changed
/// (decision 51), so `status-interval` can stay long. Only a line that asked counts (issue 35.1):
/// `snapshot --line --tmux` tells the running home screen which tiles and kinds it shows. After a
/// refresh, the next one waits for the line to run again: tmux runs it only for an attached client
/// that shows it, so a refresh that reached no client (a detached session: `refresh-client` fails)
/// or no line of swiftdash's is sent once, never turn after turn.
/// A step that redrew, other than input (a key, the mouse, a resize: they change no value, and a
/// flood of keys must stay cheap), is looked at: when a shown tile's instance, kind, summary or
/// state (ok, stale, failed, waiting) differs from what the line last showed,
/// `Effect.refreshTmuxStatus` is returned, at most once a second (a change within the second is
/// sent when it is over: `nextDeadline` wakes the loop for it).
public struct TmuxRefreshState: Sendable, Equatable {
    /// Inside tmux ($TMUX, read by the runtime at start) and not turned off (`--no-tmux-refresh`).
    public var enabled = false
    /// What the status line asked for when it last ran; nil: no line shows swiftdash.
    public var watch: TmuxLineWatch?
    /// The line may have run since the last refresh, so a refresh now would be answered. True at
    /// start: one refresh finds out whether a line shows swiftdash (a line that runs then says so).
    var armed = true
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
        guard enabled, armed else { return nil }
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
        guard s.tmuxRefresh.enabled, s.tmuxRefresh.armed else { return [] }
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
        s.tmuxRefresh.armed = false
        s.tmuxRefresh.lastRefresh = s.now
        return [.refreshTmuxStatus]
    }

    /// The status line ran `snapshot --line --tmux` (a client is attached and shows it): what it
    /// shows is recorded, and the next change of it refreshes the line.
    static func tmuxLineAsked(_ s: inout AppState, _ watch: TmuxLineWatch) {
        s.tmuxRefresh.watch = watch
        s.tmuxRefresh.armed = true
        s.tmuxRefresh.pending = false
        s.tmuxRefresh.unlooked = false
        s.tmuxRefresh.shown = lineSignature(s)
    }

    /// What the status line shows (its tiles and kinds; every tile before any line asked), as one hash.
    static func lineSignature(_ s: AppState) -> Int {
        var h = Hasher()
        let watch = s.tmuxRefresh.watch
        for t in s.home.tiles {
            guard let inst = s.shownInstance(t.id) else { continue }
            if let ids = watch?.tiles, !ids.contains(t.id), !ids.contains(inst.id) { continue }
            if let kinds = watch?.kinds, !kinds.contains(inst.kind) { continue }
            let entry = s.entry(ofInstance: inst.id)
            h.combine(t.id)
            h.combine(inst.id)
            h.combine(inst.kind)
            h.combine(entry?.summary ?? "")
            h.combine(entry == nil ? s.scheduler.lastError(inst.id) != nil : s.scheduler.isStale(inst.id))
            h.combine(entry == nil)
        }
        // The activity the line shows first: what it is and how far, not its ticking clock.
        if let f = s.activities.strip(at: s.now).faces.first {
            h.combine(f.id)
            h.combine(f.compactLeading)
            h.combine(f.progressLabel)
            h.combine(f.tone.rawValue)
            // A bundle's compact trailing view (decision 68), unless it is a counting timer.
            if let views = f.views, views.timers["compactTrailing"] == nil { h.combine(f.compactTrailing) }
        }
        return h.finalize()
    }
}
