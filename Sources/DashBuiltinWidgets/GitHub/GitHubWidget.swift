import Foundation
import DashWidgets

/// Pull requests waiting for my review, my open pull requests with their checks, unread
/// notifications: GitHub or GitHub Enterprise (`endpoint: https://ghe.example.com/api/v3`).
public enum GitHubWidget {
    public static let kind = "github"
    public static let defaultEndpoint = "https://api.github.com"
    public static let tokenVariable = "GITHUB_TOKEN"

    static let schema = ConfigurationSchema([
        Parameter(
            key: "endpoint", title: "Endpoint",
            help: "The API's base URL (GitHub Enterprise: https://HOST/api/v3)",
            kind: .string(pattern: "https?://.+"), default: .string(defaultEndpoint)
        ).allowing("an http:// or https:// address"),
        Parameter(
            key: "token", title: "Token", help: "A token with repo and notifications access",
            kind: .string(), default: .string(""), isSecret: true, environmentVariable: tokenVariable),
        Parameter(
            key: "show", title: "Show", help: "What the tile lists",
            kind: .enumeration([
                ParameterOption("all", title: "Reviews, my pull requests, notifications"),
                ParameterOption("reviews", title: "Review requests"),
                ParameterOption("mine", title: "My pull requests"),
                ParameterOption("notifications", title: "Notifications"),
            ]), default: .string("all")),
        Parameter(
            key: "checks", title: "Checks", help: "Show the checks' state of my pull requests (one request each)",
            kind: .bool, default: .bool(true)),
        Parameter(
            key: "minutes", title: "Reload every", help: "Minutes between reloads", kind: .integer(1...1440),
            default: .int(5)),
    ])

    public static func make(http: HTTPClient = HTTPClient()) -> Widget {
        Widget(
            kind: kind, displayName: "GitHub",
            description: "Pull requests to review, my pull requests' checks, unread notifications",
            supportedFamilies: [.small, .medium, .large],
            schema: schema, cost: .budgeted, timeout: 4 * http.options.totalTimeout + 5,
            provider: GitHubProvider(http: http, memory: ResponseMemory()),
            view: { entry, ctx in GitHubViews.tile(entry, ctx) },
            detail: { link, entry, ctx in GitHubViews.detail(link, entry, ctx) }
        )
        .relevance("a review requested (0.9), a failing check on my pull request (0.8), unread notifications (0.5)")
    }

    /// Pull requests whose checks are looked up, at most.
    static let checkedPulls = 5
}

struct GitHubProvider: TimelineProvider {
    let http: HTTPClient
    let memory: ResponseMemory

    func placeholder(in context: TimelineContext) -> GitHubEntry {
        var e = GitHubSamples.entry(now: context.now)
        e.isPlaceholder = true
        return e
    }

    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> GitHubEntry {
        if context.isPreview { return GitHubSamples.entry(now: context.now) }
        return (try? await timeline(for: configuration, in: context).entries.first)
            ?? GitHubSamples.entry(now: context.now)
    }

    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<GitHubEntry> {
        let minutes = Double(max(1, min(1440, configuration.int("minutes") ?? 5)))
        let (entry, retry) = try await GitHubSource(configuration, context: context).load(http: http, memory: memory)
        return Timeline(entries: [entry], policy: .after(retry ?? context.now.addingTimeInterval(minutes * 60)))
    }
}

struct GitHubSource {
    let endpoint: String
    let token: String
    let show: String
    let checks: Bool
    let context: TimelineContext

    init(_ config: WidgetConfig, context: TimelineContext) {
        let e = config.string("endpoint").trimmingCharacters(in: .whitespaces)
        endpoint = e.isEmpty ? GitHubWidget.defaultEndpoint : e
        token = config.string("token").trimmingCharacters(in: .whitespaces)
        let s = config.string("show")
        show = ["reviews", "mine", "notifications"].contains(s) ? s : "all"
        checks = config.bool("checks")
        self.context = context
    }

    var headers: [String: String] {
        [
            "Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28",
            "Authorization": "Bearer \(token)",
        ]
    }

    static let authHint = "set token: ${GITHUB_TOKEN} in home.yaml or export \(GitHubWidget.tokenVariable)"

    enum Step: Error { case failed(TileFailure) }

    func get(_ url: URL, http: HTTPClient, memory: ResponseMemory, notFound: String) async throws -> Data {
        let outcome = try await http.exchange(
            url, headers: headers, secrets: [token], memory: memory, now: context.now, timeZone: context.timeZone,
            authHint: Self.authHint, notFoundHint: notFound)
        switch outcome {
        case .body(let d, _): return d
        case .failed(let f): throw Step.failed(f)
        }
    }

