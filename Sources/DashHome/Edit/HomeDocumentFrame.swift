/// The parts of a home.yaml around its document: `%YAML`/`%TAG` directives and the `---` that
/// ends them (with any comments before it), and a `...` end marker with what follows it. An edit
/// changes only the document between them, so they stay byte for byte (they were dropped when a
/// tile was added or the last one removed).
struct HomeDocumentFrame {
    var head = ""
    var body: String
    var tail = ""

    init(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func bare(_ line: Substring) -> Substring {
            var l = line
            while let last = l.last, last == "\r" || last == " " || last == "\t" { l = l.dropLast() }
            return l
        }
        func isCommentOrBlank(_ line: Substring) -> Bool {
            let t = bare(line).drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            return t.isEmpty || t.first == "#"
        }
        var start = 0
        var i = 0
        while i < lines.count,
            isCommentOrBlank(lines[i]) || bare(lines[i]).drop(while: { $0 == "\u{FEFF}" }).first == "%"
        {
            i += 1
        }
        if i < lines.count, bare(lines[i]) == "---" || bare(lines[i]).hasPrefix("--- #") { start = i + 1 }
        var end = lines.count
        var j = lines.count - 1
        while j >= start, isCommentOrBlank(lines[j]) { j -= 1 }
        if j >= start, bare(lines[j]) == "..." || bare(lines[j]).hasPrefix("... #") { end = j }
        head = start == 0 ? "" : lines[0..<start].joined(separator: "\n") + "\n"
        body = lines[start..<end].joined(separator: "\n") + (end < lines.count ? "\n" : "")
        tail = end < lines.count ? lines[end...].joined(separator: "\n") : ""
    }

    /// Whether there is anything around the document.
    var isFramed: Bool { !head.isEmpty || !tail.isEmpty }
}
