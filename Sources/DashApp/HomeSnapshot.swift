import Foundation
import DashWidgets
import DashScheduler

/// What every tile shows, as data (`swiftdash snapshot`): for scripts (JSON) and a status line.
public struct TileSnapshot: Codable, Sendable, Equatable {
    public var tile: String
    public var instance: String
    public var kind: String
    public var family: String
    /// The entry's one-line summary (sanitised); empty before the first timeline.
    public var summary: String
    /// The entry's date (seconds since 1970), nil before the first timeline.
    public var date: Double?
    /// The last load failed: the entry is the last good one.
    public var stale: Bool
    public var error: String?
    public var relevance: Double?
}

public enum HomeSnapshot {
    /// Every tile's shown instance and its current entry, in layout order.
    public static func tiles(_ s: AppState) -> [TileSnapshot] {
        s.home.tiles.compactMap { t in
            guard let inst = s.shownInstance(t.id) else { return nil }
            let entry = s.entry(ofInstance: inst.id)
            return TileSnapshot(
                tile: t.id, instance: inst.id, kind: inst.kind, family: t.family.rawValue,
                summary: TextSanitizer.singleLine(entry?.summary ?? ""),
                date: entry.map { $0.date.timeIntervalSince1970 }, stale: s.scheduler.isStale(inst.id),
                error: s.scheduler.lastError(inst.id).map { TextSanitizer.singleLine($0) },
                relevance: entry?.relevance?.score)
        }
    }

    public static func json(_ tiles: [TileSnapshot], at now: Date) -> String {
        struct Document: Codable {
            var now: Double
            var tiles: [TileSnapshot]
        }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? e.encode(Document(now: now.timeIntervalSince1970, tiles: tiles))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// One line: each tile through `format` (`{kind}`, `{summary}`, `{tile}`, `{instance}`, `{stale}`),
    /// joined with ` | `. Stale tiles get `{stale}` = `⚠` (and, for tmux, a yellow colour).
    /// With `tmux`, `#` in text is doubled so tmux does not read it as a format.
    public static func line(_ tiles: [TileSnapshot], format: String, tmux: Bool) -> String {
        tiles.filter { !$0.summary.isEmpty }.map { t in
            func esc(_ s: String) -> String { tmux ? s.replacingOccurrences(of: "#", with: "##") : s }
            var out = format
            for (key, value) in [
                ("{kind}", t.kind), ("{summary}", t.summary), ("{tile}", t.tile),
                ("{instance}", t.instance), ("{stale}", t.stale ? "⚠" : ""),
            ] {
                out = out.replacingOccurrences(of: key, with: esc(value))
            }
            if tmux && t.stale { out = "#[fg=yellow]" + out + "#[default]" }
            return out
        }.joined(separator: " | ")
    }
}
