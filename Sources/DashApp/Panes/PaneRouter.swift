import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

/// A pane as a component: its state is the type itself, its `Action`s come from the key table's
/// commands in its layers, and `reduce` changes only its own state. What it wants of the rest
/// of the app it returns as `Output`s, which `App.route` applies (helix's `Component`, the
/// Composable Architecture's presented child).
protocol PaneComponent: Sendable {
    associatedtype Action: Sendable
    /// The action a command of the key table means in this pane's `layer`, if it means one.
    static func action(for command: Command, in layer: Layer) -> Action?
    /// The pure step: the pane's own state, read-only context, and what the app should do.
    static func reduce(into state: inout Self, _ action: Action, _ context: PaneContext) -> [Output]
    /// The pane's keys: its layers and the rows bound in each (the key table assembles them).
    static var keys: [PaneKeys] { get }
}

/// A pane on the stack: besides its keys and its `reduce`, what it gets of the mouse and of the
/// runtime's answers, the layers keys pass through while it shows, whether it outlives a change
/// of the home screen, and its view. The router reaches every pane through this protocol
/// (`Pane.component`), so adding a pane adds no line to the router.
protocol StackedPane: PaneComponent {
    /// The action an input means in this pane (a key's command, the mouse, an answer it asked for).
    static func action(for input: PaneInput) -> Action?
    /// The pane on the stack holding this state.
    var pane: Pane { get }
    /// The layers a key passes through while it shows, top first.
    func layers(_ s: AppState) -> [Layer]
    /// Whether it still has its subject after the home screen changed (a detail pane on a
    /// removed widget closes).
    func survives(in home: HomeConfig, instances: Set<String>) -> Bool
    /// Draws it over the home screen.
    func draw(_ s: AppState, _ env: RenderEnvironment, into frame: inout HomeFrame)
}

extension StackedPane {
    /// A key's command, through `action(for:in:)`; a pane that takes the mouse or answers says so.
    static func action(for input: PaneInput) -> Action? {
        guard case .command(let c, let layer) = input else { return nil }
        return action(for: c, in: layer)
    }

    func survives(in home: HomeConfig, instances: Set<String>) -> Bool { true }
}

/// What reaches the pane shown.
public enum PaneInput: Sendable {
    /// A key's command, in the layer that bound it.
    case command(Command, Layer)
    /// The mouse.
    case pointer(Pointer)
    /// A preview the pane asked the runtime for.
    case preview(token: UInt64, result: Result<AnyEntry, any Error>)
    /// A directory listed for a file path's completion.
    case listing(token: UInt64, result: Result<[DirectoryEntry], any Error>)
}

/// What a pane reads of the app while it reduces an action: a copy, so it cannot write it.
public struct PaneContext: Sendable {
    let app: AppState

    public var home: HomeConfig { app.home }
    public var bundle: WidgetBundle { app.bundle }
    public var layout: HomeLayout { app.layout }
    public var now: Date { app.now }
    public var screen: Size { app.screen }

    /// The `i`th token not yet used to name work for the runtime (a pane that uses some says
    /// how many: `Output.tookTokens`).
    func token(_ i: Int) -> UInt64 { app.editing.nextToken + UInt64(i) }
}

