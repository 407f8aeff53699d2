import Foundation
import DashCore

/// An activity's detail, its Lock Screen presentation (issue 39.2): the title and subtitle, the
/// progress as a bar with its label, the status line, the timing (elapsed, a countdown, an ETA),
/// how it ended, its deep link, and the other activities as a list. Enter on the strip opens it.
/// Pure: the entry point for the pane stack is `draw(_:into:rect:theme:)` with
/// `ActivityDetailModel.at(_:book:id:)`.
public struct ActivityDetailModel: Equatable, Sendable {
    public var face: ActivityFace
    /// When it started and, if it ended, when, as seconds before `now` (no time zone needed).
    public var startedAgo: TimeInterval
    public var phase: ActivityPhase
    public var relevance: Double
    public var command: String?
    /// The others shown, most relevant first.
    public var others: [ActivityFace]

    /// The detail of activity `id` in `book` at `now`; nil when it is not shown.
    public static func at(
        _ now: Date, book: ActivityBook, id: String, views: ActivityViews = ActivityViews()
    ) -> ActivityDetailModel? {
        let shown = book.shown(at: now)
        guard let a = shown.first(where: { $0.id == id }) ?? book[id] else { return nil }
        return ActivityDetailModel(
            face: ActivityKinds.face(of: a, at: now, views: views), startedAgo: now.timeIntervalSince(a.started),
            phase: a.phase(at: now), relevance: a.content.relevanceScore,
            command: a.kind == "command" ? a.attributes["command"]?.string.map { ActivityInput.text($0) } : nil,
            others: shown.filter { $0.id != id }.map { ActivityKinds.face(of: $0, at: now, views: views) })
    }
}

public enum ActivityDetailView {
    public static func draw(_ m: ActivityDetailModel, into buffer: inout CellBuffer, rect: Rect, theme: Theme) {
        let base = Style(foreground: theme[.text], background: theme[.background])
        let secondary = Style(foreground: theme[.secondaryText], background: theme[.background])
        var tone = ActivityStripView.style(m.face.tone, theme: theme)
        tone.background = theme[.background]
        buffer.fill(rect, with: Cell(" ", style: base))
        guard rect.width >= 10, rect.height >= 3 else { return }
        let inner = Rect(x: rect.x + 2, y: rect.y + 1, width: rect.width - 4, height: rect.height - 2)
        var y = inner.y
        func line(_ text: String, _ style: Style, x: Int? = nil) {
            guard y < inner.y + inner.height else { return }
            let at = x ?? inner.x
            _ = buffer.write(ActivityStripView.cut(text, inner.x + inner.width - at), x: at, y: y, style: style, clip: inner)
        }
        let f = m.face
        // The title at the left, the timing at the right.
        let timing = ActivityStripView.cut(f.timing, inner.width / 2)
        line("\(f.symbol) \(f.title)", { var s = tone; s.attributes.insert(.bold); return s }())
        if !timing.isEmpty {
            _ = buffer.write(timing, x: inner.x + inner.width - DisplayWidth.of(timing), y: y, style: secondary, clip: inner)
        }
        y += 1
        if let views = f.views {
            // The bundle's own Lock Screen view, as text, in place of the built-in body.
            y += 1
            let room = max(1, min(8, inner.y + inner.height - y - 4))
            for text in views.lockScreen.split(separator: "\n", omittingEmptySubsequences: false) {
                for l in DisplayWidth.wrap(String(text), width: inner.width, maxLines: room).lines {
                    line(l, base)
                    y += 1
                }
            }
            y += 1
        } else {
            y = body(f, m, into: &buffer, inner: inner, y: y, styles: (base, secondary, tone))
        }
        if let why = f.viewProblem {
            let text = "⚠ its widget bundle's views could not draw it: \(why)"
            for l in DisplayWidth.wrap(text, width: inner.width, maxLines: 3).lines {
                line(l, secondary)
                y += 1
            }
        }
        if let outcome = f.outcomeText {
            line(outcome, tone)
            y += 1
        } else {
            let phase = m.phase == .stale ? "stale: no update in time" : "running"
            line("\(phase) · started \(ActivityTime.span(m.startedAgo)) ago", secondary)
            y += 1
        }
        if let alert = f.alert {
            line("🔔 " + (alert.body.isEmpty ? alert.title : "\(alert.title) — \(alert.body)"), tone)
            y += 1
        }
        if let url = f.url {
            line("link: \(url)", secondary)
            y += 1
        }
        if !m.others.isEmpty, y + 2 < inner.y + inner.height {
            y += 1
            line("Other activities", secondary)
            y += 1
            for o in m.others {
                var s = ActivityStripView.style(o.tone, theme: theme)
                s.background = theme[.background]
                line("\(ActivityLine.compact(o))", s, x: inner.x + 2)
                y += 1
            }
        }
    }

    /// The built-in body: the subtitle, the command, the progress bar and the status line.
    static func body(
        _ f: ActivityFace, _ m: ActivityDetailModel, into buffer: inout CellBuffer, inner: Rect, y start: Int,
        styles: (base: Style, secondary: Style, tone: Style)
    ) -> Int {
        var y = start
        let (base, secondary, tone) = styles
        func line(_ text: String, _ style: Style) {
            guard y < inner.y + inner.height else { return }
            _ = buffer.write(ActivityStripView.cut(text, inner.width), x: inner.x, y: y, style: style, clip: inner)
        }
        if !f.subtitle.isEmpty {
            line(f.subtitle, secondary)
            y += 1
        }
        if let command = m.command, command != f.title {
            line("$ \(command)", secondary)
            y += 1
        }
        y += 1
        if let p = f.progress {
            let label = " " + (f.progressLabel.map { $0.hasSuffix("%") ? $0 : "\($0) (\(Int((p * 100).rounded(.down)))%)" } ?? "\(Int((p * 100).rounded(.down)))%")
            let width = max(0, min(40, inner.width - DisplayWidth.of(label)))
            line(ActivityStripView.bar(p, width: width), tone)
            _ = buffer.write(label, x: inner.x + width, y: y, style: base, clip: inner)
            y += 2
        }
        if !f.line.isEmpty {
            line(f.line, base)
            y += 2
        }
        return y
    }
}
