import Foundation
import DashCore
import DashWidgets

/// One size of the widget the gallery shows: its preview (nil while it loads).
public struct GalleryItem: Sendable {
    public var family: WidgetFamily
    public var view: TileView?
    public var caption: String
    /// Said after the caption when this preview shows alone (beside others there is no room):
    /// how big the tile really is on this screen, when that is not the preview's size.
    public var realSize: String
    public init(family: WidgetFamily, view: TileView?, caption: String, realSize: String = "") {
        self.family = family
        self.view = view
        self.caption = caption
        self.realSize = realSize
    }
}

/// Everything the widget gallery shows, as plain values.
public struct GalleryModel: Sendable {
    public var filter: FieldText
    public var names: [String]
    public var selected: Int?
    public var count: String
    public var name: String?
    public var description: String?
    public var items: [GalleryItem]
    /// The size Enter adds (an index into `items`).
    public var chosen: Int
    /// Said when nothing matches the filter.
    public var empty: String?
    public var footer: String

    public init(
        filter: FieldText, names: [String], selected: Int?, count: String, name: String?, description: String?,
        items: [GalleryItem], chosen: Int, empty: String?, footer: String
    ) {
        self.filter = filter
        self.names = names
        self.selected = selected
        self.count = count
        self.name = name
        self.description = description
        self.items = items
        self.chosen = chosen
        self.empty = empty
        self.footer = footer
    }
}

/// Draws the gallery: the widget list (with its filter) on the left; the chosen widget's
/// name, description and previews on the right, every size side by side when they fit,
/// else the chosen size alone.
public enum GalleryView {
    /// Where the gallery goes: as big as its list and previews want, centred.
    public static func rect(for m: GalleryModel, screen: Size) -> Rect {
        let sizes = m.items.map { GridMetrics.tileSize($0.family) }
        let previewsWidth = sizes.reduce(0) { $0 + $1.width } + gap * max(0, sizes.count - 1)
        let tallest = sizes.map(\.height).max() ?? 0
        let w = min(screen.width, max(80, 4 + 26 + 3 + previewsWidth + 2))
        var h = min(screen.height - 1, max(20, m.names.count + 6, 2 + 6 + tallest + 2))
        if screen.height - 1 - h < 6 { h = screen.height - 1 }  // no slivers of the home screen around it
        return Rect(x: (screen.width - w) / 2, y: max(0, (screen.height - 1 - h) / 2), width: w, height: h)
    }

    public static let gap = 3

