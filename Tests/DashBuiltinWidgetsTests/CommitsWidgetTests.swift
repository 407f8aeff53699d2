import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// A throwaway git repository with commits at fixed dates (so hashes are stable).
final class TempRepo {
    let url: URL
    let parent: URL
    var path: String { url.path }

    init(commits: [(message: String, author: String, file: String, minutesAgo: Int)]) throws {
        // A fixed folder name inside a unique parent, so snapshots show the same name.
        parent = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-git-\(UUID().uuidString)")
        url = parent.appendingPathComponent("abacus")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try git(["init", "-q"], date: testNow)
        for c in commits {
            let file = url.appendingPathComponent(c.file)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let old = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            try (old + c.message + "\n").write(to: file, atomically: true, encoding: .utf8)
            try git(["add", "-A"], date: testNow)
            let date = testNow.addingTimeInterval(-Double(c.minutesAgo) * 60)
            try git(
                [
                    "-c", "user.name=\(c.author)", "-c",
                    "user.email=\(c.author.lowercased().replacingOccurrences(of: " ", with: "."))@example.com",
                    "commit", "-q", "-m", c.message,
                ], date: date)
        }
    }

    deinit { try? FileManager.default.removeItem(at: parent) }

    @discardableResult
    func git(_ args: [String], date: Date) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments =
            [
                "git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", "-c", "user.name=Test",
                "-c", "user.email=test@example.com", "-C", path,
            ] + args
        var env = ProcessInfo.processInfo.environment
        let stamp = "\(Int(date.timeIntervalSince1970)) +0000"
        env["GIT_AUTHOR_DATE"] = stamp
        env["GIT_COMMITTER_DATE"] = stamp
        env["GIT_CONFIG_GLOBAL"] = "/dev/null"
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TempRepoError(args: args) }
        return String(decoding: data, as: UTF8.self)
    }

    struct TempRepoError: Error { var args: [String] }
}

@Suite("commits widget")
struct CommitsWidgetTests {
    let widget = CommitsWidget.make(http: testHTTP, gitTimeout: 5)

