import DashCore
import DashWidgets
import DashRender
import DashHome

/// The home screen as a component: its state is where the focus is (the page shown, the focused
/// tile, the link or button Tab highlighted in it); the tiles themselves, the stacks and the
/// scheduler are the app's, read through the context. It is what shows when no pane does (the
/// bottom of the stack).
public struct HomeFocus: Sendable, Equatable {
    public var page = 0
    public var focusedTile: String?
    /// Index of the link highlighted by Tab inside the focused tile.
    public var linkIndex: Int?
    /// The activity the strip's focus is on, when the focus is on the strip above the tiles
    /// (issue 39.2): ↑ from the top row focuses it, ↓ gives the focus back to `focusedTile`.
    public var stripActivity: String?
}

extension HomeFocus: PaneComponent {
    public enum Action: Sendable, Equatable {
        case move(Direction), page(Int), firstTile, walkLinks(Int), activate, rotate(Int)
        case reload, reloadAll, explain, help, problems, close
        /// e, a, m, d, u: the form, the gallery, arrange mode, remove, undo (`Editing`).
        case edit(EditCommand)
        /// A mouse event that hit no link (links come as `click`).
        case mouse(MouseEvent)
        /// A click on a tile's link.
        case click(tile: String, url: String)
    }

    static var keys: [PaneKeys] { HomeKeys.keys + [stripKeys] }

    static func action(for command: Command, in layer: Layer) -> Action? {
        switch command {
        case .move(let d): return .move(d)
        case .page(let delta): return .page(delta)
        case .firstTile: return .firstTile
        case .walkLinks(let delta): return .walkLinks(delta)
        case .activate: return .activate
        case .rotate(let delta): return .rotate(delta)
        case .reload: return .reload
        case .reloadAll: return .reloadAll
        case .explain: return .explain
        case .toggleHelp: return .help
        case .listProblems: return .problems
        case .close: return .close
        case .edit(let c): return .edit(c)
        default: return nil
        }
    }

    static func reduce(into f: inout HomeFocus, _ action: Action, _ context: PaneContext) -> [Output] {
        let s = context.app
        if f.stripActivity != nil, let out = reduceOnStrip(&f, action, context) { return out }
        switch action {
        case .move(.up) where f.isOnTopRow(in: context.layout) && !s.activities.shownIDs(at: s.now).isEmpty:
            f.linkIndex = nil
            f.stripActivity = s.activities.shownIDs(at: s.now).first
        case .move(let d): f.move(d, in: context.layout)
        case .page(let delta): f.turnPage(by: delta, in: context.layout)
        case .firstTile: f.focusFirst(page: f.page, in: context.layout)
        case .walkLinks(let delta):
            guard let t = f.focusedTile else { break }
            f.linkIndex = App.step(f.linkIndex, by: delta, count: s.targets(ofTile: t).count)
        case .activate:
            guard let t = f.focusedTile else { break }
            if let c = s.highlightedControl { return [.press(tile: t, control: c)] }
            return tap(s, tile: t, highlighted: s.highlightedLink)
        case .rotate(let delta):
            // On a tile that is not a stack, say why nothing happened, as other keys with
            // nothing to do do (the mouse wheel stays quiet).
            guard let t = f.focusedTile, let tile = s.tile(t) else { break }
            guard tile.items.count > 1 else { return [.say("not a stack: < and > rotate stacks")] }
            f.linkIndex = nil
            return [.rotate(tile: t, by: delta)]
        case .reload:
            guard let t = f.focusedTile, let inst = s.shownInstance(t) else { break }
            return [.widgetCenter(.reloadInstance(inst.id))]
        case .reloadAll:
            return [.widgetCenter(.reloadAllTimelines)]
        case .explain:
            return f.focusedTile.map { [.explain(tile: $0)] } ?? []
        case .help:
            return [.push(.help(HelpPane()))]
        case .problems:
            return App.openProblems(s)
        case .close:
            f.linkIndex = nil
        case .edit(let c):
            return [.editCommand(c, in: .home)]
        case .mouse(let m):
            let page = context.layout.pages.indices.contains(f.page) ? context.layout.pages[f.page] : []
            guard let hit = page.first(where: { $0.rect.contains(m.point) }) else { break }
            switch m.kind {
            case .wheelUp, .wheelDown:
                f.focusedTile = hit.id
                guard let tile = s.tile(hit.id), tile.items.count > 1 else { break }
                f.linkIndex = nil
                return [.rotate(tile: hit.id, by: m.kind == .wheelDown ? 1 : -1)]
            case .press:
                f.focusedTile = hit.id
                f.linkIndex = nil
                return tap(s, tile: hit.id, highlighted: nil)
            case .release:
                break
            }
        case .click(let tile, let url):
            f.focusedTile = tile
            f.linkIndex = nil
            return [.open(url: url, fromTile: tile)]
        }
        return []
    }

