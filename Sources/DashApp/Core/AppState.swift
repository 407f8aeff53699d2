import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

/// What the app depends on from outside, passed in by the executable (or a test): no
/// `.current` or process state is read below `main`.
public struct AppEnvironment: Sendable {
    public var bundle: WidgetBundle
    /// The user's time zone, for clocks and providers.
    public var timeZone: TimeZone
    /// Environment variables providers may read (API keys).
    public var variables: [String: String] {
        didSet { widgetStateDirectory = Self.widgetStateDirectory(variables) }
    }
    /// Where widgets keep their state (`AppPaths.widgetState`), found once for `variables`: a load's
    /// context names it (built per tile, it was most of the 60 ms the loop took for R on 1,000 tiles).
    public private(set) var widgetStateDirectory: String?

    public init(bundle: WidgetBundle, timeZone: TimeZone, variables: [String: String] = [:]) {
        self.bundle = bundle
        self.timeZone = timeZone
        self.variables = variables
        self.widgetStateDirectory = Self.widgetStateDirectory(variables)
    }

    static func widgetStateDirectory(_ vars: [String: String]) -> String? {
        guard vars["XDG_STATE_HOME"]?.hasPrefix("/") == true || vars["HOME"]?.hasPrefix("/") == true else { return nil }
        return AppPaths(environment: vars).widgetState.path
    }
}

/// Everything the home screen is, as one value: `App.update` changes it, `AppView` draws it.
/// The scheduler lives here, so what a tile shows has one owner.
public struct AppState: Sendable {
    public var environment: AppEnvironment
    public var home: HomeConfig
    /// Which entry each instance shows, when to reload, the budget: a pure value.
    public var scheduler: Scheduler
    public var screen: Size
    /// Where every tile goes on this screen (from `home` and `screen`; see `relayout()`).
    public private(set) var layout: HomeLayout
    /// The Live Activities the state folder holds, and their strip above the tiles (issue 39).
    public var activities = ActivitiesState()
    public var theme: Theme
    /// The other theme `t` switches to.
    public var alternateTheme: Theme
    /// The time of the last message (the clock reaching a deadline, or an input event).
    public var now: Date
    /// Where the home screen's focus is (the home component's state, Panes/Home/HomePane.swift).
    public var focus = HomeFocus()
    public var page: Int {
        get { focus.page }
        set { focus.page = newValue }
    }
    public var focusedTile: String? {
        get { focus.focusedTile }
        set { focus.focusedTile = newValue }
    }
    /// Index of the link highlighted by Tab inside the focused tile.
    public var linkIndex: Int? {
        get { focus.linkIndex }
        set { focus.linkIndex = newValue }
    }
    /// The panes over the home screen, bottom first, each with its own state (Panes/) as it was
    /// left: the last is shown and takes the keys, and Esc closes it to show the one under it.
    /// Only the router changes it (PaneRouter.swift).
    public internal(set) var panes: [Pane] = []
    /// The pane shown (`.none`: the home screen).
    public var pane: Pane { panes.last ?? .none }
    /// Which item of a stack is shown, by tile id.
    public var stackIndex: [String: Int] = [:] { didSet { stackIndexChanges &+= 1 } }
    /// Counts the changes of `stackIndex` (Smart Stacks' quiet check compares it, not the dictionary).
    public private(set) var stackIndexChanges = 0
    public var note: StatusNote?
    /// Notes waiting for a more important one on the status line to be seen (`say`).
    public var laterNotes: [StatusNote] = []
    /// What was said lately and whether Ctrl-G shows it (Panes/Messages).
    public var messages = MessagesPane()
    /// Every problem of the broken home.yaml (their count is said on the status line, `!` lists
    /// them), and the first (`homeFile.problem` when it is still that one).
    public var homeProblems: (problem: String, all: [ConfigFileError])?
    /// Smart Rotate's decisions, use history and attention marks (SmartStacks.swift).
    public var smart = SmartStacksState()
    /// Instances whose timeline is a preview snapshot (`render` without `--live`), marked as sample.
    public var sampleInstances: Set<String> = []
    /// Actions of interactive widgets: queued, running, settling; their undo history.
    public var actions = ActionState()
    public var quitting = false
    /// The instances on screen, as the scheduler was last told (see `App.visibility`).
    public var onScreen: Set<String> = []
    /// The `home.yaml` the home screen comes from and is written to (nil: not saved, e.g. `--default-home`).
    public var homeFile: HomeFileState?
    /// Secrets' commands: their values for this session (memory only), and loads waiting for them.
    public var secrets = SecretCommandState()
    /// The Edit Widget form, the gallery, arrange mode and the undo history.
    public var editing = EditingState()
    /// Which history each undoable step went to, oldest first, so `u` undoes the last one of
    /// either kind (an arrange/edit step, or a button or toggle pressed).
    public var undoJournal: [UndoSource] = []
    /// The widgets folder's extensions as last described: their widgets are in the bundle
    /// (ExtensionCatalog.swift).
    public var extensions = ExtensionCatalog()
    /// Telling tmux to redraw its status line when a value it shows changed (TmuxRefresh.swift).
    public var tmuxRefresh = TmuxRefreshState()

