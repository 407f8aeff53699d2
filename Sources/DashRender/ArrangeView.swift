import DashCore

/// How a tile is marked in arrange mode.
public enum ArrangeMark: Sendable, Equatable {
    /// The tile the arrows move the focus over (not lifted).
    case cursor
    /// The lifted tile: the arrows move it.
    case lifted
    /// The tile the lifted one would stack onto if dropped now.
    case target
}

/// Arrange mode's marks over the home screen: a tile's frame redrawn in a shape that tells
/// its state without colour (double lines: lifted; dashed: drop target; heavy: focus), a
/// label on its top edge, and the status bar that says what the keys do.
public enum ArrangeView {
    public static func mark(
        _ rect: Rect, _ mark: ArrangeMark, label: String?, theme: Theme,
        into buffer: inout CellBuffer
    ) {
        guard rect.width >= 4, rect.height >= 2 else { return }
        let surface = theme[.surface]
        let (tl, tr, bl, br, h, v): (String, String, String, String, String, String)
        var style: Style
        switch mark {
        case .cursor:
            (tl, tr, bl, br, h, v) = ("┏", "┓", "┗", "┛", "━", "┃")
            style = Style(foreground: theme[.focus], background: surface, attributes: [.bold])
        case .lifted:
            (tl, tr, bl, br, h, v) = ("╔", "╗", "╚", "╝", "═", "║")
            style = Style(foreground: theme[.focus], background: surface, attributes: [.bold])
        case .target:
            (tl, tr, bl, br, h, v) = ("┏", "┓", "┗", "┛", "╍", "╏")
            style = Style(foreground: theme[.accent], background: surface, attributes: [.bold])
        }
        // Keep the title and stack dots where they are: redraw only the line glyphs.
        let lines = Set("─━│┃╭╮╰╯┏┓┗┛╔╗╚╝═║".map(String.init))
        func put(_ s: String, _ x: Int, _ y: Int) {
            let old = buffer[x, y]
            if lines.contains(old.text) {
                buffer[x, y] = Cell(s, style: style)
            } else {
                var st = old.style
                st.foreground = style.foreground
                buffer[x, y] = Cell(old.text, style: st)
            }
        }
        put(tl, rect.x, rect.y)
        put(tr, rect.maxX - 1, rect.y)
        put(bl, rect.x, rect.maxY - 1)
        put(br, rect.maxX - 1, rect.maxY - 1)
        for x in (rect.x + 1)..<(rect.maxX - 1) {
            put(h, x, rect.y)
            put(h, x, rect.maxY - 1)
        }
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            put(v, rect.x, y)
            put(v, rect.maxX - 1, y)
        }
        if let label, rect.width > 8 {
            let text = " " + DisplayWidth.truncate(label, to: rect.width - 6) + " "
            var st = style
            st.attributes.insert(.reverse)
            buffer.write(text, x: rect.maxX - 2 - DisplayWidth.of(text), y: rect.maxY - 1, style: st)
        }
    }

    /// The status bar of arrange mode: what it is and what the keys do.
    /// The status bar with a note (whole, fitted alone when it must be) and as many key hints
    /// as fit after it: the first and the last (how to leave) stay.
    /// `whole` is the key that shows a shortened note whole.
    public static func statusBar(
        note: String?, hints: [String], whole: String? = nil, theme: Theme, into buffer: inout CellBuffer
    ) {
        let room = buffer.width - DisplayWidth.of(badge) - 1
        statusBar(MessageFit.message(note, hints: hints, width: room, whole: whole), theme: theme, into: &buffer)
    }

    static let badge = " ⇅ ARRANGE "

    public static func statusBar(_ text: String, theme: Theme, into buffer: inout CellBuffer) {
        let y = buffer.height - 1
        guard y >= 0 else { return }
        let bar = Style(foreground: theme[.text], background: theme[.background])
        buffer.fill(Rect(x: 0, y: y, width: buffer.width, height: 1), with: Cell(" ", style: bar))
        let w = buffer.write(
            badge, x: 0, y: y,
            style: Style(
                foreground: theme[.focus], background: theme[.background],
                attributes: [.bold, .reverse]))
        buffer.write(
            " " + DisplayWidth.truncate(text, to: max(0, buffer.width - w - 1)), x: w, y: y,
            style: Style(foreground: theme[.secondaryText], background: theme[.background]))
    }
}
