import Foundation
import DashWidgets

/// One commit, cleaned for the screen.
public struct CommitInfo: Codable, Sendable, Hashable {
    public var hash: String
    /// Full message; lines kept.
    public var message: String
    public var author: String
    public var date: Date?
    /// "M Sources/app.swift" (local repositories only).
    public var files: [String]
    /// Files changed beyond those listed.
    public var moreFiles: Int
    public var url: String?

    public init(
        hash: String, message: String, author: String, date: Date?, files: [String] = [], moreFiles: Int = 0,
        url: String? = nil
    ) {
        self.hash = hash
        self.message = message
        self.author = author
        self.date = date
        self.files = files
        self.moreFiles = moreFiles
        self.url = url
    }

    public var shortHash: String { String(hash.prefix(7)) }
    /// The first line of the message with text on it; "(no message)" for an empty message
    /// (git allows one with `--allow-empty-message`), never a blank row.
    public var subject: String {
        for line in message.split(separator: "\n") {
            let s = TextSanitizer.singleLine(String(line))
            if !s.isEmpty { return s }
        }
        return Self.noMessage
    }

    public static let noMessage = "(no message)"
}

/// What the commits tile shows: the newest commits of a branch, or why they could not load.
public struct CommitsEntry: TimelineEntry, Hashable {
    public var date: Date
    /// "apple/swift" or the local repository's folder name.
    public var repository: String
    public var branch: String
    public var isLocal: Bool
    public var commits: [CommitInfo]
    /// Set when the repository or branch does not exist (the seed's "Failed to load").
    public var failure: String?
    public var isPlaceholder: Bool

    public init(
        date: Date, repository: String, branch: String, isLocal: Bool, commits: [CommitInfo],
        failure: String? = nil, isPlaceholder: Bool = false
    ) {
        self.date = date
        self.repository = repository
        self.branch = branch
        self.isLocal = isLocal
        self.commits = commits
        self.failure = failure
        self.isPlaceholder = isPlaceholder
    }

    public var summary: String {
        if let failure { return "\(repository)@\(branch): Failed to load: \(failure)" }
        guard let c = commits.first else { return "\(repository)@\(branch): no commits" }
        return "\(repository)@\(branch) \(c.shortHash) \(c.subject) — \(c.author)"
    }

    /// A commit within the last hour is news: 1 when just made, 0.5 at an hour, relevant until
    /// the hour is over.
    public var relevance: Relevance? {
        guard !isPlaceholder, failure == nil, let c = commits.first, let d = c.date else { return nil }
        let age = max(0, date.timeIntervalSince(d))
        guard age < 3600 else { return nil }
        return Relevance(
            score: 1 - 0.5 * age / 3600, duration: 3600 - age,
            reason: "new commit \(c.shortHash) \"\(c.subject)\" by \(TextSanitizer.singleLine(c.author))")
    }

    /// The newest commit: a new one is "new" for attention.
    public var contentID: String? {
        isPlaceholder || failure != nil ? nil : commits.first.map { "commit:" + $0.hash }
    }

    public func commit(_ hash: String) -> CommitInfo? {
        commits.first { $0.hash == hash } ?? commits.first { !hash.isEmpty && $0.hash.hasPrefix(hash) }
    }
}

/// The latest-commit widget of seeds/002: a local git repository or a GitHub-style API.
public enum CommitsWidget {
    public static let kind = "commits"
    public static let defaultEndpoint = "https://api.github.com"
    public static let tokenVariable = "SWIFTDASH_GITHUB_TOKEN"

    static let schema = ConfigurationSchema([
        Parameter(
            key: "path", title: "Local repository", help: "A local git repository; when set, the API is not used",
            kind: .filePath, default: .string("")),
        Parameter(
            key: "endpoint", title: "Endpoint", help: "The GitHub-style API's base URL",
            kind: .string(pattern: "https?://.+"), default: .string(defaultEndpoint)
        ).allowing("an http:// or https:// address"),
        Parameter(
            key: "account", title: "Account", help: "The repository's owner", kind: .string(pattern: "[A-Za-z0-9_.-]+"),
            default: .string("apple")
        ).allowing("an account name such as apple (letters, digits, . _ -)"),
        Parameter(
            key: "repo", title: "Repository", help: "The repository's name", kind: .string(pattern: "[A-Za-z0-9_.-]+"),
            default: .string("swift")
        ).allowing("a repository name such as swift (letters, digits, . _ -)"),
        Parameter(
            key: "branch", title: "Branch", help: "The branch to follow (HEAD for a local repository's current one)",
            kind: .string(pattern: "[A-Za-z0-9_.][A-Za-z0-9_./-]*"), default: .string("main")
        ).allowing("a branch name such as main or release/6.0"),
        Parameter(
            key: "token", title: "Token", help: "An API token for private repositories or a higher rate limit",
            kind: .string(), default: .string(""), isSecret: true, environmentVariable: tokenVariable),
    ])

