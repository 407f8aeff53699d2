/// The time in digits three rows tall, for a clock tile a big screen made tall.
enum BigDigits {
    /// Each glyph's three rows (half blocks: the bottom stroke sits in the top half of the
    /// last row, so a glyph is two and a half rows of ink).
    static let glyphs: [Character: [String]] = [
        "0": ["█▀█", "█ █", "▀▀▀"],
        "1": ["▀█ ", " █ ", "▀▀▀"],
        "2": ["▀▀█", "█▀▀", "▀▀▀"],
        "3": ["▀▀█", " ▀█", "▀▀▀"],
        "4": ["█ █", "▀▀█", "  ▀"],
        "5": ["█▀▀", "▀▀█", "▀▀▀"],
        "6": ["█▀▀", "█▀█", "▀▀▀"],
        "7": ["▀▀█", "  █", "  ▀"],
        "8": ["█▀█", "█▀█", "▀▀▀"],
        "9": ["█▀█", "▀▀█", "▀▀▀"],
        ":": ["▄", "▄", " "],
        " ": [" ", " ", " "],
    ]

    /// The three rows of `text`, glyphs one cell apart; nil when a character has no glyph
    /// (a 12-hour "AM"), so the caller shows the plain text.
    static func rows(_ text: String) -> [String]? {
        var out = ["", "", ""]
        for (i, c) in text.enumerated() {
            guard let g = glyphs[c] else { return nil }
            for r in 0..<3 { out[r] += (i == 0 ? "" : " ") + g[r] }
        }
        return out
    }

    /// True when every character has a glyph and the rows fit in `width` columns.
    static func fits(_ text: String, width: Int) -> Bool {
        guard let first = rows(text)?.first else { return false }
        return first.count <= width
    }
}
