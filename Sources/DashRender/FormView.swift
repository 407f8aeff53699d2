import Foundation
import DashCore
import DashWidgets

/// One row of the Edit Widget form: a parameter's title and value.
public struct FormRow: Sendable {
    public var title: String
    public var value: FieldText
    /// A hint at the right end of the row: ▾ for a choice, the range of a number, a spinner.
    public var trailing: String?
    /// What is wrong with the value, said in the row (the schema's words).
    public var error: String?
    /// A warning under the row (a list of choices that could not be loaded).
    public var warning: String?
    public var modified: Bool

    public init(
        title: String, value: FieldText, trailing: String? = nil, error: String? = nil, warning: String? = nil,
        modified: Bool = false
    ) {
        self.title = title
        self.value = value
        self.trailing = trailing
        self.error = error
        self.warning = warning
        self.modified = modified
    }
}

/// A box over the form: an enum's choices (with a filter), a list's items.
public struct FormPopup: Sendable {
    public var title: String
    /// The filter being typed (pickers).
    public var filter: FieldText?
    /// A line under the filter: loading, or why loading failed.
    public var status: String?
    public var statusIsProblem: Bool
    public var lines: [String]
    public var highlighted: Int?
    /// The line being edited in place (a list item), with its field.
    public var editingIndex: Int?
    public var editing: FieldText?
    /// Said when there are no lines.
    public var empty: String
    public var footer: String

    public init(
        title: String, filter: FieldText? = nil, status: String? = nil, statusIsProblem: Bool = false,
        lines: [String], highlighted: Int?, editingIndex: Int? = nil, editing: FieldText? = nil,
        empty: String, footer: String
    ) {
        self.title = title
        self.filter = filter
        self.status = status
        self.statusIsProblem = statusIsProblem
        self.lines = lines
        self.highlighted = highlighted
        self.editingIndex = editingIndex
        self.editing = editing
        self.empty = empty
        self.footer = footer
    }
}

/// The live preview beside the form: the widget's view in its family, or in a smaller one
/// the widget supports when the screen is narrow (the first candidate that fits is drawn).
public struct FormPreview: Sendable {
    public var candidates: [(family: WidgetFamily, view: TileView)]
    public var title: String
    public var caption: String
    public init(candidates: [(family: WidgetFamily, view: TileView)], title: String, caption: String) {
        self.candidates = candidates
        self.title = title
        self.caption = caption
    }
}

/// Everything the Edit Widget form shows, as plain values (DashApp builds it from the state).
public struct FormModel: Sendable {
    public var title: String
    public var footer: String
    /// A line above the rows ("3 widgets in this stack").
    public var heading: String?
    public var rows: [FormRow]
    public var selectedRow: Int?
    public var buttons: [String]
    public var selectedButton: Int?
    /// The selected row's help, under the rows.
    public var help: [String]
    /// The selected row's error in full under its help ("✗ Name must be …"), drawn in the error
    /// style like the row's own cut line.
    public var rowError: String?
    /// The selected row's warning in full under its error ("⚠ …").
    public var rowWarning: String?
    /// More lines under the help (file path completions).
    public var notes: [String]
    /// Why Save was refused.
    public var problem: String?
    public var popup: FormPopup?
    public var preview: FormPreview?

    public init(
        title: String, footer: String, heading: String? = nil, rows: [FormRow], selectedRow: Int?,
        buttons: [String], selectedButton: Int?, help: [String], rowError: String? = nil, rowWarning: String? = nil,
        notes: [String] = [], problem: String? = nil, popup: FormPopup? = nil, preview: FormPreview? = nil
    ) {
        self.title = title
        self.footer = footer
        self.heading = heading
        self.rows = rows
        self.selectedRow = selectedRow
        self.buttons = buttons
        self.selectedButton = selectedButton
        self.help = help
        self.rowError = rowError
        self.rowWarning = rowWarning
        self.notes = notes
        self.problem = problem
        self.popup = popup
        self.preview = preview
    }
}