    public static func make(http: HTTPClient = HTTPClient(), gitTimeout: TimeInterval = 10) -> Widget {
        Widget(
            kind: kind, displayName: "Latest commit",
            description: "The newest commits of a branch, from a local git repository or a GitHub-style API",
            supportedFamilies: [.small, .medium, .large],
            schema: schema, cost: .budgeted, timeout: max(http.options.totalTimeout, gitTimeout) + 5,
            provider: CommitsProvider(http: http, gitTimeout: gitTimeout),
            view: { entry, ctx in CommitsViews.tile(entry, ctx) },
            detail: { link, entry, ctx in CommitsViews.detail(link, entry, ctx) }
        )
        .relevance("when the newest commit is less than an hour old (1 when just made, 0.5 at an hour)")
    }

    static func link(_ c: CommitInfo) -> String { DeepLink.make(kind: kind, c.hash) }
}

struct CommitsProvider: TimelineProvider {
    let http: HTTPClient
    let gitTimeout: TimeInterval

    func placeholder(in context: TimelineContext) -> CommitsEntry {
        var e = CommitsSamples.entry(now: context.now)
        e.isPlaceholder = true
        return e
    }

    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> CommitsEntry {
        var e = CommitsSamples.entry(now: context.now)
        let account = configuration.string("account"), repo = configuration.string("repo")
        if !account.isEmpty, !repo.isEmpty { e.repository = Fmt.line("\(account)/\(repo)") }
        if !configuration.string("branch").isEmpty { e.branch = Fmt.line(configuration.string("branch")) }
        // The gallery and `preview` want an answer at once: sample data, no git, no network.
        if context.isPreview { return e }
        return (try? await timeline(for: configuration, in: context).entries.first) ?? e
    }

    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<CommitsEntry> {
        let entry = try await CommitsSource(config: configuration, http: http, gitTimeout: gitTimeout)
            .load(family: context.family, now: context.now)
        return Timeline(entries: [entry], policy: .after(context.now.addingTimeInterval(5 * 60)))
    }
}

struct CommitsSource: Sendable {
    let path: String
    let endpoint: String
    let account: String
    let repo: String
    let branch: String
    let token: String
    let http: HTTPClient
    let gitTimeout: TimeInterval

    init(config: WidgetConfig, http: HTTPClient, gitTimeout: TimeInterval) {
        func value(_ k: String, _ d: String) -> String {
            let v = config.string(k).trimmingCharacters(in: .whitespaces)
            return v.isEmpty ? d : v
        }
        path = config.string("path").trimmingCharacters(in: .whitespaces)
        endpoint = value("endpoint", CommitsWidget.defaultEndpoint)
        account = value("account", "apple")
        repo = value("repo", "swift")
        branch = value("branch", "main")
        token = config.string("token").trimmingCharacters(in: .whitespaces)
        self.http = http
        self.gitTimeout = gitTimeout
    }

