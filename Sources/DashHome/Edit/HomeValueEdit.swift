import Foundation
import Yams
import DashWidgets

/// The smallest edit of `home.yaml` there is: when only configuration values changed (the
/// same tiles, widgets and keys), each changed value's scalar is replaced where it stands, in
/// its own quoting style, and not one other byte moves: anchors and aliases, `%YAML`
/// directives, `---` and `...`, flow collections and their key order, comments, tabs, CRLF
/// and a byte order mark all stay. A value an alias shares is one scalar: editing it edits
/// every tile that uses it (the caller checks the result reads as what was asked, and says so).
enum HomeValueEdit {
    /// One value to replace: where its scalar starts (0-based line and column in scalars).
    struct Site: Hashable {
        var line: Int
        var column: Int
    }

    /// The edited text, or nil when the change is more than values, a value is not a one-line
    /// scalar in the file, or a key was added or removed. A value reached through an alias
    /// (`*x`) is edited in that place only (`HomeValueSites`); one written under an anchor other
    /// widgets use is edited for all of them, when `new` has it so (`HomeText.sharing`, decision 49).
    static func edit(_ text: String, holding base: HomeConfig, to new: HomeConfig) throws -> String? {
        guard let changes = changes(from: base, to: new), !changes.isEmpty,
            let root = try? YAMLGuard.compose(text, file: "home.yaml"),
            let tiles = root.mapping?["tiles"]?.sequence, tiles.count == base.tiles.count
        else { return nil }
        // Lines by "\n" with any "\r" kept in them: the file's endings stay as they are.
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
        var sites = HomeValueSites(lines: lines, tiles: Array(tiles), base: base)
        guard let plan = sites.plan(changes, new: new) else { return nil }
        let byLine = Dictionary(grouping: plan.edits, by: { $0.key.line })
        for (line, sites) in byLine {
            guard lines.indices.contains(line) else { return nil }
            var chars = lines[line]
            let crlf = chars.last == "\r"
            if crlf { chars.removeLast() }
            // A byte order mark the YAML reader does not count as a column.
            let offset = line == 0 && chars.first == "\u{FEFF}" ? 1 : 0
            for (site, rendered) in sites.sorted(by: { $0.key.column > $1.key.column }) {
                var col = site.column + offset
                if case .token(let length, let with) = rendered {
                    // An alias (`*x`) or a place to add an entry (`length` 0): replaced as it is.
                    guard col + length <= chars.count else { return nil }
                    chars.replaceSubrange(col..<(col + length), with: Array(with.unicodeScalars))
                    continue
                }
                // The mark of an anchored or tagged scalar is its `&anchor` or `!tag`: the value follows.
                while col < chars.count, chars[col] == "&" || chars[col] == "!" {
                    while col < chars.count, chars[col] != " ", chars[col] != "\t" { col += 1 }
                    while col < chars.count, chars[col] == " " || chars[col] == "\t" { col += 1 }
                }
                let style = styleAt(chars, col)
                let inFlow = isInFlow(chars, before: col)
                let end: Int
                let text: String
                switch rendered {
                case .scalar(let value):
                    guard let e = YAMLScalar.end(of: chars, from: col, style: style, inFlow: inFlow) else { return nil }
                    (end, text) = (e, YAMLScalar.render(value, like: style, inFlow: inFlow))
                case .flowList(let items):
                    guard col < chars.count, chars[col] == "[", let close = closingBracket(chars, from: col) else {
                        return nil
                    }
                    let inner = items.map { YAMLScalar.render($0, inFlow: true) }.joined(separator: ", ")
                    let spaced = col + 1 < chars.count && chars[col + 1] == " " && !items.isEmpty
                    (end, text) = (close + 1, spaced ? "[ " + inner + " ]" : "[" + inner + "]")
                case .token:
                    return nil
                }
                chars.replaceSubrange(col..<end, with: Array(text.unicodeScalars))
            }
            lines[line] = crlf ? chars + ["\r"] : chars
        }
        // New lines (a key a block mapping merged from elsewhere now has of its own), last first.
        for (after, added) in plan.insertions.sorted(by: { $0.key > $1.key }) {
            guard lines.indices.contains(after) else { return nil }
            let crlf = lines[after].last == "\r"
            lines.insert(contentsOf: added.map { Array(($0 + (crlf ? "\r" : "")).unicodeScalars) }, at: after + 1)
        }
        return lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
    }

    /// The values that differ between two homes of the same tiles, widgets and keys (nil: more changed).
    static func changes(from base: HomeConfig, to new: HomeConfig) -> [HomeValueSites.Change]? {
        guard base.theme == new.theme, base.tiles.count == new.tiles.count else { return nil }
        var changes: [HomeValueSites.Change] = []
        for (t, (a, b)) in zip(base.tiles, new.tiles).enumerated() {
            guard a.family == b.family, a.items.count == b.items.count, a.rotation == b.rotation else { return nil }
            for (i, (x, y)) in zip(a.items, b.items).enumerated() {
                guard x.kind == y.kind, Set(x.config.values.keys) == Set(y.config.values.keys) else { return nil }
                for (key, v) in y.config.values.sorted(by: { $0.key < $1.key }) where x.config.values[key] != v {
                    changes.append(.init(tile: t, item: i, key: key, value: v))
                }
            }
        }
        return changes
    }

    /// What replaces a value: a scalar's text, or the items of a one-line `[…]`.
    enum Replacement: Hashable {
        case scalar(String)
        case flowList([String])
        /// `length` characters at the site (an alias `*x`; 0: an insertion) replaced by `with`.
        case token(length: Int, with: String)
    }

    /// The `]` (or `closing`) that closes the bracket at `open` on this line (quotes skipped), or nil.
    static func closingBracket(_ chars: [Unicode.Scalar], from open: Int, closing: Unicode.Scalar = "]") -> Int? {
        var depth = 0
        var quote: Unicode.Scalar? = nil
        var i = open
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                if c == "\\" && q == "\"" {
                    i += 2
                    continue
                }
                if c == q { quote = nil }
            } else {
                switch c {
                case "'", "\"": quote = c
                case "[", "{": depth += 1
                case "]", "}":
                    depth -= 1
                    if depth == 0 { return c == closing ? i : nil }
                default: break
                }
            }
            i += 1
        }
        return nil
    }

    static func styleAt(_ chars: [Unicode.Scalar], _ col: Int) -> Node.Scalar.Style {
        guard col < chars.count else { return .plain }
        switch chars[col] {
        case "'": return .singleQuoted
        case "\"": return .doubleQuoted
        default: return .plain
        }
    }

    /// Whether the column is inside `[…]` or `{…}` on its line (a flow scalar ends at `,` `]` `}`).
    static func isInFlow(_ chars: [Unicode.Scalar], before col: Int) -> Bool {
        var depth = 0
        var quote: Unicode.Scalar? = nil
        for c in chars.prefix(col) {
            if let q = quote {
                if c == q { quote = nil }
                continue
            }
            switch c {
            case "'", "\"": quote = c
            case "[", "{": depth += 1
            case "]", "}": depth -= 1
            case "#": return depth > 0
            default: break
            }
        }
        return depth > 0
    }
}