    @discardableResult
    public static func draw(
        _ m: GalleryModel, in rect: Rect, environment env: RenderEnvironment,
        into buffer: inout CellBuffer
    ) -> RenderResult {
        let theme = env.theme
        Chrome.drawPane(rect, title: "Add a widget", footer: m.footer, theme: theme, into: &buffer)
        var result = RenderResult()
        let inner = rect.inset(top: 1, left: 2, bottom: 1, right: 2)
        guard inner.width > 10, inner.height > 3 else { return result }
        let surface = theme[.surface]
        let text = Style(foreground: theme[.text], background: surface)
        let dim = Style(foreground: theme[.secondaryText], background: surface)

        // The list.
        let listWidth = min(26, max(16, inner.width / 3))
        var cursor = text
        cursor.attributes.insert(.reverse)
        buffer.write("Find ", x: inner.x, y: inner.y, style: dim)
        LineField.draw(
            m.filter, x: inner.x + 5, y: inner.y, width: listWidth - 5, style: text, cursorStyle: cursor,
            placeholderStyle: dim, into: &buffer)
        buffer.write(DisplayWidth.truncate(m.count, to: listWidth), x: inner.x, y: inner.y + 1, style: dim)
        let listTop = inner.y + 3
        let room = inner.maxY - listTop
        if let empty = m.empty {
            for (i, l) in DisplayWidth.wrap(empty, width: listWidth).prefix(max(0, room)).enumerated() {
                buffer.write(
                    l, x: inner.x, y: listTop + i,
                    style: Style(foreground: theme[.warning], background: surface))
            }
        }
        if room > 0 {
            let sel = m.selected ?? 0
            let first = m.names.count <= room ? 0 : max(0, min(sel - room / 2, m.names.count - room))
            for (n, i) in (first..<min(m.names.count, first + room)).enumerated() {
                let mine = i == m.selected
                let st =
                    mine
                    ? Style(foreground: theme[.focus], background: surface, attributes: [.bold, .reverse])
                    : text
                if mine {
                    buffer.fill(
                        Rect(x: inner.x, y: listTop + n, width: listWidth, height: 1),
                        with: Cell(" ", style: st))
                }
                buffer.write(
                    (mine ? "▸ " : "  ") + DisplayWidth.truncate(m.names[i], to: listWidth - 2), x: inner.x,
                    y: listTop + n, style: st)
            }
        }
        for y in inner.y..<inner.maxY {
            buffer.write("│", x: inner.x + listWidth + 1, y: y, style: dim)
        }

        // The chosen widget.
        let right = rightRect(inner)
        guard right.width > 4, let name = m.name else { return result }
        let plan = layout(m, right: right)
        var y = right.y
        buffer.write(
            DisplayWidth.truncate(name, to: right.width), x: right.x, y: y,
            style: Style(foreground: theme[.text], background: surface, attributes: [.bold]))
        y += 1
        for l in plan.description {
            buffer.write(l, x: right.x, y: y, style: dim)
            y += 1
        }
        if plan.spacedAbove { y += 1 }
        // The sizes, the chosen one marked.
        var x = right.x
        for (i, item) in m.items.enumerated() {
            let label = i == m.chosen ? "[\(item.family.displayName)]" : " \(item.family.displayName) "
            let st =
                i == m.chosen
                ? Style(foreground: theme[.focus], background: surface, attributes: [.bold, .reverse])
                : Style(foreground: theme[.accent], background: surface)
            x += buffer.write(label, x: x, y: y, style: st, clip: right) + 1
        }
        y = plan.previewsY
        if plan.shown.isEmpty, m.items.indices.contains(m.chosen) {
            // Too big for this terminal: say so, and how big a terminal shows it, never an empty box.
            let item = m.items[m.chosen]
            let size = GridMetrics.tileSize(item.family)
            let screen = Size(width: buffer.width, height: buffer.height)
            var note = ["\(item.family.displayName) (\(size)) is too big to preview here."]
            switch smallestScreen(showing: m, from: screen) {
            case let need? where need.height == screen.height:
                note.append("A terminal \(need.width) columns wide shows it.")
            case let need? where need.width == screen.width:
                note.append("A terminal \(need.height) rows high shows it.")
            case let need?:
                note.append("A terminal of \(need.width)x\(need.height) or more shows it.")
            case nil:
                break
            }
            note.append("Enter adds it all the same.")
            var lines = note.flatMap { DisplayWidth.wrap($0, width: right.width) }.map { ($0, text) }
            if m.items.count > 1 { lines.append(("◂ \(m.chosen + 1) of \(m.items.count) ▸", dim)) }
            for (i, (l, st)) in lines.prefix(max(0, right.maxY - y)).enumerated() {
                buffer.write(l, x: right.x, y: y + i, style: st)
            }
            return result
        }
        let sizes = m.items.map { GridMetrics.tileSize($0.family) }
        x = right.x
        for i in plan.shown {
            let item = m.items[i]
            let size = sizes[i]
            let tile = Rect(x: x, y: y, width: size.width, height: size.height)
            let view = item.view ?? Text("loading…").foregroundStyle(.secondary)
            let decoration = TileDecoration(
                title: item.family.displayName, focused: plan.shown.count > 1 && i == m.chosen)
            let r = Chrome.drawTile(view, rect: tile, decoration: decoration, environment: env, into: &buffer)
            if let n = r.nextLiveChange, result.nextLiveChange.map({ n < $0 }) ?? true { result.nextLiveChange = n }
            var caption = item.caption
            if plan.shown.count == 1 && m.items.count > 1 { caption = "◂ \(i + 1) of \(m.items.count) ▸  " + caption }
            if plan.shown.count == 1 { caption += item.realSize }
            caption = DisplayWidth.truncate(caption, to: max(size.width, min(right.width, 40)))
            if y + size.height < right.maxY {
                buffer.write(caption, x: x, y: y + size.height, style: dim)
            }
            x += size.width + gap
        }
        return result
    }

