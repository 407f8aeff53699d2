import Foundation
import DashCore
import DashWidgets
import DashRender

/// Everything that can happen to the app.
public enum Msg: Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(Size)
    /// The clock moved on (a deadline came).
    case tick(Date)
    /// `swiftdash reload [KIND]` from another process.
    case reloadRequest(kind: String?)
    /// Where the last frame drew each tile's links, for mouse clicks.
    case framed(tapRegions: [String: [TapRegion]])
}

/// Side effects `update` asks the runtime to perform.
public enum Effect: Sendable, Equatable {
    /// Reload these instances now (a manual reload: not charged to the budget).
    case reload(instanceIDs: [String])
    /// Reload every instance of a kind (nil: all), through WidgetCenter.
    case reloadKind(String?)
    case openExternal(String)
    /// Clear and redraw the whole terminal (Ctrl-L).
    case redrawAll
    case quit
}

public enum Direction: Sendable { case left, right, up, down }

public enum App {
    /// The pure step: a message changes the state and may ask for effects.
    public static func update(_ s: inout AppState, _ msg: Msg) -> [Effect] {
        switch msg {
        case .tick(let now):
            s.now = now
            return []
        case .resize(let size):
            s.screen = size
            s.relayout()
            return []
        case .reloadRequest(let kind):
            s.message = kind.map { "reloading \($0)" } ?? "reloading all"
            return [.reloadKind(kind)]
        case .framed(let regions):
            s.tapRegions = regions
            return []
        case .mouse(let m):
            return mouse(&s, m)
        case .key(let k):
            return key(&s, k)
        }
    }

    static func key(_ s: inout AppState, _ k: Key) -> [Effect] {
        s.message = nil
        // Keys that work everywhere.
        switch k {
        case .char("q"), .ctrl("c"): s.quitting = true; return [.quit]
        case .ctrl("l"): return [.redrawAll]
        case .char("t"):
            swap(&s.theme, &s.alternateTheme)
            return []
        default: break
        }
        // A pane takes the keys first.
        switch s.pane {
        case .help:
            if k == .escape || k == .char("?") || k == .enter { s.pane = .none }
            return []
        case .external(_, let link):
            if k == .escape || k == .backspace { s.pane = .none }
            if k == .char("o") { s.message = "opening \(link.url)"; return [.openExternal(link.url)] }
            return []
        case .detail(let tileID, _, _):
            switch k {
            case .escape, .backspace:
                s.pane = .none; s.focusedTile = tileID
            case .tab, .backTab:
                let n = s.paneLinks.count
                guard n > 0 else { return [] }
                let d = k == .tab ? 1 : -1
                let i = s.paneLinkIndex.map { $0 + d } ?? (d > 0 ? 0 : n - 1)
                s.paneLinkIndex = (i < 0 || i >= n) ? nil : i
            case .enter:
                if let url = s.highlightedPaneLink { return open(&s, url: url, fromTile: tileID) }
            case .char("o"):
                // The highlighted web link, else the pane's first one.
                let links = s.paneLinks
                let web = s.highlightedPaneLink(in: links).flatMap { DeepLink($0)?.isExternal == true ? $0 : nil }
                    ?? links.first { DeepLink($0)?.isExternal == true }
                guard let url = web else { s.message = "no web link here"; return [] }
                s.message = "opening \(url)"
                return [.openExternal(url)]
            case .char("r"):
                if let inst = s.shownInstance(tileID) {
                    s.message = "reloading \(inst.kind)"
                    return [.reload(instanceIDs: [inst.id])]
                }
            case .char("?"):
                s.pane = .help
            default: break
            }
            return []
        case .none:
            break
        }
        if s.layout.isTooSmall { return [] }
        switch k {
        case .left, .char("h"): move(&s, .left)
        case .right, .char("l"): move(&s, .right)
        case .up, .char("k"): move(&s, .up)
        case .down, .char("j"): move(&s, .down)
        case .pageDown, .char("]"): turnPage(&s, by: 1)
        case .pageUp, .char("["): turnPage(&s, by: -1)
        case .home, .char("g"): focusFirst(&s, page: s.page)
        case .tab: walkLinks(&s, by: 1)
        case .backTab: walkLinks(&s, by: -1)
        case .enter, .char(" "): return tap(&s)
        case .char("?"): s.pane = .help
        case .char(">"): rotate(&s, by: 1)
        case .char("<"): rotate(&s, by: -1)
        case .escape: s.linkIndex = nil
        case .char("r"):
            guard let f = s.focusedTile, let inst = s.shownInstance(f) else { return [] }
            s.message = "reloading \(inst.kind)"
            return [.reload(instanceIDs: [inst.id])]
        case .char("R"):
            s.message = "reloading all"
            return [.reloadKind(nil)]
        default: break
        }
        return []
    }

