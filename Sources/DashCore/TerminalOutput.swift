/// How a cell reaches the terminal through a library that keeps its own model of the screen
/// and measures every cell by its first code point (ncurses: `wcwidth` of the spacing
/// character; it also drops every code point after the first that has a width).
///
/// The library's model must agree with what the terminal draws, or every cell after a
/// disputed cluster lands shifted. A cluster both can agree on goes through the library as
/// one cell; any other is an overlay: the library gets blanks for its columns (so its model
/// stays right) and the cluster is written over them afterwards at an explicit position,
/// and the next cell is positioned explicitly too (decision 28).
public enum CellEmission: Hashable, Sendable {
    /// Hand the library this text as one cell.
    case native(String)
    /// Hand the library `width` blank cells; then write `text` at the first of them.
    case overlay(String, width: Int)
}

extension WidthModel {
    /// How to send the cluster `text` (one grapheme cluster, not a continuation cell).
    public func emission(for text: String) -> CellEmission {
        guard let ch = text.first else { return .native(" ") }
        if ch.isASCII { return .native(text) }
        // One code point (box drawing, CJK, most emoji): ncurses measures it as the model does.
        let all = text.unicodeScalars
        if all.index(after: all.startIndex) == all.endIndex {
            return DisplayWidth.of(scalar: all.first!) > 0 ? .native(text) : .native(" ")
        }
        let scalars = Self.terminalScalars(ch)
        let w = width(of: ch)
        guard let first = scalars.first, w > 0 else { return .native(" ") }
        var terminalText = String.UnicodeScalarView()
        terminalText.append(contentsOf: scalars)
        let rest = scalars.dropFirst()
        // What ncurses can hold as one cell and measures the same: a printable first code point
        // as wide as the model says, then a few zero-width ones.
        let libraryWidth = DisplayWidth.of(scalar: first)
        let fits = scalars.count <= 4 && rest.allSatisfy { DisplayWidth.of(scalar: $0) == 0 }
        // VS15 asks a wide emoji for text presentation: some terminals then draw it narrow, and
        // there is no probe for it, so it always goes at an explicit position (padded).
        let textPresentation = libraryWidth == 2 && rest.contains { $0.value == 0xFE0E }
        if fits && libraryWidth == w && !textPresentation { return .native(String(terminalText)) }
        return .overlay(String(terminalText), width: w)
    }
}

/// A cell written to the terminal directly, after the library's update: an overlay cluster,
/// or a hyperlinked cell (OSC 8 has no place in a curses cell).
public struct RawCell: Hashable, Sendable {
    public var x: Int
    /// Columns the cell takes in the frame.
    public var width: Int
    public var text: String
    public var style: Style
    /// Whether the terminal may draw `text` narrower than `width` (or measure it differently
    /// from the library): the next cell is then positioned explicitly.
    public var isOverlay: Bool

    public init(x: Int, width: Int, text: String, style: Style, isOverlay: Bool) {
        self.x = x
        self.width = width
        self.text = text
        self.style = style
        self.isOverlay = isOverlay
    }
}

/// The bytes that write raw cells at their places.
public enum RawPainter {
    /// Cursor position `CUP`, 0-based arguments.
    public static func moveTo(x: Int, y: Int) -> String { "\u{1B}[\(y + 1);\(x + 1)H" }

    /// Writes the cells of one row (sorted by `x`): each group of adjacent cells starts with an
    /// explicit position, every cell after an overlay too; styles as SGR, links as OSC 8. Ends
    /// with the attributes reset (what ncurses believes after an update).
    public static func paint(row y: Int, cells: [RawCell], depth: ColorDepth) -> String {
        var out = ""
        var end: Int? = nil
        var positioned = false
        var style: Style? = nil
        var link: String? = nil
        for cell in cells.sorted(by: { $0.x < $1.x }) {
            if end != cell.x, link != nil {
                out += "\u{1B}]8;;\u{1B}\\"
                link = nil
            }
            if end != cell.x || !positioned { out += moveTo(x: cell.x, y: y) }
            var plain = cell.style
            plain.hyperlink = nil
            if plain != style {
                out += ANSI.sgr(plain, depth: depth)
                style = plain
            }
            if cell.style.hyperlink != link {
                if link != nil { out += "\u{1B}]8;;\u{1B}\\" }
                link = cell.style.hyperlink
                if let l = link { out += "\u{1B}]8;;\(l)\u{1B}\\" }
            }
            out += cell.text
            end = cell.x + cell.width
            // After an overlay the terminal's cursor may not be where the frame goes on.
            positioned = !cell.isOverlay
        }
        if link != nil { out += "\u{1B}]8;;\u{1B}\\" }
        if style != nil { out += ANSI.reset }
        return out
    }
}