/// What a pane asks of the app instead of writing `AppState`; `App.route` is the one place that
/// applies them.
public enum Output: Sendable {
    /// Work for the runtime.
    case effect(Effect)
    /// The pane named work with this many of the context's tokens (`PaneContext.token`).
    case tookTokens(Int)
    /// The pane closes; the one under it shows as it was left (or the home screen).
    case close
    /// Every pane closes: the home screen shows.
    case closeAll
    /// A pane opens over this one (over the same pane on the same subject: in its place).
    case push(Pane)
    /// The home screen changes as one undoable step called `reason`, and is written.
    case change(HomeConfig, reason: String, focus: String?)
    /// A note on the status line.
    case say(String)
    /// The home screen's focus moves to a tile, if it is still there, and the page follows it (a
    /// detail pane or the form closing gives it back).
    case focus(tile: String)
    /// A link opened from a tile: its detail pane or its link pane, over this one.
    case open(url: String, fromTile: String)
    /// Reloads asked of the scheduler, as WidgetCenter asks them (`r`, `R`).
    case widgetCenter(WidgetCenterRequest)
    /// Smart Rotate's reason for a tile, said (`w`).
    case explain(tile: String)
    /// The Edit Widget form opens on a widget instance (`e`; from a stack's list: in its place).
    case edit(tile: String, instance: String, inStack: Bool)
    /// A dynamic enum's options, as this session knows them (the app keeps them for every form).
    case options(key: String, OptionsLoad?)
    /// The form's save is on its way to the file (if a write was asked for just before): a
    /// refused write opens the form again.
    case saving(tile: String, instance: String, row: Int)
    /// An editing command from the home screen (e, a, m, d, u) or arrange mode (d, f, u, Ctrl-R):
    /// `Editing.perform` in that layer.
    case editCommand(EditCommand, in: Layer)
    /// An action for the home screen (arrange mode's arrows move the focus when nothing is lifted).
    case home(HomeFocus.Action)
    /// The home screen shows `home`, not written yet and not an undo step (arrange mode moving a
    /// lifted tile).
    case place(HomeConfig, focus: String)
    /// `step` becomes an undo step and the home screen is written, if it changed since `step`.
    case commit(EditSnapshot)
    /// A stack shows item `index`.
    case showItem(tile: String, index: Int)
    /// An action for arrange mode once the outputs before it are applied.
    case arrange(ArrangeState.Action)
    /// A tile's button or toggle is pressed.
    case press(tile: String, control: TileControl)
    /// A stack shows its next or previous item, by hand.
    case rotate(tile: String, by: Int)
}

extension App {
    /// The layers a key passes through now, top first.
    public static func layers(_ s: AppState) -> [Layer] {
        if s.messages.shown { return [.messages, .global] }
        if let pane = s.pane.component { return pane.layers(s) }
        if s.layout.isTooSmall { return [.global] }
        return s.focus.stripActivity == nil ? [.home, .global] : [.strip, .global]
    }

    /// Something for the pane shown: its `reduce` gets the action it means, the router puts the
    /// new state back on the stack and applies what comes back.
    static func send(_ s: inout AppState, _ input: PaneInput) -> [Effect] {
        guard let pane = s.pane.component else { return [] }
        return send(&s, pane, input)
    }

    private static func send<P: StackedPane>(_ s: inout AppState, _ state: P, _ input: PaneInput) -> [Effect] {
        guard let a = P.action(for: input) else { return [] }
        return reduce(&s, state, a)
    }

    /// A command for the messages overlay (Ctrl-G), over whatever pane shows.
    static func sendToMessages(_ s: inout AppState, _ c: Command) -> [Effect] {
        guard let a = MessagesPane.action(for: c, in: .messages) else { return [] }
        var m = s.messages
        let out = MessagesPane.reduce(into: &m, a, PaneContext(app: s))
        s.messages = m
        return route(&s, out)
    }

    /// An action for the home screen (the focus, what opens from a tile).
    static func sendToHome(_ s: inout AppState, _ a: HomeFocus.Action) -> [Effect] {
        var f = s.focus
        let out = HomeFocus.reduce(into: &f, a, PaneContext(app: s))
        s.focus = f
        return route(&s, out)
    }

    /// A link opened from a tile: its detail pane, or for a web link the link pane, over the
    /// pane shown.
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

    /// An action for the gallery, if it shows (the extensions changed).
    static func sendToGallery(_ s: inout AppState, _ a: GalleryState.Action) -> [Effect] {
        guard case .gallery(let g) = s.pane else { return [] }
        return reduce(&s, g, a)
    }