/// Draws the Edit Widget form: rows on the left, the live preview on the right, the
/// selected row's help at the bottom, a picker or list box over the rows when one is open.
public enum FormView {
    /// Where the form goes on a screen: as big as its rows, help and preview want, centred,
    /// never over the status bar.
    public static func rect(for m: FormModel, screen: Size) -> Rect {
        let previewSize = m.preview?.candidates.first.map { GridMetrics.tileSize($0.family) } ?? .zero
        let rowLines = m.rows.reduce(0) { $0 + 1 + ($1.error != nil ? 1 : 0) + ($1.warning != nil ? 1 : 0) }
        let wantedHeight =
            2 + (m.heading != nil ? 2 : 0) + rowLines + (m.buttons.isEmpty ? 0 : 2) + 1
            + m.help.count + (m.rowError != nil ? 1 : 0) + (m.rowWarning != nil ? 1 : 0) + m.notes.count
            + (m.problem != nil ? 1 : 0) + 3
        let w = min(screen.width, 4 + 70 + (previewSize.width > 0 ? previewSize.width + 3 : 0))
        var h = min(screen.height - 1, max(wantedHeight, previewSize.height + 8, 20))
        if screen.height - 1 - h < 6 { h = screen.height - 1 }  // no slivers of the home screen around it
        return Rect(x: (screen.width - w) / 2, y: max(0, (screen.height - 1 - h) / 2), width: w, height: h)
    }

    /// The narrowest the rows may get before the preview is left out.
    public static let minimumRowsWidth = 34

