import Foundation
import DashCore

/// A terminal's screen as three kinds of real terminal build it from the bytes they are sent,
/// for checking headless that what swiftdash sends lands where its frame says (decision 28).
///
/// Only what placement needs is modelled: cursor positioning (`CUP`), printing, and how wide
/// each kind of terminal draws what it is sent. Other escape sequences (SGR, OSC 8) are skipped.
public struct TerminalSimulator {
    public enum Kind: String, CaseIterable, Sendable {
        /// tmux 3.3: `wcwidth` per code point; zero-width code points join the cell left of the
        /// cursor; a non-ASCII character after a ZWJ joins it too, even after a cursor move.
        case tmux33
        /// xterm: `wcwidth` per code point; zero-width code points join the cell on the left.
        case xterm
        /// A terminal that segments grapheme clusters: a cluster is one cell, 2 columns wide for
        /// an emoji (presentation selector, modifier, ZWJ sequence, flag), else as wide as its
        /// first code point.
        case graphemes
    }

    public struct Cell: Hashable, Sendable {
        /// The code points drawn in the cell; empty for the right part of a wide glyph.
        public var text: String
        public var width: Int
        public var isContinuation: Bool { width == 0 }
    }

    public let kind: Kind
    public let width: Int
    public let height: Int
    public private(set) var cells: [[Cell]]
    public private(set) var x = 0
    public private(set) var y = 0
    /// Where the last glyph was printed (graphemes: where a continuing code point goes).
    private var lastPrinted: (x: Int, y: Int)?

    public init(kind: Kind, width: Int, height: Int) {
        self.kind = kind
        self.width = width
        self.height = height
        cells = Array(repeating: Array(repeating: Cell(text: " ", width: 1), count: width), count: height)
    }

    /// How wide this terminal draws `text` printed alone at the start of a line.
    public static func measure(_ text: String, kind: Kind) -> Int {
        var t = TerminalSimulator(kind: kind, width: 1000, height: 1)
        t.write(text)
        return t.x
    }

    /// Feeds bytes (as a string) to the terminal.
    public mutating func write(_ s: String) {
        var it = Array(s.unicodeScalars)[...]
        while let c = it.first {
            it = it.dropFirst()
            if c.value == 0x1B {
                guard let n = it.first else { return }
                it = it.dropFirst()
                if n == "[" {
                    var params = ""
                    while let p = it.first {
                        it = it.dropFirst()
                        if (0x40...0x7E).contains(p.value) {
                            if p == "H" { cursorPosition(params) }
                            break
                        }
                        params.unicodeScalars.append(p)
                    }
                } else if n == "]" {
                    // OSC: up to ST (ESC \) or BEL.
                    while let p = it.first {
                        it = it.dropFirst()
                        if p.value == 0x07 { break }
                        if p.value == 0x1B {
                            it = it.dropFirst()
                            break
                        }
                    }
                }
                continue
            }
            if c.value < 0x20 { continue }
            print(c)
        }
    }

