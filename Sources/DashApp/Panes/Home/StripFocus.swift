import Foundation
import DashCore
import DashHome
import DashRender
import DashActivities

/// The home screen's focus on the activity strip (issue 39.2), the terminal's Dynamic Island:
/// ↑ from the top row of tiles focuses it and it draws expanded; ← → pick among the activities it
/// shows (the one focused draws in the pill, the others as minimal marks); Enter opens the focused
/// one's detail pane (Panes/Activity); ↓ or Esc gives the focus back to the tile it came from. The
/// strip takes its own key layer (`.strip`), so the tiles' keys do not act on a tile the user is
/// not looking at.
extension HomeFocus {
    /// The strip's keys: a layer of the home screen while the strip has the focus.
    static let stripKeys = PaneKeys(
        .strip,
        [
            KeyRow(
                "← → h l / ↓ j", "on the activity strip: pick an activity / back to the tiles", group: "Move",
                rank: 25,
                [
                    (.left, .move(.left)), (.char("h"), .move(.left)), (.right, .move(.right)),
                    (.char("l"), .move(.right)), (.down, .move(.down)), (.char("j"), .move(.down)),
                ]),
            .activate,
            .close, .toggleHelp,
        ])

    /// No tile lies above the focused one on its page (or the page has no tile): ↑ goes to the strip.
    func isOnTopRow(in layout: HomeLayout) -> Bool {
        guard let t = focusedTile, layout.tile(t) != nil else { return layout.pages.allSatisfy(\.isEmpty) }
        var probe = self
        probe.move(.up, in: layout)
        return probe.focusedTile == focusedTile && probe.page == page
    }

    /// An action while the strip has the focus; nil: the home screen's own handling (the help, or
    /// the mouse, which gives the focus back to the tiles first).
    static func reduceOnStrip(_ f: inout HomeFocus, _ action: Action, _ context: PaneContext) -> [Output]? {
        let s = context.app
        let ids = s.activities.shownIDs(at: s.now)
        guard let current = f.stripActivity, let i = ids.firstIndex(of: current) else {
            f.stripActivity = nil
            return nil
        }
        switch action {
        case .move(.left), .move(.right):
            let step = action == .move(.left) ? -1 : 1
            f.stripActivity = ids[(i + step + ids.count) % ids.count]
        case .move(.down), .close:
            f.stripActivity = nil
        case .move(.up):
            break
        case .activate:
            return [.push(.activity(ActivityPane(id: current)))]
        case .mouse, .click:
            f.stripActivity = nil
            return nil
        default:
            return nil
        }
        return []
    }
}

extension ActivitiesState {
    /// The ids of the activities the strip shows at `now`, the most relevant first.
    func shownIDs(at now: Date) -> [String] { book.shown(at: now).map(\.id) }

    /// The strip as it draws: focused on `selected` (expanded, that activity in the pill and the
    /// others as marks, in their order), or as it shows by itself.
    func strip(at now: Date, selecting selected: String?) -> ActivityStripModel {
        guard let selected else { return strip(at: now) }
        var model = strip(at: now, focused: true)
        if let i = model.faces.firstIndex(where: { $0.id == selected }) {
            model.faces.insert(model.faces.remove(at: i), at: 0)
        }
        return model
    }
}

extension App {
    /// The activities changed or time moved on: a focus on an activity no longer shown moves to
    /// the most relevant one still shown, or back to the tiles when the strip went.
    static func settleStripFocus(_ s: inout AppState) {
        guard let current = s.focus.stripActivity else { return }
        let ids = s.activities.shownIDs(at: s.now)
        if ids.isEmpty || s.activities.stripRows == 0 {
            s.focus.stripActivity = nil
        } else if !ids.contains(current) {
            s.focus.stripActivity = ids.first
        }
    }
}
