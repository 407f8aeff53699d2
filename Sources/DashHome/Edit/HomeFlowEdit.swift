import Yams
import DashWidgets

/// Tiles and stack items added, removed or moved in a list written in flow style
/// (`tiles: [{…}, {…}]`, a one-line file `{tiles: […]}`, `stack: [{…}, {…}]`): the brackets'
/// items are put in their new order, each kept item's text exactly as it was, a new one written
/// as a flow mapping, the separators and the spaces inside the brackets as the file had them. The
/// stacks change first, then the tiles, then any value (`HomeValueEdit`); nil when a list that
/// changed is not in flow style (`HomeEditor` edits block lists) or anything else changed.
enum HomeFlowEdit {
    /// The edited text, when it reads back as `new`.
    static func edit(_ text: String, holding base: HomeConfig, to new: HomeConfig, bundle: WidgetBundle) throws
        -> String?
    {
        guard let out = try edit(text, holding: base, to: new), HomeText.reads(out, as: new, bundle: bundle) else {
            return nil
        }
        return out
    }

    static func edit(_ text: String, holding base: HomeConfig, to new: HomeConfig) throws -> String? {
        guard base.theme == new.theme else { return nil }
        let newTiles = Dictionary(new.tiles.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        guard newTiles.count == new.tiles.count,
            Set(base.tiles.map(\.id)).count == base.tiles.count
        else { return nil }
        // 1. Stack items, in the tiles that stay.
        var mid = base
        var current = text
        for (t, tile) in base.tiles.enumerated() {
            guard let target = newTiles[tile.id], target.items.map(\.id) != tile.items.map(\.id) else { continue }
            guard tile.items.count > 1, target.items.count > 1 else { return nil }
            let old = Dictionary(tile.items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            guard let root = try? YAMLGuard.compose(current, file: "home.yaml"),
                let stack = root.mapping?["tiles"]?.sequence?[t].mergedMapping?["stack"],
                let edited = reorder(
                    current, list: stack, oldIDs: tile.items.map(\.id), newIDs: target.items.map(\.id),
                    render: { id in flowItem(target.items.first { $0.id == id }!) })
            else { return nil }
            current = edited
            mid.tiles[t].items = target.items.map { old[$0.id] ?? $0 }
        }
        // 2. The tiles.
        if mid.tiles.map(\.id) != new.tiles.map(\.id) {
            let kept = Dictionary(mid.tiles.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            guard let root = try? YAMLGuard.compose(current, file: "home.yaml"),
                let tiles = root.mapping?["tiles"],
                let edited = reorder(
                    current, list: tiles, oldIDs: mid.tiles.map(\.id), newIDs: new.tiles.map(\.id),
                    render: { id in flowTile(newTiles[id]!) })
            else { return nil }
            current = edited
            mid.tiles = new.tiles.map { kept[$0.id] ?? $0 }
        }
        guard current != text else { return nil }
        // 3. Values of the tiles that stayed.
        if mid.sameContent(as: new) { return current }
        return try HomeValueEdit.edit(current, holding: mid, to: new)
    }

    /// The text with the flow list `list` holding the items `newIDs` (the old ones' text kept,
    /// the others from `render`); nil when `list` is not a flow list.
    static func reorder(
        _ text: String, list: Node, oldIDs: [String], newIDs: [String], render: (String) -> String
    ) -> String? {
        guard case .sequence(let seq) = list, let mark = seq.mark else { return nil }
        let chars = Array(text.unicodeScalars)
        guard let open = offset(of: mark, in: chars), open < chars.count, chars[open] == "[",
            let (spans, close) = items(chars, open: open), spans.count == oldIDs.count
        else { return nil }
        func slice(_ r: Range<Int>) -> String { String(String.UnicodeScalarView(chars[r])) }
        let texts = Dictionary(zip(oldIDs, spans.map(slice)), uniquingKeysWith: { a, _ in a })
        let body = newIDs.map { texts[$0] ?? render($0) }
        let inside: String
        if body.isEmpty {
            inside = ""
        } else {
            let separator = spans.count > 1 ? slice(spans[0].upperBound..<spans[1].lowerBound) : ", "
            let head = spans.first.map { slice((open + 1)..<$0.lowerBound) } ?? ""
            let tail = spans.last.map { slice($0.upperBound..<close) } ?? ""
            inside = head + body.joined(separator: separator) + tail
        }
        return slice(0..<(open + 1)) + inside + slice(close..<chars.count)
    }

    /// Where a mark (1-based line and column, in YAML's columns) is in the text's scalars.
    static func offset(of mark: Mark, in chars: [Unicode.Scalar]) -> Int? {
        var line = 1
        var i = 0
        while line < mark.line, i < chars.count {
            if chars[i] == "\n" { line += 1 }
            i += 1
        }
        guard line == mark.line else { return nil }
        if mark.line == 1, chars.first == "\u{FEFF}" { i += 1 }
        return i + mark.column - 1
    }

    /// The items of the flow list opening at `open` (each without the spaces around it) and its
    /// closing `]`; nil for a list holding a comment or one not closed.
    static func items(_ chars: [Unicode.Scalar], open: Int) -> ([Range<Int>], Int)? {
        var spans: [Range<Int>] = []
        var depth = 0
        var quote: Unicode.Scalar? = nil
        var start: Int? = nil
        var last = open
        var i = open + 1
        func blank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                if c == "\\" && q == "\"" {
                    i += 2
                    last = i
                    continue
                }
                if c == q { quote = nil }
                last = i + 1
                i += 1
                continue
            }
            if depth == 0, c == "," || c == "]" {
                if let s = start { spans.append(s..<last) }
                start = nil
                if c == "]" { return (spans, i) }
                i += 1
                continue
            }
            if c == "#", i > 0, blank(chars[i - 1]) { return nil }
            if !blank(c) {
                if start == nil { start = i }
                last = i + 1
            }
            switch c {
            case "'", "\"": quote = c
            case "[", "{": depth += 1
            case "]", "}": depth -= 1
            default: break
            }
            i += 1
        }
        return nil
    }

    static func flowTile(_ t: TileInstance) -> String {
        var parts = ["family: " + t.family.rawValue]
        if t.items.count == 1 {
            parts += itemParts(t.items[0])
        } else {
            parts.append("stack: [" + t.items.map(flowItem).joined(separator: ", ") + "]")
        }
        if !t.rotation.smartRotate { parts.append("smartRotate: false") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    static func flowItem(_ inst: WidgetInstance) -> String { "{" + itemParts(inst).joined(separator: ", ") + "}" }

    static func itemParts(_ inst: WidgetInstance) -> [String] {
        var parts = ["widget: " + YAMLScalar.render(inst.kind, inFlow: true)]
        if !inst.config.values.isEmpty {
            let values = inst.config.values.sorted { $0.key < $1.key }.map {
                YAMLScalar.render($0.key, inFlow: true) + ": " + HomeText.value($0.value, inFlow: true)
            }
            parts.append("config: {" + values.joined(separator: ", ") + "}")
        }
        return parts
    }
}
