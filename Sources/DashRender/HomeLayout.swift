import Foundation
import DashCore
import DashWidgets

/// The home screen grid: units of 10 columns x 4 rows (a 1-cell gutter included), so a
/// small tile (2x2 units) is 19x7 cells, a medium 39x7, a large 39x15, an extraLarge 79x15.
public struct GridMetrics: Sendable, Hashable {
    public static let unitWidth = 10
    public static let unitHeight = 4
    public static let statusBarHeight = 1

    /// The grid unit at 80x24, in the gallery, the form and previews: 10x4 cells.
    public static let baseUnit = Size(width: unitWidth, height: unitHeight)

    /// Cells taken by a tile of `family` (without the trailing gutter), on a grid whose unit
    /// is `unit` (the home screen's grows with the terminal: decision 45).
    public static func tileSize(_ family: WidgetFamily, unit: Size = baseUnit) -> Size {
        let g = family.gridSize
        return Size(width: g.columns * unit.width - 1, height: g.rows * unit.height - 1)
    }

    /// The smallest screen that shows a small tile and the status bar.
    public static var minimumScreen: Size {
        let s = tileSize(.small)
        return Size(width: s.width, height: s.height + statusBarHeight)
    }
}

/// A tile to lay out: an id the caller knows it by, and its family.
public struct TileSlot: Hashable, Sendable {
    public var id: String
    public var family: WidgetFamily
    /// The families the widget can fall back to when the screen is too narrow.
    public var fallbacks: [WidgetFamily]
    public init(id: String, family: WidgetFamily, fallbacks: [WidgetFamily] = []) {
        self.id = id
        self.family = family
        self.fallbacks = fallbacks
    }
}

public struct PlacedTile: Hashable, Sendable {
    public var id: String
    /// The family actually drawn (smaller than asked for when the screen is narrow).
    public var family: WidgetFamily
    public var rect: Rect
    public var page: Int
}

/// Where every tile goes, on which page.
public struct HomeLayout: Sendable, Equatable {
    public var screen: Size
    public var columns: Int
    public var rows: Int
    public var origin: Point
    /// The cells of one grid unit: 10x4 at 80x24, more on a screen the tiles would leave
    /// mostly empty (decision 45).
    public var unit: Size = GridMetrics.baseUnit
    public var pages: [[PlacedTile]]
    /// Tiles that fit no family on this screen.
    public var hidden: [String]

    public var isTooSmall: Bool { columns < 2 || rows < 2 }
    public var pageCount: Int { max(1, pages.count) }

    /// Where each tile id sits in `pages` (page, position), so that `tile(_:)` is one
    /// lookup: callers ask it for every tile, and a scan made that quadratic (50,000 tiles
    /// took 15 s to render).
    private var positions: [String: Position] = [:]
    struct Position: Hashable, Sendable {
        var page: Int
        var index: Int
    }

    public func tile(_ id: String) -> PlacedTile? {
        if let p = positions[id], pages.indices.contains(p.page), pages[p.page].indices.contains(p.index),
            pages[p.page][p.index].id == id
        {
            return pages[p.page][p.index]
        }
        // `pages` was changed from outside since `compute`: look the slow way.
        for p in pages { if let t = p.first(where: { $0.id == id }) { return t } }
        return nil
    }

    /// Flows tiles into pages like the iOS home screen: in order, each into the first free
    /// spot scanning rows top-left; a tile that fits nowhere on the current page starts the
    /// next one. The grid is centred and takes as many unit columns as the screen holds (an
    /// even number), except when every tile fits on one page with room to spare: then the
    /// tiles grow with the screen (decision 45, amending 38). Each even number of columns
    /// from 8 (the 80-column grid, which also holds an extraLarge tile) is tried: the tiles
    /// flow on it, then the unit grows one cell at a time, as wide as the screen allows for
    /// those columns and as tall as it allows for the rows they use, never leaving the
    /// proportions of the 10x4 unit by more than a fifth; the arrangement whose tiles cover
    /// the most cells wins (ties go to fewer columns: bigger tiles). A screen that holds
    /// no bigger unit (80x24) keeps the 10x4 grid exactly.
    public static func compute(_ slots: [TileSlot], screen: Size) -> HomeLayout {
        var columns = (screen.width + 1) / GridMetrics.unitWidth
        if columns % 2 == 1 { columns -= 1 }
        let widest = flow(slots, screen: screen, columns: columns)
        let narrowest = min(columns, balancedMinimumColumns)
        guard widest.pages.count == 1, !widest.isTooSmall, !slots.isEmpty else { return widest }
        var best = widest
        var bestCover = -1
        for c in stride(from: narrowest, through: columns, by: 2) {
            let base = c == columns ? widest : flow(slots, screen: screen, columns: c)
            guard base.pages.count == 1, base.hidden.count == widest.hidden.count else { continue }
            var l = base
            let unit = grownUnit(columns: c, rows: base.usedUnits.rows, screen: screen)
            if unit != GridMetrics.baseUnit {
                let grown = flow(slots, screen: screen, columns: c, unit: unit)
                if grown.pages.count == 1, grown.hidden.count == widest.hidden.count { l = grown }
            }
            let cover = l.coveredCells
            if cover > bestCover {
                best = l
                bestCover = cover
            }
        }
        return best
    }

