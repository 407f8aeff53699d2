import Foundation
import DashCore
import DashWidgets
import DashRender
import DashHome

/// Draws an `AppState`. Pure: same state, same cells.
public enum AppView {
    public static func environment(_ s: AppState) -> RenderEnvironment {
        RenderEnvironment(theme: s.theme, now: s.now, timeZone: s.timeZone)
    }

    /// The tile contents for the current page.
    static func tileContents(_ s: AppState) -> [String: HomeTileContent] {
        var out: [String: HomeTileContent] = [:]
        let page = s.layout.pages.indices.contains(s.page) ? s.layout.pages[s.page] : []
        for placed in page {
            guard let tile = s.tile(placed.id), let inst = s.shownInstance(placed.id) else { continue }
            let ctx = s.context(for: placed.family)
            let focused = s.focusedTile == placed.id && s.pane == .none
            let stackPos =
                tile.items.count > 1 ? (min(s.stackIndex[placed.id] ?? 0, tile.items.count - 1), tile.items.count) : nil
            guard let widget = s.bundle[inst.kind] else {
                out[placed.id] = HomeTileContent(
                    view: Text("Unknown widget \(inst.kind)").foregroundStyle(.negative),
                    decoration: TileDecoration(title: inst.kind, focused: focused))
                continue
            }
            let entry = s.entry(ofInstance: inst.id)
            let error = s.scheduler.lastError(inst.id)
            let view: TileView
            if let entry {
                view = widget.view(for: entry, in: ctx)
            } else if let error {
                view = VStack {
                    Text("Failed to load").font(.headline).foregroundStyle(.negative)
                    Text(TileErrorText.fitting(error, width: ctx.size.width)).font(.caption)
                }
            } else {
                view = widget.view(for: widget.placeholder(in: ctx), in: ctx).redacted()
            }
            let shown = s.optimistic(view, instance: inst.id)
            var title = inst.config.string("label").isEmpty ? widget.displayName : inst.config.string("label")
            if s.sampleInstances.contains(inst.id) { title += " · sample" }
            let stale = entry != nil && s.scheduler.isStale(inst.id) ? error : nil
            out[placed.id] = HomeTileContent(
                view: shown,
                decoration: TileDecoration(
                    title: title, focused: focused, staleMessage: stale,
                    stackPosition: stackPos),
                highlightedLink: focused ? s.highlightedLink : nil,
                highlightedControl: focused ? s.highlightedControl?.identity : nil)
            out[placed.id]?.decoration.attention = !focused && s.smart.attention[placed.id] != nil
        }
        return out
    }

    /// The whole screen: home, then any pane over it.
    public static func render(_ s: AppState) -> HomeFrame {
        let env = environment(s)
        var frame = HomeScreen.draw(
            layout: s.layout, page: s.page, tiles: tileContents(s), message: s.statusText, environment: env)
        guard !s.layout.isTooSmall else { return frame }
        if s.home.tiles.isEmpty {
            let view = VStack(alignment: .center, spacing: 1) {
                Text("Your home screen has no tiles").font(.headline)
                Text("Press a to add a widget from the gallery.")
                Text("Add some to ~/.config/swiftdash/home.yaml (see the README),").foregroundStyle(.secondary)
                Text("or start with: swiftdash --default-home").foregroundStyle(.secondary)
            }.fill(alignment: .center)
            _ = TileRenderer.render(
                view, in: Rect(x: 0, y: 0, width: s.screen.width, height: s.screen.height - 1),
                buffer: &frame.buffer, environment: env)
        }
        switch s.pane {
        case .none: break
        case .form, .gallery, .arrange:
            EditView.draw(s, into: &frame)
        case .help:
            drawHelp(s, env, &frame.buffer)
        case .detail(_, let instanceID, let link):
            let inst = s.home.allInstances.first { $0.id == instanceID }
            let widget = inst.flatMap { s.bundle[$0.kind] }
            let rect = paneRect(s.screen)
            let title = widget?.displayName ?? link.kind ?? "Detail"
            let view = paneView(s)
            let links = view?.links ?? []
            let hasWeb = links.contains { DeepLink($0)?.isExternal == true }
            let inner = rect.inset(top: 1, left: 2, bottom: 1, right: 2)
            let limit = view == nil ? 0 : paneScrollLimit(s)
            let footer = paneFooter(
                scroll: limit > 0 ? paneScrollHint(scroll: s.paneScroll, limit: limit, rows: inner.height) : nil,
                web: hasWeb, width: rect.width - 4)
            Chrome.drawPane(rect, title: title, footer: footer, theme: s.theme, into: &frame.buffer)
            if let view {
                var e = env
                e.highlightedLink = s.highlightedPaneLink(in: links)
                let r = drawPaneContent(
                    view, in: inner, scroll: s.paneScroll, limit: limit, environment: e, into: &frame.buffer)
                if let n = r.nextLiveChange, frame.nextLiveChange == nil || n < frame.nextLiveChange! {
                    frame.nextLiveChange = n
                }
            }
        case .external(_, let link):
            let rect = paneRect(Size(width: s.screen.width, height: min(s.screen.height, 12)))
            let r = Rect(
                x: rect.x, y: max(0, (s.screen.height - rect.height) / 2), width: rect.width, height: rect.height)
            Chrome.drawPane(
                r, title: "Open link", footer: "o open in browser · Esc close", theme: s.theme, into: &frame.buffer)
            let view = VStack(spacing: 1) {
                Text("This tile links to a web page:").foregroundStyle(.secondary)
                Text(link.url).foregroundStyle(.accent).lineLimit(1)
                Text("Press o to open it with $BROWSER or xdg-open.").font(.caption)
            }
            _ = TileRenderer.render(
                view, in: r.inset(top: 2, left: 3, bottom: 1, right: 3), buffer: &frame.buffer, environment: env)
            // Make the URL a real OSC 8 hyperlink for terminals that support it.
            let urlWidth = min(DisplayWidth.of(link.url), r.width - 6)
            frame.buffer.restyle(Rect(x: r.x + 3, y: r.y + 4, width: urlWidth, height: 1)) { st in
                var st = st
                st.hyperlink = link.url
                st.attributes.insert(.underline)
                return st
            }
        }
        return frame
    }

