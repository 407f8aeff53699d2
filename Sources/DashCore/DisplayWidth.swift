#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Display width of text in terminal columns, with the C library's `wcwidth` semantics:
/// East Asian wide and emoji characters take 2 columns, combining marks 0.
///
/// A grapheme cluster takes the width of its first printable scalar (so a base letter
/// with combining marks is 1, an emoji ZWJ sequence or flag is 2): that is what the
/// terminal's cursor does when it is sent the whole cluster.
/// The C library's `wcwidth`. Glibc's Swift overlay does not export it (it sits behind
/// `_XOPEN_SOURCE`), so it is bound by symbol name; the signature is `int wcwidth(wchar_t)`.
@_silgen_name("wcwidth")
private func c_wcwidth(_ c: Int32) -> Int32

public enum DisplayWidth {
    /// `wcwidth` answers by the current LC_CTYPE; make sure it is a UTF-8 one exactly once.
    private static let localeReady: Bool = {
        #if canImport(Glibc) || canImport(Darwin)
        func isUTF8() -> Bool {
            guard let cs = nl_langinfo(nl_item(CODESET)) else { return false }
            return String(cString: cs).uppercased().filter { $0 != "-" } == "UTF8"
        }
        if isUTF8() { return true }
        if setlocale(LC_CTYPE, "") != nil, isUTF8() { return true }
        return setlocale(LC_CTYPE, "C.UTF-8") != nil || setlocale(LC_CTYPE, "en_US.UTF-8") != nil
        #else
        return false
        #endif
    }()

    /// Width of one Unicode scalar: -1 for a control character, 0 for a combining mark.
    public static func of(scalar: Unicode.Scalar) -> Int {
        _ = localeReady
        #if canImport(Glibc) || canImport(Darwin)
        return Int(c_wcwidth(Int32(bitPattern: scalar.value)))
        #else
        return scalar.value < 0x20 ? -1 : 1
        #endif
    }

    /// Width of one grapheme cluster, 0...2. Control characters count as 0.
    public static func of(_ character: Character) -> Int {
        if character.isASCII {
            let v = character.asciiValue ?? 0
            return (v >= 0x20 && v < 0x7f) ? 1 : 0
        }
        var width = 0
        for scalar in character.unicodeScalars {
            let w = of(scalar: scalar)
            if w > 0 { width = w; break }
        }
        // A flag is two regional indicators that glibc counts 1 each: the pair shows as one 2-column glyph.
        if width == 1, character.unicodeScalars.count == 2,
           character.unicodeScalars.allSatisfy({ (0x1F1E6...0x1F1FF).contains($0.value) }) { width = 2 }
        // An emoji presentation selector turns a narrow symbol (☀︎, ❤) into a 2-column emoji.
        if width == 1, character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { width = 2 }
        return min(width, 2)
    }

    /// Width of a string: the sum of its grapheme clusters' widths.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for ch in text { total += of(ch) }
        return total
    }

    /// Cuts `text` to at most `maxWidth` columns. When it does not fit, the result ends in
    /// `…` (1 column) and never splits a wide character: a 2-column character that would
    /// straddle the limit is dropped whole. One pass that stops where the text stops fitting,
    /// so a megabyte of text costs no more than the columns it is cut to.
    public static func truncate(_ text: String, to maxWidth: Int, ellipsis: String = "…") -> String {
        guard maxWidth > 0 else { return "" }
        let ellipsisWidth = of(ellipsis)
        let budget = maxWidth - ellipsisWidth
        var kept = text.startIndex
        var used = 0
        var overflowed = false
        var i = text.startIndex
        while i < text.endIndex {
            let next = text.index(after: i)
            used += of(text[i])
            if used > maxWidth {
                overflowed = true
                break
            }
            if used <= budget { kept = next }
            i = next
        }
        if !overflowed { return text }
        guard maxWidth >= ellipsisWidth else { return String(repeating: ".", count: maxWidth) }
        var result = text[..<kept]
        // Do not leave trailing white space before the ellipsis.
        while let last = result.last, last == " " { result.removeLast() }
        return String(result) + ellipsis
    }

    /// Splits text into lines that fit `width` columns, breaking at spaces where it can
    /// and inside a word only when the word alone is wider than the line.
    public static func wrap(_ text: String, width: Int) -> [String] {
        wrap(text, width: width, maxLines: Int.max).lines
    }

    /// `wrap(_:width:)` that stops after `maxLines` lines; `truncated` says more would follow.
    /// One pass over the text (a long word is cut as it is read, never re-measured), and no
    /// work past the last line kept.
    public static func wrap(_ text: String, width: Int, maxLines: Int) -> (lines: [String], truncated: Bool) {
        guard width > 0, maxLines > 0 else { return ([], false) }
        var lines: [String] = []
        var truncated = false
        /// Adds a line; false (and `truncated`) when the limit is already reached.
        func emit(_ l: String) -> Bool {
            if lines.count == maxLines {
                truncated = true
                return false
            }
            lines.append(l)
            return true
        }
        var line = ""
        var lineWidth = 0
        var word = ""
        var wordWidth = 0
        // A word wider than the line is being cut into lines as it arrives.
        var cutting = false
        // A single character wider than the line: the rest of the word stays on one line.
        var stuck = false
        /// The word ended (at a space, a newline or the end): place it.
        func endWord() -> Bool {
            defer {
                word = ""
                wordWidth = 0
                cutting = false
                stuck = false
            }
            if cutting {
                line = word
                lineWidth = wordWidth
                return true
            }
            if word.isEmpty { return true }
            let sep = line.isEmpty ? 0 : 1
            if lineWidth + sep + wordWidth <= width {
                if sep == 1 { line += " " }
                line += word
                lineWidth += sep + wordWidth
                return true
            }
            if !line.isEmpty { guard emit(line) else { return false } }
            line = word
            lineWidth = wordWidth
            return true
        }
        for ch in text {
            if ch == " " {
                guard endWord() else { return (lines, true) }
                continue
            }
            if ch == "\n" {
                guard endWord(), emit(line) else { return (lines, true) }
                line = ""
                lineWidth = 0
                continue
            }
            let w = of(ch)
            if !cutting && wordWidth + w > width {
                // The word alone is wider than a line: finish the current line and cut it.
                if !line.isEmpty {
                    guard emit(line) else { return (lines, true) }
                    line = ""
                    lineWidth = 0
                }
                cutting = true
            }
            if cutting && !stuck && wordWidth + w > width {
                if !word.isEmpty {
                    guard emit(word) else { return (lines, true) }
                    word = ""
                    wordWidth = 0
                }
                if w > width { stuck = true }
            }
            word.append(ch)
            wordWidth += w
        }
        guard endWord(), emit(line) else { return (lines, true) }
        return (lines, truncated)
    }
}
