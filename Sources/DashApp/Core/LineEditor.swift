import DashHome
/// A one-line text editor with readline's keys. Positions count characters (grapheme
/// clusters), so a wide character or an accented letter is one step of the cursor.
public struct LineEditor: Sendable, Equatable {
    public private(set) var chars: [Character]
    public private(set) var cursor: Int
    /// What the last deletion by word or to an end removed (Ctrl-Y puts it back).
    public private(set) var killed = ""

    public init(_ text: String = "") {
        chars = Array(text)
        cursor = chars.count
    }

    public var text: String { String(chars) }
    public var isEmpty: Bool { chars.isEmpty }

    /// Replaces the text; the cursor goes to its end.
    public mutating func set(_ text: String) {
        chars = Array(text)
        cursor = chars.count
    }

    /// Inserts text at the cursor. A combining mark typed after a letter joins it, as on screen.
    public mutating func insert(_ s: String) {
        guard !s.isEmpty else { return }
        let before = String(chars[..<cursor]) + s
        let all = Array(before + String(chars[cursor...]))
        cursor = min(Array(before).count, all.count)
        chars = all
    }

    public mutating func apply(_ e: LineEdit) {
        switch e {
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(chars.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = chars.count
        case .wordLeft: cursor = wordStart(before: cursor)
        case .wordRight: cursor = wordEnd(after: cursor)
        case .backspace:
            if cursor > 0 {
                chars.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete:
            if cursor < chars.count { chars.remove(at: cursor) }
        case .killToStart: kill(0..<cursor)
        case .killToEnd: kill(cursor..<chars.count)
        case .killWordBack:
            // Like readline's Ctrl-W: back over spaces, then back to the previous space.
            var i = cursor
            while i > 0 && chars[i - 1].isWhitespace { i -= 1 }
            while i > 0 && !chars[i - 1].isWhitespace { i -= 1 }
            kill(i..<cursor)
        case .killWordForward: kill(cursor..<wordEnd(after: cursor))
        case .yank: insert(killed)
        }
    }

    mutating func kill(_ r: Range<Int>) {
        guard !r.isEmpty else { return }
        killed = String(chars[r])
        chars.removeSubrange(r)
        cursor = r.lowerBound
    }

    static func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber }

    /// Alt-B: the start of the word before `i` (letters and digits make words).
    func wordStart(before i: Int) -> Int {
        var j = i
        while j > 0 && !Self.isWord(chars[j - 1]) { j -= 1 }
        while j > 0 && Self.isWord(chars[j - 1]) { j -= 1 }
        return j
    }

    /// Alt-F: the end of the word after `i`.
    func wordEnd(after i: Int) -> Int {
        var j = i
        while j < chars.count && !Self.isWord(chars[j]) { j += 1 }
        while j < chars.count && Self.isWord(chars[j]) { j += 1 }
        return j
    }
}
