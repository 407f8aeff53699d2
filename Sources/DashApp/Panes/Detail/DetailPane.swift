import DashCore
import DashWidgets
import DashRender
import DashHome

/// A widget's detail view: which instance and link, how far it is scrolled, which of its
/// links Tab highlighted. Content taller than the pane scrolls (↑↓ j k PgUp PgDn), as the
/// help does.
public struct DetailPane: Sendable, Equatable {
    /// The tile it was opened from (focus returns there).
    public var tileID: String
    public var instanceID: String
    public var link: DeepLink
    /// How far content taller than the pane is scrolled.
    public var scroll = 0
    /// The link highlighted by Tab inside the pane.
    public var linkIndex: Int?

    public init(tileID: String, instanceID: String, link: DeepLink, scroll: Int = 0, linkIndex: Int? = nil) {
        self.tileID = tileID
        self.instanceID = instanceID
        self.link = link
        self.scroll = scroll
        self.linkIndex = linkIndex
    }
}

// MARK: - State

extension AppState {
    /// A detail pane's view for content of `size` (the caller knows the pane's geometry).
    public func detailView(_ d: DetailPane, size: Size) -> TileView? {
        guard let inst = home.instance(d.instanceID), let widget = bundle[inst.kind] else { return nil }
        var ctx = context(for: .large)
        ctx.size = (size.width, size.height)
        return widget.detail(for: d.link, entry: entry(ofInstance: d.instanceID), in: ctx)
    }

    /// Links inside a detail pane, in reading order.
    func paneLinks(_ d: DetailPane) -> [String] { detailView(d, size: AppView.detailContentSize(screen))?.links ?? [] }

    /// Links inside the open detail pane, in reading order.
    public var paneLinks: [String] { detailPane.map(paneLinks) ?? [] }

    /// The link Tab highlighted inside the open detail pane.
    public var highlightedPaneLink: String? { detailPane.flatMap { DetailPane.highlighted($0, in: paneLinks($0)) } }
}

// MARK: - Keys and update

extension DetailPane: PaneComponent {
    public enum Action: Sendable, Equatable {
        case scroll(Int), walkLinks(Int), activate, openInBrowser, reload, reloadAll, explain, help, edit, close
    }

    static let keys = [
        PaneKeys(
            .detail,
            [.walkLinks, .activate, .openInBrowser, .reload, .explain, .close, .toggleHelp, .scrollPane, .editWidget])
    ]

    static func action(for command: Command, in layer: Layer) -> Action? {
        switch command {
        case .scrollPane(let d): return .scroll(d)
        case .walkLinks(let d): return .walkLinks(d)
        case .activate: return .activate
        case .openInBrowser: return .openInBrowser
        case .reload: return .reload
        case .reloadAll: return .reloadAll
        case .explain: return .explain
        case .toggleHelp: return .help
        case .edit(.openForm): return .edit
        case .close: return .close
        default: return nil
        }
    }

    static func reduce(into d: inout DetailPane, _ action: Action, _ context: PaneContext) -> [Output] {
        let s = context.app
        switch action {
        case .scroll(let delta):
            d.scroll = max(0, min(d.scroll + delta, AppView.paneScrollLimit(s, d)))
        case .walkLinks(let delta):
            let n = s.paneLinks(d).count
            guard n > 0 else { break }
            d.linkIndex = App.step(d.linkIndex, by: delta, count: n)
            reveal(&d, s)
        case .activate:
            guard let url = highlighted(d, in: s.paneLinks(d)) else { break }
            return [.open(url: url, fromTile: d.tileID)]
        case .openInBrowser:
            // The highlighted web link, else the pane's first one.
            let links = s.paneLinks(d)
            let web =
                highlighted(d, in: links).flatMap { DeepLink($0)?.isExternal == true ? $0 : nil }
                ?? links.first { DeepLink($0)?.isExternal == true }
            guard let url = web else { return [.say("no web link here")] }
            return [.say("opening \(url)"), .effect(.openURL(url))]
        case .reload:
            guard let inst = s.shownInstance(d.tileID) else { break }
            return [.widgetCenter(.reloadInstance(inst.id))]
        case .reloadAll:
            return [.widgetCenter(.reloadAllTimelines)]
        case .explain:
            return [.explain(tile: d.tileID)]
        case .help:
            return [.push(.help(HelpPane()))]
        case .edit:
            guard s.home.instance(d.instanceID) != nil else { break }
            return [.edit(tile: d.tileID, instance: d.instanceID, inStack: false)]
        case .close:
            // Over another pane: back to it; over the home screen: the focus goes to its tile.
            return s.panes.count > 1 ? [.close] : [.close, .focus(tile: d.tileID)]
        }
        return []
    }

