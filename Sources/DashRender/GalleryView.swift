import Foundation
import DashCore
import DashWidgets

/// One size of the widget the gallery shows: its preview (nil while it loads).
public struct GalleryItem: Sendable {
    public var family: WidgetFamily
    public var view: TileView?
    public var caption: String
    public init(family: WidgetFamily, view: TileView?, caption: String) {
        self.family = family
        self.view = view
        self.caption = caption
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
        let right = Rect(
            x: inner.x + listWidth + 3, y: inner.y, width: inner.width - listWidth - 3,
            height: inner.height)
        guard right.width > 4, let name = m.name else { return result }
        var y = right.y
        buffer.write(
            DisplayWidth.truncate(name, to: right.width), x: right.x, y: y,
            style: Style(foreground: theme[.text], background: surface, attributes: [.bold]))
        y += 1
        for l in DisplayWidth.wrap(m.description ?? "", width: right.width).prefix(3) {
            buffer.write(l, x: right.x, y: y, style: dim)
            y += 1
        }
        y += 1
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
        y += 2
        let sizes = m.items.map { GridMetrics.tileSize($0.family) }
        let allWidth = sizes.reduce(0) { $0 + $1.width } + gap * max(0, sizes.count - 1)
        let allHeight = (sizes.map(\.height).max() ?? 0) + 1
        let shown: [Int]
        if allWidth <= right.width && y + allHeight <= right.maxY {
            shown = Array(m.items.indices)
        } else if m.items.indices.contains(m.chosen) {
            shown = [m.chosen]
        } else {
            shown = []
        }
        x = right.x
        for i in shown {
            let item = m.items[i]
            let size = sizes[i]
            guard x + size.width <= right.maxX, y + size.height <= right.maxY else { continue }
            let tile = Rect(x: x, y: y, width: size.width, height: size.height)
            let view = item.view ?? Text("loading…").foregroundStyle(.secondary)
            let decoration = TileDecoration(title: item.family.displayName, focused: shown.count > 1 && i == m.chosen)
            let r = Chrome.drawTile(view, rect: tile, decoration: decoration, environment: env, into: &buffer)
            if let n = r.nextLiveChange, result.nextLiveChange.map({ n < $0 }) ?? true { result.nextLiveChange = n }
            var caption = item.caption
            if shown.count == 1 && m.items.count > 1 { caption = "◂ \(i + 1) of \(m.items.count) ▸  " + caption }
            caption = DisplayWidth.truncate(caption, to: max(size.width, min(right.width, 40)))
            if y + size.height < right.maxY {
                buffer.write(caption, x: x, y: y + size.height, style: dim)
            }
            x += size.width + gap
        }
        return result
    }
}
