/// One terminal cell: a grapheme cluster and its style.
///
/// A 2-column character occupies its own cell plus a *continuation* cell to its right
/// whose `text` is empty; the terminal draws only the leading cell.
public struct Cell: Hashable, Sendable {
    public var text: String
    public var style: Style

    public init(_ text: String = " ", style: Style = .plain) {
        self.text = text; self.style = style
    }
    public static let blank = Cell()
    public var isContinuation: Bool { text.isEmpty }
    public var width: Int { text.isEmpty ? 0 : DisplayWidth.of(Character(text)) }
}

/// A rectangle of cells: what widgets draw into and what the terminal shows.
public struct CellBuffer: Equatable, Sendable {
    public private(set) var size: Size
    public private(set) var cells: [Cell]

    public init(size: Size, fill: Cell = .blank) {
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
        self.cells = Array(repeating: fill, count: self.size.width * self.size.height)
    }
    public init(width: Int, height: Int) { self.init(size: Size(width: width, height: height)) }

    public var width: Int { size.width }
    public var height: Int { size.height }
    public var bounds: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    public subscript(x: Int, y: Int) -> Cell {
        get {
            guard x >= 0, y >= 0, x < size.width, y < size.height else { return .blank }
            return cells[y * size.width + x]
        }
        set {
            guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
            cells[y * size.width + x] = newValue
        }
    }

    /// Replaces the cell at (x, y), keeping wide characters whole: overwriting either half
    /// of a wide character blanks its other half.
    private mutating func setCell(_ x: Int, _ y: Int, _ cell: Cell) {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
        let old = self[x, y]
        if old.isContinuation, x > 0 { self[x - 1, y] = Cell(" ", style: self[x - 1, y].style) }
        if old.width == 2, x + 1 < size.width, self[x + 1, y].isContinuation {
            self[x + 1, y] = Cell(" ", style: self[x + 1, y].style)
        }
        self[x, y] = cell
    }

    /// Writes `text` starting at (x, y), clipped to `clip` (the whole buffer by default).
    /// Control characters are not written. Returns the number of columns advanced.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard y >= area.y, y < area.maxY else { return DisplayWidth.of(text) }
        var col = x
        for ch in text {
            let w = DisplayWidth.of(ch)
            if w == 0 { continue }
            if col >= area.maxX { break }
            if col >= area.x {
                if w == 2 && col + 1 >= area.maxX {
                    // The wide character would straddle the edge: show a blank instead of half a glyph.
                    setCell(col, y, Cell(" ", style: style))
                } else {
                    setCell(col, y, Cell(String(ch), style: style))
                    if w == 2 { setCell(col + 1, y, Cell("", style: style)) }
                }
            } else if w == 2 && col + 1 == area.x {
                setCell(col + 1, y, Cell(" ", style: style))
            }
            col += w
        }
        return col - x
    }

    /// Fills a rectangle with a cell (a space in `style` by default).
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for yy in r.y..<r.maxY {
            for xx in r.x..<r.maxX { setCell(xx, yy, cell) }
        }
    }

    /// Changes the style of every cell in `rect`, keeping its text.
    public mutating func restyle(_ rect: Rect, _ transform: (Style) -> Style) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for yy in r.y..<r.maxY {
            for xx in r.x..<r.maxX { cells[yy * size.width + xx].style = transform(cells[yy * size.width + xx].style) }
        }
    }

    /// Copies another buffer in at `origin`, clipped to this buffer.
    public mutating func blit(_ other: CellBuffer, at origin: Point) {
        for yy in 0..<other.height {
            for xx in 0..<other.width {
                let c = other[xx, yy]
                let tx = origin.x + xx, ty = origin.y + yy
                guard tx >= 0, ty >= 0, tx < width, ty < height else { continue }
                if c.isContinuation { if xx == 0 { self[tx, ty] = Cell(" ", style: c.style) } else { self[tx, ty] = c } }
                else if c.width == 2 && tx + 1 >= width { self[tx, ty] = Cell(" ", style: c.style) }
                else { self[tx, ty] = c }
            }
        }
    }

    /// The text of one row, continuation cells skipped.
    public func rowText(_ y: Int) -> String {
        var s = ""
        for x in 0..<size.width where !self[x, y].isContinuation { s += self[x, y].text }
        return s
    }

    /// Plain text, one line per row, trailing spaces removed: the snapshot format.
    public var textDump: String {
        (0..<size.height).map { y in
            var line = rowText(y)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