    /// Enter on a tile: the highlighted link, else the tile's `widgetURL`, else the widget's own
    /// detail pane.
    static func tap(_ s: AppState, tile t: String, highlighted: String?) -> [Output] {
        guard let inst = s.shownInstance(t) else { return [] }
        return [.open(url: highlighted ?? s.tileWidgetURL(t) ?? DeepLink.make(kind: inst.kind), fromTile: t)]
    }
}

// MARK: - Moving the focus

extension HomeFocus {
    /// Focus the nearest tile in a direction, by geometry: the candidate must lie that way,
    /// and distance along the direction counts less than sideways offset. At the edge of a
    /// page, left and right continue onto the neighbouring page.
    mutating func move(_ d: Direction, in layout: HomeLayout) {
        linkIndex = nil
        guard let fid = focusedTile, let cur = layout.tile(fid) else {
            focusFirst(page: page, in: layout)
            return
        }
        let here = cur.rect
        let candidates = layout.pages[cur.page].filter { $0.id != fid }
        func score(_ r: Rect) -> Int? {
            let (dx, dy): (Int, Int)
            switch d {
            case .right:
                guard r.x >= here.maxX else { return nil }
                dx = r.x - here.maxX
                dy = Self.overlapGap(here.y, here.maxY, r.y, r.maxY)
            case .left:
                guard r.maxX <= here.x else { return nil }
                dx = here.x - r.maxX
                dy = Self.overlapGap(here.y, here.maxY, r.y, r.maxY)
            case .down:
                guard r.y >= here.maxY else { return nil }
                dy = r.y - here.maxY
                dx = Self.overlapGap(here.x, here.maxX, r.x, r.maxX)
            case .up:
                guard r.maxY <= here.y else { return nil }
                dy = here.y - r.maxY
                dx = Self.overlapGap(here.x, here.maxX, r.x, r.maxX)
            }
            let horizontal = d == .left || d == .right
            let along = horizontal ? dx : dy
            let side = horizontal ? dy : dx
            // Prefer tiles that overlap sideways; among them the closest; ties go top-left.
            return along * 2 + side * 8 + (horizontal ? abs(r.y - here.y) : abs(r.x - here.x))
        }
        let best = candidates.compactMap { t in score(t.rect).map { (t, $0) } }.min { $0.1 < $1.1 }
        if let best {
            focusedTile = best.0.id
            return
        }
        if d == .right && cur.page + 1 < layout.pageCount {
            page = cur.page + 1
            focusNearest(toY: here.y, fromLeft: true, in: layout)
        }
        if d == .left && cur.page > 0 {
            page = cur.page - 1
            focusNearest(toY: here.y, fromLeft: false, in: layout)
        }
    }

    /// Distance between two intervals (0 when they overlap).
    static func overlapGap(_ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int) -> Int {
        if b1 <= a0 { return a0 - b1 + 1 }
        if b0 >= a1 { return b0 - a1 + 1 }
        return 0
    }

    mutating func focusNearest(toY y: Int, fromLeft: Bool, in layout: HomeLayout) {
        let tiles = layout.pages[page]
        let pick = tiles.min { a, b in
            let ka = (abs(a.rect.y - y), fromLeft ? a.rect.x : -a.rect.maxX)
            let kb = (abs(b.rect.y - y), fromLeft ? b.rect.x : -b.rect.maxX)
            return ka < kb
        }
        focusedTile = pick?.id
    }

    mutating func focusFirst(page p: Int, in layout: HomeLayout) {
        guard layout.pages.indices.contains(p) else { return }
        focusedTile = layout.pages[p].first?.id
        linkIndex = nil
    }

    mutating func turnPage(by delta: Int, in layout: HomeLayout) {
        let p = min(max(0, page + delta), layout.pageCount - 1)
        guard p != page else { return }
        page = p
        focusFirst(page: p, in: layout)
    }
}

extension App {
    /// Moves the focus as the arrows do on the home screen (arrange mode's arrows, unlifted).
    public static func move(_ s: inout AppState, _ d: Direction) { s.focus.move(d, in: s.layout) }

    static func turnPage(_ s: inout AppState, by delta: Int) { s.focus.turnPage(by: delta, in: s.layout) }

    /// Cycle: none → first … last → none.
    static func step(_ index: Int?, by delta: Int, count n: Int) -> Int? {
        guard n > 0 else { return nil }
        let i = index.map { $0 + delta } ?? (delta > 0 ? 0 : n - 1)
        return (i < 0 || i >= n) ? nil : i
    }

    /// A stack shows its next or previous item, by hand (Smart Rotate notes it).
    static func rotate(_ s: inout AppState, tile f: String, by delta: Int) {
        guard let t = s.tile(f), t.items.count > 1 else { return }
        let i = ((s.stackIndex[f] ?? 0) + delta + t.items.count) % t.items.count
        s.stackIndex[f] = i
        noteManualRotation(&s, tile: f)
    }
}
