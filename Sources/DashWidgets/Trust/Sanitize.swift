/// Cleans text that came from outside (feeds, APIs, commit messages, command output)
/// before it reaches a view: removes terminal escape sequences (CSI, OSC, DCS, APC, PM,
/// SOS and two-byte ESC sequences), C0/C1 control characters and bidirectional
/// overrides, and turns tabs and newlines into spaces unless `keepNewlines`.
///
/// It also caps the length (docs/decisions.md, "Limits on input from outside"): a field
/// keeps at most `maxFieldCharacters` grapheme clusters, cut at a cluster boundary and
/// ending in `…` when cut, and reading stops there, so a megabyte title costs what 2,000
/// characters cost.
public enum TextSanitizer {
    /// The most grapheme clusters one field of outside text keeps.
    public static let maxFieldCharacters = 2_000
    /// Unicode scalars read into one field at most: room for long clusters (a family emoji
    /// is 7 scalars) without letting a cluster of a million combining marks through whole.
    public static let maxFieldScalars = maxFieldCharacters * 8

    public static func clean(_ text: String, keepNewlines: Bool = false) -> String {
        clean(text, keepNewlines: keepNewlines, maxCharacters: maxFieldCharacters)
    }

    /// Text for a terminal's standard output or error, whole: `clean` keeping newlines and tabs,
    /// with no cap (a command's own help and reports are long; what they quote from outside
    /// was capped where it was read).
    public static func forTerminal(_ text: String) -> String {
        clean(text, keepNewlines: true, maxCharacters: .max, keepTabs: true)
    }

    /// `clean` with another cap (at least 1 character); `keepTabs` keeps a tab a tab.
    public static func clean(_ text: String, keepNewlines: Bool, maxCharacters: Int, keepTabs: Bool = false)
        -> String
    {
        let limit = max(1, maxCharacters)
        let scalarLimit = limit == maxFieldCharacters ? maxFieldScalars : limit > Int.max / 8 ? Int.max : limit * 8
        var out = String.UnicodeScalarView()
        var kept = 0
        var stoppedEarly = false
        var it = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending {
                pending = nil
                return p
            }
            return it.next()
        }
        while let s = next() {
            if kept >= scalarLimit {
                stoppedEarly = true
                break
            }
            let v = s.value
            switch v {
            case 0x1B:  // ESC
                guard let n = it.next() else { break }
                switch n.value {
                case 0x5B:  // CSI: parameters and intermediates until a final byte 0x40-0x7E
                    while let c = it.next() { if (0x40...0x7E).contains(c.value) { break } }
                case 0x5D, 0x50, 0x5F, 0x5E, 0x58:  // OSC, DCS, APC, PM, SOS: until BEL or ST
                    skipControlString(&it)
                default:
                    // Two-byte sequence (ESC c, ESC 7, ESC ( B …): drop the next character too,
                    // and for nF sequences with intermediates, up to the final byte.
                    if (0x20...0x2F).contains(n.value) {
                        while let c = it.next() { if !(0x20...0x2F).contains(c.value) { break } }
                    }
                }
            case 0x9B:  // C1 CSI
                while let c = it.next() { if (0x40...0x7E).contains(c.value) { break } }
            case 0x9D, 0x90, 0x9F, 0x9E, 0x98:  // C1 OSC, DCS, APC, PM, SOS
                skipControlString(&it)
            case 0x0A, 0x0D:
                if !keepNewlines {
                    out.append(" ")
                    kept += 1
                } else if v == 0x0A {
                    out.append("\n")
                    kept += 1
                }
            case 0x09:
                out.append(keepTabs ? "\t" : " ")
                kept += 1
            case 0x00...0x1F, 0x7F...0x9F:
                continue
            case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F:
                continue  // bidi controls can reorder what surrounds them on screen
            default:
                out.append(s)
                kept += 1
            }
        }
        return cut(String(out), to: limit, lastMayBeIncomplete: stoppedEarly)
    }

    /// At most `limit` grapheme clusters of `text`; when it is longer (or was cut mid-way,
    /// so its last cluster may be incomplete) the kept part ends in `…`.
    static func cut(_ text: String, to limit: Int, lastMayBeIncomplete: Bool) -> String {
        // Fewer UTF-8 bytes than the limit: fewer clusters too, nothing to count.
        if !lastMayBeIncomplete && text.utf8.count <= limit { return text }
        var count = 0
        var i = text.startIndex
        var previous = text.startIndex
        while i < text.endIndex {
            if count == limit - 1 { previous = i }
            if count == limit { return String(text[..<previous]) + "…" }
            i = text.index(after: i)
            count += 1
        }
        guard lastMayBeIncomplete else { return text }
        // Cut inside the text: drop the last cluster, which may have lost its tail.
        var kept = text
        if !kept.isEmpty { kept.removeLast() }
        return kept + "…"
    }

    /// Collapses runs of white space to one space and trims the ends.
    public static func singleLine(_ text: String) -> String {
        clean(text).split(whereSeparator: { $0 == " " }).joined(separator: " ")
    }

    /// Skips the body of an OSC, DCS, APC, PM or SOS string (after its introducer) up to and
    /// including its end: BEL, ST (`ESC \` or C1 0x9C), or any ESC with the character after it.
    public static func skipControlString(_ it: inout String.UnicodeScalarView.Iterator) {
        while let c = it.next() {
            if c.value == 0x07 || c.value == 0x9C { return }
            if c.value == 0x1B {
                _ = it.next()
                return
            }  // ESC \ (ST)
        }
    }
}
