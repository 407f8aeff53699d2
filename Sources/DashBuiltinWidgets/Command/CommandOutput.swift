import Foundation
import DashWidgets

/// A stretch of output in one style.
public struct StyledRun: Codable, Sendable, Hashable {
    public var text: String
    /// A `SemanticColor` raw value, or nil for the default colour.
    public var color: String?
    public var bold: Bool

    public init(_ text: String, color: SemanticColor? = nil, bold: Bool = false) {
        self.text = text
        self.color = color?.rawValue
        self.bold = bold
    }

    public var semanticColor: SemanticColor? { color.flatMap(SemanticColor.init(rawValue:)) }
}

/// One line of a command's output.
public struct OutputLine: Codable, Sendable, Hashable {
    public var runs: [StyledRun]
    public init(_ runs: [StyledRun]) { self.runs = runs }
    public var text: String { runs.map(\.text).joined() }
}

/// Turns what a command wrote to a terminal into lines a tile can show safely: escape
/// sequences are removed (CSI, OSC, DCS, APC, PM, SOS, two-byte ESC sequences, their C1
/// forms), other control characters and bidirectional overrides dropped, tabs expanded,
/// a carriage return starts its line over (progress bars), backspace erases. With
/// `colors`, SGR sequences (`ESC [ … m`) become styles: the terminal's colours map to
/// the theme's meanings (red → negative, green → positive, yellow → warning, blue,
/// magenta and cyan → accent, grey and dim → secondary), bold stays bold.
enum TerminalOutput {
    struct Style: Hashable {
        var color: SemanticColor?
        var bold = false
        var dim = false
        var effectiveColor: SemanticColor? { color ?? (dim ? .secondary : nil) }
    }

    struct Parsed: Hashable {
        var lines: [OutputLine]
        /// Lines left out past `maxLines`.
        var omittedLines: Int
    }

