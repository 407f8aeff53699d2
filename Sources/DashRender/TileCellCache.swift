import Foundation
import DashCore
import DashWidgets

/// What each tile on the home screen drew last, so a frame where one tile changed draws one
/// tile (decision 53). A tile's cells are reused only when everything its drawing depends on is
/// equal: its rect, view, decoration, highlighted link and control, theme, time zone and width
/// model. A view with live date text (`5 min ago`, a clock) depends on now and is always drawn
/// afresh, and so is every tile of a page whose tiles do not sit side by side inside the
/// screen. Owned by whoever draws frame after frame (the runtime); `HomeScreen.draw` without
/// one draws everything, as before.
public final class TileCellCache {
    struct Key: Equatable {
        var rect: Rect
        var view: TileView
        var decoration: TileDecoration
        var highlightedLink: String?
        var highlightedControl: String?
        var theme: Theme
        var timeZone: TimeZone
        var widths: WidthModel
    }

    struct Slot {
        var key: Key
        var cells: [Cell]
        var result: RenderResult
    }

    var slots: [String: Slot] = [:]
    /// Tiles drawn afresh, and tiles whose cells were reused, since this cache was made (the
    /// seam the tests count draws through).
    public private(set) var drawn = 0
    public private(set) var reused = 0
    /// The ids of the tiles drawn afresh in the last frame.
    public private(set) var lastDrawn: [String] = []

    public init() {}

    /// Forgets every tile: the next frame draws all of them.
    public func clear() { slots = [:] }

    func beginFrame() { lastDrawn = [] }

    /// Draws the tile `id` into `buffer`, or puts back its cells from the last frame when
    /// nothing it depends on changed.
    func drawTile(
        _ id: String, _ content: HomeTileContent, rect: Rect, environment env: RenderEnvironment,
        into buffer: inout CellBuffer
    ) -> RenderResult {
        let key = Key(
            rect: rect, view: content.view, decoration: content.decoration,
            highlightedLink: env.highlightedLink, highlightedControl: env.highlightedControl, theme: env.theme,
            timeZone: env.timeZone, widths: WidthModel.current)
        if let slot = slots[id], slot.key == key {
            buffer.restore(slot.cells, in: rect)
            reused += 1
            return slot.result
        }
        let r = Chrome.drawTile(
            content.view, rect: rect, decoration: content.decoration, environment: env, into: &buffer)
        drawn += 1
        lastDrawn.append(id)
        if content.view.readsTheClock {
            slots[id] = nil
        } else {
            slots[id] = Slot(key: key, cells: buffer.cells(in: rect), result: r)
        }
        return r
    }

    /// Keeps only the tiles of the frame just drawn.
    func endFrame(keeping ids: Set<String>) {
        if slots.count > ids.count { slots = slots.filter { ids.contains($0.key) } }
    }

    /// True when the tiles' rects lie inside `bounds` and overlap nowhere: each tile's cells are
    /// then its own, whatever order they are drawn in.
    static func canReuse(_ rects: [Rect], in bounds: Rect) -> Bool {
        for (i, r) in rects.enumerated() {
            if r.isEmpty || r.intersection(bounds) != r { return false }
            for o in rects[(i + 1)...] where !r.intersection(o).isEmpty { return false }
        }
        return true
    }
}

extension TileView {
    /// Whether anything in the tree is live date text, which reads differently as time passes.
    var readsTheClock: Bool {
        switch self {
        case .liveDate: return true
        case .stack(_, _, _, let children), .firstFitting(let children): return children.contains { $0.readsTheClock }
        case .padding(_, let v), .lineLimit(_, let v), .frame(_, _, _, let v), .expand(_, _, _, let v),
            .styled(_, let v), .link(_, let v), .widgetURL(_, let v), .redacted(let v), .invalidatable(_, let v):
            return v.readsTheClock
        case .empty, .text, .spacer, .divider, .gauge, .sparkline, .control: return false
        }
    }
}
