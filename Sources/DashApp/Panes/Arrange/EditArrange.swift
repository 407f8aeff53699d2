import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

/// Arrange mode (iOS's jiggle mode): a lifted tile moves through the flow with the arrows.
public struct ArrangeState: Sendable {
    /// The focused tile is lifted: the arrows move it.
    public var lifted: Bool
    /// The tile the lifted one hovers over (same family): dropping there makes a stack.
    public var hover: String?
    /// The home screen when the tile was lifted: the whole move is one undo step.
    var before: EditSnapshot?
    /// A mouse press lifted this tile; the release drops it where the pointer is.
    var dragging: String?
}

extension Editing {
    // MARK: - Changing the home screen (one place for every kind of change)

    static func snapshot(_ s: AppState, _ what: String) -> EditSnapshot {
        EditSnapshot(home: s.home, focus: s.focusedTile, stackIndex: s.stackIndex, what: what)
    }

    /// Replaces the home screen as one undoable step named `what`, and writes it.
    /// While home.yaml is broken the change is refused before it shows, and the status bar says why.
    static func changeHome(_ s: inout AppState, to home: HomeConfig, what: String, focus: String?) -> [Effect] {
        guard home != s.home else { return [] }
        if let refusal = App.homeWriteRefusal(s) {
            s.say(refusal)
            return [.redraw(full: false)]
        }
        s.editing.history.record(snapshot(s, what))
        s.noteUndoable(.edit)
        // Ids it brings are used: undone, they are never given again.
        s.editing.lastID = max(s.editing.lastID, highestID(in: home))
        return applyHome(&s, home, focus: focus, write: true)
    }

    /// Puts `home` in place through the one reconciler (`App.reconcile`), focus on `focus`, and
    /// writes it when `write` (arrange mode moves a lifted tile without writing until the drop).
    static func applyHome(_ s: inout AppState, _ home: HomeConfig, focus: String?, write: Bool) -> [Effect] {
        let fx = App.reconcile(&s, to: home, focus: focus)
        return (write ? [Effect.writeHome(s.home)] : []) + fx
    }

    /// A new id for a tile ("t9") or an instance ("w9"), never one in use or used before.
    static func newID(_ s: inout AppState, _ prefix: String) -> String {
        let n = highestID(s) + 1
        s.editing.lastID = n
        return prefix + String(n)
    }

    /// The highest number an id ("t7", "w7") has had this session: a new id takes a higher one.
    static func highestID(_ s: AppState) -> Int { max(s.editing.lastID, highestID(in: s.home)) }

    static func highestID(in home: HomeConfig) -> Int {
        var n = 0
        for t in home.tiles {
            n = max(n, Int(t.id.dropFirst()) ?? 0)
            for i in t.items { n = max(n, Int(i.id.dropFirst()) ?? 0) }
        }
        return n
    }

    static func name(_ s: AppState, tile: TileInstance) -> String {
        let names = tile.items.map { s.bundle[$0.kind]?.displayName ?? $0.kind }
        return names.count > 1 ? "a stack of \(names.count)" : names.first ?? tile.id
    }

    // MARK: - Undo

    static func undo(_ s: inout AppState) -> [Effect] {
        replay(&s, from: \.undo, to: \.redo, empty: "nothing to undo") { "undone: \($0) (Ctrl-R redoes)" }
    }

    static func redo(_ s: inout AppState) -> [Effect] {
        replay(&s, from: \.redo, to: \.undo, empty: "nothing to redo") { "redone: \($0)" }
    }

    /// Puts back the last step of one history, keeping the screen as it was on the other.
    static func replay(
        _ s: inout AppState, from: WritableKeyPath<EditHistory, [EditSnapshot]>,
        to: WritableKeyPath<EditHistory, [EditSnapshot]>, empty: String, said: (String) -> String
    ) -> [Effect] {
        guard let step = s.editing.history[keyPath: from].popLast() else {
            s.say(empty)
            return []
        }
        s.editing.history[keyPath: to].append(snapshot(s, step.what))
        let fx = applyHome(&s, step.home, focus: step.focus, write: true)
        s.stackIndex = step.stackIndex
        s.say(said(step.what))
        return fx
    }

