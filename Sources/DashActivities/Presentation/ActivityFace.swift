import Foundation
import DashWidgets

/// How an activity ended, as the strip, the detail view and the history say it.
public enum ActivityOutcome: Equatable, Sendable {
    case success
    /// A command's exit status other than 0, or a failure the script reported.
    case failure(exitStatus: Int?)
    /// Killed by a signal.
    case signal(Int)
    /// Ended with no outcome in its state (a generic activity, a timer).
    case ended
    /// Ended by the 8-hour limit.
    case expired
    /// A watched process is gone and the system did not say how it ended.
    case unknown
    /// Whoever reported on it (`swiftdash run`, `activity watch`) went without a word: killed, or
    /// the machine restarted.
    case lost

    /// The outcome a final state says: `exit`, `signal` or `outcome` (`success`/`failure`).
    public static func of(_ a: Activity) -> ActivityOutcome? {
        guard a.isEnded else { return nil }
        if a.endedBySystem == true { return .expired }
        let s = a.content.state
        if let sig = s["signal"]?.number { return .signal(Int(sig)) }
        if let exit = s["exit"]?.number { return exit == 0 ? .success : .failure(exitStatus: Int(exit)) }
        switch s["outcome"]?.string {
        case "success": return .success
        case "failure": return .failure(exitStatus: nil)
        case "unknown": return .unknown
        case "lost": return .lost
        default: return .ended
        }
    }

    /// `✓`, `✗`, `■` …
    public var symbol: String {
        switch self {
        case .success: return "✓"
        case .failure, .signal: return "✗"
        case .ended: return "■"
        case .expired: return "⌛"
        case .unknown, .lost: return "?"
        }
    }

    /// "succeeded", "exit 3", "killed by signal 9" …
    public var words: String {
        switch self {
        case .success: return "succeeded"
        case .failure(let status): return status.map { "failed, exit \($0)" } ?? "failed"
        case .signal(let n): return "killed by signal \(n)\(Self.signalName(n).map { " (\($0))" } ?? "")"
        case .ended: return "ended"
        case .expired: return "ended after 8 hours"
        case .unknown: return "exited (status unknown)"
        case .lost: return "lost: its reporter was killed"
        }
    }

    public var isFailure: Bool {
        switch self {
        case .failure, .signal: return true
        default: return false
        }
    }

    static func signalName(_ n: Int) -> String? {
        [1: "HUP", 2: "INT", 3: "QUIT", 6: "ABRT", 9: "KILL", 11: "SEGV", 13: "PIPE", 15: "TERM"][n]
    }
}

/// The tone a face is drawn in.
public enum ActivityTone: String, Equatable, Sendable {
    case running, stale, success, failure, ended
}

/// Everything the strip, the detail view and the status line show of one activity at one moment,
/// computed from its kind (`ActivityKinds`): ActivityKit's presentations (compact leading and
/// trailing, minimal, the expanded regions, the Lock Screen view) as text.
public struct ActivityFace: Equatable, Sendable {
    public var id: String
    public var kind: String
    /// One character: what kind of thing, or how it ended.
    public var symbol: String
    public var title: String
    public var subtitle: String
    /// The compact leading region: the symbol and a short title.
    public var compactLeading: String
    /// The compact trailing region: a progress, a timer, or how it ended.
    public var compactTrailing: String
    /// The minimal presentation: its symbol and a block that fills with its progress, or how it ended.
    public var minimal: String
    /// The status line: what a command last printed, a script's status text.
    public var line: String
    /// Progress from 0 to 1, when known.
    public var progress: Double?
    /// "12 of 80", "42%".
    public var progressLabel: String?
    /// "elapsed 3:12", "ends in 4:00", "ETA 2:00".
    public var timing: String
    public var tone: ActivityTone
    public var outcome: ActivityOutcome?
    /// "✗ failed, exit 3 after 1m 02s".
    public var outcomeText: String?
    /// The deep link its detail opens (`url` in the attributes).
    public var url: String?
    /// The last update's alert, while it is recent (`ActivityFace.alertSeconds`).
    public var alert: ActivityAlert?
    /// Some text counts with the clock: the face changes every second.
    public var ticks: Bool
    /// What its bundle's own views draw (`ActivityConfiguration`), when they drew it.
    public var views: ActivityPresentation? = nil
    /// Why its bundle's views could not draw it (the built-in face shows instead).
    public var viewProblem: String? = nil

    /// How long an alert keeps the strip expanded.
    public static let alertSeconds: TimeInterval = 8
}

/// Durations as the faces write them.
public enum ActivityTime {
    /// A live timer's text (`Text(timerInterval:)`): `m:ss`, `h:mm:ss` from an hour.
    public static func clock(_ seconds: TimeInterval) -> String {
        let s = Int(max(0, seconds.rounded(.down)))
        let (h, m, sec) = (s / 3600, (s % 3600) / 60, s % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(sec))" : "\(m):\(two(sec))"
    }

    /// A finished duration: `12s`, `4m 05s`, `1h 02m`.
    public static func span(_ seconds: TimeInterval) -> String {
        let s = Int(max(0, seconds.rounded()))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m \(two(s % 60))s" }
        return "\(s / 3600)h \(two((s % 3600) / 60))m"
    }
}
