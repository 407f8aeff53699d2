import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

public enum App {
    /// The pure step: a message changes the state and returns what to do.
    public static func update(_ s: inout AppState, _ msg: Msg) -> [Effect] {
        let fx = step(&s, msg)
        // The time passing and load results change only timelines: Smart Stacks looks again at
        // the tiles whose timelines changed, when nothing else did (SmartStacksQuiet).
        let all = fx + smartStacks(&s, onlyTouched: msg.changesOnlyTimelines) + visibility(&s)
        // Input changes no value a status line shows; a flood of keys stays cheap.
        switch msg {
        case .key, .mouse, .click, .resize: return all + tmuxRefresh(&s, after: [])
        default: return all + tmuxRefresh(&s, after: all)
        }
    }

    /// Several messages that arrived together (load results finishing at once) in one step:
    /// each changes the state in order, then Smart Stacks and visibility look once at the
    /// result, as `update` does after one. The passes over every tile run once for the batch,
    /// not once per message (issue 25: 1,000 results made one turn quadratic).
    public static func update(_ s: inout AppState, batch msgs: [Msg]) -> [Effect] {
        guard msgs.count > 1 else { return msgs.first.map { update(&s, $0) } ?? [] }
        var fx: [Effect] = []
        for msg in msgs { fx += apply(&s, msg) }
        return coalescingRedraws(fx + settle(&s))
    }

    /// One message of a batch, without the passes over every tile: call `settle` after the
    /// last one (the runtime applies a batch in slices between keys).
    public static func apply(_ s: inout AppState, _ msg: Msg) -> [Effect] { step(&s, msg) }

    /// What `update` does after a message, once for a batch: Smart Stacks and visibility.
    /// (A batch is load results: the tmux status line is looked at as after a redraw.)
    public static func settle(_ s: inout AppState) -> [Effect] {
        smartStacks(&s, onlyTouched: true) + visibility(&s) + tmuxRefresh(&s, after: [.redraw(full: false)])
    }

    /// `fx` with one redraw (full if any was): a batch's messages each ask for one.
    static func coalescingRedraws(_ fx: [Effect]) -> [Effect] {
        var full: Bool? = nil
        var out: [Effect] = []
        out.reserveCapacity(fx.count)
        for e in fx {
            if case .redraw(let f) = e { full = (full ?? false) || f } else { out.append(e) }
        }
        if let full { out.append(.redraw(full: full)) }
        return out
    }

    /// Tells the scheduler which instances are on screen (the page's tiles, a stack's front
    /// item): local widgets sample only while visible. Cheap when nothing moved.
    static func visibility(_ s: inout AppState) -> [Effect] {
        var shown: Set<String> = []
        if !s.layout.isTooSmall, s.layout.pages.indices.contains(s.page) {
            for placed in s.layout.pages[s.page] {
                if let inst = s.shownInstance(placed.id) { shown.insert(inst.id) }
            }
        }
        guard shown != s.onScreen else { return [] }
        s.onScreen = shown
        s.scheduler.setOnScreen(shown)
        return pump(&s)
    }

