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

    /// The title on a tile's frame: its label, else the widget's name.
    static func frameTitle(_ inst: WidgetInstance, _ widget: Widget) -> String {
        inst.config.string("label").isEmpty ? widget.displayName : inst.config.string("label")
    }

    /// The tile contents for the current page.
    static func tileContents(_ s: AppState) -> [String: HomeTileContent] {
        var out: [String: HomeTileContent] = [:]
        let page = s.layout.pages.indices.contains(s.page) ? s.layout.pages[s.page] : []
        for placed in page {
            guard let tile = s.tile(placed.id), let inst = s.shownInstance(placed.id) else { continue }
            let ctx = s.viewContext(ofTile: placed.id, family: placed.family)
            let focused = s.focusedTile == placed.id && s.pane.kind == .none && s.focus.stripActivity == nil
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
            } else if let error, TileErrorText.isOffline(error) {
                // No network and nothing to show yet: why, and when the scheduler (which backs
                // off by itself) tries again.
                view = VStack {
                    Text("offline · " + TileErrorText.retry(s, inst.id)).font(.caption).foregroundStyle(.secondary)
                    Text(TileErrorText.fitting(TileErrorText.offlineReason(error), width: ctx.size.width))
                        .font(.caption).foregroundStyle(.secondary)
                }
            } else if let error {
                view = VStack {
                    Text("Failed to load").font(.headline).foregroundStyle(.negative)
                    Text(TileErrorText.fitting(error, width: ctx.size.width)).font(.caption)
                    Text(TileErrorText.retry(s, inst.id)).font(.caption).foregroundStyle(.secondary)
                }
            } else {
                view = widget.view(for: widget.placeholder(in: ctx), in: ctx).redacted()
            }
            var title = frameTitle(inst, widget)
            // The frame shows the title: a first line saying it again only costs a row.
            let shown = s.optimistic(view, instance: inst.id).droppingLeadingTitle(title)
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

    /// The whole screen: home, then any pane over it. With a `cache` (the runtime's), tiles
    /// that did not change since the last frame are not drawn again; the cells are the same.
    public static func render(_ s: AppState, cache: TileCellCache? = nil) -> HomeFrame {
        let env = environment(s)
        var frame = HomeScreen.draw(
            layout: s.layout, page: s.page, tiles: tileContents(s), message: s.statusText,
            wholeHint: App.wholeMessageHint,
            environment: env,
            cache: s.pane.kind == .none ? cache : nil)
        guard !s.layout.isTooSmall else { return frame }
        App.drawActivityStrip(s, into: &frame.buffer)
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
        // The view's dispatch: the pane shown draws itself.
        s.pane.component?.draw(s, env, into: &frame)
        if s.messages.shown { drawMessages(s, env, &frame.buffer) }
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
}
