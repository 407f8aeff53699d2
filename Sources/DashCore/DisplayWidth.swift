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
/// on (`WidthClass`): those take the answer of `WidthModel.current` (docs/decisions.md 22).
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
    /// symbol stuck to it ("try again in…").
    public static func truncate(_ text: String, to maxWidth: Int, ellipsis: String = "…") -> String {
        guard maxWidth > 0 else { return "" }
        if of(text) <= maxWidth { return text }
        let ellipsisWidth = of(ellipsis)
        guard maxWidth >= ellipsisWidth else { return String(repeating: ".", count: maxWidth) }
        let budget = maxWidth - ellipsisWidth
        var kept: [Character] = []
        var used = 0
        var rest = Substring(text)
        while let ch = rest.first {
            let w = of(ch)
            if used + w > budget { break }
            kept.append(ch)
            used += w
            rest = rest.dropFirst()
        }
        if let token = numberCut(kept, rest) {
            kept.removeLast(token)
            while let last = kept.last, stuckToNumbers.contains(last) || last.isCurrencySymbol { kept.removeLast() }
        }
        // Do not leave trailing white space before the ellipsis.
        while let last = kept.last, last == " " { kept.removeLast() }
        return String(kept) + ellipsis
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
        let left = isDigit(before)
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
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var w = String(word)
                var ww = of(w)
                let sep = line.isEmpty ? 0 : 1
                if lineWidth + sep + ww <= width {
                    if sep == 1 { line += " " }
                    line += w
                    lineWidth += sep + ww
                    continue
                }
                if !line.isEmpty { lines.append(line); line = ""; lineWidth = 0 }
                while ww > width {
                    // Hard-break a long word at the column limit, never inside a wide character.
                    var head = "", hw = 0
                    var rest = Substring(w)
                    while let ch = rest.first, hw + of(ch) <= width { head.append(ch); hw += of(ch); rest = rest.dropFirst() }
                    if head.isEmpty { break }
                    lines.append(head)
                    w = String(rest); ww = of(w)
                }
                line = w; lineWidth = ww
            }
            lines.append(line)
        }
        return lines
    }
}
