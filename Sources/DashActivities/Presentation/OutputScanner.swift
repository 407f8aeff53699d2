import Foundation
import DashWidgets

/// Reads a command's output as it passes through `swiftdash run` (which copies it unchanged): the
/// last line it printed, cleaned for the screen, and a progress where one is printed — `42%`,
/// `[12/80]` as ninja and swift build print it, `] 12/80:` as cargo does. A line redrawn in place
/// (`\r`, as progress bars do) counts by its last state. Bounded: a line keeps at most
/// `maxLineBytes`, however long the command's lines are.
public struct OutputScanner: Sendable {
    public static let maxLineBytes = 4096
    /// The most characters of the line kept.
    public static let maxLineCharacters = 200

    /// The last non-blank line (or the part of the line being printed now that follows a `\r`).
    public private(set) var lastLine = ""
    /// The last progress seen: done and total (`[12/80]`) or a percentage (done of 100).
    public private(set) var progress: (done: Int, total: Int)?
    /// The last progress was a percentage (`42%`), not a count (`[42/100]`).
    public private(set) var progressIsPercent = false
    /// Something changed since `take()`.
    public private(set) var changed = false

    private var pending: [UInt8] = []
    private var truncated = false

    public init() {}

    /// Reads more output.
    public mutating func feed<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        for b in bytes {
            switch b {
            case 0x0A:  // \n
                finishLine()
            case 0x0D:  // \r: the line is drawn again from its start
                finishLine()
            default:
                if pending.count < Self.maxLineBytes { pending.append(b) } else { truncated = true }
            }
        }
    }

    /// The text so far of a line not yet ended (a prompt, a progress bar) counts too.
    public mutating func flush() { finishLine() }

    /// Whether something changed, and resets it.
    public mutating func take() -> Bool {
        defer { changed = false }
        return changed
    }

    private mutating func finishLine() {
        defer {
            pending.removeAll(keepingCapacity: true)
            truncated = false
        }
        guard !pending.isEmpty else { return }
        let raw = String(decoding: pending, as: UTF8.self)
        let clean = ActivityInput.text(raw, max: Self.maxLineCharacters)
        guard !clean.isEmpty else { return }
        if let p = Self.progress(in: clean) {
            let percent = Self.isPercent(clean)
            if progress.map({ $0 != p }) ?? true || percent != progressIsPercent { changed = true }
            progress = p
            progressIsPercent = percent
        }
        if clean != lastLine {
            lastLine = clean
            changed = true
        }
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
