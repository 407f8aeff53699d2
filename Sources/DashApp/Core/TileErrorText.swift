import DashCore
import DashHome

/// A failure message made to read well in a narrow tile: a word wider than the tile (a host
/// name, a URL) is shortened with an ellipsis where it still says something, instead of being
/// broken across lines at whatever column the tile ends ("api.coingecko.c" / "om:").
enum TileErrorText {
    static func fitting(_ message: String, width: Int) -> String {
        guard width > 1 else { return message }
        return message.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: " ", omittingEmptySubsequences: false).map { fit(String($0), width) }
                .joined(separator: " ")
        }.joined(separator: "\n")
    }

    /// One word in `width` columns. A host name keeps its last labels (`…coingecko.com:`, the
    /// part that names the site); anything else keeps its start (`https://example.com/a…`).
    static func fit(_ word: String, _ width: Int) -> String {
        guard DisplayWidth.of(word) > width else { return word }
        var core = Substring(word)
        var trail = ""
        while let last = core.last, ":,;.)".contains(last) {
            trail = String(last) + trail
            core.removeLast()
        }
        if !core.contains("/"), core.contains(".") {
            let labels = core.split(separator: ".", omittingEmptySubsequences: false)
            for k in 1..<max(1, labels.count - 1) {
                let shortened = "…" + labels[k...].joined(separator: ".") + trail
                if DisplayWidth.of(shortened) <= width { return shortened }
            }
        }
        return DisplayWidth.truncate(word, to: width)
    }
}
