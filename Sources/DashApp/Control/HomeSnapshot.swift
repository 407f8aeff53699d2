import Foundation
import DashWidgets
import DashScheduler
import DashHome
import DashActivities

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
    /// `ok` (a current entry), `stale` (the last good entry; `error` says why), `failed` (no entry
    /// yet, `error` says why) or `waiting` (no entry yet, none failed).
    public var state: String
    public var error: String?
    public var relevance: Double?
}

/// The whole answer: when it was taken, where it came from (`running` or `cache`) and the tiles.
public struct HomeSnapshotDocument: Codable, Sendable, Equatable {
    public var now: Double
    public var source: String
    public var tiles: [TileSnapshot]
    /// The activities shown, the most relevant first (issue 39.2); read from the state folder by
    /// the command, whoever answered for the tiles.
    public var activities: [ActivitySummary]?
    /// What widget bundles' own views drew of the activities, by id, as the running home screen
    /// holds it (decision 68): the command draws those activities' compact forms with it.
    public var activityViews: [String: ActivityPresentation]?

    public init(
        now: Double, source: String, tiles: [TileSnapshot], activities: [ActivitySummary]? = nil,
        activityViews: [String: ActivityPresentation]? = nil
    ) {
        self.now = now
        self.source = source
        self.tiles = tiles
        self.activities = activities
        self.activityViews = activityViews
    }
}

public enum HomeSnapshot {
    /// The most characters of a summary or an error in a snapshot: a status line shows a few dozen, and
    /// 1,000 tiles must fit in one control-socket answer.
    public static let maxTextCharacters = 300
    /// The most characters of a tile id, instance id or kind (they come from home.yaml).
    public static let maxIDCharacters = 100

    static func text(_ s: String, max: Int) -> String {
        TextSanitizer.singleLine(TextSanitizer.clean(s, keepNewlines: false, maxCharacters: max))
    }

    /// Every tile's shown instance and its current entry, in layout order.
    public static func tiles(_ s: AppState) -> [TileSnapshot] {
        s.home.tiles.compactMap { t in
            guard let inst = s.shownInstance(t.id) else { return nil }
            let entry = s.entry(ofInstance: inst.id)
            let error = s.scheduler.lastError(inst.id).map { text($0, max: maxTextCharacters) }
            let stale = entry != nil && s.scheduler.isStale(inst.id)
            let state = entry == nil ? (error == nil ? "waiting" : "failed") : (stale ? "stale" : "ok")
            return TileSnapshot(
                tile: text(t.id, max: maxIDCharacters), instance: text(inst.id, max: maxIDCharacters),
                kind: text(inst.kind, max: maxIDCharacters), family: t.family.rawValue,
                summary: text(entry?.summary ?? "", max: maxTextCharacters),
                date: entry.map { $0.date.timeIntervalSince1970 }, stale: stale, state: state,
                error: error, relevance: entry?.relevance?.score)
        }
    }

    /// A document read from elsewhere (the running instance's answer) cleaned again before it is printed.
    public static func cleaned(_ doc: HomeSnapshotDocument) -> HomeSnapshotDocument {
        var d = doc
        d.source = text(doc.source, max: maxIDCharacters)
        d.tiles = doc.tiles.map { t in
            var c = t
            c.tile = text(t.tile, max: maxIDCharacters)
            c.instance = text(t.instance, max: maxIDCharacters)
            c.kind = text(t.kind, max: maxIDCharacters)
            c.family = text(t.family, max: maxIDCharacters)
            c.summary = text(t.summary, max: maxTextCharacters)
            c.state = text(t.state, max: maxIDCharacters)
            c.error = t.error.map { text($0, max: maxTextCharacters) }
            return c
        }
        d.activityViews = doc.activityViews.map { views in
            Dictionary(
                views.prefix(64).map { (text($0.key, max: maxIDCharacters), $0.value.cleaned()) },
                uniquingKeysWith: { first, _ in first })
        }
        return d
    }

    public static func json(_ tiles: [TileSnapshot], at now: Date, source: String) -> String {
        json(HomeSnapshotDocument(now: now.timeIntervalSince1970, source: source, tiles: tiles))
    }

    /// One line of JSON (no pretty printing: it is also a control-socket answer).
    public static func json(_ doc: HomeSnapshotDocument) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? e.encode(doc)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The running home screen's answer to the control socket's `snapshot`: the document as it shows
    /// now, or a one-line error when it would be longer than a client reads (`maxBytes`).
    public static func answer(_ s: AppState, maxBytes: Int = ControlProtocol.maxAnswer - 1024) -> String {
        let drawn = s.activities.drawings.views.drawn
        let doc = json(
            HomeSnapshotDocument(
                now: s.now.timeIntervalSince1970, source: "running", tiles: tiles(s),
                activityViews: drawn.isEmpty ? nil : drawn))
        guard doc.utf8.count <= maxBytes else {
            return "error: the snapshot of \(s.home.tiles.count) tiles is \(doc.utf8.count / 1024) KB;"
                + " an answer may be at most \(maxBytes / 1024) KB"
        }
        return doc
    }

