import Foundation
import DashHome

/// What Smart Stacks' last pass depended on besides the timelines and the time (issue 25: an idle
/// turn went over 10,000 tiles). While it holds and `until` has not come, a tick or a load result
/// changes the pass's answer only for the tiles whose timelines changed (`SmartStacksState.touched`),
/// so only they are looked at: Smart Rotate changes its decisions only at `nextDecision` or on an
/// event (SmartRotate.decide), and attention only when an entry changes or a relevance window
/// ends. Anything else (a key, a new home, a pushed timeline) makes a pass over every tile.
struct SmartStacksQuiet {
    var focusedTile: String?
    var pane: Pane.Kind
    var page: Int
    var tooSmall: Bool
    /// The home's tiles as the pass saw them (a change of the tiles makes a new lookup; held, so
    /// its address is not reused by another).
    var tiles: HomeLookup
    /// `AppState.stackIndexChanges` then (comparing the dictionary would go over every stack).
    var stackIndexChanges: Int
    var until: Date?

    init(_ s: AppState) {
        focusedTile = s.focusedTile
        pane = s.pane.kind
        page = s.page
        tooSmall = s.layout.isTooSmall
        tiles = s.home.lookup
        stackIndexChanges = s.stackIndexChanges
        until = [s.smart.nextDecision, s.smart.nextAttentionChange].compactMap { $0 }.min()
    }

    /// The pass would answer as it did last time at `s.now`.
    static func holds(_ s: AppState) -> Bool {
        guard let q = s.smart.quiet else { return false }
        if let until = q.until, s.now >= until { return false }
        return q.tiles === s.home.lookup && q.focusedTile == s.focusedTile && q.pane == s.pane.kind && q.page == s.page
            && q.tooSmall == s.layout.isTooSmall && q.stackIndexChanges == s.stackIndexChanges
    }
}
