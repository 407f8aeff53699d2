import Foundation
import DashCore
import DashWidgets

/// How a tile's frame is drawn.
public struct TileDecoration: Sendable, Hashable {
    public var title: String
    public var focused: Bool
    /// The last reload failed: the tile shows its last good entry with this mark.
    public var staleMessage: String?
    /// A stack: which of how many is shown.
    public var stackPosition: (index: Int, count: Int)?
    /// The tile shows something new or relevant since the user last focused it: a mark in the
    /// title (visible without colour) and a frame in the warning colour.
    public var attention = false

    public init(title: String, focused: Bool = false, staleMessage: String? = nil, stackPosition: (Int, Int)? = nil) {
        self.title = title
        self.focused = focused
        self.staleMessage = staleMessage
        self.stackPosition = stackPosition.map { (index: $0.0, count: $0.1) }
    }

    public static func == (a: TileDecoration, b: TileDecoration) -> Bool {
        a.title == b.title && a.focused == b.focused && a.staleMessage == b.staleMessage
            && a.stackPosition?.index == b.stackPosition?.index && a.stackPosition?.count == b.stackPosition?.count
            && a.attention == b.attention
    }
    public func hash(into h: inout Hasher) {
        h.combine(title)
        h.combine(focused)
        h.combine(staleMessage)
    }
}

public enum Chrome {
    /// The glyph before the title of a tile that asks for attention.
    public static let attentionMark = "◆"

    /// The rectangle inside a tile's frame where the widget draws: one cell of border and
    /// one column of padding on each side.
    public static func contentRect(_ tile: Rect) -> Rect { tile.inset(top: 1, left: 2, bottom: 1, right: 2) }

    /// The content size a family's view gets.
    public static func contentSize(_ family: WidgetFamily) -> Size {
        contentRect(Rect(origin: Point(x: 0, y: 0), size: GridMetrics.tileSize(family))).size
    }

    /// Draws a tile's rounded frame with its title; a focused tile gets a heavy frame in
    /// the focus colour (reverse video when there is no colour).
    public static func drawFrame(_ rect: Rect, _ d: TileDecoration, theme: Theme, into buffer: inout CellBuffer) {
        guard rect.width >= 4, rect.height >= 2 else { return }
        let surface = theme[.surface]
        buffer.fill(rect, with: Cell(" ", style: Style(foreground: theme[.text], background: surface)))
        var border = Style(foreground: d.focused ? theme[.focus] : theme[.secondaryText], background: surface)
        if d.focused { border.attributes.insert(.bold) }
        let marked = d.attention && !d.focused
        if marked { border = Style(foreground: theme[.warning], background: surface, attributes: [.bold]) }
        if d.focused && theme[.focus] == .default { border.attributes.insert(.reverse) }
        let (tl, tr, bl, br, h, v) = d.focused ? ("┏", "┓", "┗", "┛", "━", "┃") : ("╭", "╮", "╰", "╯", "─", "│")
        let inner = rect.width - 2
        buffer.write(tl + String(repeating: h, count: inner) + tr, x: rect.x, y: rect.y, style: border)
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            buffer.write(v, x: rect.x, y: y, style: border)
            buffer.write(v, x: rect.maxX - 1, y: y, style: border)
        }
        buffer.write(bl + String(repeating: h, count: inner) + br, x: rect.x, y: rect.maxY - 1, style: border)

        // Title on the top edge, a stale mark and stack dots on the right / bottom.
        var right = ""
        if d.staleMessage != nil { right = "⚠ stale" }
        let titleRoom = inner - 2 - (right.isEmpty ? 0 : DisplayWidth.of(right) + 3)
        if titleRoom > 2 {
            let text = (marked ? Self.attentionMark + " " : "") + d.title
            let title = " " + DisplayWidth.truncate(text, to: titleRoom - 2) + " "
            var ts = border
            ts.foreground = d.focused ? theme[.focus] : marked ? theme[.warning] : theme[.secondaryText]
            buffer.write(title, x: rect.x + 2, y: rect.y, style: ts)
        }
        if !right.isEmpty {
            let text = " " + right + " "
            buffer.write(
                text, x: rect.maxX - 2 - DisplayWidth.of(text), y: rect.y,
                style: Style(foreground: theme[.warning], background: surface, attributes: [.bold]))
        }
        if let s = d.stackPosition, s.count > 1, inner > s.count * 2 {
            let dots = (0..<s.count).map { $0 == s.index ? "●" : "○" }.joined(separator: " ")
            let text = " " + dots + " "
            buffer.write(text, x: rect.x + (rect.width - DisplayWidth.of(text)) / 2, y: rect.maxY - 1, style: border)
        }
    }

    /// Draws a widget's view inside a framed tile and returns its tap regions.
    @discardableResult
    public static func drawTile(
        _ view: TileView, rect: Rect, decoration: TileDecoration, environment: RenderEnvironment,
        into buffer: inout CellBuffer
    ) -> RenderResult {
        drawFrame(rect, decoration, theme: environment.theme, into: &buffer)
        var env = environment
        env.background = environment.theme[.surface]
        return TileRenderer.render(view, in: contentRect(rect), buffer: &buffer, environment: env)
    }

    /// A centred box with a title over whatever is below (detail panes, help, forms).
    public static func drawPane(
        _ rect: Rect, title: String, footer: String?, theme: Theme, into buffer: inout CellBuffer
    ) {
        let surface = theme[.surface]
        buffer.fill(rect, with: Cell(" ", style: Style(foreground: theme[.text], background: surface)))
        let border = Style(foreground: theme[.accent], background: surface, attributes: [.bold])
        guard rect.width >= 4, rect.height >= 3 else { return }
        buffer.write("╭" + String(repeating: "─", count: rect.width - 2) + "╮", x: rect.x, y: rect.y, style: border)
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            buffer.write("│", x: rect.x, y: y, style: border)
            buffer.write("│", x: rect.maxX - 1, y: y, style: border)
        }
        buffer.write(
            "╰" + String(repeating: "─", count: rect.width - 2) + "╯", x: rect.x, y: rect.maxY - 1, style: border)
        buffer.write(
            " " + DisplayWidth.truncate(title, to: rect.width - 6) + " ", x: rect.x + 2, y: rect.y, style: border)
        if let footer {
            let f = " " + DisplayWidth.truncate(footer, to: rect.width - 6) + " "
            buffer.write(
                f, x: rect.maxX - 2 - DisplayWidth.of(f), y: rect.maxY - 1,
                style: Style(foreground: theme[.secondaryText], background: surface))
        }
    }
}