    @discardableResult
    public static func draw(
        _ m: FormModel, in rect: Rect, environment env: RenderEnvironment,
        into buffer: inout CellBuffer
    ) -> RenderResult {
        let theme = env.theme
        Chrome.drawPane(rect, title: m.title, footer: m.footer, theme: theme, into: &buffer)
        var result = RenderResult()
        let inner = rect.inset(top: 1, left: 2, bottom: 1, right: 2)
        guard inner.width > 4, inner.height > 2 else { return result }
        let surface = theme[.surface]
        let text = Style(foreground: theme[.text], background: surface)
        let dim = Style(foreground: theme[.secondaryText], background: surface)

        // The preview: the first candidate family that leaves the rows enough room.
        var left = inner
        // Below the preview the rows' messages and the help may take the whole width.
        var previewBottom = inner.y
        if let p = m.preview {
            for (n, (family, view)) in p.candidates.enumerated() {
                let size = GridMetrics.tileSize(family)
                guard size.width + 3 + minimumRowsWidth <= inner.width, size.height + 1 <= inner.height else {
                    continue
                }
                let tile = Rect(x: inner.maxX - size.width, y: inner.y, width: size.width, height: size.height)
                var e = env
                e.highlightedLink = nil
                let r = Chrome.drawTile(
                    view, rect: tile, decoration: TileDecoration(title: p.title), environment: e,
                    into: &buffer)
                result.nextLiveChange = r.nextLiveChange
                // A smaller size than the tile's own says so: it is not what the home screen shows.
                var captions = [p.caption]
                if n > 0, size.height + 2 <= inner.height { captions.append("shown at \(family.displayName) size") }
                for (i, c) in captions.enumerated() {
                    let caption = DisplayWidth.truncate(c, to: size.width)
                    buffer.write(
                        caption, x: tile.x + (size.width - DisplayWidth.of(caption)) / 2, y: tile.maxY + i, style: dim)
                }
                left = Rect(x: inner.x, y: inner.y, width: inner.width - size.width - 3, height: inner.height)
                previewBottom = tile.maxY + captions.count
                break
            }
        }

        // The bottom: a rule, the selected row's help, notes, and why Save was refused. When
        // they are too many lines, the first (the row's description) gives up lines: what is
        // allowed, what is wrong and why Save was refused stay whole.
        var bottom: [(String, Style)] = m.help.map { ($0, text) }
        if let e = m.rowError { bottom.append((e, Style(foreground: theme[.negative], background: surface))) }
        if let w = m.rowWarning { bottom.append((w, Style(foreground: theme[.warning], background: surface))) }
        bottom += m.notes.map { ($0, dim) }
        if let problem = m.problem {
            let style = Style(foreground: theme[.negative], background: surface, attributes: [.bold])
            bottom.append(("✗ " + problem, style))
        }
        /// The bottom at `width` in at most `room` lines; `whole` when nothing was cut, `kept`
        /// when only the description was (every other line is there).
        func wrapped(_ width: Int, room: Int) -> (lines: [(String, Style)], whole: Bool, kept: Bool) {
            var parts = bottom.map { line, style in DisplayWidth.wrap(line, width: width).map { ($0, style) } }
            let total = parts.reduce(0) { $0 + $1.count }
            guard total > room else { return (parts.flatMap { $0 }, true, true) }
            let others = total - (parts.first?.count ?? 0)
            let keep = max(1, room - others)
            if let first = parts.first, keep < first.count {
                var cut = Array(first.prefix(keep))
                let last = cut[keep - 1].0
                cut[keep - 1].0 =
                    DisplayWidth.of(last) < width ? last + "…" : DisplayWidth.truncate(last + "…", to: width)
                parts[0] = cut
            }
            return (Array(parts.joined().prefix(room)), false, others + 1 <= room)
        }
        // Under the preview at the whole width when all of it fits there; else beside the preview
        // at the rows' width when all of it fits there and the rows still do (or nothing fits
        // under the preview); else under the preview with the description cut.
        let rowsWanted =
            (m.heading != nil ? 2 : 0)
            + m.rows.reduce(0) { $0 + 1 + ($1.error != nil ? 1 : 0) + ($1.warning != nil ? 1 : 0) }
            + (m.buttons.isEmpty ? 0 : 2)
        // The bottom takes what the rows leave, and a third of the height at least.
        let maxBottom = max(0, left.height / 3, left.height - rowsWanted - 2)
        let under = wrapped(inner.width, room: max(0, min(maxBottom, inner.maxY - 1 - previewBottom)))
        var bottomLines = under.lines
        var bottomWidth = inner.width
        if !under.whole {
            let beside = wrapped(left.width, room: maxBottom)
            let rowsFit = rowsWanted <= left.height - beside.lines.count - 2
            if !under.kept || (beside.whole && rowsFit) {
                bottomLines = beside.lines
                bottomWidth = left.width
            }
        }
        let bottomTop = left.maxY - bottomLines.count - (bottomLines.isEmpty ? 0 : 1)
        if !bottomLines.isEmpty {
            buffer.write(String(repeating: "─", count: bottomWidth), x: left.x, y: bottomTop, style: dim)
            for (i, (l, st)) in bottomLines.enumerated() { buffer.write(l, x: left.x, y: bottomTop + 1 + i, style: st) }
        }

        // The rows, scrolled so the selected one shows; the buttons stay in sight under them.
        var top = left.y
        if let heading = m.heading {
            buffer.write(
                DisplayWidth.truncate(heading, to: left.width), x: left.x, y: top,
                style: Style(foreground: theme[.secondaryText], background: surface, attributes: [.bold]))
            top += 2
        }
        let area = Rect(x: left.x, y: top, width: left.width, height: max(0, bottomTop - top - 1))
        let widestTitle = m.rows.map { DisplayWidth.of($0.title) }.max() ?? 0
        let titleWidth = min(max(12, widestTitle + 4), max(8, left.width / 2), 22)
        let valueX = left.x + titleWidth
        // Lines: each row, then its error and warning lines.
        var lines: [(row: Int, kind: Int)] = []  // kind 0 row, 1 error, 2 warning
        for (i, r) in m.rows.enumerated() {
            lines.append((i, 0))
            if r.error != nil { lines.append((i, 1)) }
            if r.warning != nil { lines.append((i, 2)) }
        }
        // A blank line and the buttons after the rows, or pinned to the bottom when the rows scroll.
        let buttonLines = m.buttons.isEmpty ? 0 : 2
        let rowRoom = lines.count + buttonLines <= area.height ? lines.count : max(0, area.height - buttonLines)
        var first = 0
        if let s = m.selectedRow, let focusLine = lines.firstIndex(where: { $0.row == s && $0.kind == 0 }) {
            let focusEnd = lines.lastIndex { $0.row == s } ?? focusLine
            if rowRoom > 0, focusEnd >= rowRoom { first = focusEnd - rowRoom + 1 }
            first = min(first, focusLine)
        } else if m.selectedButton != nil {
            first = max(0, lines.count - rowRoom)  // the rows just left, going down
        }
        var rowY: [Int: Int] = [:]
        for (n, line) in lines.enumerated() where n >= first && n - first < rowRoom {
            let y = area.y + n - first
            let right = y >= previewBottom ? inner.maxX : left.maxX
            switch line.kind {
            case 0:
                rowY[line.row] = y
                drawRow(
                    m.rows[line.row], selected: m.selectedRow == line.row, y: y, x: left.x, titleWidth: titleWidth,
                    width: left.width, theme: theme, into: &buffer)
            case 1:
                buffer.write(
                    MessageFit.fit("✗ " + (m.rows[line.row].error ?? ""), width: right - valueX), x: valueX, y: y,
                    style: Style(foreground: theme[.negative], background: surface))
            default:
                buffer.write(
                    MessageFit.fit("⚠ " + (m.rows[line.row].warning ?? ""), width: right - valueX), x: valueX,
                    y: y, style: Style(foreground: theme[.warning], background: surface))
            }
        }
        if first > 0 { buffer.write("↑ more", x: left.maxX - 6, y: area.y, style: dim) }
        if first + rowRoom < lines.count, rowRoom > 0 {
            buffer.write("↓ more", x: left.maxX - 6, y: area.y + rowRoom - 1, style: dim)
        }
        if buttonLines > 0, area.height > 0 {
            drawButtons(
                m, y: min(area.y + rowRoom + 1, area.maxY - 1), left: left, valueX: valueX, theme: theme,
                into: &buffer)
        }

        if let popup = m.popup {
            let anchor = m.selectedRow.flatMap { rowY[$0] } ?? area.y
            drawPopup(
                popup, below: anchor, x: valueX - 2,
                within: Rect(
                    x: left.x, y: inner.y, width: left.width,
                    height: inner.height),
                env: env, into: &buffer)
        }
        return result
    }