    func load(http: HTTPClient, memory: ResponseMemory) async throws -> (GitHubEntry, Date?) {
        let now = context.now
        var entry = GitHubEntry(
            date: now, host: "", reviews: [], reviewCount: 0, mine: [], mineCount: 0, notes: [], problems: [],
            failure: nil, notice: nil)
        guard let base = try? URL.api(endpoint, []) else {
            entry.failure = "the endpoint is not an http(s) address: set endpoint: https://api.github.com"
            return (entry, nil)
        }
        entry.host = HTTPClient.hostName(base)
        guard !token.isEmpty else {
            entry.failure = "needs a token (review requests and notifications are private): \(Self.authHint)"
            return (entry, nil)
        }
        var retry: Date?
        func search(_ q: String) throws -> URL {
            try URL.api(endpoint, ["search", "issues"], query: [("q", q), ("per_page", "20")])
        }
        // Each section on its own: one that fails names itself; an auth or rate failure stops all.
        func section<T>(_ name: String, _ body: () async throws -> T) async throws -> T? {
            do { return try await body() } catch Step.failed(let f) {
                retry = min(retry ?? f.retryAt, f.retryAt)
                if f.isRateLimit || f.status == 401 { throw Step.failed(f) }
                entry.problems.append("\(name): \(f.message)")
            } catch let e as GitHubParse.ShapeError {
                entry.problems.append("\(name): \(e.message)")
            }
            return nil
        }
        do {
            if show == "all" || show == "reviews" {
                let url = try search("is:open is:pr archived:false review-requested:@me")
                if let r = try await section(
                    "reviews",
                    {
                        try GitHubParse.pulls(
                            try await get(url, http: http, memory: memory, notFound: "check the endpoint"))
                    })
                {
                    entry.reviews = r.pulls
                    entry.reviewCount = r.total
                }
            }
            if show == "all" || show == "mine" {
                let url = try search("is:open is:pr archived:false author:@me")
                if let r = try await section(
                    "my pull requests",
                    {
                        try GitHubParse.pulls(
                            try await get(url, http: http, memory: memory, notFound: "check the endpoint"))
                    })
                {
                    entry.mine = r.pulls
                    entry.mineCount = r.total
                }
                if checks {
                    for i in entry.mine.indices.prefix(GitHubWidget.checkedPulls) {
                        entry.mine[i].checks = try await checkState(entry.mine[i], http: http, memory: memory)
                    }
                }
            }
            if show == "all" || show == "notifications" {
                let url = try URL.api(endpoint, ["notifications"], query: [("per_page", "30")])
                if let n = try await section(
                    "notifications",
                    {
                        try GitHubParse.notes(
                            try await get(url, http: http, memory: memory, notFound: "check the endpoint"))
                    })
                {
                    entry.notes = n
                }
            }
        } catch Step.failed(let f) {
            entry.failure = f.message
            return (entry, f.retryAt)
        }
        if entry.problems.count == (show == "all" ? 3 : 1) {
            entry.failure = entry.problems.joined(separator: "; ")
            entry.problems = []
        }
        return (entry, retry)
    }

    /// The checks of one pull request: its head commit, then that commit's check runs.
    func checkState(_ p: GitHubPull, http: HTTPClient, memory: ResponseMemory) async throws -> GitHubChecks {
        let parts = p.repository.split(separator: "/").map(String.init)
        guard parts.count == 2, parts.allSatisfy(CommitsSource.validName) else { return .unknown }
        do {
            let pull = try URL.api(endpoint, ["repos", parts[0], parts[1], "pulls", String(p.number)])
            guard let sha = try GitHubParse.headSHA(try await get(pull, http: http, memory: memory, notFound: ""))
            else {
                return .unknown
            }
            let runs = try URL.api(endpoint, ["repos", parts[0], parts[1], "commits", sha, "check-runs"])
            return try GitHubParse.checks(try await get(runs, http: http, memory: memory, notFound: ""))
        } catch Step.failed(let f) where !f.isRateLimit {
            return .unknown
        } catch is GitHubParse.ShapeError {
            return .unknown
        }
    }
}

enum GitHubSamples {
    static func entry(now: Date) -> GitHubEntry {
        func pull(_ repo: String, _ n: Int, _ title: String, _ who: String, _ checks: GitHubChecks) -> GitHubPull {
            GitHubPull(
                repository: repo, number: n, title: title, author: who, url: "https://github.com/\(repo)/pull/\(n)",
                updated: now.addingTimeInterval(-Double(n % 7 + 1) * 1800), draft: false, checks: checks)
        }
        return GitHubEntry(
            date: now, host: "api.github.com",
            reviews: [pull("octo/engine", 412, "Faster layout pass", "jane", .unknown)], reviewCount: 1,
            mine: [
                pull("octo/engine", 408, "Add the gallery", "me", .passing),
                pull("octo/docs", 77, "Fix the widget list", "me", .failing),
            ], mineCount: 2,
            notes: [
                GitHubNote(
                    id: "1", repository: "octo/engine", title: "Crash on resize", type: "Issue", reason: "mention",
                    updated: now.addingTimeInterval(-900))
            ], problems: [], failure: nil, notice: nil)
    }
}