    /// What a message does, before Smart Stacks looks at the result (SmartStacks.swift).
    static func step(_ s: inout AppState, _ msg: Msg) -> [Effect] {
        switch msg {
        case .tick(let now):
            return tick(&s, now)
        case .loaded(let id, let token, let result):
            var fx: [Effect] = []
            if case .failure(let e) = result {
                fx.append(.log("\(id): load failed: \(TextSanitizer.singleLine("\(e)"))"))
            }
            s.scheduler.loadFinished(id, token: token, result: result, at: s.now)
            s.smart.touched.insert(id)
            return fx + pump(&s)
        case .sampled(let id, let token, let timeline):
            s.sampleInstances.insert(id)
            return step(&s, .loaded(id: id, token: token, result: .success(timeline)))
        case .secretCommandFinished(let command, let result):
            return SecretCommands.finished(&s, command, result) + pump(&s)
        case .loadTimedOut(let id, let token, let seconds):
            s.scheduler.loadFinished(id, token: token, result: .failure(LoadTimeoutError(timeout: seconds)), at: s.now)
            s.smart.touched.insert(id)
            return [.log("\(id): load timed out after \(Int(clamping: seconds)) s")] + pump(&s)
        case .widgetCenter(let request):
            return widgetCenter(&s, request)
        case .resize(let size):
            // A tile drawn smaller keeps its timeline: entries draw in any family (decision 22).
            s.screen = size
            s.relayout()
            return [.redraw(full: false)]
        case .mouse(let m):
            return mouse(&s, m) + [.redraw(full: false)]
        case .click(let tile, let url):
            if s.pane.kind != .none { return clickOnPane(&s, tile: tile) }
            guard !s.layout.isTooSmall, s.layout.tile(tile) != nil else { return [] }
            s.focusedTile = tile
            s.linkIndex = nil
            return open(&s, url: url, fromTile: tile) + [.redraw(full: false)]
        case .key(let k):
            return key(&s, k)
        case .timeZone(let tz):
            guard tz != s.environment.timeZone else { return [] }
            s.environment.timeZone = tz
            // Local widgets (clocks) may have worked in the old zone: reload them, free.
            for id in s.scheduler.instanceIDs where s.scheduler.status(id, at: s.now)?.budget.cost == .local {
                s.scheduler.reload(id, reason: .widgetCenter)
            }
            return [.redraw(full: false), .log("time zone is now \(tz.identifier)")] + pump(&s)
        case .pushed(let target, let timeline):
            return pushed(&s, target: target, timeline: timeline)
        case .snapshotRequested(let reply, let watch):
            if let watch { tmuxLineAsked(&s, watch) }
            return [.reply(reply, HomeSnapshot.answer(s))]
        case .homeFileChanged(let text, let ids):
            return homeFileChanged(&s, text: text, ids: ids)
        case .controlRequested(let line, let reply, let caughtUp):
            return controlRequested(&s, line, reply, caughtUp: caughtUp)
        case .homeFileRefused(let problem):
            return homeFileRefused(&s, problem)
        case .themeLoaded(let name, let result):
            return themeLoaded(&s, name, result)
        case .homeWritten(let home, let result):
            return homeWritten(&s, home, result)
        case .homeLockHeld(let holder):
            let name = s.homeFile.map { URL(fileURLWithPath: $0.path).lastPathComponent } ?? "home.yaml"
            s.say("saving when \(TextSanitizer.singleLine(holder)) lets go of \(name) (it holds the lock)")
            return [.redraw(full: false)]
        case .urlNotOpened(_, let problem):
            s.say(problem)
            return [.redraw(full: false)]
        case .control(let tile, let control):
            return clickControl(&s, tile: tile, control: control)
        case .performed(let id, let actionID, let result):
            return actionPerformed(&s, id: id, actionID: actionID, result: result)
        case .filesChanged(let paths):
            return filesChanged(&s, paths)
        case .edit(let m):
            return Editing.receive(&s, m)
        case .extensionsFolderChanged:
            return [.scanExtensions]
        case .extensionsScanned(let catalog):
            return extensionsScanned(&s, catalog)
        }
    }

    static func key(_ s: inout AppState, _ k: Key) -> [Effect] {
        s.nextNote()
        // Esc and a key typed at once arrive as Alt+key: unless a layer binds it, they are two keys.
        if case .alt(let c) = k, KeyTable.dispatch(k, through: layers(s)) == nil {
            return key(&s, .escape) + key(&s, .char(c))
        }
        guard let (layer, command) = KeyTable.dispatch(k, through: layers(s)) else { return [.redraw(full: false)] }
        return perform(&s, command, in: layer) + [.redraw(full: false)]
    }

    /// What a command does in a layer: the layer says who gets it (the pane shown, the messages
    /// overlay, the home screen, or the app for the keys that work everywhere).
    static func perform(_ s: inout AppState, _ c: Command, in layer: Layer) -> [Effect] {
        switch layer {
        case .global: return global(&s, c)
        case .messages: return sendToMessages(&s, c)
        case .home: return home(&s, c)
        default: return sendToPane(&s, c, in: layer)
        }
    }

    /// The keys that work everywhere.
    static func global(_ s: inout AppState, _ c: Command) -> [Effect] {
        switch c {
        case .quit:
            s.quitting = true
            return [.quit]
        case .redraw:
            return [.redraw(full: true)]
        case .switchTheme:
            swap(&s.theme, &s.alternateTheme)
            // Remembered: home.yaml's `theme:` (only that line changes), when there is a file
            // to write and it is not broken.
            guard s.homeFile != nil, homeWriteRefusal(s) == nil, s.home.theme != s.theme.name else { return [] }
            var home = s.home
            home.theme = s.theme.name
            return reconcile(&s, to: home, focus: nil) + [.writeHome(home)]
        case .toggleMessages:
            return sendToMessages(&s, c)
        default:
            return []
        }
    }

