import Foundation
import DashWidgets

/// Reads a command's output as it passes through `swiftdash run` (which copies it unchanged): the
/// last line it printed, cleaned for the screen, and a progress where one is printed — `42%`,
/// `[12/80]` as ninja and swift build print it, `] 12/80:` as cargo does. A line redrawn in place
/// (`\r`, as progress bars do) counts by its last state. Bounded: a line keeps at most
/// `maxLineBytes`, however long the command's lines are.
///
/// Cheap on a flood of output (`seq 3000000`): each chunk is walked once as bytes; only the lines
/// holding a `%` or a `/` are read as text for a progress, and only the last line of a chunk is
/// kept (raw); it is cleaned when asked for (`lastLine`, once per report).
public struct OutputScanner: Sendable {
    public static let maxLineBytes = 4096
    /// The most characters of the line kept.
    public static let maxLineCharacters = 200

    /// The last progress seen: done and total (`[12/80]`) or a percentage (done of 100).
    public private(set) var progress: (done: Int, total: Int)?
    /// The last progress was a percentage (`42%`), not a count (`[42/100]`).
    public private(set) var progressIsPercent = false
    /// Something changed since `take()`.
    public private(set) var changed = false

    /// The line being printed now (after the last `\n` or `\r`).
    private var pending: [UInt8] = []
    /// The last complete line that was not blank, raw.
    private var last: [UInt8] = []
    /// The line being printed holds a `%` or a `/`.
    private var candidate = false

    public init() {}

    /// The last non-blank line (or the part of the line being printed now that follows a `\r`),
    /// cleaned (no escape sequences or control characters), at most `maxLineCharacters`.
    public var lastLine: String { Self.clean(last) }

    /// Reads more output.
    public mutating func feed(_ bytes: [UInt8]) { bytes.withUnsafeBytes { feed($0) } }