    static func validName(_ s: String) -> Bool {
        !s.isEmpty && !s.hasPrefix("-") && !s.hasPrefix(".")
            && s.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) && $0.isASCII || "_.-".unicodeScalars.contains($0)
            }
    }

    static func validBranch(_ s: String) -> Bool {
        !s.isEmpty && !s.hasPrefix("-") && !s.contains("..")
            && s.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) && $0.isASCII || "_./-".unicodeScalars.contains($0)
            }
    }

    func count(_ family: WidgetFamily) -> Int { family >= .large ? 5 : 1 }

    func load(family: WidgetFamily, now: Date) async throws -> CommitsEntry {
        if !path.isEmpty { return try await loadLocal(now: now) }
        let name = Fmt.line("\(account)/\(repo)")
        func failed(_ why: String) -> CommitsEntry {
            CommitsEntry(
                date: now, repository: name, branch: Fmt.line(branch), isLocal: false, commits: [], failure: why)
        }
        guard Self.validName(account), Self.validName(repo) else {
            return failed("'\(name)' is not an account/repo name")
        }
        guard Self.validBranch(branch) else { return failed("'\(Fmt.line(branch))' is not a branch name") }
        do {
            let commits = try await loadAPI(family: family)
            guard !commits.isEmpty else { return failed("no commits on \(branch)") }
            return CommitsEntry(date: now, repository: name, branch: branch, isLocal: false, commits: commits)
        } catch let e as DataSourceError where e.reason == .notFound {
            // The seed's behaviour: a missing repository or branch is shown, not retried as stale data.
            return failed(e.message)
        }
    }

    // MARK: GitHub-style API

    struct APICommit: Decodable {
        struct Inner: Decodable {
            struct Person: Decodable {
                var name: String?
                var date: String?
            }
            var author: Person?
            var committer: Person?
            var message: String?
        }
        struct Login: Decodable { var login: String? }
        var sha: String
        var commit: Inner
        var author: Login?
        var html_url: String?

        var info: CommitInfo {
            let who = commit.author?.name ?? author?.login ?? commit.committer?.name ?? "unknown"
            let when = (commit.author?.date ?? commit.committer?.date).flatMap(NewsDates.parse)
            return CommitInfo(
                hash: Fmt.line(sha), message: Fmt.text(commit.message),
                author: Fmt.line(who), date: when, url: html_url.map(NewsHTML.webURL))
        }
    }

    struct APIBranch: Decodable {
        var name: String?
        var commit: APICommit
    }

    var headers: [String: String] {
        var h = [
            "Accept": "application/vnd.github+json", "User-Agent": "swiftdash", "X-GitHub-Api-Version": "2022-11-28",
        ]
        if !token.isEmpty { h["Authorization"] = "Bearer \(token)" }
        return h
    }

    func loadAPI(family: WidgetFamily) async throws -> [CommitInfo] {
        let secrets = token.isEmpty ? [] : [token]
        let hint = "repository or branch not found"
        if count(family) > 1 {
            let url = try URL.api(
                endpoint, ["repos", account, repo, "commits"],
                query: [("sha", branch), ("per_page", String(count(family)))])
            return try await http.getJSON(
                [APICommit].self, from: url, headers: headers, notFoundHint: hint,
                secrets: secrets
            ).prefix(Fmt.maxItems).map(\.info)
        }
        let url = try URL.api(endpoint, ["repos", account, repo, "branches", branch])
        let b = try await http.getJSON(
            APIBranch.self, from: url, headers: headers, notFoundHint: hint, secrets: secrets)
        return [b.commit.info]
    }

    // MARK: local git

    /// Local history is cheap: always the last five commits, whatever the family.
    func loadLocal(now: Date) async throws -> CommitsEntry {
        let expanded = (path as NSString).expandingTildeInPath
        let name = Fmt.line(URL(fileURLWithPath: expanded).lastPathComponent)
        let shownBranch = Fmt.line(branch)
        func failed(_ why: String) -> CommitsEntry {
            CommitsEntry(date: now, repository: name, branch: shownBranch, isLocal: true, commits: [], failure: why)
        }
        guard Self.validBranch(branch) else { return failed("'\(shownBranch)' is not a branch name") }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: expanded, isDirectory: &isDir), isDir.boolValue else {
            return failed("no such folder: \(Fmt.line(path))")
        }
        let rev = branch == "HEAD" ? "HEAD" : "refs/heads/\(branch)"
        let args = [
            "git", "-c", "core.quotepath=off", "-c", "log.showSignature=false", "-C", expanded,
            "log", "-n", "5", "--no-color", "--no-renames", "--name-status",
            "--format=%x1e%H%x1f%an%x1f%aI%x1f%B%x1d", "--end-of-options", rev, "--",
        ]
        let result = try await GitRunner.run(args, timeout: gitTimeout)
        if result.status != 0 {
            let err = TextSanitizer.singleLine(result.stderr)
            if result.status == 127 { return failed("git is not installed") }
            if err.contains("not a git repository") { return failed("not a git repository: \(Fmt.line(path))") }
            if err.contains("unknown revision") || err.contains("bad revision") || err.contains("ambiguous argument") {
                return failed("branch '\(shownBranch)' not found in \(name)")
            }
            if err.contains("does not have any commits") { return failed("\(name) has no commits yet") }
            return failed("git failed: \(String(err.prefix(120)))")
        }
        let commits = Self.parseLog(result.stdout)
        guard !commits.isEmpty else { return failed("no commits on \(shownBranch)") }
        var branchName = shownBranch
        if branch == "HEAD" {
            let head = try? await GitRunner.run(
                ["git", "-C", expanded, "symbolic-ref", "--short", "-q", "HEAD"], timeout: gitTimeout)
            let b = Fmt.line(head?.stdout)
            if !b.isEmpty { branchName = b }
        }
        return CommitsEntry(date: now, repository: name, branch: branchName, isLocal: true, commits: commits)
    }

    /// Parses records of `%x1e hash %x1f author %x1f date %x1f body %x1d` followed by name-status lines.
    static func parseLog(_ out: String, maxFiles: Int = 40) -> [CommitInfo] {
        out.split(separator: "\u{1e}").compactMap { record -> CommitInfo? in
            let parts = record.split(separator: "\u{1d}", maxSplits: 1, omittingEmptySubsequences: false)
            let fields = parts[0].split(separator: "\u{1f}", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4 else { return nil }
            var files: [String] = []
            var more = 0
            if parts.count > 1 {
                for line in parts[1].split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    let cols = line.split(separator: "\t")
                    guard cols.count >= 2 else { continue }
                    if files.count < maxFiles {
                        files.append(Fmt.line("\(cols[0].prefix(1)) \(cols[cols.count - 1])"))
                    } else {
                        more += 1
                    }
                }
            }
            let message = Fmt.text(String(fields[3]))
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return CommitInfo(
                hash: Fmt.line(String(fields[0])), message: message, author: Fmt.line(String(fields[1])),
                date: NewsDates.parse(String(fields[2])), files: files, moreFiles: more)
        }
    }
}