    // MARK: - Remove and resize

    /// `d`: removes the focused tile, or the widget a stack shows.
    static func removeFocused(_ s: inout AppState) -> [Effect] {
        guard let f = s.focusedTile, let tile = s.tile(f),
            let ti = s.home.tiles.firstIndex(where: { $0.id == f })
        else { return [] }
        var home = s.home
        let what: String
        var focus: String? = f
        if tile.items.count > 1 {
            let i = min(s.stackIndex[f] ?? 0, tile.items.count - 1)
            let gone = tile.items[i]
            home.tiles[ti].items.remove(at: i)
            what = "remove \(s.bundle[gone.kind]?.displayName ?? gone.kind) from a stack"
        } else {
            home.tiles.remove(at: ti)
            what = "remove \(name(s, tile: tile))"
            // The focus goes to the tile that takes its place in the flow (else the one before).
            focus = home.tiles.indices.contains(ti) ? home.tiles[ti].id : home.tiles.last?.id
            if focus == nil { s.focusedTile = nil }
        }
        let fx = changeHome(&s, to: home, what: what, focus: focus)
        s.say("\(what.prefix(1).uppercased() + what.dropFirst()): u undoes")
        return fx
    }

    /// `f`: the next family all of the tile's widgets support.
    static func cycleFamily(_ s: inout AppState) -> [Effect] {
        guard let f = s.focusedTile, let tile = s.tile(f),
            let ti = s.home.tiles.firstIndex(where: { $0.id == f })
        else { return [] }
        let common = WidgetFamily.allCases.filter { fam in
            tile.items.allSatisfy { s.bundle[$0.kind]?.supports(fam) ?? false }
        }
        guard common.count > 1 else {
            s.say("\(name(s, tile: tile)) has one size only")
            return []
        }
        let next = common[((common.firstIndex(of: tile.family) ?? -1) + 1) % common.count]
        var home = s.home
        home.tiles[ti].family = next
        let fx = changeHome(&s, to: home, what: "resize \(name(s, tile: tile))", focus: f)
        var note = "\(name(s, tile: tile)) is now \(next.displayName.lowercased())"
        if let drawn = s.drawnFamily(ofTile: f), drawn != next {
            note += " (drawn \(drawn.displayName.lowercased()) here)"
        }
        s.say(note)
        return fx
    }
}

// MARK: - Arrange mode

extension ArrangeState: PaneComponent {
    public enum Action: Sendable, Equatable {
        case leave, lift, remove, cycleFamily, undo, redo
        case moveTile(Direction), movePage(Int)
        /// A press on a tile (on one of its links or not): lift it.
        case press(tile: String)
        /// A click on a tile's link (a press), or a mouse event.
        case pointer(Pointer)
        /// Drop the lifted tile where it is now (after a drag moved it).
        case drop
        /// Lift the focused tile (after a drop, the one pressed).
        case liftFocused
    }

    static func action(for command: Command, in layer: Layer) -> Action? {
        switch command {
        case .edit(.cancel): return .leave
        case .edit(.lift): return .lift
        case .edit(.remove): return .remove
        case .edit(.cycleFamily): return .cycleFamily
        case .edit(.undo): return .undo
        case .edit(.redo): return .redo
        case .edit(.moveTile(let d)): return .moveTile(d)
        case .edit(.movePage(let delta)): return .movePage(delta)
        default: return nil
        }
    }

    /// `m` on the home screen: arrange mode opens with the focused tile lifted.
    static func open(_ s: AppState) -> [Output] {
        guard let f = s.focusedTile, s.tile(f) != nil else { return [.say("no tile to arrange: add one with a")] }
        return [.push(.arrange(ArrangeState(lifted: true, hover: nil, before: Editing.snapshot(s, "move a tile"))))]
    }

