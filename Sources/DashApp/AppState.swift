import Foundation
import DashCore
import DashWidgets
import DashRender

/// What the screen knows about one widget instance's data.
public struct InstanceDisplay: Sendable {
    public var entry: AnyEntry?
    /// The last reload failed with this message; the entry shown is the last good one.
    public var staleMessage: String?
    /// Sample data from the preview snapshot (`render` without `--live`), marked as such.
    public var isSample: Bool
    public init(entry: AnyEntry? = nil, staleMessage: String? = nil, isSample: Bool = false) {
        self.entry = entry; self.staleMessage = staleMessage; self.isSample = isSample
    }
}

/// A pane over the home screen.
public enum Pane: Sendable, Equatable {
    case none
    /// A widget's detail view for a deep link, opened from tile `tileID`.
    case detail(tileID: String, instanceID: String, link: DeepLink)
    /// An http(s) link: shows the URL, `o` opens it in the browser.
    case external(tileID: String, link: DeepLink)
    case help
}

/// Everything the home screen is, as one value: `update` changes it, `view` draws it.
public struct AppState: Sendable {
    public var bundle: WidgetBundle
    public var home: HomeConfig
    public var screen: Size
    public var layout: HomeLayout
    public var theme: Theme
    /// The other theme `t` switches to.
    public var alternateTheme: Theme
    public var colorDepth: ColorDepth
    public var timeZone: TimeZone
    public var now: Date
    public var page = 0
    public var focusedTile: String?
    /// Index of the link highlighted by Tab inside the focused tile.
    public var linkIndex: Int?
    public var pane: Pane = .none { didSet { if pane != oldValue { paneLinkIndex = nil } } }
    /// Index of the link highlighted by Tab inside the detail pane.
    public var paneLinkIndex: Int?
    /// Which item of a stack is shown, by tile id.
    public var stackIndex: [String: Int] = [:]
    public var display: [String: InstanceDisplay] = [:]
    /// A short note in the status bar ("reloading all", "no browser").
    public var message: String? { didSet { messageSince = message == nil ? nil : now } }
    /// When `message` was set; it disappears `messageLifetime` seconds later.
    public private(set) var messageSince: Date?
    public static let messageLifetime: TimeInterval = 4
    public var environment: [String: String]
    public var quitting = false
    /// Where the last frame drew each tile's links (for mouse clicks).
    public var tapRegions: [String: [TapRegion]] = [:]

    public init(bundle: WidgetBundle, home: HomeConfig, screen: Size, theme: Theme, alternateTheme: Theme,
                colorDepth: ColorDepth = .trueColor, timeZone: TimeZone = .current, now: Date, environment: [String: String] = [:]) {
        self.bundle = bundle; self.home = home; self.screen = screen
        self.theme = theme; self.alternateTheme = alternateTheme
        self.colorDepth = colorDepth; self.timeZone = timeZone; self.now = now; self.environment = environment
        self.layout = HomeLayout.compute([], screen: screen)
        relayout()
        focusedTile = layout.pages.first?.first?.id
    }

    /// Lays tiles out for the current screen; focus stays on the same tile and the page
    /// follows it.
    public mutating func relayout() {
        let slots = home.tiles.map { t -> TileSlot in
            let supported = t.items.compactMap { bundle[$0.kind]?.supportedFamilies }
            let common = WidgetFamily.allCases.filter { f in supported.allSatisfy { $0.contains(f) } }
            return TileSlot(id: t.id, family: t.family, fallbacks: common)
        }
        layout = HomeLayout.compute(slots, screen: screen)
        if let f = focusedTile, let placed = layout.tile(f) { page = placed.page }
        else if layout.isTooSmall, focusedTile != nil { page = 0 } // keep focus for when the screen grows again
        else { focusedTile = layout.pages.first?.first?.id; page = 0 }
        page = min(page, layout.pageCount - 1)
    }

    public func tile(_ id: String) -> TileInstance? { home.tiles.first { $0.id == id } }

    /// The widget instance a tile shows now (the current one of a stack).
    public func shownInstance(_ tileID: String) -> WidgetInstance? {
        guard let t = tile(tileID), !t.items.isEmpty else { return nil }
        let i = min(stackIndex[tileID] ?? 0, t.items.count - 1)
        return t.items[i]
    }

    public func context(for family: WidgetFamily, isPreview: Bool = false) -> TimelineContext {
        let size = Chrome.contentSize(family)
        return TimelineContext(family: family, size: (size.width, size.height), now: now, isPreview: isPreview,
                               colorScheme: theme.isDark ? .dark : .light, timeZone: timeZone, environment: environment)
    }

    /// Links of the focused tile in reading order (what Tab walks).
    /// The view a tile shows now (nil before its first entry).
    func currentView(ofTile tileID: String) -> TileView? {
        guard let placed = layout.tile(tileID), let inst = shownInstance(tileID), let w = bundle[inst.kind],
              let entry = display[inst.id]?.entry else { return nil }
        return w.view(for: entry, in: context(for: placed.family))
    }

    public func links(ofTile tileID: String) -> [String] { currentView(ofTile: tileID)?.links ?? [] }

    /// The `widgetURL` of a tile's current view.
    public func tileWidgetURL(_ tileID: String) -> String? { currentView(ofTile: tileID)?.widgetURL }

    /// What the status bar says: a recent message, else why the focused tile is stale.
    public var statusText: String? {
        if let message { return message }
        guard let f = focusedTile, let inst = shownInstance(f), let problem = display[inst.id]?.staleMessage else { return nil }
        return "⚠ \(inst.kind) failed (r retries): \(problem)"
    }

    /// The detail pane's view, if one is open.
    public func detailView() -> TileView? {
        guard case .detail(_, let instanceID, let link) = pane,
              let inst = home.allInstances.first(where: { $0.id == instanceID }), let widget = bundle[inst.kind] else { return nil }
        let size = AppView.paneRect(screen).inset(top: 1, left: 2, bottom: 1, right: 2).size
        let ctx = TimelineContext(family: .large, size: (size.width, size.height), now: now,
                                  colorScheme: theme.isDark ? .dark : .light, timeZone: timeZone, environment: environment)
        return widget.detail(for: link, entry: display[instanceID]?.entry, in: ctx)
    }

    /// Links inside the open detail pane, in reading order.
    public var paneLinks: [String] { detailView()?.links ?? [] }

    /// The link Tab highlighted inside the detail pane.
    public var highlightedPaneLink: String? { highlightedPaneLink(in: paneLinks) }

    /// The highlighted one of `links` (the pane's, already computed).
    public func highlightedPaneLink(in links: [String]) -> String? {
        guard let i = paneLinkIndex, i < links.count else { return nil }
        return links[i]
    }

    public var highlightedLink: String? {
        guard let f = focusedTile, let i = linkIndex else { return nil }
        let l = links(ofTile: f)
        return i < l.count ? l[i] : nil
    }
}