/// Runs git with an argument array (never a shell), with a timeout.
enum GitRunner {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ args: [String], timeout: TimeInterval) async throws -> Result {
        try await withCheckedThrowingContinuation { (cont: CheckedContinuation<Result, Error>) in
            DispatchQueue.global().async {
                do { cont.resume(returning: try runBlocking(args, timeout: timeout)) } catch {
                    cont.resume(throwing: error)
                }
            }
        }
    }

    final class Box: @unchecked Sendable {
        var data = Data()
        var timedOut = false
    }

    static func runBlocking(_ args: [String], timeout: TimeInterval) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["GIT_PAGER"] = "cat"
        env["LC_ALL"] = "C"
        env["GIT_OPTIONAL_LOCKS"] = "0"
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch {
            return Result(status: 127, stdout: "", stderr: "cannot start git")
        }
        let errBox = Box(), outBox = Box(), flag = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errBox.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let timer = DispatchWorkItem { [p] in
            if p.isRunning {
                flag.timedOut = true
                p.terminate()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        outBox.data = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        timer.cancel()
        if flag.timedOut {
            throw DataSourceError(.timeout, "git took longer than \(HTTPClient.seconds(timeout)) (timeout)")
        }
        return Result(
            status: p.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
            stderr: String(decoding: errBox.data, as: UTF8.self))
    }
}

enum CommitsSamples {
    static func entry(now: Date) -> CommitsEntry {
        let c = [
            CommitInfo(
                hash: "3f9c2a1b7d4e5f60718293a4b5c6d7e8f9012345", message: "Fixed stuff\n\nA sample commit.",
                author: "John Appleseed", date: now.addingTimeInterval(-600), files: ["M README.md"]),
            CommitInfo(
                hash: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", message: "Add the widget gallery",
                author: "Jane Doe", date: now.addingTimeInterval(-5400)),
            CommitInfo(
                hash: "b2c3d4e5f60718293a4b5c6d7e8f901234567890", message: "Speed up the layout pass",
                author: "John Appleseed", date: now.addingTimeInterval(-9000)),
            CommitInfo(
                hash: "c3d4e5f60718293a4b5c6d7e8f90123456789012", message: "Document the timeline policies",
                author: "Jane Doe", date: now.addingTimeInterval(-30000)),
            CommitInfo(
                hash: "d4e5f60718293a4b5c6d7e8f9012345678901234", message: "Initial commit",
                author: "John Appleseed", date: now.addingTimeInterval(-90000)),
        ]
        return CommitsEntry(date: now, repository: "apple/swift", branch: "main", isLocal: false, commits: c)
    }
}