    /// Save and Cancel: under the values where they fit, else from the left edge, else in
    /// their short form; never cut.
    static func drawButtons(
        _ m: FormModel, y: Int, left: Rect, valueX: Int, theme: Theme, into buffer: inout CellBuffer
    ) {
        let surface = theme[.surface]
        func width(_ labels: [String], gap: Int) -> Int {
            labels.reduce(0) { $0 + DisplayWidth.of($1) } + gap * max(0, labels.count - 1)
        }
        var labels = m.buttons.map { "[ \($0) ]" }
        var gap = 2
        var x = valueX
        if x + width(labels, gap: gap) > left.maxX { x = left.x + 2 }
        if x + width(labels, gap: gap) > left.maxX {
            labels = m.buttons.map { "[\($0)]" }
            gap = 1
        }
        for (b, label) in labels.enumerated() {
            let st =
                m.selectedButton == b
                ? Style(foreground: theme[.focus], background: surface, attributes: [.bold, .reverse])
                : Style(foreground: theme[.accent], background: surface, attributes: [.bold])
            x += buffer.write(label, x: x, y: y, style: st, clip: left) + gap
        }
        if m.selectedButton != nil {
            buffer.write(
                "▸", x: left.x, y: y, style: Style(foreground: theme[.focus], background: surface, attributes: [.bold]))
        }
    }

    static func drawRow(
        _ r: FormRow, selected: Bool, y: Int, x: Int, titleWidth: Int, width: Int, theme: Theme,
        into buffer: inout CellBuffer
    ) {
        let surface = theme[.surface]
        let row = Rect(x: x, y: y, width: width, height: 1)
        if selected {
            buffer.write(
                "▸", x: x, y: y,
                style: Style(foreground: theme[.focus], background: surface, attributes: [.bold]))
        }
        let titleStyle =
            selected
            ? Style(foreground: theme[.focus], background: surface, attributes: [.bold])
            : Style(foreground: theme[.text], background: surface)
        let title = DisplayWidth.truncate(r.title, to: titleWidth - 4)
        let tw = buffer.write(title, x: x + 2, y: y, style: titleStyle, clip: row)
        if r.modified {
            buffer.write(
                "*", x: x + 2 + tw, y: y,
                style: Style(
                    foreground: theme[.accent], background: surface,
                    attributes: [.bold]))
        }
        let trailing = r.trailing.map { " " + $0 } ?? ""
        let trailingWidth = min(DisplayWidth.of(trailing), max(0, width - titleWidth - 6))
        let valueWidth = width - titleWidth - trailingWidth
        var valueStyle = Style(foreground: r.error != nil ? theme[.negative] : theme[.text], background: surface)
        if selected { valueStyle.attributes.insert(.bold) }
        var cursor = valueStyle
        cursor.attributes.insert(.reverse)
        LineField.draw(
            r.value, x: x + titleWidth, y: y, width: valueWidth, style: valueStyle, cursorStyle: cursor,
            placeholderStyle: Style(foreground: theme[.secondaryText], background: surface), into: &buffer)
        if trailingWidth > 0 {
            buffer.write(
                DisplayWidth.truncate(trailing, to: trailingWidth), x: x + width - trailingWidth, y: y,
                style: Style(foreground: theme[.secondaryText], background: surface), clip: row)
        }
    }