    public var bundle: WidgetBundle { environment.bundle }
    public var timeZone: TimeZone { environment.timeZone }

    /// Registers every instance with `scheduler` (restore its cache snapshot first: a cached
    /// timeline then shows at once).
    public init(
        environment: AppEnvironment, home: HomeConfig, screen: Size, theme: Theme, alternateTheme: Theme,
        now: Date, scheduler: Scheduler = Scheduler()
    ) {
        self.environment = environment
        self.home = home
        self.screen = screen
        self.theme = theme
        self.alternateTheme = alternateTheme
        self.now = now
        self.scheduler = scheduler
        self.layout = HomeLayout.compute([], screen: screen)
        relayout()
        focusedTile = layout.pages.first?.first?.id
        registerInstances()
    }

    public init(
        bundle: WidgetBundle, home: HomeConfig, screen: Size, theme: Theme, alternateTheme: Theme,
        timeZone: TimeZone, now: Date, environment: [String: String] = [:]
    ) {
        self.init(
            environment: AppEnvironment(bundle: bundle, timeZone: timeZone, variables: environment), home: home,
            screen: screen, theme: theme, alternateTheme: alternateTheme, now: now)
    }

    /// Tells the scheduler about every instance of the home screen, each in the family it is
    /// configured in.
    mutating func registerInstances() {
        for tile in home.tiles {
            for inst in tile.items {
                guard let w = bundle[inst.kind] else { continue }
                scheduler.register(inst.id, widget: w, configuration: inst.config, family: tile.family, at: now)
            }
        }
    }

    /// Lays tiles out for the current screen; focus stays on the same tile and the page
    /// follows it.
    public mutating func relayout() {
        let slots = home.tiles.map { t -> TileSlot in
            let supported = t.items.compactMap { bundle[$0.kind]?.supportedFamilies }
            let common = WidgetFamily.allCases.filter { f in supported.allSatisfy { $0.contains(f) } }
            return TileSlot(id: t.id, family: t.family, fallbacks: common)
        }
        let strip = activities.stripRows
        layout = HomeLayout.compute(slots, screen: Size(width: screen.width, height: screen.height - strip))
            .below(rows: strip, on: screen)
        if let f = focusedTile, let placed = layout.tile(f) {
            page = placed.page
        } else if layout.isTooSmall, focusedTile != nil {
            page = 0
        }  // keep focus for when the screen grows again
        else {
            focusedTile = layout.pages.first?.first?.id
            page = 0
        }
        page = min(page, layout.pageCount - 1)
    }

    public func tile(_ id: String) -> TileInstance? { home.tile(id) }

    /// The tile an instance belongs to.
    public func tile(ofInstance id: String) -> TileInstance? { home.tileIndex(ofInstance: id).map { home.tiles[$0] } }

    /// The widget instance a tile shows now (the current one of a stack).
    public func shownInstance(_ tileID: String) -> WidgetInstance? {
        guard let t = tile(tileID), !t.items.isEmpty else { return nil }
        let i = min(stackIndex[tileID] ?? 0, t.items.count - 1)
        return t.items[i]
    }

    // MARK: - Families and contexts (one place each)

    /// The family a tile is drawn in on this screen (smaller than configured on a narrow one).
    public func drawnFamily(ofTile tileID: String) -> WidgetFamily? {
        layout.tile(tileID)?.family ?? tile(tileID)?.family
    }