    /// A key on the home screen (no pane shows).
    static func home(_ s: inout AppState, _ c: Command) -> [Effect] {
        switch c {
        case .toggleHelp:
            return route(&s, [.push(.help(HelpPane()))])
        case .close:
            s.linkIndex = nil
        case .move(let d):
            move(&s, d)
        case .page(let delta):
            turnPage(&s, by: delta)
        case .firstTile:
            focusFirst(&s, page: s.page)
        case .walkLinks(let delta):
            walkLinks(&s, by: delta)
        case .activate:
            if let f = s.focusedTile, let c = s.highlightedControl { return activateControl(&s, tile: f, control: c) }
            return tap(&s)
        case .rotate(let delta):
            rotateKey(&s, by: delta)
        case .explain:
            if let f = s.focusedTile { explain(&s, tile: f) }
        case .reload:
            guard let t = s.focusedTile, let inst = s.shownInstance(t) else { return [] }
            return widgetCenter(&s, .reloadInstance(inst.id))
        case .reloadAll:
            return widgetCenter(&s, .reloadAllTimelines)
        case .listProblems:
            return route(&s, openProblems(s))
        case .edit(let command):
            return Editing.perform(&s, command, in: .home)
        default:
            break
        }
        return []
    }

    /// Applies a WidgetCenter request to the scheduler and says so in the status bar.
    static func widgetCenter(_ s: inout AppState, _ request: WidgetCenterRequest) -> [Effect] {
        switch request {
        case .reloadAllTimelines: s.say("reloading all")
        case .reloadTimelines(let kind): s.say("reloading \(kind)")
        case .reloadInstance(let id):
            s.say("reloading \(s.home.allInstances.first { $0.id == id }?.kind ?? id)")
        }
        s.scheduler.apply(request)
        return [.redraw(full: false)] + pump(&s)
    }

    /// Focus the nearest tile in a direction, by geometry: the candidate must lie that way,
    /// and distance along the direction counts less than sideways offset. At the edge of a
    /// page, left and right continue onto the neighbouring page.
    public static func move(_ s: inout AppState, _ d: Direction) {
        s.linkIndex = nil
        guard let fid = s.focusedTile, let cur = s.layout.tile(fid) else {
            focusFirst(&s, page: s.page)
            return
        }
        let here = cur.rect
        let candidates = s.layout.pages[cur.page].filter { $0.id != fid }
        func score(_ r: Rect) -> Int? {
            let (dx, dy): (Int, Int)
            switch d {
            case .right:
                guard r.x >= here.maxX else { return nil }
                dx = r.x - here.maxX
                dy = overlapGap(here.y, here.maxY, r.y, r.maxY)
            case .left:
                guard r.maxX <= here.x else { return nil }
                dx = here.x - r.maxX
                dy = overlapGap(here.y, here.maxY, r.y, r.maxY)
            case .down:
                guard r.y >= here.maxY else { return nil }
                dy = r.y - here.maxY
                dx = overlapGap(here.x, here.maxX, r.x, r.maxX)
            case .up:
                guard r.maxY <= here.y else { return nil }
                dy = here.y - r.maxY
                dx = overlapGap(here.x, here.maxX, r.x, r.maxX)
            }
            let horizontal = d == .left || d == .right
            let along = horizontal ? dx : dy
            let side = horizontal ? dy : dx
            // Prefer tiles that overlap sideways; among them the closest; ties go top-left.
            return along * 2 + side * 8 + (horizontal ? abs(r.y - here.y) : abs(r.x - here.x))
        }
        let best = candidates.compactMap { t in score(t.rect).map { (t, $0) } }.min { $0.1 < $1.1 }
        if let best {
            s.focusedTile = best.0.id
            return
        }
        if d == .right && cur.page + 1 < s.layout.pageCount {
            s.page = cur.page + 1
            focusNearest(&s, toY: here.y, fromLeft: true)
        }
        if d == .left && cur.page > 0 {
            s.page = cur.page - 1
            focusNearest(&s, toY: here.y, fromLeft: false)
        }
    }

    /// Distance between two intervals (0 when they overlap).
    static func overlapGap(_ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int) -> Int {
        if b1 <= a0 { return a0 - b1 + 1 }
        if b0 >= a1 { return b0 - a1 + 1 }
        return 0
    }

