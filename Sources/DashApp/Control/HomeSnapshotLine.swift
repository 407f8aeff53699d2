import Foundation
import DashCore

/// The choices `swiftdash snapshot --line` offers a status bar: which tiles, how wide, which fields.
extension HomeSnapshot {
    /// The fields a line format may name.
    public static let lineFields = ["kind", "summary", "tile", "instance", "stale", "state"]

    /// The `{name}` fields in `format` that are not `lineFields`, in order; tmux's own `#{…}` (nested
    /// braces included) is the user's tmux format and is not checked. Braces around anything but a
    /// name (`{x`, `{a b}`) are text.
    public static func unknownFields(in format: String) -> [String] {
        let chars = Array(format)
        var unknown: [String] = []
        var i = 0
        while i < chars.count {
            if chars[i] == "#", i + 1 < chars.count, chars[i + 1] == "{" {
                var depth = 0
                i += 1
                while i < chars.count {
                    if chars[i] == "{" { depth += 1 }
                    if chars[i] == "}" { depth -= 1 }
                    i += 1
                    if depth == 0 { break }
                }
                continue
            }
            if chars[i] == "{", let close = chars[(i + 1)...].firstIndex(of: "}") {
                let name = String(chars[(i + 1)..<close])
                if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "_" }) {
                    if !lineFields.contains(name) && !unknown.contains(name) { unknown.append(name) }
                    i = close + 1
                    continue
                }
            }
            i += 1
        }
        return unknown
    }

    /// The tiles whose tile or instance id is in `ids` (when given) and whose kind is in `kinds` (when
    /// given), in layout order.
    public static func select(_ tiles: [TileSnapshot], ids: [String]?, kinds: [String]?) -> [TileSnapshot] {
        tiles.filter { t in
            (ids.map { $0.contains(t.tile) || $0.contains(t.instance) } ?? true)
                && (kinds.map { $0.contains(t.kind) } ?? true)
        }
    }

    /// `parts` cut to at most `width` columns: at the last space that fits (else inside a word), trailing
    /// spaces and separators dropped, then `…`. swiftdash's own tmux styles take no room; a colour
    /// left open by the cut is closed.
    static func cut(_ parts: [LinePart], toWidth width: Int, tmux: Bool) -> [LinePart] {
        let visible = parts.reduce(0) { sum, p in
            if case .style = p { return sum }
            return sum + DisplayWidth.of(p.text)
        }
        guard visible > width else { return parts }
        var kept: [(part: Int, char: Character)] = []
        var used = 0
        var next: Character?
        outer: for (index, part) in parts.enumerated() {
            if case .style = part { continue }
            for ch in part.text {
                let w = DisplayWidth.of(ch)
                if used + w > max(0, width - 1) {
                    next = ch
                    break outer
                }
                kept.append((index, ch))
                used += w
            }
        }
        if next != " ", let space = kept.lastIndex(where: { $0.char == " " }), space > 0 {
            kept.removeLast(kept.count - space)
        }
        while let last = kept.last, last.char == " " || last.char == "|" { kept.removeLast() }
        let end = kept.last?.part ?? -1
        var out: [LinePart] = []
        var openStyle = false
        for (index, part) in parts.enumerated() where index <= end {
            switch part {
            case .style(let s):
                out.append(part)
                openStyle = s != "#[default]"
            case .literal:
                out.append(.literal(String(kept.filter { $0.part == index }.map(\.char))))
            case .value:
                out.append(.value(String(kept.filter { $0.part == index }.map(\.char))))
            }
        }
        out.append(.literal("…"))
        if tmux && openStyle { out.append(.style("#[default]")) }
        return out
    }
}
