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
            guard !s.layout.isTooSmall else { return [.redraw(full: false)] }
            let fx = s.pane.kind == .none ? sendToHome(&s, .mouse(m)) : send(&s, .pointer(.mouse(m)))
            return fx + [.redraw(full: false)]
        case .click(let tile, let url):
            if s.pane.kind != .none { return send(&s, .pointer(.click(tile: tile))) }
            guard !s.layout.isTooSmall, s.layout.tile(tile) != nil else { return [] }
            return sendToHome(&s, .click(tile: tile, url: url)) + [.redraw(full: false)]
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
        case .activitiesChanged(let book):
            return activitiesChanged(&s, book)
        case .activityDrawn(let key, let result):
            return activityDrawn(&s, key, result)
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
        case .home, .strip: return HomeFocus.action(for: c, in: layer).map { sendToHome(&s, $0) } ?? []
        default: return send(&s, .command(c, layer))
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
