import Yams
import DashWidgets

/// A change home.yaml's editor will not make as asked: one that would write a file that uses
/// aliases anew, expanding them (decision 49). Said to the user as it is.
public struct HomeEditRefusal: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// Refuses to write anew a file that uses aliases: they would be expanded.
    static func refuseRewriting(_ text: String?) throws {
        guard let text, !YAMLScan(text).aliases.isEmpty else { return }
        throw HomeEditRefusal(
            "this change would write home.yaml anew and expand its YAML anchors and aliases (*); "
                + "make it in home.yaml itself")
    }
}

/// Where the configuration values `HomeValueEdit` changes stand in the file, and how each is
/// reached: written in its widget's own place, through an alias (`*x`, or `config: *x`), or
/// merged from elsewhere (`<<: *base`). An alias is replaced in that place only (a scalar by the
/// value, a mapping by `{<<: *x, key: value}`); a merged key gets its own entry beside the
/// `<<`; a value written once and shared through its anchor is edited where it is written, for
/// every widget that shares it (`HomeText.sharing` gives them the value first, and says so).
struct HomeValueSites {
    struct Change {
        var tile: Int
        var item: Int
        var key: String
        var value: ConfigValue
    }
    typealias Site = HomeValueEdit.Site

    struct Plan {
        var edits: [Site: HomeValueEdit.Replacement] = [:]
        /// New lines after a line (0-based).
        var insertions: [Int: [String]] = [:]
    }

    /// The file's lines, without "\r" and (line 0) a byte order mark: YAML's columns.
    let lines: [[Unicode.Scalar]]
    let tiles: [Node]
    let base: HomeConfig

    init(lines raw: [[Unicode.Scalar]], tiles: [Node], base: HomeConfig) {
        lines = raw.enumerated().map { n, l in
            var c = l
            if c.last == "\r" { c.removeLast() }
            if n == 0, c.first == "\u{FEFF}" { c.removeFirst() }
            return c
        }
        self.tiles = tiles
        self.base = base
    }

    func itemNode(_ t: Int, _ i: Int) -> Node? {
        guard tiles.indices.contains(t), let tile = tiles[t].mergedMapping else { return nil }
        if let stack = tile["stack"]?.sequence { return i < stack.count ? stack[i] : nil }
        return i == 0 ? tiles[t] : nil
    }

    /// A mapping's own entry (not one merged from elsewhere).
    static func own(_ node: Node?, _ key: String) -> (key: Node, value: Node)? {
        guard let m = node?.mapping else { return nil }
        return m.first { $0.key.string == key && !Node.Mapping.isMergeKey($0.key) }
    }

    static func site(_ mark: Mark?) -> Site? { mark.map { Site(line: $0.line - 1, column: $0.column - 1) } }

    /// Where the value of the entry whose key is `key` starts on the key's line (nil: on a later line).
    func valueStart(afterKey key: Node) -> Site? {
        guard let s = Self.site(key.mark), lines.indices.contains(s.line) else { return nil }
        let cs = lines[s.line]
        var c = s.column
        if c < cs.count, cs[c] == "\"" || cs[c] == "'" {
            c =
                YAMLScalar.end(of: cs, from: c, style: cs[c] == "'" ? .singleQuoted : .doubleQuoted, inFlow: true)
                ?? cs.count
        }
        while c < cs.count, cs[c] != ":" { c += 1 }
        c += 1
        while c < cs.count, cs[c] == " " || cs[c] == "\t" { c += 1 }
        guard c < cs.count, cs[c] != "#" else { return nil }
        return Site(line: s.line, column: c)
    }

    /// The alias written at `site` (`*name`): its length and name.
    func alias(at site: Site?) -> (length: Int, name: String)? {
        guard let site, lines.indices.contains(site.line) else { return nil }
        let cs = lines[site.line]
        guard site.column < cs.count, cs[site.column] == "*" else { return nil }
        var e = site.column + 1
        while e < cs.count, !" \t,]}".unicodeScalars.contains(cs[e]) { e += 1 }
        return (e - site.column, String(String.UnicodeScalarView(cs[(site.column + 1)..<e])))
    }

    func char(at s: Site) -> Unicode.Scalar? {
        guard lines.indices.contains(s.line), s.column < lines[s.line].count else { return nil }
        return lines[s.line][s.column]
    }

    /// Which widgets' values are the scalar (or list) at each site: more than one when shared.
    func users() -> [Site: [(tile: Int, item: Int, key: String)]] {
        var out: [Site: [(tile: Int, item: Int, key: String)]] = [:]
        for (t, tile) in base.tiles.enumerated() {
            for (i, inst) in tile.items.enumerated() {
                let config = itemNode(t, i)?.mergedMapping?["config"]?.mergedMapping
                for key in inst.config.values.keys {
                    if let s = Self.site(config?[key]?.mark) { out[s, default: []].append((t, i, key)) }
                }
            }
        }
        return out
    }

