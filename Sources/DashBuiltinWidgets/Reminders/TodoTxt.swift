import Foundation
import DashWidgets

/// A todo.txt file as bytes, line by line, each line with its own ending (`\n`, `\r\n`, or
/// none for a last line without a newline). Changing one line leaves every other byte of the
/// file as it was: blank lines, CRLF, unknown tokens, lines that are not UTF-8.
struct TodoFile: Sendable, Equatable {
    struct Line: Sendable, Equatable {
        /// The line without its ending.
        var bytes: [UInt8]
        /// `\n`, `\r\n`, or empty.
        var ending: [UInt8]

        /// The line as text, if it is UTF-8.
        var text: String? { String(validating: bytes, as: UTF8.self) }
    }

    var lines: [Line]

    init(_ data: Data) {
        var lines: [Line] = []
        var current: [UInt8] = []
        for b in data {
            if b == 0x0A {
                if current.last == 0x0D {
                    current.removeLast()
                    lines.append(Line(bytes: current, ending: [0x0D, 0x0A]))
                } else {
                    lines.append(Line(bytes: current, ending: [0x0A]))
                }
                current = []
            } else {
                current.append(b)
            }
        }
        if !current.isEmpty { lines.append(Line(bytes: current, ending: [])) }
        self.lines = lines
    }

    var data: Data {
        var out = Data()
        for l in lines {
            out.append(contentsOf: l.bytes)
            out.append(contentsOf: l.ending)
        }
        return out
    }

    /// The index of the line whose text is `text`: `hint` if it still is, else the nearest
    /// line with exactly that text (the file may have changed since it was read).
    func find(_ text: String, near hint: Int) -> Int? {
        let want = Array(text.utf8)
        if lines.indices.contains(hint), lines[hint].bytes == want { return hint }
        let hits = lines.indices.filter { lines[$0].bytes == want }
        return hits.min { abs($0 - hint) < abs($1 - hint) }
    }
}

/// One task of a todo.txt file (http://todotxt.org): `x` done with its completion date, a
/// priority `(A)`, a creation date, `+project`s, `@context`s and `key:value` tags such as
/// `due:2026-11-30`. A line that cannot be read safely (not UTF-8, control characters, a
/// `due:` that is not a date) is kept as it is with `problem` set: shown, never rewritten.
public struct TodoItem: Codable, Hashable, Sendable {
    /// Index of the line in the file (blank lines count).
    public var line: Int
    /// The line exactly as in the file (for a broken line: as shown, cleaned).
    public var raw: String
    public var done: Bool
    public var completed: String?
    public var priority: String?
    public var created: String?
    /// The description without its tags, for display.
    public var title: String
    public var projects: [String]
    public var contexts: [String]
    public var due: String?
    /// Why the line is not understood; nil for a task.
    public var problem: String?

    public var isBroken: Bool { problem != nil }
}

enum TodoTxt {
    /// `YYYY-MM-DD` that is a real date.
    static func isDate(_ s: Substring) -> Bool { LocalDay.number(String(s)) != nil && s.count == 10 }

    static func isPriority(_ s: Substring) -> Bool {
        s.count == 3 && s.first == "(" && s.last == ")" && s.dropFirst().first.map { $0 >= "A" && $0 <= "Z" } == true
    }

    /// Reads every non-blank line of a file.
    static func items(_ file: TodoFile) -> [TodoItem] {
        file.lines.indices.compactMap { i in
            let l = file.lines[i]
            if l.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
            return parse(l, index: i)
        }
    }

    static func parse(_ l: TodoFile.Line, index: Int) -> TodoItem {
        func broken(_ why: String, _ shown: String) -> TodoItem {
            TodoItem(
                line: index, raw: TextSanitizer.singleLine(shown), done: false, completed: nil, priority: nil,
                created: nil, title: TextSanitizer.singleLine(shown), projects: [], contexts: [], due: nil,
                problem: why)
        }
        guard let text = l.text else {
            return broken("not UTF-8", String(decoding: l.bytes, as: UTF8.self))
        }
        if text.unicodeScalars.contains(where: {
            ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F
                || (0x80...0x9F).contains($0.value)
        }) {
            return broken("control characters", text)
        }
        if text.count > TextSanitizer.maxFieldCharacters { return broken("longer than 2,000 characters", text) }
        return parse(text, index: index)
    }