    /// The room right of the list inside the gallery's `inner` rect.
    static func rightRect(_ inner: Rect) -> Rect {
        let listWidth = min(26, max(16, inner.width / 3))
        return Rect(
            x: inner.x + listWidth + 3, y: inner.y, width: inner.width - listWidth - 3, height: inner.height)
    }

    /// How the chosen widget's side is laid out: the description lines kept, whether blank lines
    /// part name, sizes and previews, where the previews start and which of them are drawn.
    struct Plan {
        var description: [String]
        /// A blank line above the sizes, and one under them.
        var spacedAbove: Bool
        var spacedBelow: Bool
        var previewsY: Int
        var shown: [Int]
    }

    /// Every size side by side where they fit; else the chosen one, the description and the
    /// blank lines giving way to it (rather than cutting the tile or its caption) before a
    /// plan that draws no preview at all (empty `shown`).
    static func layout(_ m: GalleryModel, right: Rect) -> Plan {
        let words = DisplayWidth.wrap(m.description ?? "", width: right.width, maxLines: 3)
        var full = words.lines
        if words.truncated, let last = full.last {
            full[full.count - 1] = DisplayWidth.truncate(last + " …", to: right.width)
        }
        var short = Array(full.prefix(1))
        if full.count > 1, let first = short.first { short[0] = DisplayWidth.truncate(first + " …", to: right.width) }
        let sizes = m.items.map { GridMetrics.tileSize($0.family) }
        let allWidth = sizes.reduce(0) { $0 + $1.width } + gap * max(0, sizes.count - 1)
        let tallest = sizes.map(\.height).max() ?? 0
        let plans = [(full, true, true), (full, false, true), (full, false, false), (short, false, false)].map {
            lines, above, below in
            Plan(
                description: lines, spacedAbove: above, spacedBelow: below,
                previewsY: right.y + 2 + lines.count + (above ? 1 : 0) + (below ? 1 : 0), shown: [])
        }
        let chosen = m.items.indices.contains(m.chosen) ? sizes[m.chosen] : nil
        func fits(_ p: Plan, height: Int, caption: Bool) -> Bool {
            p.previewsY + height + (caption ? 1 : 0) <= right.maxY
        }
        if allWidth <= right.width, fits(plans[0], height: tallest, caption: true) {
            var p = plans[0]
            p.shown = Array(m.items.indices)
            return p
        }
        guard let size = chosen, size.width <= right.width else { return plans[0] }
        for caption in [true, false] {
            if var p = plans.first(where: { fits($0, height: size.height, caption: caption) }) {
                p.shown = [m.chosen]
                return p
            }
        }
        return plans[0]
    }

    /// The smallest terminal, no smaller than `screen`, whose gallery draws the chosen size's
    /// preview; nil when none up to 500x200 does.
    public static func smallestScreen(showing m: GalleryModel, from screen: Size) -> Size? {
        func shows(_ s: Size) -> Bool {
            let r = rect(for: m, screen: s)
            return !layout(m, right: rightRect(r.inset(top: 1, left: 2, bottom: 1, right: 2))).shown.isEmpty
        }
        // More room never hides a preview, so each side is a binary search.
        func least(_ range: ClosedRange<Int>, _ ok: (Int) -> Bool) -> Int? {
            guard ok(range.upperBound) else { return nil }
            var (lo, hi) = (range.lowerBound, range.upperBound)
            while lo < hi {
                let mid = (lo + hi) / 2
                if ok(mid) { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        guard let width = least(screen.width...max(screen.width, 500), { shows(Size(width: $0, height: 200)) }),
            let height = least(screen.height...max(screen.height, 200), { shows(Size(width: width, height: $0)) })
        else { return nil }
        return Size(width: width, height: height)
    }
}