    /// The biggest unit that puts `columns` x `rows` units on `screen` (with the status bar),
    /// at least 10x4, and within a fifth of its proportions (2.5 cells wide per cell tall).
    static func grownUnit(columns: Int, rows: Int, screen: Size) -> Size {
        guard columns > 0, rows > 0 else { return GridMetrics.baseUnit }
        var w = (screen.width + 1) / columns
        var h = (screen.height - GridMetrics.statusBarHeight + 1) / rows
        // Only a screen wider than the 10-cell unit allows grows it: on 80 columns a home of a
        // few tiles keeps the 80x24 grid rather than taller tiles.
        guard w > GridMetrics.unitWidth, h >= GridMetrics.unitHeight else { return GridMetrics.baseUnit }
        // 2.5 x 0.8 = 2, 2.5 x 1.2 = 3: keep 2h <= w <= 3h.
        w = min(w, 3 * h)
        h = min(h, w / 2)
        return Size(width: max(GridMetrics.unitWidth, w), height: max(GridMetrics.unitHeight, h))
    }

    /// Cells the tiles of the first page cover.
    var coveredCells: Int { (pages.first ?? []).reduce(0) { $0 + $1.rect.width * $1.rect.height } }

    /// The fewest columns a balanced layout takes: the 80-column grid, which also holds an
    /// extraLarge tile.
    static let balancedMinimumColumns = 8

    /// The units the first page's tiles cover, from the grid's top-left corner.
    var usedUnits: (columns: Int, rows: Int) {
        guard let page = pages.first, !page.isEmpty else { return (0, 0) }
        let right = page.map { $0.rect.maxX }.max()! - origin.x
        let bottom = page.map { $0.rect.maxY }.max()! - origin.y
        return ((right + 1) / unit.width, (bottom + 1) / unit.height)
    }

    /// The flow on a grid of `columns` unit columns, centred on the screen.
    static func flow(
        _ slots: [TileSlot], screen: Size, columns: Int, unit: Size = GridMetrics.baseUnit
    ) -> HomeLayout {
        let rows = (screen.height - GridMetrics.statusBarHeight + 1) / unit.height
        let usedWidth = max(0, columns * unit.width - 1)
        let usedHeight = max(0, rows * unit.height - 1)
        let origin = Point(
            x: max(0, (screen.width - usedWidth) / 2),
            y: max(0, (screen.height - GridMetrics.statusBarHeight - usedHeight) / 2))
        var layout = HomeLayout(
            screen: screen, columns: max(0, columns), rows: max(0, rows), origin: origin, unit: unit, pages: [],
            hidden: [])
        guard !layout.isTooSmall else {
            layout.hidden = slots.map(\.id)
            return layout
        }

        var occupied: [[Bool]] = []
        func newPage() {
            occupied = Array(repeating: Array(repeating: false, count: columns), count: rows)
            layout.pages.append([])
        }
        func spot(_ f: WidgetFamily) -> (Int, Int)? {
            let (w, h) = f.gridSize
            guard w <= columns, h <= rows else { return nil }
            for r in 0...(rows - h) {
                for c in stride(from: 0, through: columns - w, by: 1) {
                    var free = true
                    outer: for rr in r..<(r + h) {
                        for cc in c..<(c + w) where occupied[rr][cc] {
                            free = false
                            break outer
                        }
                    }
                    if free { return (c, r) }
                }
            }
            return nil
        }
        newPage()
        for slot in slots {
            let candidates = ([slot.family] + slot.fallbacks.sorted(by: >).filter { $0 < slot.family })
            guard let family = candidates.first(where: { $0.gridSize.columns <= columns && $0.gridSize.rows <= rows })
            else {
                layout.hidden.append(slot.id)
                continue
            }
            var place = spot(family)
            if place == nil {
                newPage()
                place = spot(family)
            }
            guard let (c, r) = place else {
                layout.hidden.append(slot.id)
                continue
            }
            let (w, h) = family.gridSize
            for rr in r..<(r + h) { for cc in c..<(c + w) { occupied[rr][cc] = true } }
            let size = GridMetrics.tileSize(family, unit: unit)
            let rect = Rect(
                x: origin.x + c * unit.width, y: origin.y + r * unit.height,
                width: size.width, height: size.height)
            let page = layout.pages.count - 1
            if layout.positions[slot.id] == nil {
                layout.positions[slot.id] = Position(page: page, index: layout.pages[page].count)
            }
            layout.pages[page].append(PlacedTile(id: slot.id, family: family, rect: rect, page: page))
        }
        if layout.pages.last?.isEmpty == true && layout.pages.count > 1 { layout.pages.removeLast() }
        return layout
    }
}