    /// Focus the nearest tile in a direction, by geometry: the candidate must lie that way,
    /// and distance along the direction counts less than sideways offset. At the edge of a
    /// page, left and right continue onto the neighbouring page.
    public static func move(_ s: inout AppState, _ d: Direction) {
        s.linkIndex = nil
        guard let fid = s.focusedTile, let cur = s.layout.tile(fid) else { focusFirst(&s, page: s.page); return }
        let here = cur.rect
        let candidates = s.layout.pages[cur.page].filter { $0.id != fid }
        func score(_ r: Rect) -> Int? {
            let (dx, dy): (Int, Int)
            switch d {
            case .right: guard r.x >= here.maxX else { return nil }; dx = r.x - here.maxX; dy = overlapGap(here.y, here.maxY, r.y, r.maxY)
            case .left: guard r.maxX <= here.x else { return nil }; dx = here.x - r.maxX; dy = overlapGap(here.y, here.maxY, r.y, r.maxY)
            case .down: guard r.y >= here.maxY else { return nil }; dy = r.y - here.maxY; dx = overlapGap(here.x, here.maxX, r.x, r.maxX)
            case .up: guard r.maxY <= here.y else { return nil }; dy = here.y - r.maxY; dx = overlapGap(here.x, here.maxX, r.x, r.maxX)
            }
            let along = (d == .left || d == .right) ? dx : dy
            let side = (d == .left || d == .right) ? dy : dx
            // Prefer tiles that overlap sideways; among them the closest; ties go top-left.
            return along * 2 + side * 8 + (d == .left || d == .right ? abs(r.y - here.y) : abs(r.x - here.x))
        }
        let best = candidates.compactMap { t in score(t.rect).map { (t, $0) } }.min { $0.1 < $1.1 }
        if let best { s.focusedTile = best.0.id; return }
        if d == .right && cur.page + 1 < s.layout.pageCount { s.page = cur.page + 1; focusNearest(&s, toY: here.y, fromLeft: true) }
        if d == .left && cur.page > 0 { s.page = cur.page - 1; focusNearest(&s, toY: here.y, fromLeft: false) }
    }

    /// Distance between two intervals (0 when they overlap).
    static func overlapGap(_ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int) -> Int {
        if b1 <= a0 { return a0 - b1 + 1 }
        if b0 >= a1 { return b0 - a1 + 1 }
        return 0
    }

    static func focusNearest(_ s: inout AppState, toY y: Int, fromLeft: Bool) {
        let tiles = s.layout.pages[s.page]
        let pick = tiles.min { a, b in
            let ka = (abs(a.rect.y - y), fromLeft ? a.rect.x : -a.rect.maxX)
            let kb = (abs(b.rect.y - y), fromLeft ? b.rect.x : -b.rect.maxX)
            return ka < kb
        }
        s.focusedTile = pick?.id
    }

    static func focusFirst(_ s: inout AppState, page: Int) {
        guard s.layout.pages.indices.contains(page) else { return }
        s.focusedTile = s.layout.pages[page].first?.id
        s.linkIndex = nil
    }

    static func turnPage(_ s: inout AppState, by delta: Int) {
        let p = min(max(0, s.page + delta), s.layout.pageCount - 1)
        guard p != s.page else { return }
        s.page = p
        focusFirst(&s, page: p)
    }

    static func walkLinks(_ s: inout AppState, by delta: Int) {
        guard let f = s.focusedTile else { return }
        let n = s.links(ofTile: f).count
        guard n > 0 else { s.linkIndex = nil; return }
        // Cycle: none → first … last → none.
        let i = s.linkIndex.map { $0 + delta } ?? (delta > 0 ? 0 : n - 1)
        s.linkIndex = (i < 0 || i >= n) ? nil : i
    }

    static func rotate(_ s: inout AppState, by delta: Int) {
        guard let f = s.focusedTile, let t = s.tile(f), t.items.count > 1 else { return }
        let i = ((s.stackIndex[f] ?? 0) + delta + t.items.count) % t.items.count
        s.stackIndex[f] = i
        s.linkIndex = nil
    }

    /// Enter on the focused tile: the highlighted link, else the tile's `widgetURL`, else
    /// the widget's own detail pane.
    static func tap(_ s: inout AppState) -> [Effect] {
        guard let f = s.focusedTile, let inst = s.shownInstance(f) else { return [] }
        let url = s.highlightedLink ?? s.tileWidgetURL(f) ?? DeepLink.make(kind: inst.kind)
        return open(&s, url: url, fromTile: f)
    }

    static func open(_ s: inout AppState, url: String, fromTile f: String) -> [Effect] {
        guard let link = DeepLink(url) else {
            s.message = "cannot open \(TextSanitizer.singleLine(url))"
            return []
        }
        if link.isExternal {
            s.pane = .external(tileID: f, link: link)
            return []
        }
        // The tile's own instance handles its links; a link to another kind goes to that kind's first instance.
        let own = s.shownInstance(f)
        let target = own?.kind == link.kind ? own : s.home.allInstances.first { $0.kind == link.kind }
        guard let target else {
            s.message = "no \(link.kind ?? "") widget for \(link.url)"
            return []
        }
        s.pane = .detail(tileID: f, instanceID: target.id, link: link)
        return []
    }

    static func mouse(_ s: inout AppState, _ m: MouseEvent) -> [Effect] {
        guard !s.layout.isTooSmall else { return [] }
        if s.pane != .none {
            if m.kind == .press, case .help = s.pane { s.pane = .none }
            return []
        }
        let page = s.layout.pages.indices.contains(s.page) ? s.layout.pages[s.page] : []
        guard let hit = page.first(where: { $0.rect.contains(m.point) }) else { return [] }
        switch m.kind {
        case .wheelUp, .wheelDown:
            s.focusedTile = hit.id
            rotate(&s, by: m.kind == .wheelDown ? 1 : -1)
            return []
        case .press:
            s.focusedTile = hit.id
            s.linkIndex = nil
            if let region = s.tapRegions[hit.id]?.first(where: { $0.rect.contains(m.point) }) {
                return open(&s, url: region.url, fromTile: hit.id)
            }
            return tap(&s)
        case .release:
            return []
        }
    }
}
