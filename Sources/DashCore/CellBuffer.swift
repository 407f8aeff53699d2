/// One terminal cell: a grapheme cluster and its style.
///
/// A character `w` columns wide (2 for CJK and emoji; more for the clusters a width model
/// adds up code point by code point, decision 28) occupies its own cell plus `w - 1`
/// *continuation* cells to its right whose `text` is empty; the terminal draws only the
/// leading cell.
public struct Cell: Hashable, Sendable {
    public var text: String
    public var style: Style

    public init(_ text: String = " ", style: Style = .plain) {
        self.text = text
        self.style = style
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

    /// Replaces the cell at (x, y), keeping wide characters whole: overwriting any cell of a
    /// wide character blanks the rest of it.
    private mutating func setCell(_ x: Int, _ y: Int, _ cell: Cell) {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
        if self[x, y].isContinuation {
            var lead = x - 1
            while lead > 0 && self[lead, y].isContinuation { lead -= 1 }
            if lead >= 0 && !self[lead, y].isContinuation { blankGlyph(lead, y) }
        } else {
            blankContinuations(after: x, y)
        }
        self[x, y] = cell
    }

    /// Blanks the glyph that starts at (x, y): its lead cell and its continuation cells.
    private mutating func blankGlyph(_ x: Int, _ y: Int) {
        self[x, y] = Cell(" ", style: self[x, y].style)
        blankContinuations(after: x, y)
    }

    private mutating func blankContinuations(after x: Int, _ y: Int) {
        var k = x + 1
        while k < size.width && self[k, y].isContinuation {
            self[k, y] = Cell(" ", style: self[k, y].style)
            k += 1
        }
    }

    /// Writes `text` starting at (x, y), clipped to `clip` (the whole buffer by default).
    /// Control characters are not written. Returns the number of columns advanced.
    /// A character `w` columns wide is a lead cell and `w - 1` continuation cells; one that
    /// would straddle a clip edge is drawn as blanks instead of a part of a glyph.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard y >= area.y, y < area.maxY else { return DisplayWidth.of(text) }
        var col = x
        for ch in text {
            let w = DisplayWidth.of(ch)
            if w == 0 { continue }
            if col >= area.maxX { break }
            if col >= area.x && col + w <= area.maxX {
                setCell(col, y, Cell(String(ch), style: style))
                for k in 1..<w { setCell(col + k, y, Cell("", style: style)) }
            } else if col + w > area.x {
                for k in max(col, area.x)..<min(col + w, area.maxX) { setCell(k, y, Cell(" ", style: style)) }
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

    /// The cells of `rect` (inside the bounds), row by row: what `restore` puts back.
    public func cells(in rect: Rect) -> [Cell] {
        var out: [Cell] = []
        out.reserveCapacity(max(0, rect.width * rect.height))
        for yy in rect.y..<rect.maxY { out += cells[(yy * size.width + rect.x)..<(yy * size.width + rect.maxX)] }
        return out
    }

    /// Puts back cells taken from `rect` with `cells(in:)`, exactly as they were (no mending of
    /// wide characters: the copy was whole).
    public mutating func restore(_ saved: [Cell], in rect: Rect) {
        guard saved.count == rect.width * rect.height else { return }
        for yy in rect.y..<rect.maxY {
            let from = (yy - rect.y) * rect.width
            cells.replaceSubrange(
                (yy * size.width + rect.x)..<(yy * size.width + rect.maxX), with: saved[from..<(from + rect.width)])
        }
    }

    /// Copies another buffer in at `origin`, clipped to this buffer. A wide character cut by
    /// the edge is drawn as blanks.
    public mutating func blit(_ other: CellBuffer, at origin: Point) {
        for yy in 0..<other.height {
            let ty = origin.y + yy
            guard ty >= 0, ty < height else { continue }
            var leadCopied = false
            for xx in 0..<other.width {
                let c = other[xx, yy]
                let tx = origin.x + xx
                if c.isContinuation {
                    guard tx >= 0, tx < width else { continue }
                    self[tx, ty] = leadCopied ? c : Cell(" ", style: c.style)
                    continue
                }
                leadCopied = false
                guard tx >= 0, tx < width else { continue }
                var w = 1
                while xx + w < other.width && other[xx + w, yy].isContinuation { w += 1 }
                if tx + w > width {
                    self[tx, ty] = Cell(" ", style: c.style)
                } else {
                    self[tx, ty] = c
                    leadCopied = true
                }
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
