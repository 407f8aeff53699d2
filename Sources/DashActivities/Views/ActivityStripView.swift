import Foundation
import DashCore

/// The strip on the home screen, the terminal's Dynamic Island (issue 39.2): the most relevant
/// activity compact (its leading and trailing regions in one pill, centred), the others as minimal
/// marks beside it; expanded (the expanded regions: leading, center, trailing, and bottom) when the
/// strip has the focus or an update alerts. A finished activity says how it ended and how long it
/// ran until it is dismissed. Pure: the faces are computed at `now` by the caller
/// (`ActivityStripModel.at`).
public struct ActivityStripModel: Equatable, Sendable {
    /// The faces shown, the most relevant first.
    public var faces: [ActivityFace]
    /// The strip has the focus (the home screen's focus is on it).
    public var focused: Bool

    public init(faces: [ActivityFace], focused: Bool = false) {
        self.faces = faces
        self.focused = focused
    }

    /// The strip of `book` at `now`.
    public static func at(
        _ now: Date, book: ActivityBook, focused: Bool = false, views: ActivityViews = ActivityViews()
    ) -> ActivityStripModel {
        ActivityStripModel(
            faces: book.shown(at: now).map { ActivityKinds.face(of: $0, at: now, views: views) }, focused: focused)
    }

    /// Expanded: focused, or the most relevant one alerts.
    public var expanded: Bool { focused || faces.first?.alert != nil }

    /// The rows it takes: none without activities, 1 compact, 2 expanded.
    public var height: Int { faces.isEmpty ? 0 : expanded ? 2 : 1 }

    /// Some text in it counts with the clock: redraw each second while it shows.
    public var ticks: Bool { faces.contains { $0.ticks } }
}

public enum ActivityStripView {
    /// The widest the pill grows.
    public static let maxWidth = 72

    public static func style(_ tone: ActivityTone, theme: Theme) -> Style {
        let surface = theme[.surface]
        switch tone {
        case .running: return Style(foreground: theme[.accent], background: surface, attributes: [.bold])
        case .stale: return Style(foreground: theme[.warning], background: surface, attributes: [.bold])
        case .success: return Style(foreground: theme[.positive], background: surface, attributes: [.bold])
        case .failure: return Style(foreground: theme[.negative], background: surface, attributes: [.bold])
        case .ended: return Style(foreground: theme[.secondaryText], background: surface, attributes: [.bold])
        }
    }