    static func drawPopup(
        _ p: FormPopup, below anchorY: Int, x: Int, within bounds: Rect, env: RenderEnvironment,
        into buffer: inout CellBuffer
    ) {
        let theme = env.theme
        let surface = theme[.surface]
        let header = (p.filter != nil ? 1 : 0) + (p.status != nil ? 1 : 0)
        let widest = max(
            p.lines.map { DisplayWidth.of($0) }.max() ?? 0, DisplayWidth.of(p.empty),
            DisplayWidth.of(p.footer) + 4, DisplayWidth.of(p.title) + 6)
        let width = min(max(30, widest + 6), bounds.width)
        let wanted = 2 + header + max(1, p.lines.count)
        let below = bounds.maxY - (anchorY + 1)
        let above = anchorY - bounds.y
        let height: Int
        let y: Int
        if wanted <= below || below >= above {
            height = min(wanted, below)
            y = anchorY + 1
        } else {
            height = min(wanted, above)
            y = anchorY - height
        }
        guard height >= 3 else { return }
        let bx = min(max(bounds.x, x), bounds.maxX - width)
        let box = Rect(x: bx, y: y, width: width, height: height)
        Chrome.drawPane(box, title: p.title, footer: p.footer, theme: theme, into: &buffer)
        let inner = box.inset(top: 1, left: 2, bottom: 1, right: 2)
        var ly = inner.y
        let text = Style(foreground: theme[.text], background: surface)
        let dim = Style(foreground: theme[.secondaryText], background: surface)
        if let filter = p.filter, ly < inner.maxY {
            let label = "Filter "
            buffer.write(label, x: inner.x, y: ly, style: dim)
            var cursor = text
            cursor.attributes.insert(.reverse)
            LineField.draw(
                filter, x: inner.x + label.count, y: ly, width: inner.width - label.count, style: text,
                cursorStyle: cursor, placeholderStyle: dim, into: &buffer)
            ly += 1
        }
        if let status = p.status, ly < inner.maxY {
            let st = Style(foreground: p.statusIsProblem ? theme[.warning] : theme[.secondaryText], background: surface)
            buffer.write(MessageFit.fit(status, width: inner.width), x: inner.x, y: ly, style: st)
            ly += 1
        }
        let room = inner.maxY - ly
        guard room > 0 else { return }
        if p.lines.isEmpty {
            buffer.write(DisplayWidth.truncate(p.empty, to: inner.width), x: inner.x, y: ly, style: dim)
            return
        }
        let focus = p.editingIndex ?? p.highlighted ?? 0
        var first = max(0, min(focus - room / 2, p.lines.count - room))
        if p.lines.count <= room { first = 0 }
        for (n, i) in (first..<min(p.lines.count, first + room)).enumerated() {
            let y = ly + n
            let mine = i == p.highlighted
            if i == p.editingIndex, let field = p.editing {
                var cursor = text
                cursor.attributes.insert(.reverse)
                buffer.write("✎", x: inner.x, y: y, style: Style(foreground: theme[.accent], background: surface))
                LineField.draw(
                    field, x: inner.x + 2, y: y, width: inner.width - 2, style: text, cursorStyle: cursor,
                    placeholderStyle: dim, into: &buffer)
                continue
            }
            let st = mine ? Style(foreground: theme[.focus], background: surface, attributes: [.bold, .reverse]) : text
            let line = DisplayWidth.truncate(p.lines[i], to: inner.width - 2)
            if mine { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), with: Cell(" ", style: st)) }
            buffer.write((mine ? "▸ " : "  ") + line, x: inner.x, y: y, style: st)
        }
        if first > 0 { buffer.write("↑", x: inner.maxX, y: ly, style: dim) }
        if first + room < p.lines.count { buffer.write("↓", x: inner.maxX, y: inner.maxY - 1, style: dim) }
    }
}