    /// A byte order mark some Windows editors put at the start of a file: not part of the task.
    static let bom = "\u{FEFF}"

    static func parse(_ text: String, index: Int) -> TodoItem {
        var item = parseBody(text.hasPrefix(bom) ? String(text.dropFirst()) : text, index: index)
        item.raw = text
        return item
    }

    /// `transform` applied to a line, a byte order mark kept where it was.
    static func keepingBOM(_ text: String, _ transform: (String) -> String) -> String {
        text.hasPrefix(bom) ? bom + transform(String(text.dropFirst())) : transform(text)
    }

    static func parseBody(_ text: String, index: Int) -> TodoItem {
        var tokens = text.split(separator: " ", omittingEmptySubsequences: true)[...]
        var item = TodoItem(
            line: index, raw: text, done: false, completed: nil, priority: nil, created: nil,
            title: "", projects: [], contexts: [], due: nil, problem: nil)
        if tokens.first == "x" {
            item.done = true
            tokens = tokens.dropFirst()
            if let t = tokens.first, isDate(t) {
                item.completed = String(t)
                tokens = tokens.dropFirst()
            }
        } else if let t = tokens.first, isPriority(t) {
            item.priority = String(t.dropFirst().prefix(1))
            tokens = tokens.dropFirst()
        }
        if let t = tokens.first, isDate(t) {
            item.created = String(t)
            tokens = tokens.dropFirst()
        }
        var words: [Substring] = []
        for t in tokens {
            if t.count > 1, t.first == "+" {
                item.projects.append(String(t.dropFirst()))
            } else if t.count > 1, t.first == "@" {
                item.contexts.append(String(t.dropFirst()))
            } else if let colon = t.firstIndex(of: ":"), colon != t.startIndex, t.index(after: colon) != t.endIndex,
                !t[t.index(after: colon)...].hasPrefix("//"), !t[..<colon].contains(where: { !$0.isLetter })
            {
                let key = t[..<colon].lowercased(), value = t[t.index(after: colon)...]
                if key == "due" {
                    guard isDate(value) else {
                        var b = item
                        b.problem = "due:\(value) is not a date (YYYY-MM-DD)"
                        b.title = TextSanitizer.singleLine(text)
                        b.raw = text
                        return b
                    }
                    item.due = String(value)
                } else if key == "pri", item.done, value.count == 1, value.first!.isUppercase {
                    item.priority = String(value)
                }
                // Other tags (t:, rec:, id:…) stay in the file; they are not shown.
            } else {
                words.append(t)
            }
        }
        item.title = TextSanitizer.singleLine(words.joined(separator: " "))
        if item.title.isEmpty {
            item.title = TextSanitizer.singleLine(
                ([item.projects.map { "+" + $0 }, item.contexts.map { "@" + $0 }]
                    .joined().joined(separator: " ")))
        }
        return item
    }

    /// `text` marked done on `day` (`x 2026-11-23 …`); a priority moves to a `pri:A` tag, as
    /// todo.txt tools do, so that opening the task again brings it back.
    static func markDone(_ text: String, day: String) -> String {
        if text.hasPrefix("x ") { return text }
        var rest = Substring(text)
        var priority: Substring? = nil
        if let first = rest.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).first,
            isPriority(first)
        {
            priority = first.dropFirst().prefix(1)
            rest = rest.dropFirst(3)
            while rest.first == " " { rest = rest.dropFirst() }
        }
        return "x \(day) " + rest + (priority.map { " pri:\($0)" } ?? "")
    }

    /// A done task open again: `x` and the completion date go, a `pri:A` tag becomes `(A)`.
    static func reopen(_ text: String) -> String {
        guard text.hasPrefix("x ") else { return text }
        var rest = text.dropFirst(2)
        if let first = rest.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).first,
            isDate(first)
        {
            rest = rest.dropFirst(first.count)
            if rest.first == " " { rest = rest.dropFirst() }
        }
        var parts = rest.split(separator: " ", omittingEmptySubsequences: false)
        var priority: Substring? = nil
        if let i = parts.lastIndex(where: { $0.hasPrefix("pri:") && $0.count == 5 && $0.last!.isUppercase }) {
            priority = parts[i].suffix(1)
            parts.remove(at: i)
        }
        let body = parts.joined(separator: " ")
        return (priority.map { "(\($0)) " } ?? "") + body
    }
}