    /// The edits for `changes` (grouped by widget), nil when one cannot be made in place.
    mutating func plan(_ changes: [Change], new: HomeConfig) -> Plan? {
        var plan = Plan()
        var inPlace: [Site: [Change]] = [:]
        let users = users()
        var left: [Change] = []
        // A value every widget that shares it changes alike: edited where it is written, once.
        for c in changes {
            let node = itemNode(c.tile, c.item)?.mergedMapping?["config"]?.mergedMapping?[c.key]
            guard let node, let at = Self.site(node.mark), (users[at]?.count ?? 0) > 1,
                users[at]!.allSatisfy({ new.tiles[$0.tile].items[$0.item].config.values[$0.key] == c.value })
            else {
                left.append(c)
                continue
            }
            guard let rendered = Self.replacement(node, c.value) else { return nil }
            if let other = plan.edits[at], other != rendered { return nil }
            plan.edits[at] = rendered
        }
        let byItem = Dictionary(grouping: left, by: { [$0.tile, $0.item] })
        for (_, group) in byItem.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let (t, i) = (group[0].tile, group[0].item)
            guard let item = itemNode(t, i), let config = Self.own(item, "config") else { return nil }
            let configStart = valueStart(afterKey: config.key)
            if let a = alias(at: configStart), let at = configStart {
                // `config: *x`: this widget gets a mapping of its own that merges the shared one.
                let own = group.map { "\(Self.key($0.key)): \(HomeText.value($0.value, inFlow: true))" }
                plan.edits[at] = .token(length: a.length, with: "{<<: *\(a.name), " + own.joined(separator: ", ") + "}")
                continue
            }
            for c in group {
                if let entry = Self.own(config.value, c.key) {
                    let start = valueStart(afterKey: entry.key)
                    if let a = alias(at: start), let at = start {
                        // `key: *x`: the value written here instead of the alias.
                        let inFlow = HomeValueEdit.isInFlow(lines[at.line], before: at.column)
                        plan.edits[at] = .token(length: a.length, with: HomeText.value(c.value, inFlow: inFlow))
                        continue
                    }
                    guard let rendered = Self.replacement(entry.value, c.value), let at = Self.site(entry.value.mark)
                    else { return nil }
                    if let other = plan.edits[at], other != rendered { return nil }
                    plan.edits[at] = rendered
                    inPlace[at, default: []].append(c)
                } else if config.value.mergedMapping?[c.key] != nil {
                    // Merged from elsewhere (`<<: *base`): this mapping gets its own entry.
                    guard addEntry(c, to: config.value, start: configStart, plan: &plan) else { return nil }
                } else {
                    return nil
                }
            }
        }
        return changesUnasked(inPlace, users: users, new: new) ? nil : plan
    }

    static func replacement(_ node: Node, _ value: ConfigValue) -> HomeValueEdit.Replacement? {
        switch (node, value) {
        case (.sequence(let seq), .list(let items)):
            // A list written `[…]` on one line: the brackets' contents written again.
            guard let mark = seq.mark, seq.allSatisfy({ $0.mark?.line == mark.line }) else { return nil }
            return .flowList(items)
        case (.scalar(let scalar), .list(let items)):
            // A list written as one scalar stays one only as one plain item.
            guard items.count == 1, !items[0].contains(","), !items[0].hasPrefix("[") else { return nil }
            _ = scalar
            return .scalar(items[0])
        case (.scalar(let scalar), _):
            guard !(scalar.string.isEmpty && scalar.style == .plain) else { return nil }
            return .scalar(value.description)
        default:
            return nil
        }
    }

    static func key(_ k: String) -> String { YAMLScalar.render(k, inFlow: true) }

    /// `key: value` added to the config mapping that merges it: before a flow mapping's `}`, or
    /// as a line after a block mapping's last entry, at its keys' column.
    func addEntry(_ c: Change, to config: Node, start: Site?, plan: inout Plan) -> Bool {
        guard let map = config.mapping, let first = map.first?.key.mark else { return false }
        if let start, char(at: start) == "{" {
            let cs = lines[start.line]
            guard let close = HomeValueEdit.closingBracket(cs, from: start.column, closing: "}") else { return false }
            var at = close
            while at > start.column + 1, cs[at - 1] == " " || cs[at - 1] == "\t" { at -= 1 }
            let entry = ", \(Self.key(c.key)): \(HomeText.value(c.value, inFlow: true))"
            let site = Site(line: start.line, column: at)
            if case .token(0, let before)? = plan.edits[site] {
                plan.edits[site] = .token(length: 0, with: before + entry)
            } else {
                plan.edits[site] = .token(length: 0, with: entry)
            }
            return true
        }
        guard start == nil, let last = Array(map).last?.key.mark else { return false }
        let column = first.column - 1
        var line = last.line - 1
        func indent(_ l: [Unicode.Scalar]) -> Int { l.prefix { $0 == " " }.count }
        while line + 1 < lines.count, case let next = lines[line + 1],
            next.contains(where: { $0 != " " && $0 != "\t" }), indent(next) > column
        {
            line += 1
        }
        plan.insertions[line, default: []].append(
            String(repeating: " ", count: column) + "\(Self.key(c.key)): \(HomeText.value(c.value))")
        return true
    }

    /// Whether a value edited where it is written, under an anchor, would change a widget that
    /// shares it and was not asked to change (`HomeText.sharing` gives those the value first).
    func changesUnasked(
        _ inPlace: [Site: [Change]], users: [Site: [(tile: Int, item: Int, key: String)]], new: HomeConfig
    ) -> Bool {
        inPlace.contains { site, changed in
            (users[site] ?? []).contains { u in
                let asked = new.tiles[u.tile].items[u.item].config.values[u.key]
                return asked != changed[0].value && asked == base.tiles[u.tile].items[u.item].config.values[u.key]
            }
        }
    }
}
