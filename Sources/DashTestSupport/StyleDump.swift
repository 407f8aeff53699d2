import DashCore
import DashApp

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

    /// Text and style together, as ratatui's buffer assertions compare them: the framed text of
    /// the screen, then its style layer and legend. A snapshot of this fails when a character or
    /// a colour changes, so a high load drawn in the normal colour fails like a wrong digit.
    public static func screen(_ buffer: CellBuffer, theme: Theme) -> String {
        framedDump(buffer) + "\n\n" + dump(buffer, theme: theme)
    }

    /// The style of the first cell where `text` is drawn on one row (nil when it is not on screen),
    /// looking only at rows that also show `row` when it is given.
    public static func style(of text: String, in buffer: CellBuffer, onRowWith row: String? = nil) -> Style? {
        let wanted = text.map(String.init)
        guard !wanted.isEmpty else { return nil }
        for y in 0..<buffer.height where row.map({ buffer.rowText(y).contains($0) }) ?? true {
            let cells = (0..<buffer.width).map { buffer[$0, y] }.filter { !$0.isContinuation }
            guard cells.count >= wanted.count else { continue }
            for i in 0...(cells.count - wanted.count)
            where (0..<wanted.count).allSatisfy({ cells[i + $0].text == wanted[$0] }) {
                return cells[i].style
            }
        }
        return nil
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

extension AppHarness {
    /// The whole screen as text and style together (`StyleDump.screen`).
    public var styledScreen: String { StyleDump.screen(frame.buffer, theme: state.theme) }

    /// The style of the first place `text` is drawn on the screen.
    public func style(of text: String, onRowWith row: String? = nil) -> Style? {
        StyleDump.style(of: text, in: frame.buffer, onRowWith: row)
    }
}