    /// The room inside the detail pane on a screen of `size`.
    public static func detailContentSize(_ screen: Size) -> Size {
        paneRect(screen).inset(top: 1, left: 2, bottom: 1, right: 2).size
    }

    /// An overlay `width` wide, or the whole width when that would leave a margin of one column:
    /// a one-column sliver of the tiles beside a frame reads as a broken border (`╭╭─`, `││`).
    static func overlayWidth(_ width: Int, on screen: Size) -> Int {
        screen.width - width < 4 ? screen.width : width
    }

    static func paneRect(_ screen: Size) -> Rect {
        let w = overlayWidth(min(screen.width - 2, max(40, screen.width * 3 / 4)), on: screen)
        let h = min(screen.height - 2, max(10, screen.height * 3 / 4))
        return Rect(x: (screen.width - w) / 2, y: max(0, (screen.height - 1 - h) / 2), width: w, height: h)
    }

    /// Every key, grouped, from `KeyTable` (the same table `update` dispatches from).
    public static var keyHelp: [(String, [(String, String)])] {
        KeyTable.groups.map { g in
            (
                g,
                KeyTable.bindings.filter { $0.group == g }.map { b in
                    let only = b.layers.subtracting([.global])
                    let scope = b.layers.isSubset(of: [.link, .detail]) && !only.isEmpty ? " (in a pane)" : ""
                    return (b.label, b.help + scope)
                }
            )
        } + [("Mouse", KeyTable.mouse)]
    }

    /// The help as lines: a group title, then its rows.
    static func helpLines() -> [(group: String?, key: String, text: String)] {
        keyHelp.flatMap { group, keys in [(group, "", "")] + keys.map { (nil, $0.0, $0.1) } }
    }

    /// Where the help is drawn on `screen`, how many columns it uses, and the rows that show.
    static func helpGeometry(_ screen: Size) -> (rect: Rect, columns: Int, visibleRows: Int, totalRows: Int) {
        let total = helpLines().count
        let columnWidth = 78
        let maxHeight = max(3, screen.height - 1)
        let columns = total + 2 > maxHeight && screen.width >= 2 * columnWidth + 6 ? 2 : 1
        let perColumn = (total + columns - 1) / columns
        let w = overlayWidth(min(screen.width - 2, columns * columnWidth + 2), on: screen)
        let h = min(maxHeight, perColumn + 2)
        let r = Rect(x: max(0, (screen.width - w) / 2), y: max(0, (screen.height - 1 - h) / 2), width: w, height: h)
        return (r, columns, max(1, h - 2), total)
    }

    /// How far the help can scroll on `screen` (0 when it fits).
    public static func helpScrollLimit(_ screen: Size) -> Int {
        let g = helpGeometry(screen)
        return g.columns > 1 ? 0 : max(0, g.totalRows - g.visibleRows)
    }

    static func drawHelp(_ s: AppState, _ env: RenderEnvironment, _ buffer: inout CellBuffer) {
        let lines = helpLines()
        let g = helpGeometry(s.screen)
        let scroll = min(s.helpScroll, helpScrollLimit(s.screen))
        let more = g.columns == 1 && g.totalRows > g.visibleRows
        let footer = more ? "↑↓ scroll (\(scroll + g.visibleRows)/\(g.totalRows)) · Esc or ? closes" : "Esc or ? closes"
        Chrome.drawPane(g.rect, title: "swiftdash keys", footer: footer, theme: s.theme, into: &buffer)
        let inner = g.rect.inset(top: 1, left: 2, bottom: 1, right: 2)
        let perColumn = g.columns > 1 ? (g.totalRows + 1) / 2 : g.totalRows
        for c in 0..<g.columns {
            let start = c * perColumn + (g.columns == 1 ? scroll : 0)
            let shown = Array(lines.dropFirst(start).prefix(min(g.visibleRows, perColumn)))
            let view = VStack {
                for line in shown {
                    if let group = line.group {
                        Text(group).font(.headline).foregroundStyle(.accent)
                    } else {
                        HStack(spacing: 2) {
                            Text(line.key).bold().frame(width: 24)
                            Text(line.text).foregroundStyle(.secondary).lineLimit(1)
                        }
                    }
                }
            }
            let colWidth = g.columns > 1 ? (inner.width - 2) / 2 : inner.width
            let rect = Rect(x: inner.x + c * (colWidth + 2), y: inner.y, width: colWidth, height: inner.height)
            _ = TileRenderer.render(view, in: rect, buffer: &buffer, environment: env)
        }
    }
}