    func apiServer() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        server.route("/repos/apple/swift/branches/main", fixtureResponse("github_branch.json"))
        server.handle("/repos/apple/swift/commits") { req in
            req.query["sha"] == "main"
                ? fixtureResponse("github_commits.json") : fixtureResponse("github_404.json", status: 404)
        }
        server.route("/repos/apple/swift/branches/nope", fixtureResponse("github_404.json", status: 404))
        server.route(
            "/repos/apple/limited/branches/main",
            fixtureResponse("github_403_rate.json", status: 403, headers: ["X-RateLimit-Remaining": "0"]))
        return server
    }

    func api(_ server: LocalHTTPServer, _ extra: [String: ConfigValue] = [:]) -> WidgetConfig {
        // A branch set, as these tests ask for `main`; CommitsHeadTests leaves it unset.
        var c = WidgetConfig(["endpoint": .string(server.baseURL), "branch": .string("main")])
        for (k, v) in extra { c[k] = v }
        return c
    }

    static let history: [(message: String, author: String, file: String, minutesAgo: Int)] = [
        ("Initial commit", "Ada Lovelace", "README.md", 3000),
        ("Add the engine", "Charles Babbage", "Sources/Engine.swift", 2000),
        ("Document the engine\n\nExplains the mill and the store.", "Ada Lovelace", "docs/engine.md", 900),
        ("Fix carry in the adder", "Charles Babbage", "Sources/Adder.swift", 300),
        ("Speed up multiplication", "Ada Lovelace", "Sources/Multiply.swift", 120),
        ("Release 1.0\n\nFirst public release.\nCloses #42.", "Ada Lovelace", "CHANGELOG.md", 25),
    ]

    @Test func schemaHasTheIssueKeys() throws {
        #expect(widget.schema.parameters.map(\.key) == ["path", "endpoint", "account", "repo", "branch", "token"])
        let d = widget.schema.defaults
        #expect(d.string("endpoint") == "https://api.github.com")
        #expect(d.string("account") == "apple" && d.string("repo") == "swift" && d.string("branch") == "")
        #expect(try #require(widget.schema.parameter("token")).isSecret)
        #expect(!widget.schema.validate(WidgetConfig(["branch": .string("--output=/tmp/x")])).isEmpty)
    }

    @Test func apiInEveryFamily() async throws {
        let server = try apiServer()
        defer { server.stop() }
        let cfg = api(server, ["token": .string("ghp_secret_token")])
        for family in [WidgetFamily.small, .medium, .large] {
            let (tile, timeline) = try await liveTile(widget, cfg, family)
            assertSnapshot(tile.text, named: "commits-\(family.rawValue)")
            #expect(timeline.policy == .after(testNow.addingTimeInterval(5 * 60)))
            #expect(tile.text.contains("[SILOptimizer]") && tile.text.contains("Fix a crash"))
            #expect(tile.text.contains("25 min ago"))
            if family == .small {
                #expect(tile.widgetURL == "swiftdash://commits/8e1f0c2d9a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d")
            }
        }
        let medium = try await liveTile(widget, cfg, .medium).0
        #expect(medium.text.contains("8e1f0c2") && medium.text.contains("main"))
        #expect(
            medium.links == ["swiftdash://commits/log", "swiftdash://commits/8e1f0c2d9a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d"])
        let large = try await liveTile(widget, cfg, .large).0
        #expect(large.links.count == 6)
        #expect(large.text.contains("Typo fix"))
        #expect(isClean(large.text))

        let paths = Set(server.requests.map(\.path))
        #expect(paths == ["/repos/apple/swift/branches/main", "/repos/apple/swift/commits"])
        #expect(server.requests.allSatisfy { $0.headers["authorization"] == "Bearer ghp_secret_token" })
        #expect(server.requests.allSatisfy { $0.headers["user-agent"] == "swiftdash" })
        #expect(server.requests.first { $0.path.hasSuffix("/commits") }?.query["per_page"] == "5")
    }

    @Test func missingBranchShowsFailedToLoad() async throws {
        let server = try apiServer()
        defer { server.stop() }
        for family in [WidgetFamily.small, .medium] {
            let (tile, timeline) = try await liveTile(widget, api(server, ["branch": .string("nope")]), family)
            // The small tile wraps the host:port, so its text depends on how many digits the
            // ephemeral port has: snapshot only the medium one, check the small one's content.
            if family == .medium {
                assertSnapshot(
                    tile.text.replacingOccurrences(of: ":\(server.port)", with: ":PORT"),
                    named: "commits-missing-branch-\(family.rawValue)")
            } else {
                #expect(tile.text.contains("HTTP 404"))
            }
            #expect(tile.text.contains("Failed to load"))
            #expect(timeline.policy == .after(testNow.addingTimeInterval(5 * 60)))
            let entry = try #require(timeline.entries.first?.base as? CommitsEntry)
            #expect(entry.failure == "HTTP 404 from 127.0.0.1:\(server.port): Branch not found", "GitHub's own words")
        }
        let missingRepo = try await liveTile(widget, api(server, ["repo": .string("nothere")]), .medium).0
        #expect(missingRepo.text.contains("Failed to load"))
        #expect(missingRepo.text.contains("repository or branch not found"))
    }

    @Test func rateLimitIsAnErrorNotAnEntry() async throws {
        let server = try apiServer()
        defer { server.stop() }
        let e = await expectDataSourceError {
            _ = try await widget.timeline(
                for: api(server, ["repo": .string("limited"), "token": .string("tok-abc-123")]),
                in: context(.small))
        }
        #expect(
            e?.message == "rate limited (HTTP 403) by 127.0.0.1:\(server.port): try again later "
                + "(API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get "
                + "a higher rate limit.))")
    }

    /// Issue 38.9: a 403 rate limit says when to try again, from `X-RateLimit-Reset`: by the
    /// server's clock (its `Date`) when it sent one, else as a UTC time.
    @Test func commitsRateLimitSaysWhenToTryAgain() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        // 2026-11-23 09:30:00 UTC, and the limit resets 12 minutes later.
        let reset = "1795426920"
        let limited = ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset]
        server.route(
            "/repos/apple/dated/branches/main",
            fixtureResponse(
                "github_403_rate.json", status: 403,
                headers: limited.merging(["Date": "Mon, 23 Nov 2026 09:30:00 GMT"]) { $1 }))
        server.route(
            "/repos/apple/undated/branches/main",
            fixtureResponse("github_403_rate.json", status: 403, headers: limited))
        for (repo, wait) in [("dated", "try again in 12 min"), ("undated", "try again after 09:42 UTC")] {
            let e = await expectDataSourceError {
                _ = try await widget.timeline(for: api(server, ["repo": .string(repo)]), in: context(.small))
            }
            let said = "rate limited (HTTP 403) by 127.0.0.1:\(server.port): \(wait) ("
            #expect(e?.message.contains(said) == true, "\(e?.message ?? "")")
        }
        #expect(HTTPClient.resetWait("garbage", serverDate: nil) == nil)
    }

    @Test func localRepositoryInEveryFamily() async throws {
        let repo = try TempRepo(commits: Self.history)
        let cfg = WidgetConfig(["path": .string(repo.path)])
        var texts: [WidgetFamily: RenderedTile] = [:]
        for family in [WidgetFamily.small, .medium, .large] {
            let (tile, timeline) = try await liveTile(widget, cfg, family)
            texts[family] = tile
            #expect(timeline.policy == .after(testNow.addingTimeInterval(5 * 60)))
            assertSnapshot(tile.text, named: "commits-local-\(family.rawValue)")
        }
        #expect(texts[.small]!.text.contains("Release 1.0"))
        #expect(texts[.small]!.text.contains("25 min ago"))
        #expect(texts[.large]!.links.count == 6)
        #expect(texts[.large]!.text.contains("Add the engine"))
        #expect(!texts[.large]!.text.contains("Initial commit"))

        // The detail pane: full message, author, date, hash, files changed.
        let timeline = try await widget.timeline(for: cfg, in: context(.large))
        let entry = try #require(timeline.entries.first?.base as? CommitsEntry)
        #expect(entry.isLocal && entry.branch == "main")
        let third = entry.commits[3]
        #expect(third.message == "Document the engine\n\nExplains the mill and the store.")
        #expect(third.files == ["A docs/engine.md"])
        let link = try #require(DeepLink(texts[.large]!.links[4]))
        let detail = render(
            widget.detail(for: link, entry: timeline.entries[0], in: context(.large)), width: 60, height: 16)
        #expect(detail.text.contains("Explains the mill and the store."))
        #expect(detail.text.contains("A docs/engine.md"))
        #expect(detail.text.contains(third.hash))
        #expect(detail.text.contains("Ada Lovelace"))
        let first = render(
            widget.detail(
                for: DeepLink(texts[.small]!.widgetURL!)!, entry: timeline.entries[0],
                in: context(.large)), width: 60, height: 16)
        assertSnapshot(first.text, named: "commits-detail")
        #expect(first.text.contains("Closes #42."))

        // The header opens the log: every commit loaded, with its file count.
        let log = render(
            widget.detail(for: DeepLink(texts[.large]!.links[0])!, entry: timeline.entries[0], in: context(.large)),
            width: 60, height: 16)
        assertSnapshot(log.text, named: "commits-log-pane")
        #expect(log.links.count == 5)
        #expect(log.text.contains("Ada Lovelace 1 file "))
    }

    @Test func localFailuresAreShownNotThrown() async throws {
        let repo = try TempRepo(commits: Array(Self.history.prefix(2)))
        let branch = try await liveTile(
            widget, WidgetConfig(["path": .string(repo.path), "branch": .string("develop")]), .medium
        ).0
        #expect(branch.text.contains("Failed to load"))
        #expect(branch.text.contains("branch 'develop' not found"))

        let head = try await widget.timeline(
            for: WidgetConfig(["path": .string(repo.path), "branch": .string("HEAD")]),
            in: context(.medium))
        #expect((head.entries[0].base as? CommitsEntry)?.branch == "main")

        let notRepo = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftdash-plain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: notRepo, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: notRepo) }
        let plain = try await liveTile(widget, WidgetConfig(["path": .string(notRepo.path)]), .small).0
        #expect(plain.text.contains("Failed to load"))
        let plainEntry = try await widget.timeline(
            for: WidgetConfig(["path": .string(notRepo.path)]), in: context(.small))
        #expect((plainEntry.entries[0].base as? CommitsEntry)?.failure?.hasPrefix("not a git repository") == true)

        let gone = try await widget.timeline(
            for: WidgetConfig(["path": .string("/nonexistent/repo")]), in: context(.small))
        #expect((gone.entries[0].base as? CommitsEntry)?.failure == "no such folder: /nonexistent/repo")

        // An option smuggled in as a branch never reaches git.
        let evil = try await widget.timeline(
            for: WidgetConfig(["path": .string(repo.path), "branch": .string("--output=/tmp/pwned")]),
            in: context(.small))
        #expect((evil.entries[0].base as? CommitsEntry)?.failure?.contains("is not a branch name") == true)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/pwned"))
    }

    @Test func snapshotPlaceholderAndCache() async throws {
        let snap = await widget.snapshot(
            for: WidgetConfig(["account": .string("swiftlang"), "repo": .string("swift")]),
            in: context(.medium, preview: true))
        #expect(render(widget, snap, .medium).text.contains("swiftlang/swift"))
        #expect(render(widget, widget.placeholder(in: context(.large)), .large).text.contains("▆"))
        let back = try widget.decodeEntries(widget.encodeEntries([snap]))
        #expect(back[0].summary == snap.summary)
        #expect(snap.summary.contains("Fixed stuff"))
    }

    @Test func parseLogHandlesOddMessages() {
        let out =
            "\u{1e}abc123\u{1f}Eve\u{1f}2026-11-23T08:00:00+00:00\u{1f}Subject \u{1b}[31mred\n\nBody\u{1d}\n\nM\tSources/a.swift\nR100\told.swift\tnew.swift\n"
        let commits = CommitsSource.parseLog(out)
        #expect(commits.count == 1)
        #expect(commits[0].subject == "Subject red")
        #expect(commits[0].files == ["M Sources/a.swift", "R new.swift"])
        #expect(commits[0].date == testNow.addingTimeInterval(-3600))
    }

    @Test func anEmptyCommitMessageShowsNoMessageNotABlankRow() {
        #expect(CommitInfo(hash: "a", message: "", author: "x", date: nil).subject == "(no message)")
        #expect(CommitInfo(hash: "a", message: "  \n\t\n", author: "x", date: nil).subject == "(no message)")
        let late = CommitInfo(hash: "a", message: "\n\nLate subject\nbody", author: "x", date: nil)
        #expect(late.subject == "Late subject")
        #expect(CommitsViews.body(late) == "body")
        #expect(CommitsViews.body(CommitInfo(hash: "a", message: "\nOnly subject", author: "x", date: nil)) == "")
        let commits = [
            CommitInfo(
                hash: "3f9c2a1b7d4e5f60718293a4b5c6d7e8f9012345", message: "", author: "Ada Lovelace",
                date: testNow.addingTimeInterval(-600)),
            CommitInfo(
                hash: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", message: "Add the engine",
                author: "Charles Babbage", date: testNow.addingTimeInterval(-3600)),
        ]
        let entry = CommitsEntry(
            date: testNow, repository: "apple/swift", branch: "main", isLocal: false,
            commits: commits)
        for family in [WidgetFamily.small, .medium, .large] {
            let text = render(widget, AnyEntry(entry), family).text
            #expect(text.contains("(no message)"), "\(family):\n\(text)")
        }
        #expect(entry.summary.contains("(no message)"))
    }
}
