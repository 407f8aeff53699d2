import DashCore

/// A one-line text field as it is drawn: its text, where the cursor is while it is being
/// edited, and whether it is masked (a secret shows one • per character).
public struct FieldText: Sendable, Equatable {
    public var text: String
    /// The cursor as a character offset (0...count); nil when the field is not being edited.
    public var cursor: Int?
    public var masked: Bool
    /// Shown dimmed when the text is empty ("(from $VAR)", "(empty)").
    public var placeholder: String?

    public init(_ text: String, cursor: Int? = nil, masked: Bool = false, placeholder: String? = nil) {
        self.text = text
        self.cursor = cursor
        self.masked = masked
        self.placeholder = placeholder
    }
}

/// Draws a `FieldText` into one row: the part of the text around the cursor (‹ and › say
/// that more is hidden on that side), the cursor as a reversed cell, wide characters whole.
public enum LineField {
    /// Which characters are shown in `width` columns: `start..<end`, and whether the hidden
    /// parts are marked on the left (‹) and the right (›). The cursor's character (or the
    /// blank after the text) is always in view; otherwise as much of the start as fits.
    public static func window(
        _ widths: [Int], cursor: Int?,
        width: Int
    ) -> (start: Int, end: Int, left: Bool, right: Bool) {
        let n = widths.count
        guard width > 0 else { return (0, 0, false, false) }
        let c = cursor.map { min(max(0, $0), n) }
        func span(_ a: Int, _ b: Int) -> Int { a < b ? widths[a..<b].reduce(0, +) : 0 }
        func fits(_ s: Int, _ e: Int) -> Bool {
            (s > 0 ? 1 : 0) + span(s, e) + (c == n && e == n ? 1 : 0) + (e < n ? 1 : 0) <= width
        }
        let need = c.map { $0 < n ? $0 + 1 : n } ?? 0
        var start = 0
        while start < need - 1, !fits(start, need) { start += 1 }
        var end = need
        while end < n, fits(start, end + 1) { end += 1 }
        return (start, end, start > 0, end < n)
    }

    /// Draws `field` at (x, y) in `width` columns.
    public static func draw(
        _ field: FieldText, x: Int, y: Int, width: Int, style: Style, cursorStyle: Style,
        placeholderStyle: Style, into buffer: inout CellBuffer
    ) {
        guard width > 0 else { return }
        let clip = Rect(x: x, y: y, width: width, height: 1)
        let chars: [Character] = field.masked ? Array(repeating: "•", count: field.text.count) : Array(field.text)
        if chars.isEmpty, let placeholder = field.placeholder {
            var px = x
            if field.cursor != nil { px += buffer.write(" ", x: x, y: y, style: cursorStyle, clip: clip) }
            buffer.write(
                DisplayWidth.truncate(placeholder, to: width - (px - x)), x: px, y: y, style: placeholderStyle,
                clip: clip)
            return
        }
        let widths = chars.map { max(0, DisplayWidth.of($0)) }
        let w = window(widths, cursor: field.cursor, width: width)
        var col = x
        if w.left { col += buffer.write("‹", x: col, y: y, style: placeholderStyle, clip: clip) }
        for i in w.start..<w.end {
            let st = field.cursor == i ? cursorStyle : style
            col += buffer.write(String(chars[i]), x: col, y: y, style: st, clip: clip)
        }
        if let c = field.cursor, c >= chars.count { buffer.write(" ", x: col, y: y, style: cursorStyle, clip: clip) }
        if w.right { buffer.write("›", x: x + width - 1, y: y, style: placeholderStyle, clip: clip) }
    }
}
