/// Serialises cells as ANSI/ECMA-48 text: used by `swiftdash render --ansi` and previews.
public enum ANSI {
    public static let reset = "\u{1B}[0m"

    /// SGR parameters for a style at a colour depth.
    public static func sgr(_ style: Style, depth: ColorDepth) -> String {
        var parts = ["0"]
        let a = style.attributes
        if a.contains(.bold) { parts.append("1") }
        if a.contains(.dim) { parts.append("2") }
        if a.contains(.italic) { parts.append("3") }
        if a.contains(.underline) { parts.append("4") }
        if a.contains(.reverse) { parts.append("7") }
        func color(_ c: Color, fg: Bool) -> String? {
            switch c.degraded(to: depth) {
            case .default: return nil
            case .ansi(let n): return n < 8 ? "\((fg ? 30 : 40) + Int(n))" : "\((fg ? 90 : 100) + Int(n) - 8)"
            case .indexed(let n): return "\(fg ? 38 : 48);5;\(n)"
            case .rgb(let r, let g, let b): return "\(fg ? 38 : 48);2;\(r);\(g);\(b)"
            }
        }
        if let f = color(style.foreground, fg: true) { parts.append(f) }
        if let b = color(style.background, fg: false) { parts.append(b) }
        return "\u{1B}[" + parts.joined(separator: ";") + "m"
    }

    /// An OSC 8 hyperlink around `text`.
    public static func hyperlink(_ url: String, _ text: String) -> String {
        "\u{1B}]8;;\(url)\u{1B}\\\(text)\u{1B}]8;;\u{1B}\\"
    }

    /// The whole buffer as lines of styled text, ending each line with a reset.
    public static func render(_ buffer: CellBuffer, depth: ColorDepth) -> String {
        var out = ""
        for y in 0..<buffer.height {
            var current: Style? = nil
            var line = ""
            for x in 0..<buffer.width {
                let cell = buffer[x, y]
                if cell.isContinuation { continue }
                var style = cell.style
                style.hyperlink = nil
                if style != current {
                    line += sgr(style, depth: depth)
                    current = style
                }
                line += cell.text
            }
            out += line + reset + "\n"
        }
        return out
    }
}