    /// Draws the strip in `rect` (its `height` rows at the top of it).
    public static func draw(_ model: ActivityStripModel, into buffer: inout CellBuffer, rect: Rect, theme: Theme) {
        guard let first = model.faces.first, rect.width >= 8, rect.height >= 1 else { return }
        let back = Style(foreground: theme[.text], background: theme[.background])
        buffer.fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: min(rect.height, model.height)), with: Cell(" ", style: back))
        let others = Array(model.faces.dropFirst())
        let marks = others.map { " \($0.minimal) " }
        let marksWidth = marks.reduce(0) { $0 + DisplayWidth.of($1) + 1 }
        let width = min(maxWidth, rect.width - marksWidth - 2)
        guard width >= 6 else { return }
        let x = rect.x + (rect.width - width - marksWidth) / 2
        let surface = Style(foreground: theme[.text], background: theme[.surface])
        let tone = style(first.tone, theme: theme)
        let secondary = Style(foreground: theme[.secondaryText], background: theme[.surface])
        var focus = surface
        if model.focused { focus = Style(foreground: theme[.focus], background: theme[.surface], attributes: [.bold]) }
        let rows = min(model.height, rect.height)
        for r in 0..<rows { buffer.fill(Rect(x: x, y: rect.y + r, width: width, height: 1), with: Cell(" ", style: surface)) }
        let inner = Rect(x: x + 1, y: rect.y, width: width - 2, height: 1)
        if model.expanded {
            // Row 1: leading | center | trailing (the bundle's expanded regions where it drew them).
            let regions = first.outcome == nil ? first.views?.expanded ?? [:] : [:]
            row(
                &buffer, inner, left: regions["leading"] ?? first.compactLeading,
                middle: regions["center"] ?? center(first), right: regions["trailing"] ?? first.compactTrailing,
                styles: (tone, secondary, tone))
            // Row 2: the bottom region: an alert, how it ended, or a progress bar and the timing.
            let bottom = Rect(x: x + 1, y: rect.y + 1, width: width - 2, height: 1)
            if rows > 1 {
                if let alert = first.alert {
                    let text = alert.body.isEmpty ? "🔔 \(alert.title)" : "🔔 \(alert.title) — \(alert.body)"
                    _ = buffer.write(cut(text, bottom.width), x: bottom.x, y: bottom.y, style: tone, clip: bottom)
                } else if let outcome = first.outcomeText {
                    _ = buffer.write(cut(outcome, bottom.width), x: bottom.x, y: bottom.y, style: tone, clip: bottom)
                } else if let text = regions["bottom"] {
                    _ = buffer.write(cut(text, bottom.width), x: bottom.x, y: bottom.y, style: secondary, clip: bottom)
                } else {
                    let timing = " " + first.timing
                    let barWidth = first.progress == nil ? 0 : max(0, bottom.width - DisplayWidth.of(timing))
                    if let p = first.progress, barWidth > 0 {
                        _ = buffer.write(bar(p, width: barWidth), x: bottom.x, y: bottom.y, style: tone, clip: bottom)
                    }
                    _ = buffer.write(
                        cut(barWidth > 0 ? timing : first.timing, bottom.width - barWidth), x: bottom.x + barWidth,
                        y: bottom.y, style: secondary, clip: bottom)
                }
            }
        } else {
            row(&buffer, inner, left: first.compactLeading, middle: "", right: first.compactTrailing,
                styles: (tone, secondary, tone))
        }
        if model.focused {
            _ = buffer.write("▌", x: x, y: rect.y, style: focus)
            _ = buffer.write("▐", x: x + width - 1, y: rect.y, style: focus)
        }
        var mx = x + width + 2
        for (face, mark) in zip(others, marks) {
            _ = buffer.write(mark, x: mx, y: rect.y, style: style(face.tone, theme: theme), clip: rect)
            mx += DisplayWidth.of(mark) + 1
        }
    }

    /// What the center region holds: the status line, else the subtitle.
    static func center(_ f: ActivityFace) -> String { f.line.isEmpty ? f.subtitle : f.line }

    static func row(
        _ buffer: inout CellBuffer, _ r: Rect, left: String, middle: String, right: String,
        styles: (Style, Style, Style)
    ) {
        let rightText = cut(right, max(0, r.width / 2))
        let rw = DisplayWidth.of(rightText)
        let leftText = cut(left, max(0, r.width - rw - 1))
        let lw = DisplayWidth.of(leftText)
        _ = buffer.write(leftText, x: r.x, y: r.y, style: styles.0, clip: r)
        _ = buffer.write(rightText, x: r.x + r.width - rw, y: r.y, style: styles.2, clip: r)
        let room = r.width - lw - rw - 4
        if !middle.isEmpty, room >= 4 {
            _ = buffer.write(cut(middle, room), x: r.x + lw + 2, y: r.y, style: styles.1, clip: r)
        }
    }

    /// `text` in at most `width` columns, ending in `…` when cut.
    public static func cut(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.of(text) > width else { return text }
        var out = ""
        var used = 0
        for ch in text {
            let w = DisplayWidth.of(ch)
            if used + w > width - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }

    /// A progress bar of `width` cells.
    public static func bar(_ p: Double, width: Int) -> String {
        let filled = Int((min(1, max(0, p)) * Double(width)).rounded(.down))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: max(0, width - filled))
    }
}
