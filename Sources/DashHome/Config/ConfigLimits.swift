import Foundation
import Yams
import DashWidgets

/// Limits on the files swiftdash reads (docs/decisions.md, "Limits on input from outside").
/// Each one, when crossed, gives a `file:line: message` error, never a crash, a hang or a
/// gigabyte of memory.
public enum ConfigLimits {
    /// Bytes of `home.yaml`. A hand-written home screen of a thousand tiles is ~100 KB.
    public static let maxHomeBytes = 1 << 20
    /// Bytes of one theme file (a theme is about 20 lines).
    public static let maxThemeBytes = 64 << 10
    /// YAML values (scalars, lists, mappings) after aliases are expanded: `*stack` used
    /// by every tile multiplies; this bounds the work, whatever the file's size.
    public static let maxValues = 200_000
    /// Nesting of lists and mappings (home.yaml needs 7: tiles, tile, stack, item, config…).
    public static let maxDepth = 32
    /// Tiles on the home screen (every page together).
    public static let maxTiles = 1_000
    /// Widgets in one stack.
    public static let maxStackItems = 32
    /// Widgets on the home screen in all, counted as the file expands (a stack used by many
    /// tiles through an alias counts once per tile): each is an instance that loads.
    public static let maxWidgets = 4_000
    /// Characters of one configuration value (the same cap as text from outside).
    public static let maxValueCharacters = TextSanitizer.maxFieldCharacters
}

