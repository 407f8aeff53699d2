import Foundation
import DashCore
import DashWidgets

/// The home screen grid: units of 10 columns x 4 rows (a 1-cell gutter included), so a
/// small tile (2x2 units) is 19x7 cells, a medium 39x7, a large 39x15, an extraLarge 79x15.
public struct GridMetrics: Sendable, Hashable {
    public static let unitWidth = 10
    public static let unitHeight = 4
    public static let statusBarHeight = 1

    /// Cells taken by a tile of `family` (without the trailing gutter).
    public static func tileSize(_ family: WidgetFamily) -> Size {
        let g = family.gridSize
        return Size(width: g.columns * unitWidth - 1, height: g.rows * unitHeight - 1)
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
    /// even number), except when every tile fits on one page with room to spare: then it takes
    /// the number of columns (at least 8, the 80-column grid) whose block of tiles is closest
    /// in shape to the screen, so a wide screen wraps the tiles into rows instead of one band
    /// along the top (decision 38).
    public static func compute(_ slots: [TileSlot], screen: Size) -> HomeLayout {
        var columns = (screen.width + 1) / GridMetrics.unitWidth
        if columns % 2 == 1 { columns -= 1 }
        let widest = flow(slots, screen: screen, columns: columns)
        let narrowest = min(columns, balancedMinimumColumns)
        guard widest.pages.count == 1, !widest.isTooSmall, columns > narrowest else { return widest }
        let target = shape(width: widest.columns, height: widest.rows)
        var best = widest
        var bestScore = Double.infinity
        for c in stride(from: narrowest, through: columns, by: 2) {
            let l = c == columns ? widest : flow(slots, screen: screen, columns: c)
            guard l.pages.count == 1, l.hidden.count == widest.hidden.count else { continue }
            let used = l.usedUnits
            let score = abs(log(shape(width: used.columns, height: used.rows) / target))
            // Ties go to fewer columns: the same block, centred.
            if score < bestScore - 1e-9 {
                best = l
                bestScore = score
            }
        }
        return best
    }

    /// The fewest columns a balanced layout takes: the 80-column grid, which also holds an
    /// extraLarge tile.
    static let balancedMinimumColumns = 8

    /// Width over height, in cells, of a block of grid units.
    static func shape(width: Int, height: Int) -> Double {
        Double(max(1, width * GridMetrics.unitWidth - 1)) / Double(max(1, height * GridMetrics.unitHeight - 1))
    }

    /// The units the first page's tiles cover, from the grid's top-left corner.
    var usedUnits: (columns: Int, rows: Int) {
        guard let page = pages.first, !page.isEmpty else { return (0, 0) }
        let right = page.map { $0.rect.maxX }.max()! - origin.x
        let bottom = page.map { $0.rect.maxY }.max()! - origin.y
        return ((right + 1) / GridMetrics.unitWidth, (bottom + 1) / GridMetrics.unitHeight)
    }

    /// The flow on a grid of `columns` unit columns, centred on the screen.
    static func flow(_ slots: [TileSlot], screen: Size, columns: Int) -> HomeLayout {
        let rows = (screen.height - GridMetrics.statusBarHeight + 1) / GridMetrics.unitHeight
        let usedWidth = max(0, columns * GridMetrics.unitWidth - 1)
        let usedHeight = max(0, rows * GridMetrics.unitHeight - 1)
        let origin = Point(
            x: max(0, (screen.width - usedWidth) / 2),
            y: max(0, (screen.height - GridMetrics.statusBarHeight - usedHeight) / 2))
        var layout = HomeLayout(
            screen: screen, columns: max(0, columns), rows: max(0, rows), origin: origin, pages: [], hidden: [])
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
            let size = GridMetrics.tileSize(family)
            let rect = Rect(
                x: origin.x + c * GridMetrics.unitWidth, y: origin.y + r * GridMetrics.unitHeight,
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
