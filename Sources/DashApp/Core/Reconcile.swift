import DashWidgets
import DashScheduler
import DashHome

extension App {
    /// The one way the home screen on screen changes, whoever changed it (an in-app edit, undo,
    /// arrange mode, an outside edit of home.yaml, a refused write, the command line through the
    /// file): the scheduler learns of every instance removed, added or changed (configuration,
    /// family or kind; unchanged ones keep their timelines), stacks keep their item where they
    /// still have it, the focus goes to `focus` (nil: it stays on its tile, or the tile now in its
    /// place), a pane on a removed tile or widget closes, and the layout follows.
    public static func reconcile(_ s: inout AppState, to home: HomeConfig, focus: String?) -> [Effect] {
        let focusIndex = s.home.tiles.firstIndex { $0.id == s.focusedTile }
        let focusedBefore = s.focusedTile
        let old = s.home
        s.home = home
        syncScheduler(&s, from: old)
        if let focus, s.tile(focus) != nil {
            s.focusedTile = focus
        } else if let f = s.focusedTile, s.tile(f) == nil {
            s.focusedTile = home.tiles.isEmpty ? nil : home.tiles[min(focusIndex ?? 0, home.tiles.count - 1)].id
        }
        if focus != nil || s.focusedTile != focusedBefore { s.linkIndex = nil }
        for (id, i) in s.stackIndex {
            guard let t = s.tile(id), t.items.count > 1 else {
                s.stackIndex[id] = nil
                continue
            }
            s.stackIndex[id] = min(i, t.items.count - 1)
        }
        let kept = Set(home.allInstances.map(\.id))
        s.closePanes { !($0.component?.survives(in: home, instances: kept) ?? true) }
        s.relayout()
        return pump(&s) + [.redraw(full: false)]
    }

    /// Registers, updates and unregisters instances so the scheduler has exactly `s.home`'s.
    static func syncScheduler(_ s: inout AppState, from old: HomeConfig) {
        var before: [String: (WidgetInstance, WidgetFamily)] = [:]
        for t in old.tiles { for i in t.items { before[i.id] = (i, t.family) } }
        var after: [String: (WidgetInstance, WidgetFamily)] = [:]
        for t in s.home.tiles { for i in t.items { after[i.id] = (i, t.family) } }
        for id in before.keys where after[id] == nil { s.scheduler.unregister(id) }
        for t in s.home.tiles {
            for inst in t.items {
                guard let widget = s.bundle[inst.kind] else { continue }
                if let (was, family) = before[inst.id], was.kind == inst.kind {
                    if was.config != inst.config || family != t.family {
                        s.scheduler.update(inst.id, configuration: inst.config, family: t.family, at: s.now)
                    }
                } else {
                    if before[inst.id] != nil { s.scheduler.unregister(inst.id) }
                    s.scheduler.register(
                        inst.id, widget: widget, configuration: inst.config, family: t.family,
                        at: s.now)
                }
            }
        }
    }
}
