import DashCore
import DashWidgets
import DashRender
import DashHome

/// A detail pane whose content is taller than the pane scrolls (↑↓ j k PgUp PgDn), as the
/// help does: the view is drawn whole off screen and shown from `AppState.paneScroll`.
extension AppView {
    /// What the open detail pane shows: the widget's detail view, under a note of the load's
    /// failure when it failed before any data.
    static func paneView(_ s: AppState) -> TileView? {
        guard case .detail(_, let instanceID, _) = s.pane else { return nil }
        var view = s.detailView(size: detailContentSize(s.screen))
        // A widget that failed before any data says why here too, not only in its tile.
        if s.entry(ofInstance: instanceID) == nil, let error = s.scheduler.lastError(instanceID),
            s.home.allInstances.contains(where: { $0.id == instanceID })
        {
            let own = view
            view = VStack(spacing: 1) {
                VStack {
                    Text("Failed to load").font(.headline).foregroundStyle(.negative)
                    Text(error)
                    Text("r retries now; swiftdash also retries by itself").font(.caption)
                }
                if let own { own }
            }
        }
        return view
    }

    /// How many rows the open detail pane's content is taller than the pane (0: it fits).
    public static func paneScrollLimit(_ s: AppState) -> Int {
        guard let view = paneView(s) else { return 0 }
        let inner = detailContentSize(s.screen)
        return max(0, TileRenderer.idealHeight(view, width: inner.width, environment: environment(s)) - inner.height)
    }

    /// Draws `view` into `inner`, from row `scroll` of the whole view when it is taller.
    static func drawPaneContent(
        _ view: TileView, in inner: Rect, scroll: Int, limit: Int, environment e: RenderEnvironment,
        into buffer: inout CellBuffer
    ) -> RenderResult {
        guard limit > 0 else { return TileRenderer.render(view, in: inner, buffer: &buffer, environment: e) }
        let surface = buffer[inner.x, inner.y]
        var whole = CellBuffer(size: Size(width: inner.width, height: inner.height + limit), fill: surface)
        let r = TileRenderer.render(view, in: whole.bounds, buffer: &whole, environment: e)
        var window = CellBuffer(size: inner.size, fill: surface)
        window.blit(whole, at: Point(x: 0, y: -min(max(0, scroll), limit)))
        buffer.blit(window, at: Point(x: inner.x, y: inner.y))
        return r
    }

    /// The detail pane's key hint; "Enter open" gives way to the scroll position when both do
    /// not fit.
    static func paneFooter(scroll: String?, web: Bool, width: Int) -> String {
        let tail = (web ? " · o browser" : "") + " · Esc close"
        let full = (scroll.map { $0 + " · " } ?? "") + "Tab links · Enter open" + tail
        guard let scroll, DisplayWidth.of(full) > width else { return full }
        return scroll + " · Tab links" + tail
    }

    /// The footer's scroll hint: where the window is in the whole.
    static func paneScrollHint(scroll: Int, limit: Int, rows: Int) -> String {
        "↑↓ \(min(max(0, scroll), limit) + rows)/\(limit + rows)"
    }
}

extension App {
    static func scrollPane(_ s: inout AppState, by delta: Int) {
        s.paneScroll = max(0, min(s.paneScroll + delta, AppView.paneScrollLimit(s)))
    }

    /// After Tab: scroll so the highlighted link of a long pane shows.
    static func revealPaneLink(_ s: inout AppState) {
        let limit = AppView.paneScrollLimit(s)
        guard limit > 0, let url = s.highlightedPaneLink, let view = AppView.paneView(s) else { return }
        let inner = AppView.detailContentSize(s.screen)
        var whole = CellBuffer(width: inner.width, height: inner.height + limit)
        var e = AppView.environment(s)
        e.highlightedLink = url
        let r = TileRenderer.render(view, in: whole.bounds, buffer: &whole, environment: e)
        guard let rect = r.tapRegions.first(where: { $0.url == url })?.rect else { return }
        if rect.y < s.paneScroll { s.paneScroll = rect.y }
        if rect.maxY > s.paneScroll + inner.height { s.paneScroll = min(limit, rect.maxY - inner.height) }
    }
}
