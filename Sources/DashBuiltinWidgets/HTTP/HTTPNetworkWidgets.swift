import Foundation
import DashWidgets

/// The three widgets of the seeds that read real data: coin prices, headlines and the
/// latest commit. `http` sets the timeouts and size cap of their requests (tests use
/// short timeouts).
public enum BuiltinNetworkWidgets {
    public static let crypto: Widget = CryptoWidget.make()
    public static let news: Widget = NewsWidget.make()
    public static let commits: Widget = CommitsWidget.make()
    public static let all: [Widget] = [crypto, news, commits]

    /// The same widgets with other HTTP limits.
    public static func widgets(http: HTTPClient) -> [Widget] {
        [CryptoWidget.make(http: http), NewsWidget.make(http: http), CommitsWidget.make(http: http)]
    }
}

/// Helpers shared by the network widgets.
enum Fmt {
    /// Outside text for one line of a view: sanitised, at most 2,000 characters.
    static func line(_ s: String?) -> String {
        OutsideText.capped(TextSanitizer.singleLine(OutsideText.capped(s ?? "", 4 * OutsideText.maxCharacters)))
    }

    /// Outside text that keeps its line breaks (a commit message): sanitised, at most 2,000 characters.
    static func text(_ s: String?) -> String {
        OutsideText.capped(
            TextSanitizer.clean(
                OutsideText.capped(s ?? "", 4 * OutsideText.maxCharacters),
                keepNewlines: true))
    }

    /// Most items kept from one answer (commits, coins): far more than any tile shows.
    static let maxItems = 250

    /// A relevance score that falls from 1 (now) to 0 over `span` seconds.
    static func freshness(_ date: Date?, now: Date, span: TimeInterval) -> Double {
        guard let date else { return 0 }
        let age = max(0, now.timeIntervalSince(date))
        return max(0, 1 - age / span)
    }

    /// A stable short id for a string (FNV-1a, hex), for deep links.
    static func shortID(_ s: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100000001b3
        }
        return String(h, radix: 16)
    }
}

/// A title row: a headline on the left, a caption on the right.
func titleRow(_ title: String, _ trailing: String = "", color: SemanticColor = .accent) -> TileView {
    HStack {
        Text(title).font(.headline).foregroundStyle(color)
        Spacer()
        if !trailing.isEmpty { Text(trailing).font(.caption) }
    }
}

/// "Failed to load" with the reason, as the seeds show it.
func failureView(_ title: String, _ reason: String) -> TileView {
    VStack {
        titleRow(title)
        Text("Failed to load").font(.headline).foregroundStyle(.negative)
        Text(reason).font(.caption).lineLimit(3)
    }
}
