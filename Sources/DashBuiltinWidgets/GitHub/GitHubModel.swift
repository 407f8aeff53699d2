import Foundation
import DashWidgets

/// The state of a pull request's checks (its head commit's check runs).
public enum GitHubChecks: String, Codable, Sendable, Hashable {
    case passing, failing, pending, none, unknown

    var symbol: String {
        switch self {
        case .passing: return "✓"
        case .failing: return "✗"
        case .pending: return "●"
        case .none: return "·"
        case .unknown: return "?"
        }
    }
}

/// A pull request, cleaned for the screen.
public struct GitHubPull: Codable, Sendable, Hashable {
    public var repository: String
    public var number: Int
    public var title: String
    public var author: String
    public var url: String
    public var updated: Date?
    public var draft: Bool
    public var checks: GitHubChecks

    var reference: String { "\(repository)#\(number)" }
}

/// An unread notification.
public struct GitHubNote: Codable, Sendable, Hashable {
    public var id: String
    public var repository: String
    public var title: String
    public var type: String
    public var reason: String
    public var updated: Date?
}

/// The answers of the GitHub REST API the widget reads, decoded leniently (every field
/// optional: a missing one is skipped, not a failure) and cleaned.
enum GitHubParse {
    struct SearchAnswer: Decodable {
        struct Item: Decodable {
            struct User: Decodable { var login: String? }
            var number: Int?
            var title: String?
            var html_url: String?
            var repository_url: String?
            var user: User?
            var updated_at: String?
            var draft: Bool?
        }
        var total_count: Int?
        var items: [Item]?
    }

    struct NoteAnswer: Decodable {
        struct Subject: Decodable {
            var title: String?
            var type: String?
        }
        struct Repo: Decodable { var full_name: String? }
        var id: String?
        var unread: Bool?
        var reason: String?
        var updated_at: String?
        var subject: Subject?
        var repository: Repo?
    }

    struct PullAnswer: Decodable {
        struct Head: Decodable { var sha: String? }
        var head: Head?
    }

    struct ChecksAnswer: Decodable {
        struct Run: Decodable {
            var status: String?
            var conclusion: String?
        }
        var total_count: Int?
        var check_runs: [Run]?
    }

    struct ShapeError: Error { var message: String }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data, what: String) throws -> T {
        do { return try HTTPClient.decode(type, data, host: what) } catch let e as DataSourceError {
            throw ShapeError(message: e.message)
        }
    }

    /// "owner/repo" from `https://api.github.com/repos/owner/repo`.
    static func repository(_ apiURL: String?) -> String {
        guard let s = apiURL, let r = s.range(of: "/repos/") else { return "?" }
        let parts = s[r.upperBound...].split(separator: "/")
        guard parts.count >= 2 else { return "?" }
        return Fmt.line("\(parts[0])/\(parts[1])")
    }

    static func pulls(_ data: Data) throws -> (total: Int, pulls: [GitHubPull]) {
        let a = try decode(SearchAnswer.self, data, what: "the search answer")
        let pulls = (a.items ?? []).prefix(Fmt.maxItems).compactMap { i -> GitHubPull? in
            guard let n = i.number, n > 0 else { return nil }
            let title = Fmt.line(i.title)
            return GitHubPull(
                repository: repository(i.repository_url), number: n, title: title.isEmpty ? "(no title)" : title,
                author: Fmt.line(i.user?.login ?? "?"), url: i.html_url.map(NewsHTML.webURL) ?? "",
                updated: i.updated_at.flatMap(NewsDates.parse), draft: i.draft ?? false, checks: .unknown)
        }
        return (max(a.total_count ?? pulls.count, pulls.count), Array(pulls))
    }

    static func notes(_ data: Data) throws -> [GitHubNote] {
        let a = try decode([NoteAnswer].self, data, what: "the notifications answer")
        return a.prefix(Fmt.maxItems).filter { $0.unread ?? true }.map { n in
            let title = Fmt.line(n.subject?.title)
            return GitHubNote(
                id: Fmt.line(n.id ?? ""), repository: Fmt.line(n.repository?.full_name ?? "?"),
                title: title.isEmpty ? "(no title)" : title, type: Fmt.line(n.subject?.type ?? ""),
                reason: Fmt.line(n.reason ?? "").replacingOccurrences(of: "_", with: " "),
                updated: n.updated_at.flatMap(NewsDates.parse))
        }
    }

    static func headSHA(_ data: Data) throws -> String? {
        let sha = try decode(PullAnswer.self, data, what: "the pull request answer").head?.sha ?? ""
        return CommitsSource.validName(sha) && sha.count <= 64 ? sha : nil
    }

    /// Failing if any run failed, pending if any has not finished, passing when all passed.
    static func checks(_ data: Data) throws -> GitHubChecks {
        let runs = try decode(ChecksAnswer.self, data, what: "the check runs answer").check_runs ?? []
        if runs.isEmpty { return .none }
        let bad: Set<String> = ["failure", "timed_out", "cancelled", "action_required", "startup_failure"]
        if runs.contains(where: { bad.contains($0.conclusion ?? "") }) { return .failing }
        if runs.contains(where: { ($0.status ?? "") != "completed" }) { return .pending }
        return .passing
    }
}

/// What the github tile shows.
public struct GitHubEntry: TimelineEntry, Hashable {
    public var date: Date
    public var host: String
    public var reviews: [GitHubPull]
    public var reviewCount: Int
    public var mine: [GitHubPull]
    public var mineCount: Int
    public var notes: [GitHubNote]
    /// Sections that could not load, with why (the others still show).
    public var problems: [String]
    public var failure: String?
    public var notice: String?
    public var isPlaceholder: Bool = false

    public var summary: String {
        if let failure { return "GitHub: \(failure)" }
        return "GitHub: \(reviewCount) to review, \(mineCount) mine, \(notes.count) unread"
    }

    /// A review waiting is the most relevant (0.9); a failing check of mine next (0.8);
    /// unread notifications a little (0.5).
    public var relevance: Relevance? {
        guard !isPlaceholder, failure == nil else { return nil }
        if let r = reviews.first {
            return Relevance(score: 0.9, reason: "review requested: \(r.reference) \(r.title)", untilSeen: true)
        }
        if let f = mine.first(where: { $0.checks == .failing }) {
            return Relevance(score: 0.8, reason: "checks failing on \(f.reference)")
        }
        if !notes.isEmpty {
            return Relevance(score: 0.5, reason: "\(notes.count) unread notifications", untilSeen: true)
        }
        return nil
    }

    /// New when a review request, a failing check or a notification appears.
    public var contentID: String? {
        guard !isPlaceholder, failure == nil else { return nil }
        let parts =
            reviews.map { "r" + $0.reference } + mine.filter { $0.checks == .failing }.map { "f" + $0.reference }
            + notes.prefix(20).map { "n" + $0.id }
        return parts.isEmpty ? nil : "github:" + Fmt.shortID(parts.joined(separator: ","))
    }
}
