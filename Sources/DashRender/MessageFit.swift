import Foundation
import DashCore

/// Fits a status message, or a line of key hints, into a width without cutting a word in half.
///
/// A message is our words around outside text (a host name, a path, an address). What gives way
/// first is the outside text: such a word is shortened with an ellipsis where it still names
/// something (`…coingecko.com:`, `…/swiftdash/home.yaml:8:`). Then the middle of the message
/// goes, at a word, so its end stays: the part after the last " · " says what to do
/// (`· r retries`, `· u undoes`) and is kept whole.
public enum MessageFit {
    public static let separator = " · "

    /// A message in one line of `width`: whole when it fits; else shortened at a word (`fit`)
    /// and followed by `whole`, the key that shows it whole ("Ctrl-G whole"), where that leaves
    /// the message some room.
    public static func line(_ text: String, width: Int, whole: String?) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard let whole, !whole.isEmpty else { return fit(text, width: width) }
        let room = width - DisplayWidth.of(whole) - 2
        guard room >= 16 else { return fit(text, width: width) }
        // The end that says what to do may take two thirds of the line here: the rest is a key away.
        return fit(text, width: room, endingAtMost: room * 2 / 3) + "  " + whole
    }

    /// `text` in `width` columns, cut at words; the end that says what to do is kept when it
    /// takes at most `endingAtMost` columns (half the width unless told).
    public static func fit(_ text: String, width: Int, endingAtMost: Int? = nil) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.of(text) > width else { return text }
        // The end that says what to do, when there is one short enough to keep.
        var head = Substring(text)
        var tail = ""
        if let end = ending(text, width: width, atMost: endingAtMost) {
            head = text[..<end]
            tail = String(text[end...])
        }
        var words = head.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var excess = DisplayWidth.of(String(head)) + DisplayWidth.of(tail) - width
        // Outside words first, the longest first, each down to what still names something.
        let outside = words.indices.filter { isOutside(words[$0]) }.sorted {
            DisplayWidth.of(words[$0]) > DisplayWidth.of(words[$1])
        }
        for i in outside where excess > 0 {
            let before = DisplayWidth.of(words[i])
            words[i] = shorten(words[i], to: max(minimumWord, naming(words[i]), before - excess))
            excess -= before - DisplayWidth.of(words[i])
        }
        let shortened = words.joined(separator: " ")
        if excess <= 0 { return shortened + tail }
        // Cut at a word either way; the outside words stay whole when shortening them kept no more.
        let room = width - DisplayWidth.of(tail)
        let cutShort = cut(shortened, to: room)
        let cutWhole = cut(String(head), to: room)
        func kept(_ s: String) -> Int { s.split(separator: " ").count }
        return (kept(cutWhole) >= kept(cutShort) ? cutWhole : cutShort) + tail
    }

    /// Key hints ("←→ move", "Esc done") joined with " · ": the ones before the last give way
    /// from the end, whole, so the first (the main action) and the last (how to leave) stay.
    public static func hints(_ items: [String], width: Int) -> String {
        var items = items
        while items.count > 2, DisplayWidth.of(items.joined(separator: separator)) > width {
            items.remove(at: items.count - 2)
        }
        let line = items.joined(separator: separator)
        return DisplayWidth.of(line) <= width ? line : cut(line, to: width)
    }

    /// A message and key hints on one line: the message whole (alone, shortened at a word with
    /// `whole` after it, when it must be), then as many hints as fit after it.
    public static func message(_ message: String?, hints items: [String], width: Int, whole: String? = nil) -> String {
        guard let message, !message.isEmpty else { return hints(items, width: width) }
        let said = line(message, width: width, whole: whole)
        let room = width - DisplayWidth.of(said) - DisplayWidth.of(separator)
        guard let last = items.last, room >= DisplayWidth.of(last) else { return said }
        return said + separator + hints(items, width: room)
    }

    /// Where the end that says what to do begins: the last " · " part; else a short closing
    /// "(…)" or last ": " part that names a key (`: u undoes`, ` (Ctrl-R redoes)`, not
    /// `: rate limited`). Never more than `atMost`, half the width unless told.
    static func ending(_ text: String, width: Int, atMost: Int? = nil) -> String.Index? {
        func short(_ i: String.Index, _ most: Int) -> String.Index? {
            DisplayWidth.of(text[i...]) <= min(most, atMost ?? width / 2) ? i : nil
        }
        if let r = text.range(of: separator, options: .backwards) { return short(r.lowerBound, .max) }
        var start: String.Index?
        if text.hasSuffix(")"), let r = text.range(of: " (", options: .backwards) {
            start = r.lowerBound
        } else if let r = text.range(of: ": ", options: .backwards) {
            start = r.lowerBound
        }
        guard let start, namesAKey(text[start...]) else { return nil }
        return short(start, 26)
    }

    /// Whether `text` names a key: a lone letter or `<`/`>` (u, r, m), Esc, Enter, Tab, Ctrl-….
    static func namesAKey(_ text: Substring) -> Bool {
        text.split(separator: " ").contains { word in
            let w = word.trimming(",.;:()")
            return (w.count == 1 && (w.first!.isLetter || w == "<" || w == ">"))
                || ["Esc", "Enter", "Tab", "Space"].contains(w) || w.hasPrefix("Ctrl-")
        }
    }

    /// A shortened outside word is at least this wide (an ellipsis and a few characters).
    static let minimumWord = 10

    /// Whether a word is outside text: an address, a path, a host or file name.
    static func isOutside(_ word: String) -> Bool {
        let core = word.trimming("'\"“”‘’()[]<>,;:")
        if core.contains("/") || core.contains("@") { return DisplayWidth.of(core) > 1 }
        // A host or file name: a dot between two letters or digits.
        let chars = Array(core)
        return chars.indices.dropFirst().dropLast().contains { i in
            chars[i] == "." && chars[i - 1].isLetterOrDigit && chars[i + 1].isLetterOrDigit
        }
    }

    /// How narrow an outside word may get and still name something: a host its last two labels
    /// (`…coingecko.com:`, `…bbci.co.uk:`), a path its last component (`…/home.yaml:8:`).
    static func naming(_ word: String) -> Int {
        guard !word.contains("://") else { return minimumWord }
        if let slash = word.lastIndex(of: "/") { return DisplayWidth.of(String(word[slash...])) + 1 }
        let labels = word.split(separator: ".", omittingEmptySubsequences: false)
        // A short label before the last is part of the suffix (bbci.co.uk, not co.uk).
        let keep = labels.count >= 3 && labels[labels.count - 2].count <= 3 ? 3 : 2
        guard labels.count > keep else { return DisplayWidth.of(word) }
        return DisplayWidth.of(labels.suffix(keep).joined(separator: ".")) + 1
    }

    /// `word` in about `width` columns, keeping what names it: a path its end, a host its last
    /// labels, an address its start. Punctuation around it stays.
    static func shorten(_ word: String, to width: Int) -> String {
        guard DisplayWidth.of(word) > width else { return word }
        var core = Substring(word)
        var lead = ""
        var trail = ""
        while let first = core.first, "'\"“‘(<[".contains(first) {
            lead.append(first)
            core.removeFirst()
        }
        while let last = core.last, "'\"”’)>]:,;.".contains(last) {
            trail = String(last) + trail
            core.removeLast()
        }
        let room = width - DisplayWidth.of(lead) - DisplayWidth.of(trail)
        guard room > 1 else { return DisplayWidth.truncate(word, to: width) }
        let text = String(core)
        if text.contains("://") {
            return lead + DisplayWidth.truncate(text, to: room) + trail
        }
        if text.contains("/") {
            // A path: its last components, from a slash where one fits.
            let chars = Array(text)
            var keep = ""
            for i in stride(from: chars.count - 1, through: 1, by: -1) where chars[i] == "/" {
                let rest = String(chars[i...])
                if DisplayWidth.of(rest) + 1 > room { break }
                keep = rest
            }
            if keep.isEmpty { keep = suffix(text, width: room - 1) }
            return lead + "…" + keep + trail
        }
        // A host or file name: its last labels (the site, the file's own name).
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        for k in 1..<max(1, labels.count) {
            let rest = labels[k...].joined(separator: ".")
            if DisplayWidth.of(rest) + 1 <= room { return lead + "…" + rest + trail }
        }
        return lead + "…" + suffix(text, width: room - 1) + trail
    }

    /// The end of `text` in at most `width` columns.
    static func suffix(_ text: String, width: Int) -> String {
        var out: [Character] = []
        var used = 0
        for ch in text.reversed() {
            used += DisplayWidth.of(ch)
            if used > width { break }
            out.append(ch)
        }
        return String(out.reversed())
    }

    /// `text` cut at a word boundary to `width` columns with an ellipsis; mid-word only when its
    /// first word alone is too wide.
    static func cut(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.of(text) > width else { return text }
        var words = text.split(separator: " ", omittingEmptySubsequences: false)
        while words.count > 1 {
            words.removeLast()
            var kept = words.joined(separator: " ")
            while kept.last == " " { kept.removeLast() }
            // No dangling separator before the ellipsis ("failed: …" reads as cut, "failed …" too).
            while let last = kept.last, "·—-,;:".contains(last) || last == " " { kept.removeLast() }
            if kept.last == "…", DisplayWidth.of(kept) <= width { return kept }
            if !kept.isEmpty, DisplayWidth.of(kept) + 1 <= width { return kept + "…" }
        }
        return DisplayWidth.truncate(text, to: width)
    }
}

extension Character {
    fileprivate var isLetterOrDigit: Bool { isLetter || isNumber }
}

extension StringProtocol {
    fileprivate func trimming(_ set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
