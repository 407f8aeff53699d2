import Foundation
import DashWidgets

/// The built-in kinds, so a script needs no SDK (issue 39.3):
/// - `generic`: attributes `title`, `subtitle`, `url`; state `title`, `subtitle`, `status` (a line of
///   text), `progress` (0–1, or `"n of m"`), or `done` and `total`, and `eta` (a date: shown as a live
///   timer counting down).
/// - `timer`: attributes `title`; state `end` (the date it counts down to; `start` optional).
/// - `command`: what `swiftdash run` and `activity watch` start: attributes `command`, `title`, `pid`;
///   state `line` (the last line printed), `progress`/`done`/`total` (parsed from the output).
/// A final state may say how it ended: `exit` (a status), `signal`, or `outcome` (`success`,
/// `failure`). Any other kind (an SDK's) is drawn as `generic` from the same fields.
public enum ActivityKinds {
    public static let builtin = ["generic", "timer", "command"]

    /// The most characters of a compact title.
    public static let compactTitleCharacters = 18

    public static func face(of a: Activity, at now: Date) -> ActivityFace {
        let attrs = a.attributes, state = a.content.state
        func str(_ key: String) -> String? {
            (state[key]?.string ?? attrs[key]?.string).map { ActivityInput.text($0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func date(_ key: String) -> Date? {
            if let n = state[key]?.number ?? attrs[key]?.number { return Date(timeIntervalSince1970: n) }
            return (state[key]?.string ?? attrs[key]?.string).flatMap { ActivityInput.date($0, now: a.updated) }
        }
        let phase = a.phase(at: now)
        let outcome = ActivityOutcome.of(a)
        var title: String
        var symbol: String
        var line = str("status") ?? str("line") ?? ""
        var progress: Double?
        var progressLabel: String?
        var timing: String
        var trailing: String
        var ticks = false

        // Progress: 0–1, "n of m", or done/total.
        if let p = state["progress"]?.number {
            progress = min(1, max(0, p))
            progressLabel = "\(Int((progress! * 100).rounded(.down)))%"
        } else if let p = state["progress"]?.string, case let (n, m)? = Self.fraction(p) {
            progress = m > 0 ? min(1, Double(n) / Double(m)) : nil
            progressLabel = "\(n) of \(m)"
        } else if let n = state["done"]?.number, let m = state["total"]?.number, m > 0, n >= 0 {
            progress = min(1, n / m)
            progressLabel = "\(Int(n)) of \(Int(m))"
        }
        let elapsed = ActivityTime.clock(a.duration(at: now))

        switch a.kind {
        case "timer":
            symbol = "⏲"
            title = str("title") ?? "Timer"
            let end = date("end") ?? a.content.staleDate ?? a.started
            let start = date("start") ?? a.started
            let left = end.timeIntervalSince(now)
            if end > start { progress = min(1, max(0, now.timeIntervalSince(start) / end.timeIntervalSince(start))) }
            progressLabel = nil
            if left > 0 {
                trailing = ActivityTime.clock(left.rounded(.up))
                timing = "ends in \(trailing)"
                ticks = true
            } else {
                trailing = "0:00"
                timing = "done"
            }
        case "command":
            symbol = "▶"
            title = str("title") ?? str("command") ?? "command"
            line = str("line") ?? str("status") ?? ""
            trailing = progressLabel.map { Self.compactProgress($0, progress) } ?? elapsed
            timing = "elapsed \(elapsed)"
            ticks = true
        default:
            symbol = "●"
            title = str("title") ?? a.kind
            if let eta = date("eta") {
                let left = eta.timeIntervalSince(now)
                timing = left > 0 ? "ETA \(ActivityTime.clock(left.rounded(.up)))" : "due"
                trailing = progressLabel.map { Self.compactProgress($0, progress) } ?? ActivityTime.clock(max(0, left.rounded(.up)))
            } else {
                timing = "elapsed \(elapsed)"
                trailing = progressLabel.map { Self.compactProgress($0, progress) } ?? elapsed
            }
            ticks = true
        }
        var tone = ActivityTone.running
        var outcomeText: String?
        if let outcome {
            let ran = ActivityTime.span(a.duration(at: now))
            symbol = outcome.symbol
            trailing = ran
            timing = "ran \(ran)"
            outcomeText = "\(outcome.symbol) \(outcome.words) after \(ran)"
            tone = outcome == .success ? .success : outcome.isFailure ? .failure : .ended
            ticks = false
        } else if phase == .stale {
            tone = .stale
            timing += " · not updated since \(ActivityTime.span(now.timeIntervalSince(a.updated))) ago"
        }
        title = String(title.prefix(200))
        let shortTitle = title.count > compactTitleCharacters ? String(title.prefix(compactTitleCharacters - 1)) + "…" : title
        let minimal = outcome?.symbol ?? (symbol + (progress.map { Self.minimalProgress($0) } ?? ""))
        let recentAlert = a.alert.flatMap { now.timeIntervalSince($0.date) < ActivityFace.alertSeconds ? $0 : nil }
        return ActivityFace(
            id: a.id, kind: a.kind, symbol: symbol, title: title, subtitle: str("subtitle") ?? "",
            compactLeading: "\(symbol) \(shortTitle)", compactTrailing: trailing, minimal: minimal, line: line,
            progress: progress, progressLabel: progressLabel, timing: timing, tone: tone, outcome: outcome,
            outcomeText: outcomeText, url: attrs["url"]?.string.map { ActivityInput.text($0) }, alert: recentAlert,
            ticks: ticks)
    }

    /// `"12 of 80"`, `"12/80"` as (12, 80).
    public static func fraction(_ text: String) -> (Int, Int)? {
        let parts = text.replacingOccurrences(of: " of ", with: "/").split(separator: "/").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard parts.count == 2, let n = Int(parts[0]), let m = Int(parts[1]), n >= 0, m >= 0 else { return nil }
        return (n, m)
    }

    /// "42%" stays; "12 of 80" is "12/80" in a compact region.
    static func compactProgress(_ label: String, _ progress: Double?) -> String {
        label.replacingOccurrences(of: " of ", with: "/")
    }

    /// A block that fills as the progress grows, for the minimal presentation.
    static func minimalProgress(_ p: Double) -> String {
        let blocks = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        return blocks[min(blocks.count - 1, Int(p * Double(blocks.count)))]
    }
}