    /// The family an instance's timeline is loaded for: the one its tile is configured in,
    /// whatever the screen, so a resize never reloads and the cache does not depend on the
    /// terminal's size (decision 22).
    public func loadFamily(ofInstance id: String) -> WidgetFamily {
        tile(ofInstance: id)?.family ?? .small
    }

    public var colorScheme: ColorScheme { theme.isDark ? .dark : .light }

    /// The context a view of `family` is drawn in, now.
    public func context(for family: WidgetFamily, isPreview: Bool = false) -> TimelineContext {
        Loads.context(
            family: family, now: now, environment: environment, colorScheme: colorScheme, isPreview: isPreview)
    }

    /// What a load the scheduler asked for runs with.
    public func job(for request: LoadRequest) -> LoadJob {
        var request = request
        if let borrow = request.widget.borrows {
            request.configuration = borrow(request.configuration) { id in
                home.instance(id).map { ($0.kind, $0.config) }
            }
        }
        return LoadJob(
            request: request,
            context: Loads.context(
                family: request.family, now: request.startedAt,
                environment: environment, colorScheme: colorScheme
            )
            .forInstance(request.id, environment: environment))
    }

    // MARK: - What tiles show

    /// The entry an instance shows now (nil before its first timeline), from the scheduler.
    public func entry(ofInstance id: String) -> AnyEntry? {
        guard let v = scheduler.currentEntry(id, at: now), !v.isPlaceholder else { return nil }
        return v.entry
    }

    /// The view a tile shows now (nil before its first entry).
    func currentView(ofTile tileID: String) -> TileView? {
        guard let family = drawnFamily(ofTile: tileID), let inst = shownInstance(tileID), let w = bundle[inst.kind],
            let entry = entry(ofInstance: inst.id)
        else { return nil }
        return w.view(for: entry, in: viewContext(ofTile: tileID, family: family))
            .droppingLeadingTitle(AppView.frameTitle(inst, w))
    }

    /// The context a tile's view is drawn in: its family, and the room it really has, which a
    /// big screen makes more than the family's (decision 45).
    public func viewContext(ofTile tileID: String, family: WidgetFamily) -> TimelineContext {
        var ctx = context(for: family)
        if let placed = layout.tile(tileID) {
            let room = Chrome.contentRect(placed.rect).size
            ctx.size = (room.width, room.height)
        }
        return ctx
    }

    /// Links of a tile in reading order (what Tab walks).
    public func links(ofTile tileID: String) -> [String] { currentView(ofTile: tileID)?.links ?? [] }

    /// The `widgetURL` of a tile's current view.
    public func tileWidgetURL(_ tileID: String) -> String? { currentView(ofTile: tileID)?.widgetURL }

    /// What the status bar says: a recent note, else what stands (`standingText`).
    public var statusText: String? {
        if let note, now < note.expires { return note.text }
        return standingText
    }

    /// What the status bar says when no note is showing: a broken home.yaml, why the focused
    /// tile is stale, that some tiles do not fit.
    public var standingText: String? {
        if let problem = homeFile?.problem {
            // How many there are is the end, which is kept whole when the start must be cut.
            let n = homeProblems?.problem == problem ? homeProblems?.all.count ?? 1 : 1
            let end = n > 1 ? " · \(n) problems: ! lists them all" : ""
            return "⚠ \(problem) — showing the last good version\(end)"
        }
        if let f = focusedTile, let inst = shownInstance(f), let problem = scheduler.lastError(inst.id),
            scheduler.isStale(inst.id) || entry(ofInstance: inst.id) == nil
        {
            return "⚠ \(inst.kind): \(problem) · r retries"
        }
        if !layout.isTooSmall, !layout.hidden.isEmpty {
            let n = layout.hidden.count
            return "\(n) tile\(n == 1 ? " doesn't" : "s don't") fit — widen the terminal"
        }
        return nil
    }

    /// When something not in the scheduler changes what is shown: the note's expiry.
    public var nextDeadline: Date? {
        let notes = note.map { [$0.expires] } ?? []
        let later = [
            scheduler.nextWake, smart.nextDecision, actions.nextDeadline, tmuxRefresh.nextRefresh,
            activities.nextChange(after: now),
        ]
        return (notes + later.compactMap { $0 }).min()
    }

    public var highlightedLink: String? {
        if case .link(let url)? = highlightedTarget { return url }
        return nil
    }
}

/// Where an undoable step is kept.
public enum UndoSource: Sendable, Equatable { case edit, action }
