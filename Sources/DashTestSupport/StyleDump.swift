import DashCore

/// A screen's style layer as text, beside its text snapshot: one line per row, one letter per cell
/// naming the cell's style, then a legend that says each letter in words (foreground and
/// background as theme roles, then bold, reverse, …). Letters are given in reading order of first
/// use, so a snapshot changes only where a style does; a wrong focus frame or colour fails a test,
/// as ratatui's buffer assertions compare styles as well as symbols.
public enum StyleDump {
    public static func dump(_ buffer: CellBuffer, theme: Theme) -> String {
        var letters: [Style: Character] = [:]
        var legend: [String] = []
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var rows: [String] = []
        for y in 0..<buffer.height {
            var row = ""
            for x in 0..<buffer.width {
                let style = buffer[x, y].style
                if let l = letters[style] {
                    row.append(l)
                    continue
                }
                let l = letters.count < alphabet.count ? alphabet[letters.count] : "?"
                letters[style] = l
                legend.append("\(l): \(describe(style, theme: theme))")
                row.append(l)
            }
            rows.append(row)
        }
        return (rows + [""] + legend).joined(separator: "\n")
    }

    /// `fg accent, bg surface, bold`: colours by the theme role that has them (else as values).
    public static func describe(_ style: Style, theme: Theme) -> String {
        var parts = ["fg \(role(style.foreground, theme))", "bg \(role(style.background, theme))"]
        let names: [(TextAttributes, String)] = [
            (.bold, "bold"), (.dim, "dim"), (.italic, "italic"), (.underline, "underline"), (.reverse, "reverse"),
        ]
        for (a, name) in names where style.attributes.contains(a) { parts.append(name) }
        if style.hyperlink != nil { parts.append("link") }
        return parts.joined(separator: ", ")
    }

    static func role(_ color: Color, _ theme: Theme) -> String {
        if color == .default { return "default" }
        let roles = ThemeRole.allCases.filter { theme[$0] == color }.map(\.rawValue)
        return roles.isEmpty ? "\(color)" : roles.joined(separator: "/")
    }
}