    static func reduce(into a: inout ArrangeState, _ action: Action, _ context: PaneContext) -> [Output] {
        let s = context.app
        switch action {
        case .leave:
            return a.drop(s) + [.close]
        case .lift:
            if a.lifted { return a.drop(s) }
            a.lift(s)
        case .liftFocused:
            a.lift(s)
        case .drop:
            return a.drop(s)
        // Dropped first, then the home screen's tiles change (Editing.arrangeEdit).
        case .remove: return a.drop(s) + [.editCommand(.remove, in: .arrange)]
        case .cycleFamily: return a.drop(s) + [.editCommand(.cycleFamily, in: .arrange)]
        case .undo: return a.drop(s) + [.editCommand(.undo, in: .arrange)]
        case .redo: return a.drop(s) + [.editCommand(.redo, in: .arrange)]
        case .moveTile(let d):
            guard a.lifted else { return [.home(.move(d))] }
            return a.moveLifted(d, s)
        case .movePage(let delta):
            guard a.lifted else { return [.home(.page(delta))] }
            return a.moveLiftedToPage(delta, s)
        case .press(let id):
            guard s.layout.tile(id) != nil else { break }
            if a.lifted, s.focusedTile != id {
                // Dropped where it is; the tile pressed is lifted from the screen the drop left.
                let out = a.drop(s)
                a.dragging = id
                return out + [.focus(tile: id), .arrange(.liftFocused)]
            }
            if !a.lifted { a.lift(s, focus: id) }
            a.dragging = id
            return [.focus(tile: id)]
        case .pointer(.click(let tile)):
            return reduce(into: &a, .press(tile: tile), context) + [.effect(.redraw(full: false))]
        case .pointer(.mouse(let m)):
            return a.mouse(m, s)
        }
        return []
    }

    mutating func lift(_ s: AppState, focus: String? = nil) {
        guard (focus ?? s.focusedTile).flatMap({ s.tile($0) }) != nil else { return }
        var before = Editing.snapshot(s, "move a tile")
        if let focus { before.focus = focus }
        self = ArrangeState(lifted: true, hover: nil, before: before, dragging: dragging)
    }

    /// Drops the lifted tile where it is, or onto the tile it hovers over (a stack): the whole
    /// move is one undo step, written.
    mutating func drop(_ s: AppState) -> [Output] {
        guard lifted, let f = s.focusedTile, let tile = s.tile(f) else { return [] }
        var out: [Output] = []
        var what = "move \(Editing.name(s, tile: tile))"
        if let target = hover, let t = s.tile(target), t.family == tile.family,
            let ti = s.home.tiles.firstIndex(where: { $0.id == target })
        {
            var home = s.home
            let first = home.tiles[ti].items.count
            home.tiles[ti].items += tile.items
            home.tiles.removeAll { $0.id == f }
            what =
                t.items.count > 1
                ? "add \(Editing.name(s, tile: tile)) to a stack" : "stack \(Editing.name(s, tile: tile))"
            out += [
                .place(home, focus: target), .showItem(tile: target, index: first),
                .say("\(what.prefix(1).uppercased() + what.dropFirst()): < > rotate it, u undoes"),
            ]
        }
        if var step = before {
            step.what = what
            out.append(.commit(step))
        }
        lifted = false
        hover = nil
        before = nil
        dragging = nil
        return out + [.effect(.redraw(full: false))]
    }

    /// ← →: through the flow one step; over a tile of the same family first (drop: stack).
    /// ↑ ↓: to the place of the tile above or below.
    mutating func moveLifted(_ d: Direction, _ s: AppState) -> [Output] {
        guard let f = s.focusedTile, let i = s.home.tiles.firstIndex(where: { $0.id == f }) else { return [] }
        let lifted = s.home.tiles[i]
        var home = s.home
        switch d {
        case .left, .right:
            let step = d == .right ? 1 : -1
            if let h = hover {
                // Off the tile it hovered over: past it when going on, back to the gap when not.
                hover = nil
                guard let hi = home.tiles.firstIndex(where: { $0.id == h }) else { break }
                if (hi > i) == (step > 0) {
                    home.tiles.remove(at: i)
                    home.tiles.insert(lifted, at: hi)
                }
            } else {
                let j = i + step
                guard home.tiles.indices.contains(j) else {
                    return [.say(step > 0 ? "already the last tile" : "already the first tile")]
                }
                if home.tiles[j].family == lifted.family && Editing.canStack(s, lifted, onto: home.tiles[j]) {
                    hover = home.tiles[j].id
                } else {
                    home.tiles.swapAt(i, j)
                }
            }
        case .up, .down:
            hover = nil
            var probe = s.focus
            probe.move(d, in: s.layout)
            guard let target = probe.focusedTile, target != f,
                let ti = home.tiles.firstIndex(where: { $0.id == target })
            else { return [.say(d == .up ? "nothing above" : "nothing below")] }
            home.tiles.remove(at: i)
            let at = home.tiles.firstIndex(where: { $0.id == target }) ?? ti
            home.tiles.insert(lifted, at: ti > i ? at + 1 : at)
        }
        return home == s.home ? [] : [.place(home, focus: f)]
    }