    /// Reads more output (not generic: the caller is in another module, and an unspecialised
    /// generic walk over bytes costs ten times as much). Only the chunk's last complete line and
    /// the lines holding a `%` or `/` are looked at byte by byte; the rest is passed over eight
    /// bytes at a time (`Bytes.find`).
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        let n = chunk.count
        guard n > 0 else { return }
        guard let lastEnd = Bytes.lastTerminator(chunk, before: n) else {
            // No line ends here: the line being printed grows.
            if !candidate, Bytes.find(chunk, from: 0, to: n, percentOrSlash: true) != nil { candidate = true }
            append(chunk, 0, n)
            return
        }
        let firstEnd = Bytes.firstTerminator(chunk, from: 0, to: n) ?? lastEnd
        // The line that began in an earlier chunk (if any) ends at `firstEnd`.
        let firstHasHit = candidate || Bytes.find(chunk, from: 0, to: firstEnd, percentOrSlash: true) != nil
        append(chunk, 0, firstEnd)
        let first = pending
        pending.removeAll(keepingCapacity: true)
        candidate = false
        if firstHasHit { readProgress(first) }
        // Lines wholly inside the chunk: those with a `%` or `/` are read for a progress.
        var at = firstEnd + 1
        while at < lastEnd, let hit = Bytes.find(chunk, from: at, to: lastEnd, percentOrSlash: true) {
            let start = (Bytes.lastTerminator(chunk, before: hit).map { $0 + 1 } ?? 0)
            let end = Bytes.firstTerminator(chunk, from: hit, to: lastEnd) ?? lastEnd
            readProgress(Array(chunk[start..<min(end, start + Self.maxLineBytes)]))
            at = end + 1
        }
        // The last line that is not blank: from the end back, the first line last.
        var end = lastEnd
        var found = false
        while end > firstEnd {
            let start = (Bytes.lastTerminator(chunk, before: end).map { $0 + 1 } ?? 0)
            let line = Array(chunk[start..<min(end, start + Self.maxLineBytes)])
            if !Self.isBlank(line) {
                keep(line)
                found = true
                break
            }
            end = start - 1
        }
        if !found, !Self.isBlank(first) { keep(first) }
        // What follows the last line end is the line being printed now.
        if lastEnd + 1 < n {
            if Bytes.find(chunk, from: lastEnd + 1, to: n, percentOrSlash: true) != nil { candidate = true }
            append(chunk, lastEnd + 1, n)
        }
    }

    private mutating func append(_ chunk: UnsafeRawBufferPointer, _ from: Int, _ to: Int) {
        let room = Self.maxLineBytes - pending.count
        guard room > 0, from < to else { return }
        pending.append(contentsOf: chunk[from..<min(to, from + room)])
    }

    private mutating func keep(_ line: [UInt8]) {
        if line != last {
            last = line
            changed = true
        }
    }

    /// The text so far of a line not yet ended (a prompt, a progress bar) counts too.
    public mutating func flush() {
        guard !pending.isEmpty else { return }
        if candidate { readProgress(pending) }
        if !Self.isBlank(pending) { keep(pending) }
        pending.removeAll(keepingCapacity: true)
        candidate = false
    }

    /// Whether something changed, and resets it.
    public mutating func take() -> Bool {
        defer { changed = false }
        return changed
    }

    private mutating func readProgress(_ line: [UInt8]) {
        let text = Self.clean(line)
        guard let p = Self.progress(in: text) else { return }
        let percent = Self.isPercent(text)
        if progress.map({ $0 != p }) ?? true || percent != progressIsPercent { changed = true }
        progress = p
        progressIsPercent = percent
    }

    static func isBlank(_ line: [UInt8]) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 } }

    static func clean(_ line: [UInt8]) -> String {
        ActivityInput.text(String(decoding: line, as: UTF8.self), max: maxLineCharacters)
    }

    /// The progress one line prints, if any: `[n/m]` (ninja, swift build), `] n/m` (cargo), or the
    /// last `N%` (0–100).
    public static func progress(in line: String) -> (done: Int, total: Int)? {
        let chars = Array(line)
        var found: (Int, Int)?
        var i = 0
        while i < chars.count {
            // `[n/m]` or `] n/m`
            if chars[i] == "[" || (chars[i] == "]" && i + 1 < chars.count && chars[i + 1] == " ") {
                var j = i + 1
                while j < chars.count && chars[j] == " " { j += 1 }
                if case let (n, afterN)? = number(chars, j), afterN < chars.count, chars[afterN] == "/",
                    case let (m, end)? = number(chars, afterN + 1), m > 0, n <= m,
                    chars[i] == "]" || (end < chars.count && chars[end] == "]")
                {
                    return (n, m)
                }
            }
            i += 1
        }
        // The last percentage.
        i = 0
        while i < chars.count {
            if chars[i].isASCII, chars[i].isNumber, i == 0 || !(chars[i - 1].isNumber || chars[i - 1] == ".") {
                if case let (n, end)? = number(chars, i) {
                    var e = end
                    if e < chars.count, chars[e] == "." {
                        e += 1
                        while e < chars.count, chars[e].isASCII, chars[e].isNumber { e += 1 }
                    }
                    if e < chars.count, chars[e] == "%", n <= 100 { found = (n, 100) }
                    i = max(e, i + 1)
                    continue
                }
            }
            i += 1
        }
        return found
    }

    /// Whether the progress `line` prints is a percentage (no `[n/m]` or `] n/m` in it).
    static func isPercent(_ line: String) -> Bool {
        guard let p = progress(in: line), p.total == 100 else { return false }
        return !line.contains("/\(p.total)")
    }

    /// The decimal number at `i` (at most 9 digits) and where it ends.
    static func number(_ chars: [Character], _ i: Int) -> (Int, Int)? {
        var j = i
        var n = 0
        while j < chars.count, j - i < 9, chars[j].isASCII, let d = chars[j].wholeNumberValue {
            n = n * 10 + d
            j += 1
        }
        return j > i ? (n, j) : nil
    }
}

/// Byte searches over a chunk of output, eight bytes at a time where they can.
enum Bytes {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether any byte of `word` is `byte`.
    @inline(__always) static func has(_ word: UInt64, _ byte: UInt8) -> Bool {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs != 0
    }

    @inline(__always) static func isTerminator(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D }

    /// The first `%` or `/` (`percentOrSlash`) in `from..<to`.
    static func find(_ c: UnsafeRawBufferPointer, from: Int, to: Int, percentOrSlash: Bool) -> Int? {
        var i = from
        while i + 8 <= to {
            let w = c.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if has(w, 0x25) || has(w, 0x2F) { break }
            i += 8
        }
        while i < to {
            if c[i] == 0x25 || c[i] == 0x2F { return i }
            i += 1
        }
        return nil
    }

    /// The first `\n` or `\r` in `from..<to`.
    static func firstTerminator(_ c: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        var i = from
        while i < to {
            if isTerminator(c[i]) { return i }
            i += 1
        }
        return nil
    }

    /// The last `\n` or `\r` before `before`.
    static func lastTerminator(_ c: UnsafeRawBufferPointer, before: Int) -> Int? {
        var i = before - 1
        while i >= 0 {
            if isTerminator(c[i]) { return i }
            i -= 1
        }
        return nil
    }
}