    static func focusNearest(_ s: inout AppState, toY y: Int, fromLeft: Bool) {
        let tiles = s.layout.pages[s.page]
        let pick = tiles.min { a, b in
            let ka = (abs(a.rect.y - y), fromLeft ? a.rect.x : -a.rect.maxX)
            let kb = (abs(b.rect.y - y), fromLeft ? b.rect.x : -b.rect.maxX)
            return ka < kb
        }
        s.focusedTile = pick?.id
    }

    static func focusFirst(_ s: inout AppState, page: Int) {
        guard s.layout.pages.indices.contains(page) else { return }
        s.focusedTile = s.layout.pages[page].first?.id
        s.linkIndex = nil
    }

    static func turnPage(_ s: inout AppState, by delta: Int) {
        let p = min(max(0, s.page + delta), s.layout.pageCount - 1)
        guard p != s.page else { return }
        s.page = p
        focusFirst(&s, page: p)
    }

    /// Cycle: none → first … last → none.
    static func step(_ index: Int?, by delta: Int, count n: Int) -> Int? {
        guard n > 0 else { return nil }
        let i = index.map { $0 + delta } ?? (delta > 0 ? 0 : n - 1)
        return (i < 0 || i >= n) ? nil : i
    }

    static func walkLinks(_ s: inout AppState, by delta: Int) {
        guard let f = s.focusedTile else { return }
        s.linkIndex = step(s.linkIndex, by: delta, count: s.targets(ofTile: f).count)
    }

    static func rotate(_ s: inout AppState, by delta: Int) {
        guard let f = s.focusedTile, let t = s.tile(f), t.items.count > 1 else { return }
        let i = ((s.stackIndex[f] ?? 0) + delta + t.items.count) % t.items.count
        s.stackIndex[f] = i
        s.linkIndex = nil
        noteManualRotation(&s, tile: f)
    }

    /// Enter on the focused tile: the highlighted link, else the tile's `widgetURL`, else
    /// the widget's own detail pane.
    static func tap(_ s: inout AppState) -> [Effect] {
        guard let f = s.focusedTile, let inst = s.shownInstance(f) else { return [] }
        let url = s.highlightedLink ?? s.tileWidgetURL(f) ?? DeepLink.make(kind: inst.kind)
        return open(&s, url: url, fromTile: f)
    }

    static func open(_ s: inout AppState, url: String, fromTile f: String) -> [Effect] {
        noteOpen(&s, tile: f)
        guard let link = DeepLink(url) else {
            s.say("cannot open \(TextSanitizer.singleLine(url))")
            return []
        }
        if link.isExternal {
            s.push(.external(LinkPane(tileID: f, link: link)))
            return []
        }
        // The tile's own instance handles its links; a link to another kind goes to that kind's first instance.
        let own = s.shownInstance(f)
        let target = own?.kind == link.kind ? own : s.home.allInstances.first { $0.kind == link.kind }
        guard let target else {
            s.say("no \(link.kind ?? "") widget for \(TextSanitizer.singleLine(link.url))")
            return []
        }
        s.push(.detail(DetailPane(tileID: f, instanceID: target.id, link: link)))
        return []
    }

    /// A mouse event that hit no link (links come as `.click`).
    static func mouse(_ s: inout AppState, _ m: MouseEvent) -> [Effect] {
        guard !s.layout.isTooSmall else { return [] }
        if s.pane.kind != .none { return mouseOnPane(&s, m) }
        let page = s.layout.pages.indices.contains(s.page) ? s.layout.pages[s.page] : []
        guard let hit = page.first(where: { $0.rect.contains(m.point) }) else { return [] }
        switch m.kind {
        case .wheelUp, .wheelDown:
            s.focusedTile = hit.id
            rotate(&s, by: m.kind == .wheelDown ? 1 : -1)
            return []
        case .press:
            s.focusedTile = hit.id
            s.linkIndex = nil
            return tap(&s)
        case .release:
            return []
        }
    }
}

extension Msg {
    /// The time passing and load results: they change timelines (and what is due), nothing the
    /// user looks at or chose (`App.smartStacks(_:onlyTouched:)`).
    var changesOnlyTimelines: Bool {
        switch self {
        case .tick, .loaded, .sampled, .loadTimedOut: return true
        default: return false
        }
    }
}