    /// `action` reduced by the pane shown (`state`), its new state put back on the stack, and
    /// what it asked for applied.
    private static func reduce<P: StackedPane>(_ s: inout AppState, _ state: P, _ a: P.Action) -> [Effect] {
        var state = state
        let out = P.reduce(into: &state, a, PaneContext(app: s))
        s.replaceTop(state.pane)
        return route(&s, out)
    }

    /// Applies what panes asked for, in order: the one place outputs change the app.
    static func route(_ s: inout AppState, _ outputs: [Output]) -> [Effect] {
        var fx: [Effect] = []
        for o in outputs {
            switch o {
            case .effect(let e): fx.append(e)
            case .tookTokens(let n): s.editing.nextToken += UInt64(n)
            case .close: s.closeTop()
            case .closeAll: s.closeAll()
            case .push(let p): s.push(p)
            case .change(let home, let reason, let focus):
                fx += Editing.changeHome(&s, to: home, what: reason, focus: focus)
            case .say(let text): s.say(text)
            case .focus(let tile):
                // The page follows the focus.
                guard s.tile(tile) != nil else { break }
                s.focusedTile = tile
                s.relayout()
            case .open(let url, let tile): fx += open(&s, url: url, fromTile: tile)
            case .widgetCenter(let request): fx += widgetCenter(&s, request)
            case .explain(let tile): explain(&s, tile: tile)
            case .editCommand(let c, let layer): fx += Editing.perform(&s, c, in: layer)
            case .home(let a): fx += sendToHome(&s, a)
            case .place(let home, let focus): fx += Editing.applyHome(&s, home, focus: focus, write: false)
            case .commit(let step):
                guard step.home != s.home else { break }
                s.editing.history.record(step)
                s.noteUndoable(.edit)
                fx.append(.writeHome(s.home))
            case .showItem(let tile, let index): s.stackIndex[tile] = index
            case .arrange(let a):
                guard case .arrange(let state) = s.pane else { break }
                fx += reduce(&s, state, a)
            case .press(let tile, let control): fx += activateControl(&s, tile: tile, control: control)
            case .rotate(let tile, let delta): rotate(&s, tile: tile, by: delta)
            case .edit(let tile, let id, let inStack):
                guard let inst = s.home.instance(id) else { break }
                fx += Editing.startEditing(&s, tileID: tile, instance: inst, inStack: inStack)
            case .options(let key, let load):
                s.editing.options[key] = load
                if case .loading(let token)? = load { s.editing.optionTokens[token] = key }
            case .saving(let tile, let id, let row):
                let writes = fx.contains { if case .writeHome = $0 { return true } else { return false } }
                s.editing.saving = writes ? (tile, id, row) : nil
            }
        }
        return fx
    }
}

/// The mouse over a pane: a click on a tile's link, or any other mouse event.
public enum Pointer: Sendable, Equatable {
    case click(tile: String)
    case mouse(MouseEvent)
}

// MARK: - The stack

extension AppState {
    /// Opens `pane` over the one shown; over the same pane on the same subject it takes its place
    /// (opening it again is not a level to step back to).
    fileprivate mutating func push(_ pane: Pane) {
        if let top = panes.last, top.isSame(as: pane) { panes.removeLast() }
        panes.append(pane)
    }

    /// Closes the pane shown: the one under it shows as it was left.
    fileprivate mutating func closeTop() { _ = panes.popLast() }

    /// Closes every pane: the home screen shows.
    fileprivate mutating func closeAll() { panes.removeAll() }

    /// The shown pane's new state, after its `reduce` (a test may set a pane's state with it too).
    /// Only a pane of the same kind is replaced.
    mutating func replaceTop(_ pane: Pane) {
        guard let top = panes.last, top.kind == pane.kind else {
            assertionFailure("replacing \(self.pane.kind) with \(pane.kind)")
            return
        }
        panes[panes.count - 1] = pane
    }

    /// Closes every pane `keep` refuses (a detail pane whose widget went away), wherever it is
    /// in the stack.
    mutating func closePanes(where drop: (Pane) -> Bool) { panes.removeAll(where: drop) }
}
