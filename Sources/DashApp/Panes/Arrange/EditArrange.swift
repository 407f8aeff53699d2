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

    // MARK: - Arrange mode

    /// `m`: lifts the focused tile.
    static func openArrange(_ s: inout AppState) -> [Effect] {
        guard let f = s.focusedTile, s.tile(f) != nil else {
            s.say("no tile to arrange: add one with a")
            return []
        }
        s.push(.arrange(ArrangeState(lifted: true, hover: nil, before: snapshot(s, "move a tile"))))
        s.linkIndex = nil
        return []
    }

    static func leaveArrange(_ s: inout AppState) -> [Effect] {
        let fx = drop(&s)
        s.closeTop()
        return fx
    }

    /// Drops the lifted tile where it is, or onto the tile it hovers over (a stack).
    static func drop(_ s: inout AppState) -> [Effect] {
        guard var a = s.arrange, a.lifted, let f = s.focusedTile, let tile = s.tile(f) else { return [] }
        var fx: [Effect] = []
        var what = "move \(name(s, tile: tile))"
        if let target = a.hover, let t = s.tile(target), t.family == tile.family,
            let ti = s.home.tiles.firstIndex(where: { $0.id == target })
        {
            var home = s.home
            let first = home.tiles[ti].items.count
            home.tiles[ti].items += tile.items
            home.tiles.removeAll { $0.id == f }
            what = t.items.count > 1 ? "add \(name(s, tile: tile)) to a stack" : "stack \(name(s, tile: tile))"
            fx = applyHome(&s, home, focus: target, write: false)
            s.stackIndex[target] = first
            s.say("\(what.prefix(1).uppercased() + what.dropFirst()): < > rotate it, u undoes")
        }
        if let before = a.before, before.home != s.home {
            var step = before
            step.what = what
            s.editing.history.record(step)
            s.noteUndoable(.edit)
            fx += [.writeHome(s.home)]
        }
        a.lifted = false
        a.hover = nil
        a.before = nil
        a.dragging = nil
        s.replaceTop(.arrange(a))
        return fx + [.redraw(full: false)]
    }

    /// Arrange mode's state, changed in place (it is the pane shown).
    static func changeArrange(_ s: inout AppState, _ change: (inout ArrangeState) -> Void) {
        guard var a = s.arrange else { return }
        change(&a)
        s.replaceTop(.arrange(a))
    }

    static func lift(_ s: inout AppState) {
        guard s.focusedTile.flatMap({ s.tile($0) }) != nil else { return }
        s.replaceTop(.arrange(ArrangeState(lifted: true, hover: nil, before: snapshot(s, "move a tile"))))
    }

    static func arrangePerform(_ s: inout AppState, _ c: EditCommand) -> [Effect] {
        guard let a = s.arrange else {
            s.closeTop()
            return []
        }
        switch c {
        case .cancel:
            return leaveArrange(&s)
        case .lift:
            if a.lifted { return drop(&s) }
            lift(&s)
            return []
        case .remove:
            let fx = drop(&s)
            return fx + removeFocused(&s)
        case .cycleFamily:
            let fx = drop(&s)
            return fx + cycleFamily(&s)
        case .undo, .redo:
            let fx = drop(&s)
            return fx + (c == .undo ? undo(&s) : redo(&s))
        case .moveTile(let d):
            guard a.lifted else {
                App.move(&s, d)
                return []
            }
            return moveLifted(&s, d)
        case .movePage(let delta):
            guard a.lifted else {
                App.turnPage(&s, by: delta)
                return []
            }
            return moveLiftedToPage(&s, delta)
        default:
            return []
        }
    }

    /// ← →: through the flow one step; over a tile of the same family first (drop: stack).
    /// ↑ ↓: to the place of the tile above or below.
    static func moveLifted(_ s: inout AppState, _ d: Direction) -> [Effect] {
        guard var a = s.arrange, let f = s.focusedTile,
            let i = s.home.tiles.firstIndex(where: { $0.id == f })
        else { return [] }
        let lifted = s.home.tiles[i]
        var home = s.home
        switch d {
        case .left, .right:
            let step = d == .right ? 1 : -1
            if let h = a.hover {
                // Off the tile it hovered over: past it when going on, back to the gap when not.
                a.hover = nil
                guard let hi = home.tiles.firstIndex(where: { $0.id == h }) else { break }
                if (hi > i) == (step > 0) {
                    home.tiles.remove(at: i)
                    home.tiles.insert(lifted, at: hi)
                }
            } else {
                let j = i + step
                guard home.tiles.indices.contains(j) else {
                    s.say(step > 0 ? "already the last tile" : "already the first tile")
                    return []
                }
                if home.tiles[j].family == lifted.family && canStack(s, lifted, onto: home.tiles[j]) {
                    a.hover = home.tiles[j].id
                } else {
                    home.tiles.swapAt(i, j)
                }
            }
        case .up, .down:
            a.hover = nil
            var probe = s
            probe.closeAll()
            App.move(&probe, d)
            guard let target = probe.focusedTile, target != f,
                let ti = home.tiles.firstIndex(where: { $0.id == target })
            else {
                s.say(d == .up ? "nothing above" : "nothing below")
                s.replaceTop(.arrange(a))
                return []
            }
            home.tiles.remove(at: i)
            let at = home.tiles.firstIndex(where: { $0.id == target }) ?? ti
            home.tiles.insert(lifted, at: ti > i ? at + 1 : at)
        }
        s.replaceTop(.arrange(a))
        return home == s.home ? [] : applyHome(&s, home, focus: f, write: false)
    }

    /// Whether a tile's widgets may join a stack of another tile (of the same family).
    static func canStack(_ s: AppState, _ tile: TileInstance, onto other: TileInstance) -> Bool {
        tile.id != other.id && tile.family == other.family
            && tile.items.allSatisfy { s.bundle[$0.kind]?.supports(other.family) ?? false }
    }

    /// PgDn: to the first place on the next page; PgUp: to the last place on the previous
    /// one. Pages reflow as a tile leaves, so the place is found by trying the flow.
    static func moveLiftedToPage(_ s: inout AppState, _ delta: Int) -> [Effect] {
        guard var a = s.arrange, let f = s.focusedTile, let placed = s.layout.tile(f),
            let i = s.home.tiles.firstIndex(where: { $0.id == f })
        else { return [] }
        a.hover = nil
        s.replaceTop(.arrange(a))
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
            s.say(delta > 0 ? "already on the last page" : "already on the first page")
            return []
        }
        rest.tiles.insert(lifted, at: j)
        return applyHome(&s, rest, focus: f, write: false)
    }

    // MARK: - The mouse in arrange mode

    /// A press on a tile (on one of its links or not): lift it.
    static func press(_ s: inout AppState, tile id: String) -> [Effect] {
        guard s.layout.tile(id) != nil else { return [] }
        var fx: [Effect] = []
        if s.arrange?.lifted == true, s.focusedTile != id { fx = drop(&s) }
        s.focusedTile = id
        if s.arrange?.lifted != true { lift(&s) }
        changeArrange(&s) { $0.dragging = id }
        return fx
    }

    /// Presses lift, releases drop: on the middle of a tile of the same size it makes a
    /// stack, elsewhere on a tile the dragged one takes its place (before or after it).
    static func mouse(_ s: inout AppState, _ m: MouseEvent) -> [Effect] {
        let page = s.layout.pages.indices.contains(s.page) ? s.layout.pages[s.page] : []
        let hit = page.first { $0.rect.contains(m.point) }
        switch m.kind {
        case .press:
            guard let hit else { return [] }
            return press(&s, tile: hit.id)
        case .release:
            guard let a = s.arrange, a.lifted, let dragged = a.dragging, dragged == s.focusedTile else {
                return []
            }
            changeArrange(&s) { $0.dragging = nil }
            guard let hit, hit.id != dragged, let lifted = s.tile(dragged), let target = s.tile(hit.id) else {
                return []
            }
            let r = hit.rect
            let middle = m.point.x >= r.x + r.width / 4 && m.point.x < r.maxX - r.width / 4
            if middle && canStack(s, lifted, onto: target) {
                changeArrange(&s) { $0.hover = hit.id }
                return drop(&s)
            }
            var home = s.home
            guard let i = home.tiles.firstIndex(where: { $0.id == dragged }) else { return [] }
            let moving = home.tiles.remove(at: i)
            guard let ti = home.tiles.firstIndex(where: { $0.id == hit.id }) else { return [] }
            home.tiles.insert(moving, at: m.point.x < r.center.x ? ti : ti + 1)
            let fx = applyHome(&s, home, focus: dragged, write: false)
            return fx + drop(&s)
        case .wheelUp, .wheelDown:
            return []
        }
    }
}
