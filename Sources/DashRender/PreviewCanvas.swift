import Foundation
import DashCore
import DashWidgets

/// Draws one widget in several families side by side with a caption under each, like
/// Xcode's preview canvas. Families that do not fit the row wrap to a new row. A caption may
/// have several lines (`\n`), each centred under its tile.
public enum PreviewCanvas {
    public struct Item: Sendable {
        public var family: WidgetFamily
        public var view: TileView
        public var caption: String
        public init(family: WidgetFamily, view: TileView, caption: String) {
            self.family = family
            self.view = view
            self.caption = caption
        }
    }

    public static let gap = 3
    public static let maxWidth = 120

    public static func draw(title: String, items: [Item], environment: RenderEnvironment) -> CellBuffer {
        // Place tiles in rows no wider than maxWidth.
        var rows: [[(Item, Int)]] = [[]]
        var x = 0
        for item in items {
            let w = GridMetrics.tileSize(item.family).width
            if x > 0 && x + w > maxWidth {
                rows.append([])
                x = 0
            }
            rows[rows.count - 1].append((item, x))
            x += w + gap
        }
        let width = max(
            DisplayWidth.of(title),
            rows.map { r in r.map { $0.1 + GridMetrics.tileSize($0.0.family).width }.max() ?? 0 }.max() ?? 0)
        let rowHeights = rows.map { r in
            (r.map { GridMetrics.tileSize($0.0.family).height + lines($0.0.caption).count }.max() ?? 0) + 1
        }
        let height = 2 + rowHeights.reduce(0, +)
        var buffer = CellBuffer(width: width, height: height)
        let theme = environment.theme
        buffer.write(title, x: 0, y: 0, style: Style(foreground: theme[.text], attributes: [.bold]))
        var y = 2
        for (ri, row) in rows.enumerated() {
            for (item, x) in row {
                let size = GridMetrics.tileSize(item.family)
                let rect = Rect(x: x, y: y, width: size.width, height: size.height)
                Chrome.drawTile(
                    item.view, rect: rect, decoration: TileDecoration(title: item.family.displayName),
                    environment: environment, into: &buffer)
                for (i, line) in lines(item.caption).enumerated() {
                    let caption = DisplayWidth.truncate(line, to: size.width)
                    buffer.write(
                        caption, x: x + (size.width - DisplayWidth.of(caption)) / 2, y: y + size.height + i,
                        style: Style(foreground: theme[.secondaryText]))
                }
            }
            y += rowHeights[ri]
        }
        return buffer
    }

    /// A caption's lines (at least one).
    static func lines(_ caption: String) -> [String] {
        let parts = caption.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return parts.isEmpty ? [""] : parts
    }
}
