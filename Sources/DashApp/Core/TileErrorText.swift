import Foundation
import DashCore
import DashHome

/// A failure message made to read well in a narrow tile: a word wider than the tile (a host
/// name, a URL) is shortened with an ellipsis where it still says something, instead of being
/// broken across lines at whatever column the tile ends ("api.coingecko.c" / "om:").
enum TileErrorText {
    /// Why a network tile with nothing to show says "offline": "cannot reach
    /// api.coingecko.com" (the host is what tells one failing tile from another).
    static func offlineReason(_ message: String) -> String {
        guard let start = message.range(of: "cannot reach "),
            let end = message.range(of: ": offline or the server is down", range: start.upperBound..<message.endIndex)
        else { return "no network" }
        return "cannot reach " + message[start.upperBound..<end.lowerBound]
    }

    /// When a failed tile is tried again: "retrying…", "retry within a minute", "retry at
    /// 09:31", or, with no retry waiting, the key that asks for one. Said to the minute, so
    /// the tile need not be drawn again every second.
    static func retry(_ s: AppState, _ id: String) -> String {
        if s.scheduler.isLoading(id) { return "retrying…" }
        guard let at = s.scheduler.retryDate(id) else { return "r retries" }
        if at.timeIntervalSince(s.now) < 60 { return "retry within a minute" }
        return "retry at " + SmartStacks.clock(at, s)
    }

    /// Whether a load failed only because the network could not be reached (no route, no name
    /// resolution, no helper): the tile then says "offline" quietly instead of "Failed to load".
    static func isOffline(_ message: String) -> Bool {
        message.contains("cannot reach ") && message.contains(": offline or the server is down")
    }

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