    /// PgDn: to the first place on the next page; PgUp: to the last place on the previous
    /// one. Pages reflow as a tile leaves, so the place is found by trying the flow.
    mutating func moveLiftedToPage(_ delta: Int, _ s: AppState) -> [Output] {
        guard let f = s.focusedTile, let placed = s.layout.tile(f),
            let i = s.home.tiles.firstIndex(where: { $0.id == f })
        else { return [] }
        hover = nil
        let target = placed.page + delta
        var rest = s.home
        let lifted = rest.tiles.remove(at: i)
        var probe = s
        func page(at j: Int) -> Int? {
            probe.home = rest
            probe.home.tiles.insert(lifted, at: j)
            probe.relayout()
            return probe.layout.tile(f)?.page
        }
        let places = delta > 0 ? Array(i...rest.tiles.count) : Array((0...i).reversed())
        guard let j = places.first(where: { page(at: $0) == target }) else {
            return [.say(delta > 0 ? "already on the last page" : "already on the first page")]
        }
        rest.tiles.insert(lifted, at: j)
        return [.place(rest, focus: f)]
    }

    // MARK: - The mouse in arrange mode

    /// Presses lift, releases drop: on the middle of a tile of the same size it makes a
    /// stack, elsewhere on a tile the dragged one takes its place (before or after it).
    mutating func mouse(_ m: MouseEvent, _ s: AppState) -> [Output] {
        let page = s.layout.pages.indices.contains(s.page) ? s.layout.pages[s.page] : []
        let hit = page.first { $0.rect.contains(m.point) }
        switch m.kind {
        case .press:
            guard let hit else { return [] }
            return Self.reduce(into: &self, .press(tile: hit.id), PaneContext(app: s))
        case .release:
            guard lifted, let dragged = dragging, dragged == s.focusedTile else { return [] }
            dragging = nil
            guard let hit, hit.id != dragged, let lifted = s.tile(dragged), let target = s.tile(hit.id) else {
                return []
            }
            let r = hit.rect
            let middle = m.point.x >= r.x + r.width / 4 && m.point.x < r.maxX - r.width / 4
            if middle && Editing.canStack(s, lifted, onto: target) {
                hover = hit.id
                return drop(s)
            }
            var home = s.home
            guard let i = home.tiles.firstIndex(where: { $0.id == dragged }) else { return [] }
            let moving = home.tiles.remove(at: i)
            guard let ti = home.tiles.firstIndex(where: { $0.id == hit.id }) else { return [] }
            home.tiles.insert(moving, at: m.point.x < r.center.x ? ti : ti + 1)
            return [.place(home, focus: dragged), .arrange(.drop)]
        case .wheelUp, .wheelDown:
            return []
        }
    }
}

extension Editing {
    /// Whether a tile's widgets may join a stack of another tile (of the same family).
    static func canStack(_ s: AppState, _ tile: TileInstance, onto other: TileInstance) -> Bool {
        tile.id != other.id && tile.family == other.family
            && tile.items.allSatisfy { s.bundle[$0.kind]?.supports(other.family) ?? false }
    }

    /// The home screen's tiles changed as arrange mode asks after a drop (`Output.editCommand`
    /// from arrange mode): remove, resize, undo, redo.
    static func arrangeEdit(_ s: inout AppState, _ c: EditCommand) -> [Effect] {
        switch c {
        case .remove: return removeFocused(&s)
        case .cycleFamily: return cycleFamily(&s)
        case .undo: return undo(&s)
        case .redo: return redo(&s)
        default: return []
        }
    }
}