    /// The highlighted one of `links` (the pane's, already computed).
    static func highlighted(_ d: DetailPane, in links: [String]) -> String? {
        guard let i = d.linkIndex, i < links.count else { return nil }
        return links[i]
    }

    /// After Tab: scroll so the highlighted link of a long pane shows. Where the link lands
    /// comes from the renderer's layout (`TileRenderer.layout`), the pass the view draws with;
    /// nothing is drawn here.
    static func reveal(_ d: inout DetailPane, _ s: AppState) {
        let limit = AppView.paneScrollLimit(s, d)
        guard limit > 0, let url = highlighted(d, in: s.paneLinks(d)), let view = AppView.paneView(s, d) else {
            return
        }
        let inner = AppView.detailContentSize(s.screen)
        let whole = Rect(x: 0, y: 0, width: inner.width, height: inner.height + limit)
        let placed = TileRenderer.layout(view, in: whole, environment: AppView.environment(s))
        guard let rect = placed.tapRegions.first(where: { $0.url == url })?.rect else { return }
        if rect.y < d.scroll { d.scroll = rect.y }
        if rect.maxY > d.scroll + inner.height { d.scroll = min(limit, rect.maxY - inner.height) }
    }
}

// MARK: - View

extension AppView {
    /// What the open detail pane shows: the widget's detail view, under a note of the load's
    /// failure when it failed before any data.
    static func paneView(_ s: AppState, _ d: DetailPane) -> TileView? {
        var view = s.detailView(d, size: detailContentSize(s.screen))
        // A widget that failed before any data says why here too, not only in its tile.
        if s.entry(ofInstance: d.instanceID) == nil, let error = s.scheduler.lastError(d.instanceID),
            s.home.allInstances.contains(where: { $0.id == d.instanceID })
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
    public static func paneScrollLimit(_ s: AppState) -> Int { s.detailPane.map { paneScrollLimit(s, $0) } ?? 0 }

    /// How many rows a detail pane's content is taller than the pane (0: it fits).
    static func paneScrollLimit(_ s: AppState, _ d: DetailPane) -> Int {
        guard let view = paneView(s, d) else { return 0 }
        let inner = detailContentSize(s.screen)
        return max(0, TileRenderer.idealHeight(view, width: inner.width, environment: environment(s)) - inner.height)
    }

    /// The detail pane over the home screen.
    static func drawDetail(_ s: AppState, _ d: DetailPane, _ env: RenderEnvironment, into frame: inout HomeFrame) {
        let inst = s.home.allInstances.first { $0.id == d.instanceID }
        let widget = inst.flatMap { s.bundle[$0.kind] }
        let rect = paneRect(s.screen)
        let title = widget?.displayName ?? d.link.kind ?? "Detail"
        let view = paneView(s, d)
        let links = view?.links ?? []
        let hasWeb = links.contains { DeepLink($0)?.isExternal == true }
        let inner = rect.inset(top: 1, left: 2, bottom: 1, right: 2)
        let limit = view == nil ? 0 : paneScrollLimit(s, d)
        let footer = paneFooter(
            scroll: limit > 0 ? paneScrollHint(scroll: d.scroll, limit: limit, rows: inner.height) : nil,
            web: hasWeb, width: rect.width - 4)
        Chrome.drawPane(rect, title: title, footer: footer, theme: s.theme, into: &frame.buffer)
        guard let view else { return }
        var e = env
        e.highlightedLink = DetailPane.highlighted(d, in: links)
        let r = drawPaneContent(view, in: inner, scroll: d.scroll, limit: limit, environment: e, into: &frame.buffer)
        if let n = r.nextLiveChange, frame.nextLiveChange == nil || n < frame.nextLiveChange! {
            frame.nextLiveChange = n
        }
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

extension DetailPane: StackedPane {
    var pane: Pane { .detail(self) }
    func layers(_ s: AppState) -> [Layer] { [.detail, .global] }
    /// It closes with its tile or its widget.
    func survives(in home: HomeConfig, instances: Set<String>) -> Bool {
        home.tile(tileID) != nil && instances.contains(instanceID)
    }
    func draw(_ s: AppState, _ env: RenderEnvironment, into frame: inout HomeFrame) {
        AppView.drawDetail(s, self, env, into: &frame)
    }
}