    /// Reads a `snapshot` answer: the document, or why not (an `error: …` answer, or bytes that are not one).
    public static func parseAnswer(_ answer: String) -> Result<HomeSnapshotDocument, SnapshotAnswerError> {
        guard answer.hasPrefix("{") else {
            return .failure(SnapshotAnswerError(message: text(answer, max: maxTextCharacters)))
        }
        guard let doc = try? JSONDecoder().decode(HomeSnapshotDocument.self, from: Data(answer.utf8)) else {
            return .failure(SnapshotAnswerError(message: "the answer is not a snapshot"))
        }
        return .success(cleaned(doc))
    }

    public struct SnapshotAnswerError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// One line: each tile through `format` (`{kind}`, `{summary}`, `{tile}`, `{instance}`, `{stale}`,
    /// `{state}`), joined with ` | `. Placeholders are filled in one pass, so text that looks like one stays
    /// text. Stale tiles get `{stale}` = `⚠` (and, for tmux, a yellow colour); a failed tile (no entry, the
    /// load failed) shows as `⚠ kind` (red for tmux). With `max`, the line is cut at a word to at most
    /// that many columns, ending in `…`. With `tmux`, `#` in the tiles' text is escaped (see `tmuxLine`)
    /// so tmux shows it as it is and never reads a style, a format or a command from it; the format
    /// itself is the user's tmux format and is left alone.
    /// `activity`: the most relevant activity's compact form (`ActivityLine.status`), shown first.
    public static func line(
        _ tiles: [TileSnapshot], format: String, tmux: Bool, max: Int? = nil, activity: String = ""
    ) -> String {
        let format = TextSanitizer.clean(format)
        var parts: [LinePart] = []
        if !activity.isEmpty { parts.append(.value(text(activity, max: maxTextCharacters))) }
        for t in tiles where !t.summary.isEmpty || t.state == "failed" {
            if !parts.isEmpty { parts.append(.literal(" | ")) }
            if t.summary.isEmpty {
                if tmux { parts.append(.style("#[fg=red]")) }
                parts.append(.value("⚠ \(t.kind)"))
                if tmux { parts.append(.style("#[default]")) }
                continue
            }
            if tmux && t.stale { parts.append(.style("#[fg=yellow]")) }
            parts += fill(
                format,
                [
                    "kind": t.kind, "summary": t.summary, "tile": t.tile, "instance": t.instance,
                    "stale": t.stale ? "⚠" : "", "state": t.state,
                ])
            if tmux && t.stale { parts.append(.style("#[default]")) }
        }
        if let max { parts = cut(parts, toWidth: max, tmux: tmux) }
        return tmux ? tmuxLine(parts) : parts.map(\.text).joined()
    }

    enum LinePart {
        case literal(String)
        case value(String)
        /// A tmux style swiftdash adds (`#[fg=yellow]`): takes no room on the line.
        case style(String)
        var text: String {
            switch self {
            case .literal(let s), .value(let s), .style(let s): return s
            }
        }
    }

    /// `format` with each `{name}` in `values` replaced, in one pass; other braces stay as they are.
    static func fill(_ format: String, _ values: [String: String]) -> [LinePart] {
        var parts: [LinePart] = []
        var literal = ""
        var i = format.startIndex
        while i < format.endIndex {
            if format[i] == "{", let close = format[i...].firstIndex(of: "}"),
                let value = values[String(format[format.index(after: i)..<close])]
            {
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.value(value))
                i = format.index(after: close)
            } else {
                literal.append(format[i])
                i = format.index(after: i)
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    /// The parts joined for tmux's status line, where a `#(command)` prints it. tmux expands that output
    /// as a format once (`##` is one `#`, `#S` the session's name, `#{…}` a variable; commands are not
    /// run there) and then draws it, reading `#[…]` as a style and a run of `#` not before `[` by halves.
    /// So a run of `n` `#` in text becomes `2n` before a `[` (kept whole by the expansion, drawn as `n`
    /// and a plain `[`) and `4n` elsewhere (expanded to `2n`, drawn as `n`). What follows a run may be the
    /// next part: the first character after it that is not `#` decides.
    static func tmuxLine(_ parts: [LinePart]) -> String {
        var out = ""
        for (index, part) in parts.enumerated() {
            guard case .value(let text) = part else {
                out += part.text
                continue
            }
            let chars = Array(text)
            var i = 0
            while i < chars.count {
                guard chars[i] == "#" else {
                    out.append(chars[i])
                    i += 1
                    continue
                }
                var n = 0
                while i < chars.count && chars[i] == "#" {
                    n += 1
                    i += 1
                }
                let next: Character? =
                    i < chars.count
                    ? chars[i] : parts[(index + 1)...].lazy.compactMap { $0.text.first { $0 != "#" } }.first
                out += String(repeating: "#", count: next == "[" ? 2 * n : 4 * n)
            }
        }
        return out
    }
}