    private mutating func cursorPosition(_ params: String) {
        let parts = params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 1 }
        y = max(0, min(height - 1, (parts.first ?? 1) - 1))
        x = max(0, min(width - 1, (parts.count > 1 ? parts[1] : 1) - 1))
        lastPrinted = nil
    }

    private mutating func print(_ s: Unicode.Scalar) {
        switch kind {
        case .tmux33, .xterm:
            var w = max(0, DisplayWidth.of(scalar: s))
            if kind == .tmux33, s.value > 0x7F, let left = leftCell(), left.text.unicodeScalars.last?.value == 0x200D {
                w = 0
            }
            if w == 0 {
                if let (lx, ly) = leftCellPosition() { cells[ly][lx].text.unicodeScalars.append(s) }
                return
            }
            place(String(s), width: w)
        case .graphemes:
            if let (lx, ly) = lastPrinted {
                let joined = cells[ly][lx].text + String(s)
                if joined.count == 1 {
                    let old = cells[ly][lx].width
                    let w = Self.graphemeWidth(joined)
                    cells[ly][lx].text = joined
                    if w > old {
                        cells[ly][lx].width = w
                        for k in old..<w where lx + k < width { cells[ly][lx + k] = Cell(text: "", width: 0) }
                        x = min(width, lx + w)
                    }
                    return
                }
            }
            let w = Self.graphemeWidth(String(s))
            if w == 0 { return }
            place(String(s), width: w)
        }
    }

    /// A grapheme terminal's width for a cluster.
    static func graphemeWidth(_ cluster: String) -> Int {
        let scalars = Array(cluster.unicodeScalars)
        guard let first = scalars.first else { return 0 }
        let base = max(0, min(2, DisplayWidth.of(scalar: first)))
        if scalars.count == 1 { return base }
        let emoji =
            scalars.contains { $0.value == 0xFE0F || $0.properties.isEmojiModifier }
            || scalars.contains { $0.value == 0x200D } && first.properties.isEmoji
            || scalars.allSatisfy { (0x1F1E6...0x1F1FF).contains($0.value) }
        return emoji ? 2 : base
    }

    private func leftCellPosition() -> (Int, Int)? {
        var lx = x - 1
        while lx >= 0 && cells[y][lx].isContinuation { lx -= 1 }
        return lx >= 0 ? (lx, y) : nil
    }

    private func leftCell() -> Cell? { leftCellPosition().map { cells[$0.1][$0.0] } }

    private mutating func place(_ text: String, width w: Int) {
        if x + w > width { return }  // no autowrap in this model: swiftdash never writes past the edge
        clearGlyph(at: x)
        for k in 1..<max(1, w) { clearGlyph(at: x + k) }
        cells[y][x] = Cell(text: text, width: w)
        for k in 1..<max(1, w) { cells[y][x + k] = Cell(text: "", width: 0) }
        lastPrinted = (x, y)
        x += w
    }

    /// Overwriting part of a wide glyph leaves blanks where the rest of it was.
    private mutating func clearGlyph(at cx: Int) {
        guard cx < width else { return }
        var lead = cx
        while lead > 0 && cells[y][lead].isContinuation { lead -= 1 }
        let w = max(1, cells[y][lead].width)
        for k in lead..<min(width, lead + w) { cells[y][k] = Cell(text: " ", width: 1) }
    }

    /// The glyph that starts at column `cx` of row `cy`, or nil inside a wide one.
    public func glyph(x cx: Int, y cy: Int) -> Cell? {
        let c = cells[cy][cx]
        return c.isContinuation ? nil : c
    }

    /// One row as text (continuation cells skipped).
    public func rowText(_ cy: Int) -> String {
        cells[cy].filter { !$0.isContinuation }.map(\.text).joined()
    }
}

/// What swiftdash's curses front end sends for a frame, without ncurses: each run through
/// the library as ncurses writes it (a cursor move, then every cell's text one after the
/// other: it assumes each advances by its first code point's width), then the raw cells.
public func simulateCursesOutput(_ frame: CellBuffer, model: WidthModel, depth: ColorDepth = .none) -> [String] {
    var chunks: [String] = []
    var raw: [Int: [RawCell]] = [:]
    for run in FrameDiff.runs(from: nil, to: frame) {
        var out = RawPainter.moveTo(x: run.x, y: run.y)
        var x = run.x
        for cell in run.cells {
            defer { x += 1 }
            if cell.isContinuation { continue }
            switch model.emission(for: cell.text) {
            case .native(let text):
                out += text
            case .overlay(let text, let width):
                out += String(repeating: " ", count: width)
                let cellOut = RawCell(x: x, width: width, text: text, style: cell.style, isOverlay: true)
                raw[run.y, default: []].append(cellOut)
            }
        }
        chunks.append(out)
    }
    for y in raw.keys.sorted() { chunks.append(RawPainter.paint(row: y, cells: raw[y]!, depth: depth)) }
    return chunks
}

/// What swiftdash sent before decision 28: every cell through ncurses, which keeps a cell's
/// first code point and the zero-width ones after it and measures it by the first; the
/// continuation cell of a glyph ncurses thinks narrow still holds its blank, which it prints
/// (the baseline the width tests measure against).
public func simulateNaiveCursesOutput(_ frame: CellBuffer) -> [String] {
    FrameDiff.runs(from: nil, to: frame).map { run in
        var out = RawPainter.moveTo(x: run.x, y: run.y)
        var pending = 0
        for cell in run.cells {
            if cell.isContinuation {
                if pending > 0 { pending -= 1 } else { out += " " }
                continue
            }
            var kept = String.UnicodeScalarView()
            for (i, s) in cell.text.unicodeScalars.enumerated() {
                if i > 0 && DisplayWidth.of(scalar: s) != 0 { break }
                kept.append(s)
            }
            if kept.count > 4 { kept = String.UnicodeScalarView([kept.first!]) }
            out += String(kept)
            pending = max(0, DisplayWidth.of(scalar: kept.first ?? " ") - 1)
        }
        return out
    }
}

/// The corpus of headlines across scripts and emoji (Tests/Fixtures/width-corpus.txt, made by
/// make-width-corpus.py there): the group each line exercises, and the line.
public func widthCorpus() -> [(group: String, text: String)] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/width-corpus.txt")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
        let parts = line.split(separator: "\t", maxSplits: 1)
        return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
    }
}
