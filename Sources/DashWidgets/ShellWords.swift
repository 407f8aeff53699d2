/// Words and shell lines, both ways, with POSIX sh quoting: what the command widget's form does
/// when "Run through sh -c" is switched (issue 23). On, a list of words (`[git, -C, DIR, log]`)
/// becomes one line sh reads back as the same words; off, a line is split into words as sh
/// would split it, expanding nothing. Pure: no shell runs.
public enum ShellWords {
    /// Why a line cannot be split.
    public struct SplitError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Characters a word may hold and still go to sh unquoted.
    static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-")

    /// One word as sh reads it back: unquoted when it is plain, else in single quotes (a single
    /// quote inside becomes `'\''`); the empty word is `''`.
    public static func quote(_ word: String) -> String {
        if !word.isEmpty, word.allSatisfy({ plain.contains($0) }) { return word }
        return "'" + word.replacingAll("'", with: "'\\''") + "'"
    }

    /// A shell line for `words`: sh splits it back into exactly these words.
    public static func join(_ words: [String]) -> String { words.map(quote).joined(separator: " ") }

    /// The words of a shell line by sh's quoting rules: blanks separate, 'single quotes' keep
    /// everything, "double quotes" keep everything but a backslash before $ ` " \ or a newline,
    /// a backslash outside quotes keeps the next character (and a backslash-newline is
    /// nothing). Nothing is expanded. An unclosed quote is an error.
    public static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var chars = Array(line)[...]
        while let c = chars.popFirst() {
            switch c {
            case " ", "\t", "\n":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                guard let end = chars.firstIndex(of: "'") else { throw SplitError(description: "a ' is not closed") }
                word += String(chars[..<end])
                chars = chars[(end + 1)...]
            case "\"":
                inWord = true
                var closed = false
                while let d = chars.popFirst() {
                    if d == "\"" {
                        closed = true
                        break
                    }
                    if d == "\\", let next = chars.first, "$`\"\\\n".contains(next) {
                        chars.removeFirst()
                        if next != "\n" { word.append(next) }
                    } else {
                        word.append(d)
                    }
                }
                guard closed else { throw SplitError(description: "a \" is not closed") }
            case "\\":
                inWord = true
                guard let next = chars.popFirst() else { break }
                if next != "\n" { word.append(next) }
            default:
                inWord = true
                word.append(c)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