/// Reads YAML the user owns (home.yaml, themes) within `ConfigLimits`: the bytes must be
/// UTF-8, aliases may not be keys (hashing a key made of aliases is exponential inside the
/// YAML library), and the composed document is walked once with a budget before anyone
/// decodes it. Every error names the file and, where there is one, the line.
package enum YAMLGuard {
    /// A yes-or-no value of a config file, spelled as YAML 1.1 does (true/yes/on, false/no/off,
    /// any case); nil for anything else. Values are read as text (Yams' basic resolver).
    static func bool(_ node: Node) -> Bool? {
        switch node.string?.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// The text of `data`, or an error naming the line of the first byte that is not UTF-8.
    package static func text(_ data: Data, file: String, maxBytes: Int, what: String) throws -> String {
        if data.count > maxBytes {
            throw ConfigFileError(
                file: file, line: nil,
                message: sizeRefusal(data.count, most: maxBytes, what: what))
        }
        if let s = String(validating: data, as: UTF8.self) { return s }
        var parser = Unicode.UTF8.ForwardParser()
        var it = data.makeIterator()
        var offset = 0
        loop: while true {
            switch parser.parseScalar(from: &it) {
            case .valid(let bytes): offset += bytes.count
            case .emptyInput: break loop
            case .error(let length):
                // Lines as YAML counts them (see `lineFeeds`), columns in bytes.
                let prefix = lineFeeds(data.prefix(offset))
                let line = prefix.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                let column = prefix.count - (prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
                let byte = data[data.startIndex + offset]
                let hex = String(byte, radix: 16, uppercase: true)
                _ = length
                let byteText = "0x" + (hex.count < 2 ? "0" : "") + hex
                throw ConfigFileError(
                    file: file, line: line,
                    message: "not valid UTF-8 (byte \(byteText) at column \(column)): "
                        + "save the file as UTF-8")
            }
        }
        throw ConfigFileError(file: file, line: nil, message: "not valid UTF-8: save the file as UTF-8")
    }

    /// `bytes` with every line break YAML knows — CR LF, CR, NEL (U+0085), LS (U+2028), PS
    /// (U+2029) — as one LF. The YAML library counts each of them as a line; YAMLScan, the
    /// duplicate-key search and the line of a reader error count LFs, so they read the same
    /// text (a file saved with CR line endings could otherwise hide an alias used as a key
    /// from YAMLScan). Values do not change, except that LS and PS, which YAML keeps inside a
    /// value, read as line breaks there too.
    static func lineFeeds(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let b = Array(bytes)
        guard b.contains(where: { $0 == 0x0D || $0 == 0xC2 || $0 == 0xE2 }) else { return b }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            if b[i] == 0x0D {
                i += i + 1 < b.count && b[i + 1] == 0x0A ? 2 : 1
            } else if b[i] == 0xC2, i + 1 < b.count, b[i + 1] == 0x85 {
                i += 2
            } else if b[i] == 0xE2, i + 2 < b.count, b[i + 1] == 0x80, b[i + 2] == 0xA8 || b[i + 2] == 0xA9 {
                i += 3
            } else {
                out.append(b[i])
                i += 1
                continue
            }
            out.append(0x0A)
        }
        return out
    }

    static func lineFeeds(_ text: String) -> String {
        let b = lineFeeds(text.utf8)
        return b.count == text.utf8.count && b.elementsEqual(text.utf8) ? text : String(decoding: b, as: UTF8.self)
    }

    /// 200000 as "200,000".
    static func grouped(_ n: Int) -> String {
        var s = String(n)
        var i = s.count - 3
        while i > 0 {
            s.insert(",", at: s.index(s.startIndex, offsetBy: i))
            i -= 3
        }
        return s
    }

    /// "the file is 1.4 MB; WHAT may be at most 1.0 MB": both sizes in one unit, with as many
    /// digits as it takes for them to differ (1.0004 MB is not said as the 1.0 MB it exceeds).
    package static func sizeRefusal(_ bytes: Int, most: Int, what: String) -> String {
        let (size, limit) = sizeTexts(bytes, most: most)
        return "the file is \(size); \(what) may be at most \(limit)"
    }

    static func sizeTexts(_ bytes: Int, most: Int) -> (String, String) {
        let (unit, name) =
            max(bytes, most) >= 1 << 20 ? (1 << 20, "MB") : max(bytes, most) >= 1 << 10 ? (1 << 10, "KB") : (1, "bytes")
        if unit == 1 { return ("\(bytes) bytes", "\(most) bytes") }
        for places in 1...4 {
            let a = FixedFormat.decimal(Double(bytes) / Double(unit), places: places)
            let b = FixedFormat.decimal(Double(most) / Double(unit), places: places)
            if a != b { return (a + " " + name, b + " " + name) }
        }
        return ("\(grouped(bytes)) bytes", "\(grouped(most)) bytes")
    }

    package static func sizeText(_ bytes: Int) -> String {
        bytes >= 1 << 20
            ? FixedFormat.decimal(Double(bytes) / Double(1 << 20), places: 1) + " MB"
            : bytes >= 1 << 10 ? "\(bytes >> 10) KB" : "\(bytes) bytes"
    }

    /// The composed document (nil when it holds nothing but comments and blank lines),
    /// checked against the limits; line breaks read as LF (`lineFeeds`).
    package static func compose(_ text: String, file: String) throws -> Node? {
        let text = lineFeeds(text)
        let scan = YAMLScan(text)
        if let key = scan.aliases.first(where: \.isKey) {
            throw ConfigFileError(
                file: file, line: key.line,
                message: "an alias (*\(key.name)) cannot be a key; write the key out")
        }
        if let line = scan.complexKeyLine {
            throw ConfigFileError(
                file: file, line: line,
                message: "a key must be a plain word: lists, mappings and `?` keys cannot be keys")
        }
        if scan.maxFlowDepth > ConfigLimits.maxDepth {
            throw ConfigFileError(
                file: file, line: scan.deepLine,
                message: "nested more than \(ConfigLimits.maxDepth) levels deep")
        }
        let root: Node?
        do {
            // The basic resolver: every value is read as text and typed by its schema, and the default
            // resolver's rules would compile ICU regular expressions (10 M instructions at startup).
            root = try Yams.compose(yaml: text, .basic)
        } catch let e as YamlError {
            throw error(e, text: text, file: file)
        }
        guard let root else { return nil }
        var budget = Budget()
        try budget.walk(root, depth: 1, file: file, firstAlias: scan.aliases.first)
        return root
    }

    /// Counts values, aliases expanded, and stops at the first limit crossed.
    struct Budget {
        var values = 0

        mutating func walk(_ node: Node, depth: Int, file: String, firstAlias: YAMLScan.Alias?) throws {
            values += 1
            if values > ConfigLimits.maxValues {
                let how = firstAlias.map { " once aliases such as *\($0.name) are expanded" } ?? ""
                throw ConfigFileError(
                    file: file, line: firstAlias?.line ?? node.mark?.line,
                    message: "the file holds more than \(grouped(ConfigLimits.maxValues)) values"
                        + "\(how); write fewer repeats")
            }
            if depth > ConfigLimits.maxDepth {
                throw ConfigFileError(
                    file: file, line: node.mark?.line,
                    message: "nested more than \(ConfigLimits.maxDepth) levels deep")
            }
            switch node {
            case .mapping(let m):
                for (k, v) in m {
                    try walk(k, depth: depth + 1, file: file, firstAlias: firstAlias)
                    try walk(v, depth: depth + 1, file: file, firstAlias: firstAlias)
                }
            case .sequence(let s):
                for v in s { try walk(v, depth: depth + 1, file: file, firstAlias: firstAlias) }
            case .scalar, .alias:
                break
            }
        }
    }

    /// A YAML library error as `file:line: message`, never with the file's text in it.
    static func error(_ e: YamlError, text: String, file: String) -> ConfigFileError {
        switch e {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            if problem.contains("Maximum nesting level") {
                return ConfigFileError(
                    file: file, line: mark.line,
                    message: "nested more than \(ConfigLimits.maxDepth) levels deep")
            }
            return ConfigFileError(file: file, line: mark.line, message: "not valid YAML: \(quoted(problem, max: 120))")
        case .reader(let problem, let offset, let value, _):
            let line = offset.map { o in text.prefix(o).reduce(1) { $1 == "\n" ? $0 + 1 : $0 } }
            let what = value >= 0 ? " (U+\(String(UInt32(bitPattern: value), radix: 16, uppercase: true)))" : ""
            return ConfigFileError(
                file: file, line: line,
                message: "not valid YAML: \(quoted(problem, max: 120))\(what)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.sorted().first ?? ""
            let first = context.mark.line
            let again = secondOccurrence(of: key, after: context.mark, in: text)
            let elsewhere = again.map { $0 != first } ?? false
            let already = elsewhere ? " (already on line \(first))" : ""
            return ConfigFileError(
                file: file, line: again ?? first,
                message: "duplicate key `\(quoted(key, max: 40))`\(already); "
                    + "a key may appear once in a mapping")
        default:
            return ConfigFileError(file: file, line: nil, message: "not valid YAML")
        }
    }

    /// The line of the next `key:` at the same column as `mark` (a block mapping's second
    /// use of a key), or on the same line (a flow mapping); nil if it cannot be found.
    static func secondOccurrence(of key: String, after mark: Mark, in text: String) -> Int? {
        guard !key.isEmpty else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let firstLine = lines[mark.line - 1]
        if firstLine.components(separatedBy: key).count > 2 { return mark.line }
        let column = mark.column - 1
        for n in mark.line..<lines.count {
            let line = lines[n]
            guard line.unicodeScalars.count > column else { continue }
            let rest = String(String.UnicodeScalarView(line.unicodeScalars.dropFirst(column)))
            let leading = line.unicodeScalars.prefix(column)
            guard leading.allSatisfy({ $0 == " " || $0 == "-" }) else { continue }
            for candidate in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(candidate) {
                let after = rest.dropFirst(candidate.count).drop { $0 == " " }
                if after.hasPrefix(":") { return n + 1 }
            }
        }
        return nil
    }

    /// Outside text quoted in a message: one line, no control characters, at most `max` characters.
    package static func quoted(_ s: String, max: Int) -> String {
        let clean = TextSanitizer.singleLine(s)
        return clean.count > max ? String(clean.prefix(max - 1)) + "…" : clean
    }
}

/// Anchors and aliases in YAML text, found by a small scanner before the text is composed:
/// the first alias (for messages), whether an alias, a flow collection or a `?` entry is
/// used as a key (the YAML library hashes keys, aliases expanded), and how deep flow
/// collections (`[ ]`, `{ }`) nest. It skips comments, quoted scalars and block scalars;
/// it is not a YAML parser and only ever makes swiftdash refuse, never accept, a file.
struct YAMLScan {
    struct Alias: Sendable {
        var name: String
        var line: Int
        var isKey: Bool
    }

    private(set) var aliases: [Alias] = []
    private(set) var maxFlowDepth = 0
    /// The line where `maxFlowDepth` was reached.
    private(set) var deepLine: Int?
    /// The first line where a list, a mapping or a `?` entry is a key.
    private(set) var complexKeyLine: Int?

    init(_ text: String) {
        let b = Array(text.utf8)
        var i = 0
        var line = 1
        var flow = 0
        var atToken = true
        var lineIndent = 0
        var blockScalarIndent: Int? = nil
        // Where the current line's indentation ends (the line start is handled once).
        var lineStartDone = -1

        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        func isBreak(_ c: UInt8) -> Bool { c == 0x0A || c == 0x0D }
        func isEnd(_ j: Int) -> Bool { j >= b.count || isSpace(b[j]) || isBreak(b[j]) }
        func isNameChar(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
        }

        while i < b.count {
            // Start of a line: indentation, then block scalar content or sequence dashes.
            if (i == 0 || b[i - 1] == 0x0A) && lineStartDone != i {
                var j = i
                while j < b.count && b[j] == 0x20 { j += 1 }
                let indent = j - i
                let blank = j >= b.count || isBreak(b[j]) || b[j] == 0x23
                if let parent = blockScalarIndent {
                    if blank || indent > parent {
                        while j < b.count && b[j] != 0x0A { j += 1 }
                        if j < b.count { line += 1 }
                        i = j + 1
                        continue
                    }
                    blockScalarIndent = nil
                }
                lineIndent = indent
                i = j
                lineStartDone = j
                if flow == 0 { atToken = true }
                continue
            }
            let c = b[i]
            if c == 0x0A {
                line += 1
                i += 1
                continue
            }
            if isSpace(c) || c == 0x0D {
                i += 1
                continue
            }
            if c == 0x23 && (i == 0 || isSpace(b[i - 1]) || isBreak(b[i - 1])) {  // # comment
                while i < b.count && b[i] != 0x0A { i += 1 }
                continue
            }
            if atToken {
                switch c {
                case 0x2D where isEnd(i + 1):  // "- "
                    i += 1
                    continue
                case 0x3F where isEnd(i + 1):  // "? " an explicit (complex) key
                    if complexKeyLine == nil { complexKeyLine = line }
                    i += 1
                    continue
                case 0x27, 0x22:  // quoted scalar
                    i += 1
                    while i < b.count {
                        if b[i] == 0x0A { line += 1 }
                        if c == 0x22 && b[i] == 0x5C {
                            i += 2
                            continue
                        }
                        if b[i] == c {
                            // '' inside single quotes is a quote; anything else closes.
                            guard c == 0x27 && i + 1 < b.count && b[i + 1] == 0x27 else { break }
                            i += 2
                            continue
                        }
                        i += 1
                    }
                    i += 1
                    atToken = false
                    continue
                case 0x2A, 0x26:  // *alias, &anchor
                    var j = i + 1
                    while j < b.count && isNameChar(b[j]) { j += 1 }
                    let name = String(decoding: b[(i + 1)..<j], as: UTF8.self)
                    if c == 0x26 {  // an anchor: the node follows
                        i = j
                        continue
                    }
                    var k = j
                    while k < b.count && isSpace(b[k]) { k += 1 }
                    let colonFollows =
                        k < b.count && b[k] == 0x3A
                        && (isEnd(k + 1) || (flow > 0 && [0x2C, 0x5D, 0x7D].contains(b[k + 1])))
                    aliases.append(Alias(name: name, line: line, isKey: colonFollows))
                    i = j
                    atToken = false
                    continue
                case 0x21:  // !tag: the node follows
                    while i < b.count && !isEnd(i) { i += 1 }
                    continue
                case 0x7C where flow == 0, 0x3E where flow == 0:  // | or > block scalar
                    blockScalarIndent = lineIndent
                    while i < b.count && b[i] != 0x0A { i += 1 }
                    continue
                default:
                    break
                }
            }
            switch c {
            case 0x5B, 0x7B:  // [ {
                flow += 1
                if flow > maxFlowDepth {
                    maxFlowDepth = flow
                    deepLine = line
                }
                atToken = true
            case 0x5D, 0x7D:  // ] }
                flow = max(0, flow - 1)
                atToken = false
                // `[a, b]: value` makes the collection a key.
                var k = i + 1
                while k < b.count && isSpace(b[k]) { k += 1 }
                if k < b.count && b[k] == 0x3A
                    && (isEnd(k + 1) || (flow > 0 && [0x2C, 0x5D, 0x7D].contains(b[k + 1]))),
                    complexKeyLine == nil
                {
                    complexKeyLine = line
                }
            case 0x2C where flow > 0:  // , in a flow collection
                atToken = true
            case 0x3A where isEnd(i + 1) || (flow > 0 && i + 1 < b.count && [0x2C, 0x5D, 0x7D].contains(b[i + 1])):
                atToken = true  // ": " a value follows
            default:
                atToken = false
            }
            i += 1
        }
    }
}
