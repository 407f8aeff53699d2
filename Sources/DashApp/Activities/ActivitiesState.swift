import Foundation
import DashCore
import DashRender
import DashActivities

/// What the home screen knows of the Live Activities (issue 39): the book as the state folder last
/// held it (the runtime watches the file and posts `Msg.activitiesChanged`), and what the strip
/// needs to draw and wake. The strip takes one row above the tiles only while activities are shown;
/// expanded (an alert), it lies over the tiles' first row for a moment, as the Dynamic Island does.
public struct ActivitiesState: Sendable, Equatable {
    public var book = ActivityBook()
    /// The newest alert already rung or shown (an alert is rung once, not at each reading).
    var alertSeen: Date?
    /// Rows reserved above the tiles: 1 while activities are shown, else 0.
    public private(set) var stripRows = 0
    /// What widget bundles' own views drew of the activities their kinds are (ActivityViewsState.swift).
    public var drawings = ActivityViewsState()

    public init() {}

    /// The strip as it shows at `now` (focused: expanded, as the home screen's focus on it draws it).
    public func strip(at now: Date, focused: Bool = false) -> ActivityStripModel {
        ActivityStripModel.at(now, book: book, focused: focused, views: drawings.views)
    }

    /// The detail of activity `id` at `now`: the model `ActivityDetailView.draw` takes (the entry
    /// point for the detail pane: Enter on the strip opens the most relevant one's).
    public func detail(at now: Date, id: String) -> ActivityDetailModel? {
        ActivityDetailModel.at(now, book: book, id: id, views: drawings.views)
    }

    /// When the strip changes without an event: a timer's next second, an alert's end, a stale
    /// date, a dismissal, the 8-hour end. Nil when nothing shows (the home screen stays idle).
    func nextChange(after now: Date) -> Date? {
        var dates = [book.nextChange(after: now)].compactMap { $0 }
        let strip = strip(at: now)
        if strip.ticks {
            dates.append(Date(timeIntervalSince1970: (now.timeIntervalSince1970 + 1).rounded(.down)))
        }
        for f in strip.faces {
            if let a = f.alert { dates.append(a.date.addingTimeInterval(ActivityFace.alertSeconds)) }
        }
        return dates.filter { $0 > now }.min()
    }

    /// Updates `stripRows` for `now`; true when it changed (the tiles must be laid out again).
    mutating func settleRows(at now: Date) -> Bool {
        let rows = book.shown(at: now).isEmpty ? 0 : 1
        defer { stripRows = rows }
        return rows != stripRows
    }
}

extension App {
    /// The state folder's activities changed (or were read at start).
    static func activitiesChanged(_ s: inout AppState, _ book: ActivityBook) -> [Effect] {
        guard book != s.activities.book else { return [] }
        s.activities.book = book
        var fx: [Effect] = [.redraw(full: false)]
        if s.activities.settleRows(at: s.now) { s.relayout() }
        settleStripFocus(&s)
        fx += askActivityViews(&s)
        // A new alert rings the bell once, when it asked for one and it is recent (not one read
        // again at a restart).
        let newest = book.activities.compactMap(\.alert).filter { a in
            s.activities.alertSeen.map { a.date > $0 } ?? true
        }.max { $0.date < $1.date }
        if let a = newest {
            s.activities.alertSeen = a.date
            if a.bell, s.now.timeIntervalSince(a.date) < ActivityFace.alertSeconds, s.environment.variables["SWIFTDASH_ACTIVITY_BELL"] != "0" {
                fx.append(.bell)
            }
        }
        return fx
    }

    /// Time moved on: the strip may have changed (a second of a timer, an alert over, a dismissal).
    static func activitiesTick(_ s: inout AppState, previous: Date) -> [Effect] {
        guard !s.activities.book.activities.isEmpty else { return [] }
        var fx: [Effect] = []
        if s.activities.settleRows(at: s.now) {
            s.relayout()
            fx.append(.redraw(full: false))
        }
        settleStripFocus(&s)
        if let next = s.activities.nextChange(after: previous), next <= s.now { fx.append(.redraw(full: false)) }
        return fx + askActivityViews(&s)
    }

    /// The strip drawn over the top of the home screen's frame (the row the layout left free).
    static func drawActivityStrip(_ s: AppState, into buffer: inout CellBuffer) {
        guard s.activities.stripRows > 0, !s.layout.isTooSmall else { return }
        let model = s.activities.strip(at: s.now, selecting: s.focus.stripActivity)
        ActivityStripView.draw(
            model, into: &buffer, rect: Rect(x: 0, y: 0, width: buffer.width, height: model.height), theme: s.theme)
    }
}

extension HomeLayout {
    /// The layout of a screen `rows` shorter, moved down by that much: the rows above are the
    /// activity strip's. Every rect moves, so drawing, clicks and focus all agree.
    func below(rows: Int, on screen: Size) -> HomeLayout {
        guard rows > 0 else { return self }
        var l = self
        l.screen = screen
        l.origin.y += rows
        for p in l.pages.indices {
            for i in l.pages[p].indices { l.pages[p][i].rect.y += rows }
        }
        return l
    }
}
