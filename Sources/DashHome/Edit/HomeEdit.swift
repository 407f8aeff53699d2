import Foundation
import Yams
import DashWidgets

// Writing `home.yaml` by changing only the lines of what changed: comments, blank lines, key
// order and quoting elsewhere stay byte for byte. Tiles and stack items are matched by id
// between the home the file holds and the new one; tiles that kept their relative order
// (the longest common subsequence) keep their lines, a moved tile takes its lines (comments
// included) to its new place, a changed value is replaced on its own line in its own quoting
// style. What cannot be edited in place (a flow collection that changed shape) is written
// anew for that element only.

/// What a tile shows, without ids: two homes with equal contents write the same file.
struct TileContent: Hashable {
    var family: WidgetFamily
    var items: [ItemContent]
    /// A stack's `smartRotate` (the one Smart Stacks setting the Edit form changes).
    var smartRotate: Bool
}

struct ItemContent: Hashable {
    var kind: String
    var config: WidgetConfig
}

extension TileInstance {
    var content: TileContent {
        TileContent(
            family: family, items: items.map { ItemContent(kind: $0.kind, config: $0.config) },
            smartRotate: rotation.smartRotate)
    }
}

extension HomeConfig {
    /// Same theme and the same tiles in the same order, whatever the ids.
    public func sameContent(as other: HomeConfig) -> Bool {
        theme == other.theme && tiles.map(\.content) == other.tiles.map(\.content)
    }
}

/// How new lines are laid out, read from the file's own tiles where it has any.
struct HomeStyle {
    /// Column of a tile's dash.
    var tileDash = 2
    /// From a dash to its item's keys.
    var keyOffset = 2
    /// A nested block's extra indentation (`config:` values, `stack:` items).
    var indent = 2
    /// Whether a tile names its family before its widget.
    var familyFirst = true
}

/// Where an instance of the old home is in the file.
enum ItemSource {
    /// The only widget of a tile: its `widget` and `config` entries in the tile's mapping.
    case inTile(tile: YElement, map: YMap)
    /// An item of a stack.
    case inStack(item: YElement, map: YMap?)
}

/// One edit of a file, from the home it holds (`old`, tiles in file order) to `new`.
final class HomeEditor {
    let src: YAMLLines
    let outline: YAMLOutline
    let old: HomeConfig
    let new: HomeConfig
    let bundle: WidgetBundle
    var style = HomeStyle()
    var root: YMap?
    var tileSources: [String: (element: YElement, tile: TileInstance)] = [:]
    var itemSources: [String: ItemSource] = [:]
    var oldItems: [String: WidgetInstance] = [:]
    /// The old tile of each old instance.
    var oldTileOf: [String: String] = [:]
    lazy var newTileIDs = Set(new.tiles.map(\.id))

    /// An editor with no file (renders only).
    init(empty home: HomeConfig, bundle: WidgetBundle) {
        src = YAMLLines("")
        outline = YAMLOutline(src: src)
        old = HomeConfig(tiles: [])
        new = home
        self.bundle = bundle
    }

    /// Nil when the text's structure does not match `old` (the caller renders anew).
    init?(text: String, old: HomeConfig, new: HomeConfig, bundle: WidgetBundle) {
        src = YAMLLines(text)
        outline = YAMLOutline(src: src)
        self.old = old
        self.new = new
        self.bundle = bundle
        // Ids name tiles and widgets between the two homes: they must be unique in each.
        for h in [old, new] {
            guard Set(h.tiles.map(\.id)).count == h.tiles.count,
                Set(h.allInstances.map(\.id)).count == h.allInstances.count
            else { return nil }
        }
        guard let node = try? Yams.compose(yaml: text, .basic), case .mapping(let m) = node,
            outline.char(at: m.mark) != "{",
            var map = outline.map(m, floor: 0, ceiling: src.count)
        else { return nil }
        // The comment above the first key is the file's header, not that key's.
        map.entries[0].leadStart = map.entries[0].start
        root = map
        for t in old.tiles {
            for i in t.items {
                oldItems[i.id] = i
                oldTileOf[i.id] = t.id
            }
        }
        if let tiles = map.entry("tiles"), case .blockSeq(let seq) = tiles.value {
            guard seq.items.count == old.tiles.count else { return nil }
            for (el, tile) in zip(seq.items, old.tiles) {
                tileSources[tile.id] = (el, tile)
                guard case .blockMap(let tm) = el.value else { continue }
                if let stack = tm.entry("stack") {
                    guard case .blockSeq(let items) = stack.value else { continue }
                    guard items.items.count == tile.items.count else { return nil }
                    for (iel, inst) in zip(items.items, tile.items) {
                        if case .blockMap(let im) = iel.value {
                            itemSources[inst.id] = .inStack(item: iel, map: im)
                        } else {
                            itemSources[inst.id] = .inStack(item: iel, map: nil)
                        }
                    }
                } else {
                    guard tile.items.count == 1 else { return nil }
                    itemSources[tile.items[0].id] = .inTile(tile: el, map: tm)
                }
            }
            detectStyle(seq)
        } else if !old.tiles.isEmpty {
            // Tiles in flow style: no lines to keep for them.
        }
    }

