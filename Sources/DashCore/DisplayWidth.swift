#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Display width of text in terminal columns, with the C library's `wcwidth` semantics:
/// East Asian wide and emoji characters take 2 columns, combining marks 0.
///
/// A grapheme cluster takes the width of its first printable code point (so a base letter
/// with combining marks is 1, a flag 2), except for the kinds of cluster terminals disagree
/// on (`WidthClass`): those take the answer of `WidthModel.current` (docs/decisions.md 28).
///
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

    /// Width of one grapheme cluster under `WidthModel.current`. Control characters count 0.
    /// A single code point is `wcwidth`'s answer (0...2) whatever the model; the clusters
    /// terminals disagree on (`WidthClass`) take the model's answer, which may exceed 2
    /// (👍🏽 is 4 columns where a terminal adds up code points).
    public static func of(_ character: Character) -> Int {
        if character.isASCII {
            let v = character.asciiValue ?? 0
            return (v >= 0x20 && v < 0x7f) ? 1 : 0
        }
        let scalars = character.unicodeScalars
        if scalars.index(after: scalars.startIndex) == scalars.endIndex {
            return max(0, min(2, of(scalar: scalars.first!)))
        }
        return WidthModel.current.width(of: character)
    }

    /// Width of a string: the sum of its grapheme clusters' widths.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for ch in text { total += of(ch) }
        return total
    }

    /// Cuts `text` to at most `maxWidth` columns. When it does not fit, the result ends in
    /// `…` (1 column) and never splits a wide character: a 2-column character that would
    /// straddle the limit is dropped whole. Nor does it split a number: a cut that would fall
    /// inside one ("try again in 6…" of "60") drops the whole number, with a sign or currency
    /// symbol stuck to it ("try again in…"). One pass that stops where the text stops fitting,
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
        var result = Array(text[..<kept])
        if let token = numberCut(result, text[kept...]) {
            result.removeLast(token)
            while let last = result.last, stuckToNumbers.contains(last) || last.isCurrencySymbol { result.removeLast() }
        }
        // Do not leave trailing white space before the ellipsis.
        while let last = result.last, last == " " { result.removeLast() }
        return String(result) + ellipsis
    }

    static let numberSeparators: Set<Character> = [".", ",", ":"]
    static let stuckToNumbers: Set<Character> = ["+", "-", "\u{2212}", "#", "~", "\u{2248}"]

    static func isDigit(_ ch: Character) -> Bool { ch.wholeNumberValue != nil && ch.isNumber && !ch.isLetter }

    /// How many of the kept characters to drop so that the cut between `kept` and `rest` does
    /// not fall inside a number; nil when it does not. A number is a run of digits with
    /// separators between them; a word that is all number (`1.23e-6`, `-12.5%`, `$0.0001`)
    /// goes whole.
    static func numberCut(_ kept: [Character], _ rest: Substring) -> Int? {
        guard let before = kept.last, let after = rest.first, before != " ", after != " " else { return nil }
        let head = kept.reversed().prefix { $0 != " " }
        let tail = rest.prefix { $0 != " " }
        let word = Array(head.reversed()) + Array(tail)
        if word.contains(where: isDigit) && isNumeric(word) { return head.count }
        let left =
            isDigit(before)
            || (numberSeparators.contains(before) && kept.count >= 2 && isDigit(kept[kept.count - 2]))
        let right = isDigit(after) || (numberSeparators.contains(after) && rest.dropFirst().first.map(isDigit) == true)
        guard left && right else { return nil }
        return kept.reversed().prefix { isDigit($0) || numberSeparators.contains($0) }.count
    }

    /// Digits, separators, signs, `%`, currency symbols, and an exponent `e` after a digit.
    static func isNumeric(_ word: [Character]) -> Bool {
        for (i, ch) in word.enumerated() {
            if isDigit(ch) || numberSeparators.contains(ch) || stuckToNumbers.contains(ch) { continue }
            if ch == "%" || ch.isCurrencySymbol { continue }
            if (ch == "e" || ch == "E") && i > 0 && isDigit(word[i - 1]) { continue }
            return false
        }
        return true
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
