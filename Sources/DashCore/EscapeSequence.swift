/// What a terminal sent after an ESC that ncurses did not recognise as a key: Alt with a
/// key (`ESC b`), a bracketed paste (`ESC [200~ … ESC [201~`), or Esc alone. Pure, so it is
/// tested without a terminal; `CursesTerminal` feeds it the characters ncurses has queued.
public enum EscapeSequence {
    /// The most text one paste keeps; the rest of a longer paste is read and dropped.
    public static let pasteLimit = 65_536
    static let pasteEnd: [Character] = ["\u{1B}", "[", "2", "0", "1", "~"]

    /// Decodes what follows ESC. `next(wait)` returns the next character the terminal has
    /// sent, or nil when none is there; with `wait` it may wait a little (a long paste arrives
    /// in pieces). Returns nil for a sequence to ignore (a key ncurses does not know).
    public static func decode(next: (_ wait: Bool) -> Character?) -> Key? {
        guard let c = next(false) else { return .escape }
        switch c {
        case "\u{1B}":
            return .escape
        case "[":
            // A control sequence: parameters and intermediates up to a final byte.
            var body: [Character] = []
            while body.count < 16, let d = next(false) {
                body.append(d)
                if let a = d.asciiValue, (0x40...0x7E).contains(a) { break }
            }
            if body == ["2", "0", "0", "~"] { return .paste(readPaste(next)) }
            return body.isEmpty ? .alt("[") : nil
        case "O":
            // SS3 (an application-mode key ncurses did not map) when more follows at once.
            return next(false) == nil ? .alt("O") : nil
        default:
            if let a = c.asciiValue, a < 0x20 || a == 0x7F { return nil }
            return .alt(c)
        }
    }

    /// The text of a paste up to its end marker (or until the terminal stops sending).
    static func readPaste(_ next: (Bool) -> Character?) -> String {
        var text: [Character] = []
        var tail: [Character] = []
        while let c = next(true) {
            tail.append(c)
            if tail.count > pasteEnd.count { tail.removeFirst() }
            if text.count < pasteLimit + pasteEnd.count { text.append(c) }
            if tail == pasteEnd {
                if text.count >= pasteEnd.count, Array(text.suffix(pasteEnd.count)) == pasteEnd {
                    text.removeLast(pasteEnd.count)
                }
                break
            }
        }
        return String(text.prefix(pasteLimit))
    }
}
