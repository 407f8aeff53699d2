import Foundation
import DashCore
import DashWidgets
import DashRender

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
            let stackPos = tile.items.count > 1 ? (min(s.stackIndex[placed.id] ?? 0, tile.items.count - 1), tile.items.count) : nil
            guard let widget = s.bundle[inst.kind] else {
                out[placed.id] = HomeTileContent(view: Text("Unknown widget \(inst.kind)").foregroundStyle(.negative),
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
                    Text(error).font(.caption)
                }
            } else {
                view = widget.view(for: widget.placeholder(in: ctx), in: ctx).redacted()
            }
            var title = inst.config.string("label").isEmpty ? widget.displayName : inst.config.string("label")
            if s.sampleInstances.contains(inst.id) { title += " · sample" }
            let stale = entry != nil && s.scheduler.isStale(inst.id) ? error : nil
            out[placed.id] = HomeTileContent(
                view: view,
                decoration: TileDecoration(title: title, focused: focused, staleMessage: stale,
                                           stackPosition: stackPos),
                highlightedLink: focused ? s.highlightedLink : nil)
        }
        return out
    }

    /// The whole screen: home, then any pane over it.
    public static func render(_ s: AppState) -> HomeFrame {
        let env = environment(s)
        var frame = HomeScreen.draw(layout: s.layout, page: s.page, tiles: tileContents(s), message: s.statusText, environment: env)
        guard !s.layout.isTooSmall else { return frame }
        if s.home.tiles.isEmpty {
            let view = VStack(alignment: .center, spacing: 1) {
                Text("Your home screen has no tiles").font(.headline)
                Text("Press a to add a widget from the gallery.")
                Text("Add some to ~/.config/swiftdash/home.yaml (see the README),").foregroundStyle(.secondary)
                Text("or start with: swiftdash --default-home").foregroundStyle(.secondary)
            }.fill(alignment: .center)
            _ = TileRenderer.render(view, in: Rect(x: 0, y: 0, width: s.screen.width, height: s.screen.height - 1),
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
            let view = s.detailView(size: detailContentSize(s.screen))
            let links = view?.links ?? []
            let hasWeb = links.contains { DeepLink($0)?.isExternal == true }
            let footer = "Tab links · Enter open" + (hasWeb ? " · o browser" : "") + " · Esc close"
            Chrome.drawPane(rect, title: title, footer: footer, theme: s.theme, into: &frame.buffer)
            if let view {
                var e = env
                e.highlightedLink = s.highlightedPaneLink(in: links)
                let r = TileRenderer.render(view, in: rect.inset(top: 1, left: 2, bottom: 1, right: 2), buffer: &frame.buffer, environment: e)
                if let n = r.nextLiveChange, frame.nextLiveChange == nil || n < frame.nextLiveChange! { frame.nextLiveChange = n }
            }
        case .external(_, let link):
            let rect = paneRect(Size(width: s.screen.width, height: min(s.screen.height, 12)))
            let r = Rect(x: rect.x, y: max(0, (s.screen.height - rect.height) / 2), width: rect.width, height: rect.height)
            Chrome.drawPane(r, title: "Open link", footer: "o open in browser · Esc close", theme: s.theme, into: &frame.buffer)
            let view = VStack(spacing: 1) {
                Text("This tile links to a web page:").foregroundStyle(.secondary)
                Text(link.url).foregroundStyle(.accent).lineLimit(1)
                Text("Press o to open it with $BROWSER or xdg-open.").font(.caption)
            }
            _ = TileRenderer.render(view, in: r.inset(top: 2, left: 3, bottom: 1, right: 3), buffer: &frame.buffer, environment: env)
            // Make the URL a real OSC 8 hyperlink for terminals that support it.
            let urlWidth = min(DisplayWidth.of(link.url), r.width - 6)
            frame.buffer.restyle(Rect(x: r.x + 3, y: r.y + 4, width: urlWidth, height: 1)) { st in
                var st = st; st.hyperlink = link.url; st.attributes.insert(.underline); return st
            }
        }
        return frame
    }

    /// The room inside the detail pane on a screen of `size`.
    public static func detailContentSize(_ screen: Size) -> Size {
        paneRect(screen).inset(top: 1, left: 2, bottom: 1, right: 2).size
    }

    static func paneRect(_ screen: Size) -> Rect {
        let w = min(screen.width - 2, max(40, screen.width * 3 / 4))
        let h = min(screen.height - 2, max(10, screen.height * 3 / 4))
        return Rect(x: (screen.width - w) / 2, y: max(0, (screen.height - 1 - h) / 2), width: w, height: h)
    }

    /// Every key, grouped, from `KeyTable` (the same table `update` dispatches from).
    public static var keyHelp: [(String, [(String, String)])] {
        KeyTable.groups.map { g in
            (g, KeyTable.bindings.filter { $0.group == g }.map { b in
                let only = b.layers.subtracting([.global])
                let scope = b.layers.isSubset(of: [.link, .detail]) && !only.isEmpty ? " (in a pane)" : ""
                return (b.label, b.help + scope)
            })
        } + [("Mouse", KeyTable.mouse)]
    }

    static func drawHelp(_ s: AppState, _ env: RenderEnvironment, _ buffer: inout CellBuffer) {
        let help = keyHelp
        let rows = help.reduce(0) { $0 + $1.1.count + 1 }
        let w = min(s.screen.width - 2, 78)
        let h = min(s.screen.height - 1, rows + 3)
        let r = Rect(x: (s.screen.width - w) / 2, y: max(0, (s.screen.height - 1 - h) / 2), width: w, height: h)
        // Longer than the screen: it scrolls, and the footer says so.
        let visible = max(1, h - 2)
        let first = min(s.helpScroll, max(0, rows - visible))
        let more = rows > visible ? "↑↓ \(first + 1)-\(min(rows, first + visible)) of \(rows) · " : ""
        Chrome.drawPane(r, title: "swiftdash keys", footer: more + "Esc or ? closes", theme: s.theme, into: &buffer)
        var lines: [TileView] = []
        for (group, keys) in help {
            lines.append(Text(group).font(.headline).foregroundStyle(.accent))
            for (k, d) in keys {
                lines.append(HStack(spacing: 2) {
                    Text(k).bold().frame(width: 24)
                    Text(d).foregroundStyle(.secondary)
                })
            }
        }
        let view = VStack { Array(lines.dropFirst(first)) }
        _ = TileRenderer.render(view, in: r.inset(top: 1, left: 2, bottom: 1, right: 2), buffer: &buffer, environment: env)
    }
}
