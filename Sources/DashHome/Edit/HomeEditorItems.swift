import Foundation
import Yams
import DashWidgets

// `HomeEditor`: the lines of one widget instance, in a tile of its own or as an item of a stack,
// kept, edited or moved (with the comments above it).
extension HomeEditor {
    /// A stack item at dash column `d` with keys `offset` further: its old lines where it had
    /// some (edited, moved), else new ones.
    func stackItem(_ inst: WidgetInstance, dash d: Int, offset o: Int) -> [String] {
        if case .inStack(let el, _)? = itemSources[inst.id], oldItems[inst.id] == inst, el.column == d,
            itemOffset(el) == o
        {
            return verbatim(el)
        }
        if let piece = piece(inst) {
            return attachDash(
                piece.lines.shifted(by: d + o - piece.keyColumn), at: piece.firstContent, dash: d,
                keyColumn: d + o)
        }
        return attachDash(freshItemEntries(inst, keyColumn: d + o), at: 0, dash: d, keyColumn: d + o)
    }

    func itemOffset(_ el: YElement) -> Int? {
        if case .blockMap(let m) = el.value { return m.column - el.column }
        return nil
    }

    /// The `widget` and `config` entries of a single tile at key column `k`.
    func itemEntries(_ inst: WidgetInstance, keyColumn k: Int) -> [String] {
        if let piece = piece(inst) {
            // The comments above it stood at a dash's column: they go to the key column now.
            let lead = piece.lines[..<piece.firstContent].map { line in
                line.allSatisfy { $0 == " " || $0 == "\t" } ? line : pad(k) + line.drop { $0 == " " || $0 == "\t" }
            }
            return lead + Array(piece.lines[piece.firstContent...]).shifted(by: k - piece.keyColumn)
        }
        return freshItemEntries(inst, keyColumn: k)
    }

    /// An old instance's lines edited to `inst`: its entries at their key column, comments
    /// above it first (`firstContent` is the line to put a dash on).
    func piece(_ inst: WidgetInstance) -> (lines: [String], keyColumn: Int, firstContent: Int)? {
        guard let old = oldItems[inst.id] else { return nil }
        switch itemSources[inst.id] {
        case .inStack(let el, let map?)?:
            guard map.entries[0].start == el.start else { return nil }
            return withDashFree(el, map) {
                var keys = map.entries.compactMap(\.key)
                var edits: [String: (YElement) -> [String]] = [:]
                var makes: [String: () -> [String]] = [:]
                planItem(map, old: old, new: inst, keys: &keys, edits: &edits, makes: &makes)
                let body = emitMap(
                    map, keys: keys, edit: { e in edits[e.key ?? ""]?(e) ?? self.verbatim(e) },
                    make: { key in makes[key]?() ?? [] })
                let leadLines = lead(el)
                return (leadLines + body + copy(map.entries.last!.end..<el.end), map.column, leadLines.count)
            }
        case .inTile(let el, let map)?:
            let entries = map.entries.filter { $0.key == "widget" || $0.key == "config" }
            guard !entries.isEmpty else { return nil }
            let sub = YMap(column: map.column, entries: entries)
            return withDashFree(el, map) {
                var keys = entries.compactMap(\.key)
                var edits: [String: (YElement) -> [String]] = [:]
                var makes: [String: () -> [String]] = [:]
                planItem(sub, old: old, new: inst, keys: &keys, edits: &edits, makes: &makes)
                let body = emitMap(
                    sub, keys: keys, edit: { e in edits[e.key ?? ""]?(e) ?? self.verbatim(e) },
                    make: { key in makes[key]?() ?? [] }, contiguous: true)
                // A tile that is gone takes its comments along with its widget.
                let carried = newTileIDs.contains(oldTileOf[inst.id] ?? "") ? [] : lead(el)
                return (carried + body, map.column, carried.count)
            }
        default:
            return nil
        }
    }

    /// How the `widget` and `config` entries of `map` change from `old` to `new`.
    func planItem(
        _ map: YMap, old: WidgetInstance, new: WidgetInstance, keys: inout [String],
        edits: inout [String: (YElement) -> [String]], makes: inout [String: () -> [String]]
    ) {
        if new.kind != old.kind {
            edits["widget"] = { e in
                self.replacingScalar(e, with: new.kind)
                    ?? self.lead(e) + [self.pad(e.column) + "widget: " + YAMLScalar.render(new.kind, inFlow: false)]
            }
        }
        guard new.config != old.config else { return }
        if new.config.values.isEmpty {
            keys.removeAll { $0 == "config" }
        } else if let entry = map.entry("config") {
            edits["config"] = { _ in self.editConfigEntry(entry, old: old.config, new: new.config, kind: new.kind) }
        } else {
            keys.insert("config", at: (keys.firstIndex(of: "widget") ?? keys.count - 1) + 1)
            makes["config"] = { self.freshConfigEntry(new.config, kind: new.kind, keyColumn: map.column) }
        }
    }

    func freshItemEntries(_ inst: WidgetInstance, keyColumn k: Int) -> [String] {
        var out = [pad(k) + "widget: " + YAMLScalar.render(inst.kind, inFlow: false)]
        if !inst.config.values.isEmpty { out += freshConfigEntry(inst.config, kind: inst.kind, keyColumn: k) }
        return out
    }
}
