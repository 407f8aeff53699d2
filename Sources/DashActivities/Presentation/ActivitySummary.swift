import Foundation
import DashWidgets

/// One activity as `activity list --json` and `snapshot --json` give it: the values and what its
/// face shows now, every text clean.
public struct ActivitySummary: Codable, Equatable, Sendable {
    public var id: String
    public var kind: String
    /// active, stale, ended or dismissed.
    public var phase: String
    public var title: String
    /// The compact form (leading and trailing), as the status line shows it.
    public var compact: String
    public var line: String
    public var progress: Double?
    public var started: Double
    public var ended: Double?
    /// Seconds it ran (until now while it runs).
    public var duration: Double
    /// success, failure, signal, ended, expired or unknown; nil while it runs.
    public var outcome: String?
    public var exitStatus: Int?
    public var signal: Int?
    public var relevanceScore: Double
    public var staleDate: Double?
    public var attributes: JSONValue
    public var state: JSONValue

    public init(_ a: Activity, at now: Date, views: ActivityViews = ActivityViews()) {
        let face = ActivityKinds.face(of: a, at: now, views: views)
        id = ActivityInput.text(a.id, max: 64)
        kind = ActivityInput.text(a.kind, max: 64)
        phase = a.phase(at: now).rawValue
        title = face.title
        compact = ActivityLine.compact(face)
        line = face.line
        progress = face.progress
        started = a.started.timeIntervalSince1970
        ended = a.ended?.timeIntervalSince1970
        duration = a.duration(at: now)
        relevanceScore = a.content.relevanceScore
        staleDate = a.content.staleDate?.timeIntervalSince1970
        attributes = (try? ActivityInput.clean(a.attributes, what: "")) ?? .object([:])
        state = (try? ActivityInput.clean(a.content.state, what: "")) ?? .object([:])
        switch face.outcome {
        case nil: outcome = nil
        case .success?: outcome = "success"
        case .failure(let s)?:
            outcome = "failure"
            exitStatus = s
        case .signal(let n)?:
            outcome = "signal"
            signal = n
        case .ended?: outcome = "ended"
        case .expired?: outcome = "expired"
        case .unknown?: outcome = "unknown"
        case .lost?: outcome = "lost"
        }
        if outcome == "success" { exitStatus = a.content.state["exit"]?.number.map { Int($0) } }
    }
}

/// The one-line forms of activities: the status line's and `activity list`'s.
public enum ActivityLine {
    /// Compact leading and trailing: `▶ make 42%`, `✓ make ✓ 4m 05s` reads `✓ make 4m 05s`.
    public static func compact(_ f: ActivityFace) -> String {
        var trailing = f.compactTrailing
        if f.outcome != nil, trailing.hasPrefix(f.symbol + " ") { trailing.removeFirst(f.symbol.count + 1) }
        return trailing.isEmpty ? f.compactLeading : "\(f.compactLeading) \(trailing)"
    }

    /// What the status line shows of the activities: the most relevant compact, and `+N` for the
    /// others (their minimal marks when `marks`). Empty when none is shown.
    public static func status(
        _ book: ActivityBook, at now: Date, marks: Bool = true, views: ActivityViews = ActivityViews()
    ) -> String {
        let shown = book.shown(at: now)
        guard let first = shown.first else { return "" }
        var s = compact(ActivityKinds.face(of: first, at: now, views: views))
        if shown.count > 1 {
            s +=
                marks
                ? " " + shown.dropFirst().map { ActivityKinds.face(of: $0, at: now, views: views).minimal }.joined() : ""
        }
        return s
    }

    /// `activity list`'s line for one activity.
    public static func listing(_ a: Activity, at now: Date) -> String {
        let f = ActivityKinds.face(of: a, at: now)
        var parts = [a.id, a.kind, a.phase(at: now).rawValue, compact(f)]
        if let o = f.outcomeText { parts.append(o) } else { parts.append(f.timing) }
        if !f.line.isEmpty { parts.append(f.line) }
        return parts.joined(separator: "  ")
    }
}