    static func parse(
        _ bytes: [UInt8], colors: Bool, maxLines: Int = 500, maxColumns: Int = 512,
        keepLast: Bool = false, tabWidth: Int = 8
    ) -> Parsed {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines: [OutputLine] = []
        var omitted = 0
        var runs: [StyledRun] = []
        var current = String.UnicodeScalarView()
        var column = 0
        var style = Style()
        var runStyle = Style()

        func flushRun() {
            guard !current.isEmpty else { return }
            let clean = TextSanitizer.clean(String(current))
            if !clean.isEmpty {
                runs.append(StyledRun(clean, color: runStyle.effectiveColor, bold: runStyle.bold))
            }
            current = String.UnicodeScalarView()
        }
        func append(_ s: Unicode.Scalar) {
            guard column < maxColumns else { return }
            if style != runStyle {
                flushRun()
                runStyle = style
            }
            current.append(s)
            column += 1
        }
        func endLine() {
            flushRun()
            let line = OutputLine(runs)
            if keepLast {
                lines.append(line)
                if lines.count > maxLines {
                    lines.removeFirst()
                    omitted += 1
                }
            } else if lines.count < maxLines {
                lines.append(line)
            } else {
                omitted += 1
            }
            runs = []
            column = 0
        }

        var it = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending {
                pending = nil
                return p
            }
            return it.next()
        }
        // Not `TextSanitizer.clean` on purpose: here SGR becomes styles and CR, BS and tabs act on
        // columns as in a terminal, where clean makes them spaces; the control strings are skipped alike.
        while let s = next() {
            switch s.value {
            case 0x1B:
                guard let n = next() else { break }
                switch n.value {
                case 0x5B:  // CSI
                    let (params, final) = readCSI(&it)
                    if colors, final == "m" { applySGR(params, to: &style) }
                case 0x5D, 0x50, 0x5F, 0x5E, 0x58:
                    TextSanitizer.skipControlString(&it)
                default:
                    if (0x20...0x2F).contains(n.value) {
                        while let c = it.next() { if !(0x20...0x2F).contains(c.value) { break } }
                    }
                }
            case 0x9B:
                let (params, final) = readCSI(&it)
                if colors, final == "m" { applySGR(params, to: &style) }
            case 0x9D, 0x90, 0x9F, 0x9E, 0x98:
                TextSanitizer.skipControlString(&it)
            case 0x0A:
                endLine()
            case 0x0D:
                if let n = next() {
                    if n.value == 0x0A {
                        endLine()
                    } else {
                        // A lone carriage return: the line is written again from its start.
                        current = String.UnicodeScalarView()
                        runs = []
                        column = 0
                        pending = n
                    }
                }
            case 0x09:
                let spaces = tabWidth - column % tabWidth
                for _ in 0..<spaces { append(" ") }
            case 0x08:
                if !current.isEmpty {
                    current.removeLast()
                    column = max(0, column - 1)
                }
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F:
                continue
            default:
                append(s)
            }
        }
        if !current.isEmpty || !runs.isEmpty { endLine() }
        // A trailing blank line is the last newline, not output.
        while let last = lines.last, last.text.allSatisfy({ $0 == " " }) { lines.removeLast() }
        return Parsed(lines: lines, omittedLines: omitted)
    }

    /// Parameters and final byte of a CSI sequence (after `ESC [`).
    static func readCSI(_ it: inout String.UnicodeScalarView.Iterator) -> (String, Character?) {
        var params = String.UnicodeScalarView()
        while let c = it.next() {
            if (0x40...0x7E).contains(c.value) { return (String(params), Character(c)) }
            if params.count < 64 { params.append(c) }
        }
        return (String(params), nil)
    }

    /// Applies `ESC [ params m` to `style`.
    static func applySGR(_ params: String, to style: inout Style) {
        // Private sequences (`ESC [ ? … m`, `ESC [ > … m`) are not SGR.
        if let f = params.unicodeScalars.first, "<=>?".unicodeScalars.contains(f) { return }
        let codes = params.split(separator: ";", omittingEmptySubsequences: false).map { part -> [Int] in
            // Colon sub-parameters (38:2::r:g:b) come as one group.
            part.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        }
        var i = 0
        func value(_ k: Int) -> Int? { k < codes.count ? codes[k].first : nil }
        if codes.isEmpty { style = Style() }
        while i < codes.count {
            let group = codes[i]
            let code = group.first ?? 0
            switch code {
            case 0: style = Style()
            case 1: style.bold = true
            case 2: style.dim = true
            case 22:
                style.bold = false
                style.dim = false
            case 30...37: style.color = basic(code - 30)
            case 90...97: style.color = basic(code - 90)
            case 39: style.color = nil
            case 38, 48:
                var color: SemanticColor? = nil
                if group.count > 1 {  // 38:5:n or 38:2:[cs]:r:g:b
                    if group[1] == 5, group.count > 2 { color = indexed(group[2]) }
                    if group[1] == 2, group.count >= 5 {
                        let rgb = Array(group.suffix(3))
                        color = rgbColor(rgb[0], rgb[1], rgb[2])
                    }
                } else if value(i + 1) == 5, let n = value(i + 2) {
                    color = indexed(n)
                    i += 2
                } else if value(i + 1) == 2, let r = value(i + 2), let g = value(i + 3), let b = value(i + 4) {
                    color = rgbColor(r, g, b)
                    i += 4
                }
                if code == 38 { style.color = color }
            default: break  // backgrounds, italics, underlines, blinking…: not kept
            }
            i += 1
        }
    }

    /// The eight ANSI colours (black, red, green, yellow, blue, magenta, cyan, white).
    static func basic(_ n: Int) -> SemanticColor {
        switch n {
        case 0: return .secondary
        case 1: return .negative
        case 2: return .positive
        case 3: return .warning
        case 4, 5, 6: return .accent
        default: return .primary
        }
    }

    static func indexed(_ n: Int) -> SemanticColor {
        switch n {
        case 0..<8: return basic(n)
        case 8..<16: return basic(n - 8)
        case 16..<232:
            let v = n - 16
            let levels = [0, 95, 135, 175, 215, 255]
            return rgbColor(levels[v / 36], levels[v / 6 % 6], levels[v % 6])
        default:
            return n >= 244 ? .primary : .secondary
        }
    }

    /// A true colour by its hue: greys by lightness, reds negative, oranges and yellows
    /// warning, greens positive, the rest accent.
    static func rgbColor(_ r: Int, _ g: Int, _ b: Int) -> SemanticColor {
        let (r, g, b) = (Double(min(255, max(0, r))), Double(min(255, max(0, g))), Double(min(255, max(0, b))))
        let hi = max(r, g, b), lo = min(r, g, b)
        if hi - lo < 40 { return hi >= 170 ? .primary : .secondary }
        var hue: Double
        if hi == r {
            hue = 60 * ((g - b) / (hi - lo))
        } else if hi == g {
            hue = 60 * ((b - r) / (hi - lo) + 2)
        } else {
            hue = 60 * ((r - g) / (hi - lo) + 4)
        }
        if hue < 0 { hue += 360 }
        switch hue {
        case ..<20, 330...: return .negative
        case 20..<70: return .warning
        case 70..<170: return .positive
        default: return .accent
        }
    }
}
