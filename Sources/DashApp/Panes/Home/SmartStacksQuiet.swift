import Foundation
import DashHome

/// What Smart Stacks' last pass over every tile depended on besides the timelines and the time
/// (issue 25: an idle turn went over 10,000 tiles). A tick that changed nothing (no entry switched,
/// no load, no note expired: `step` returned no effect) before `until` gets the same answer from
/// the pass, so it is skipped: Smart Rotate changes its decisions only at `nextDecision` or on an
/// event (SmartRotate.decide), and attention only when an entry changes or a relevance window
/// ends.
struct SmartStacksQuiet {
    var focusedTile: String?
    var pane: Pane.Kind
    var page: Int
    var tooSmall: Bool
    /// The home's tiles as the pass saw them (a change of the tiles makes a new lookup; held, so
    /// its address is not reused by another).
    var tiles: HomeLookup
    var stackIndex: [String: Int]
    var until: Date?

    init(_ s: AppState) {
        focusedTile = s.focusedTile
        pane = s.pane.kind
        page = s.page
        tooSmall = s.layout.isTooSmall
        tiles = s.home.lookup
        stackIndex = s.stackIndex
        until = [s.smart.nextDecision, s.smart.nextAttentionChange].compactMap { $0 }.min()
    }

    /// The pass would answer as it did last time at `s.now`.
    static func holds(_ s: AppState) -> Bool {
        guard let q = s.smart.quiet else { return false }
        if let until = q.until, s.now >= until { return false }
        return q.tiles === s.home.lookup && q.focusedTile == s.focusedTile && q.pane == s.pane.kind && q.page == s.page
            && q.tooSmall == s.layout.isTooSmall && q.stackIndex == s.stackIndex
    }
}
