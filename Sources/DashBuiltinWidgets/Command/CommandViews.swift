import Foundation
import DashWidgets

/// The command tile: a title row (the command, and the exit status when it is not 0),
/// then as many output lines as the size holds — four in small and medium,
/// eleven in large, with a note of what did not fit; the detail pane shows the rest.
enum CommandViews {
    static func tile(_ e: CommandEntry, _ ctx: TimelineContext) -> TileView {
        let rows: Int
        switch ctx.family {
        case .small, .medium: rows = 4
        case .large, .extraLarge: rows = 12
        }
        let view = VStack {
            header(e, compact: ctx.family == .small)
            output(e, rows: rows)
        }.widgetURL(CommandWidget.link)
        return e.isPlaceholder ? view.redacted() : view
    }

    /// The command as run (the tile's frame already carries the label) and its exit status.
    static func header(_ e: CommandEntry, compact: Bool) -> TileView {
        HStack {
            Text("$ " + e.commandLine).font(.caption).lineLimit(1)
            Spacer(minLength: 1)
            if e.exitStatus != 0 {
                Text(compact ? "✗\(e.exitStatus)" : "exit \(e.exitStatus)").foregroundStyle(.negative).bold()
            }
        }
    }

    static func line(_ l: OutputLine) -> TileView {
        if l.runs.count == 1, let r = l.runs.first { return run(r).lineLimit(1) }
        return HStack(spacing: 0) {
            for r in l.runs { run(r).lineLimit(1) }
        }
    }

    static func run(_ r: StyledRun) -> TileView {
        var t = Text(r.text)
        if let c = r.semanticColor { t = t.foregroundStyle(c) }
        if r.bold { t = t.bold() }
        return t
    }

    /// What did not fit, in words.
    static func note(_ e: CommandEntry, hidden: Int) -> String? {
        var parts: [String] = []
        let more = hidden + e.omittedLines
        if more > 0 { parts.append("\(more) more line\(more == 1 ? "" : "s")" + (e.showsTail ? " above" : "")) }
        if e.truncated { parts.append("cut at \(e.outputLimit / 1024) KB") }
        return parts.isEmpty ? nil : "… " + parts.joined(separator: ", ")
    }

    static func output(_ e: CommandEntry, rows: Int) -> TileView {
        if e.lines.isEmpty {
            return Text("(no output)").font(.caption)
        }
        // A one-line answer wraps to use the tile; longer output keeps its columns.
        if e.lines.count == 1, e.lines[0].runs.count == 1, !e.truncated {
            return run(e.lines[0].runs[0]).lineLimit(rows)
        }
        let fits = e.lines.count + (e.omittedLines > 0 || e.truncated ? 1 : 0) <= rows
        let shown = fits ? e.lines.count : max(1, rows - 1)
        let visible = e.showsTail ? Array(e.lines.suffix(shown)) : Array(e.lines.prefix(shown))
        let hidden = e.lines.count - visible.count
        return VStack {
            if e.showsTail, let n = note(e, hidden: hidden) { Text(n).font(.caption) }
            for l in visible { line(l) }
            if !e.showsTail, let n = note(e, hidden: hidden) { Text(n).font(.caption) }
        }
    }

    static func detail(_ link: DeepLink, _ entry: CommandEntry?, _ ctx: TimelineContext) -> TileView {
        guard let e = entry else {
            return VStack {
                Text("Command").font(.title)
                Text("Not run yet").font(.caption)
            }
        }
        let every = e.interval > 0 ? "every \(e.interval) s" : "on demand (r)"
        return VStack {
            titleRow(
                e.label, e.exitStatus == 0 ? "exit 0" : "exit \(e.exitStatus)",
                color: e.exitStatus == 0 ? .accent : .negative)
            Text("$ " + e.commandLine).font(.caption).lineLimit(2)
            Divider()
            output(e, rows: max(3, ctx.size.height - 5))
            Spacer()
            HStack {
                Text("ran for \(FixedFormat.decimal(e.duration, places: 2)) s · \(every) · last run").font(.caption)
                Text(e.date, style: .relative).font(.caption)
            }
        }
    }
}