    func detectStyle(_ seq: YSeq) {
        style.tileDash = seq.column
        for el in seq.items {
            guard case .blockMap(let m) = el.value else { continue }
            style.keyOffset = max(2, m.column - seq.column)
            if let f = m.entries.firstIndex(where: { $0.key == "family" }),
                let w = m.entries.firstIndex(where: { $0.key == "widget" || $0.key == "stack" })
            {
                style.familyFirst = f < w
            }
            for e in m.entries {
                if case .blockMap(let c) = e.value, c.column > m.column {
                    style.indent = c.column - m.column
                    return
                }
                if case .blockSeq(let s) = e.value, s.column > m.column {
                    style.indent = s.column - m.column
                    return
                }
            }
        }
    }

    // MARK: - The whole file

    func run() -> String? {
        guard let root else { return nil }
        var keys = root.entries.compactMap(\.key)
        var edits: [String: (YElement) -> [String]] = [:]
        var makes: [String: () -> [String]] = [:]
        if new.theme != old.theme {
            if let theme = new.theme {
                if root.entry("theme") == nil {
                    keys.insert("theme", at: keys.firstIndex(of: "tiles") ?? keys.count)
                    makes["theme"] = { [self.pad(root.column) + "theme: " + YAMLScalar.render(theme, inFlow: false)] }
                } else {
                    edits["theme"] = { e in
                        self.replacingScalar(e, with: theme) ?? self.lead(e)
                            + [self.pad(e.column) + "theme: " + YAMLScalar.render(theme, inFlow: false)]
                    }
                }
            } else {
                keys.removeAll { $0 == "theme" }
            }
        }
        if new.tiles.map(\.content) != old.tiles.map(\.content) {
            if root.entry("tiles") == nil {
                keys.append("tiles")
                makes["tiles"] = { self.freshTilesEntry(column: root.column) }
            } else {
                edits["tiles"] = { e in self.editTilesEntry(e) }
            }
        }
        let body = emitMap(
            root, keys: keys, edit: { e in edits[e.key ?? ""]?(e) ?? self.verbatim(e) },
            make: { key in makes[key]?() ?? [] })
        let out = copy(0..<root.entries[0].leadStart) + body + copy(root.entries.last!.end..<src.count)
        return YAMLLines.join(out, newline: src.newline, endsWithNewline: src.endsWithNewline || src.count == 0)
    }

    func freshTilesEntry(column c: Int) -> [String] {
        if new.tiles.isEmpty { return [pad(c) + "tiles: []"] }
        return [pad(c) + "tiles:"] + new.tiles.flatMap { renderTile($0, dash: max(style.tileDash, c + 2)) }
    }

    func editTilesEntry(_ e: YElement) -> [String] {
        guard !new.tiles.isEmpty else { return lead(e) + [pad(e.column) + "tiles: []"] }
        guard case .blockSeq(let seq) = e.value, !seq.items.isEmpty else {
            return lead(e) + freshTilesEntry(column: e.column)
        }
        let newTiles = Dictionary(uniqueKeysWithValues: new.tiles.map { ($0.id, $0) })
        let oldIDs = old.tiles.map(\.id)
        let head = copy(e.leadStart..<seq.items[0].leadStart)
        let body = editList(
            seq.items, oldIDs: oldIDs, newIDs: new.tiles.map(\.id),
            keep: { k in self.emitTile(oldIDs[k], as: newTiles[oldIDs[k]]!) },
            make: { id in
                self.tileSources[id] != nil
                    ? self.emitTile(id, as: newTiles[id]!)
                    : self.renderTile(newTiles[id]!, dash: seq.column)
            },
            gap: defaultGap(seq.items))
        return head + body + copy(seq.items.last!.end..<e.end)
    }

    // MARK: - Tiles

    /// A tile of the old file, edited to `t`, at its own column.
    func emitTile(_ id: String, as t: TileInstance) -> [String] {
        let (el, oldTile) = tileSources[id]!
        if oldTile.content == t.content { return verbatim(el) }
        guard case .blockMap(let map) = el.value else { return lead(el) + renderTile(t, dash: el.column) }
        return withDashFree(el, map) {
            var keys = map.entries.compactMap(\.key)
            var edits: [String: (YElement) -> [String]] = [:]
            var makes: [String: () -> [String]] = [:]
            if t.family != oldTile.family {
                if map.entry("family") == nil {
                    keys.insert("family", at: style.familyFirst ? 0 : keys.count)
                    makes["family"] = { [self.pad(map.column) + "family: " + t.family.rawValue] }
                } else {
                    edits["family"] = { e in
                        self.replacingScalar(e, with: t.family.rawValue)
                            ?? self.lead(e) + [self.pad(e.column) + "family: " + t.family.rawValue]
                    }
                }
            }
            if t.rotation.smartRotate != oldTile.rotation.smartRotate {
                let v = t.rotation.smartRotate ? "true" : "false"
                if map.entry("smartRotate") == nil {
                    keys.append("smartRotate")
                    makes["smartRotate"] = { [self.pad(map.column) + "smartRotate: " + v] }
                } else {
                    edits["smartRotate"] = { e in
                        self.replacingScalar(e, with: v) ?? self.lead(e) + [self.pad(e.column) + "smartRotate: " + v]
                    }
                }
            }
            // A stack left with one widget (one taken out, or a stacking undone) is written as a
            // plain tile again, as it was before it was stacked.
            let shrunkToOne = map.entry("stack") != nil && t.items.count == 1 && oldTile.items.count > 1
            if let stack = map.entry("stack"), !shrunkToOne {
                edits["stack"] = { _ in self.editStackEntry(stack, from: oldTile, to: t, keyColumn: map.column) }
            } else if !shrunkToOne, t.items.count == 1, t.items[0].id == oldTile.items[0].id {
                planItem(map, old: oldTile.items[0], new: t.items[0], keys: &keys, edits: &edits, makes: &makes)
            } else {
                // Another widget, a stack made from this tile, or a stack down to one widget:
                // its widget lines go with it.
                let first = keys.firstIndex { $0 == "widget" || $0 == "config" || $0 == "stack" } ?? keys.count
                keys.removeAll { $0 == "widget" || $0 == "config" || $0 == "stack" }
                keys.insert("_items", at: min(first, keys.count))
                // The comments above `stack:` stay, above what takes its place.
                let stackLead = map.entry("stack").map { self.lead($0) } ?? []
                makes["_items"] = {
                    stackLead
                        + (t.items.count == 1
                            ? self.itemEntries(t.items[0], keyColumn: map.column)
                            : self.stackEntry(t.items, keyColumn: map.column))
                }
            }
            let body = emitMap(
                map, keys: keys, edit: { e in edits[e.key ?? ""]?(e) ?? self.verbatim(e) },
                make: { key in makes[key]?() ?? [] })
            // The dash goes on the first key; comments that now come before it (those above a
            // `stack:` that was the first key) stand above the dash, at its column.
            var dashed = body
            if map.entries[0].start == el.start {
                func text(_ line: String) -> Substring { line.drop { $0 == " " || $0 == "\t" } }
                let first = body.firstIndex { !text($0).isEmpty && !text($0).hasPrefix("#") } ?? 0
                dashed = body[..<first].map { text($0).isEmpty ? $0 : self.pad(el.column) + text($0) }
                    + attachDash(Array(body[first...]), at: 0, dash: el.column, keyColumn: map.column)
            }
            return copy(el.leadStart..<map.entries[0].leadStart) + dashed + copy(map.entries.last!.end..<el.end)
        }
    }

    /// A new tile at dash column `d`.
    func renderTile(_ t: TileInstance, dash d: Int) -> [String] {
        let k = d + style.keyOffset
        let family = [pad(k) + "family: " + t.family.rawValue]
        let items = t.items.count == 1 ? itemEntries(t.items[0], keyColumn: k) : stackEntry(t.items, keyColumn: k)
        let rotation = t.rotation.smartRotate ? [] : [pad(k) + "smartRotate: false"]
        return attachDash(
            style.familyFirst ? family + items + rotation : items + family + rotation, at: 0, dash: d, keyColumn: k)
    }

    /// The `stack:` entry of a tile at key column `k`.
    func stackEntry(_ items: [WidgetInstance], keyColumn k: Int) -> [String] {
        [pad(k) + "stack:"] + items.flatMap { stackItem($0, dash: k + style.indent, offset: style.keyOffset) }
    }

    func editStackEntry(_ e: YElement, from oldTile: TileInstance, to t: TileInstance, keyColumn k: Int) -> [String] {
        guard case .blockSeq(let seq) = e.value, seq.items.count == oldTile.items.count, !t.items.isEmpty else {
            return lead(e) + stackEntry(t.items, keyColumn: e.column)
        }
        var offset = style.keyOffset
        if case .blockMap(let m)? = seq.items.first?.value { offset = m.column - seq.column }
        let newItems = Dictionary(uniqueKeysWithValues: t.items.map { ($0.id, $0) })
        let oldIDs = oldTile.items.map(\.id)
        let body = editList(
            seq.items, oldIDs: oldIDs, newIDs: t.items.map(\.id),
            keep: { i in self.stackItem(newItems[oldIDs[i]]!, dash: seq.column, offset: offset) },
            make: { id in self.stackItem(newItems[id]!, dash: seq.column, offset: offset) },
            gap: defaultGap(seq.items))
        return copy(e.leadStart..<seq.items[0].leadStart) + body + copy(seq.items.last!.end..<e.end)
    }
}
