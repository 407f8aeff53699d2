import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

@Suite struct GitHubWidgetTests {
    let widget = GitHubWidget.make(http: testHTTP)
    static let token = "ghp_testtoken0123456789"

    /// A GitHub API from fixtures: answers only with the right token, honours If-None-Match.
    func server(limited: Bool = false) throws -> LocalHTTPServer {
        let s = try LocalHTTPServer()
        @Sendable func authed(_ name: String, etag: String? = nil)
            -> @Sendable (LocalHTTPServer.Request) -> LocalHTTPServer.Response
        {
            { req in
                guard req.headers["authorization"] == "Bearer \(Self.token)" else {
                    return fixtureResponse("github/bad_credentials_401.json", status: 401)
                }
                if limited {
                    return fixtureResponse(
                        "github/rate_limited_403.json", status: 403,
                        headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1795426200"])
                }
                if let etag, req.headers["if-none-match"] == etag {
                    return LocalHTTPServer.Response(status: 304, headers: ["ETag": etag])
                }
                return fixtureResponse(name, headers: etag.map { ["ETag": $0] } ?? [:])
            }
        }
        s.handle("/search/issues") { req in
            let q = req.query["q"] ?? ""
            return authed(
                q.contains("review-requested:@me") ? "github/search_review_requested.json" : "github/search_mine.json",
                etag: q.contains("review") ? "\"r1\"" : "\"m1\"")(req)
        }
        s.handle("/notifications", authed("github/notifications.json", etag: "\"n1\""))
        s.handle("/repos/me/swiftdash/pulls/12", authed("github/pull_12.json"))
        s.handle("/repos/me/swiftdash/pulls/11", authed("github/pull_11.json"))
        s.handle("/repos/me/dotfiles/pulls/3", authed("github/pull_3.json"))
        s.handle(
            "/repos/me/swiftdash/commits/6dcb09b5b57875f334f61aebed695e2e4193db5e/check-runs",
            authed("github/check_runs_failing.json"))
        s.handle(
            "/repos/me/swiftdash/commits/9a2f01bbd1c4e5f60718293a4b5c6d7e8f901234/check-runs",
            authed("github/check_runs_pending.json"))
        s.handle(
            "/repos/me/dotfiles/commits/1111111111111111111111111111111111111111/check-runs",
            authed("github/check_runs_passing.json"))
        return s
    }

    func config(_ s: LocalHTTPServer, _ extra: [String: ConfigValue] = [:]) -> WidgetConfig {
        var c = WidgetConfig(["endpoint": .string(s.baseURL)])
        for (k, v) in extra { c[k] = v }
        return c
    }

    let env = [GitHubWidget.tokenVariable: GitHubWidgetTests.token]

    @Test func parsersOnRealShapedAnswers() throws {
        let r = try GitHubParse.pulls(fixture("github/search_review_requested.json"))
        #expect(r.total == 2)
        #expect(r.pulls.map(\.reference) == ["octo-org/engine#1347", "octo-org/docs#88"])
        #expect(r.pulls[1].draft)
        // Bidi overrides, a bell and an escape sequence never reach the screen.
        #expect(isClean(r.pulls[1].title))
        #expect(!r.pulls[1].title.unicodeScalars.contains { $0.value == 0x202E })
        let notes = try GitHubParse.notes(fixture("github/notifications.json"))
        #expect(notes.map(\.id) == ["1", "2"], "read ones are left out")
        #expect(notes[0].reason == "mention")
        #expect(try GitHubParse.checks(fixture("github/check_runs_failing.json")) == .failing)
        #expect(try GitHubParse.checks(fixture("github/check_runs_pending.json")) == .pending)
        #expect(try GitHubParse.checks(fixture("github/check_runs_passing.json")) == .passing)
        #expect(try GitHubParse.checks(Data("{\"total_count\":0,\"check_runs\":[]}".utf8)) == .none)
        #expect(try GitHubParse.headSHA(fixture("github/pull_12.json")) == "6dcb09b5b57875f334f61aebed695e2e4193db5e")
        #expect(throws: GitHubParse.ShapeError.self) {
            try GitHubParse.notes(fixture("github/notifications_wrong_shape.json"))
        }
        #expect(throws: GitHubParse.ShapeError.self) {
            try GitHubParse.pulls(fixture("github/search_wrong_types.json"))
        }
        #expect(throws: GitHubParse.ShapeError.self) { try GitHubParse.pulls(Data("not json".utf8)) }
    }

    @Test func liveTilesInEveryFamily() async throws {
        let s = try server()
        defer { s.stop() }
        for family in [WidgetFamily.small, .medium, .large] {
            let (tile, timeline) = try await liveTile(widget, config(s), family, environment: env)
            assertSnapshot(portless(tile.text, s), named: "github-\(family.rawValue)")
            #expect(isClean(tile.text))
            #expect(timeline.policy == .after(testNow.addingTimeInterval(5 * 60)))
        }
        let timeline = try await widget.timeline(for: config(s), in: context(.large, environment: env))
        let entry = try #require(timeline.entries.first?.base as? GitHubEntry)
        #expect(entry.mine.map(\.checks) == [.failing, .pending, .passing])
        #expect(entry.relevance?.score == 0.9)
        #expect(!s.requests.contains { $0.path.contains("/pulls/") && $0.headers["authorization"] == nil })
        let detail = render(
            widget.detail(
                for: try #require(DeepLink("swiftdash://github/all")), entry: timeline.entries.first,
                in: context(.large)), width: 70, height: 30)
        assertSnapshot(detail.text, named: "github-detail")
        let pr = render(
            widget.detail(
                for: try #require(DeepLink("swiftdash://github/mine/me/swiftdash/12")),
                entry: timeline.entries.first, in: context(.large)), width: 70, height: 12)
        #expect(pr.text.contains("failing"))
        #expect(pr.links.contains("https://github.com/me/swiftdash/pull/12"))
    }

    @Test func conditionalRequestsOnReload() async throws {
        let s = try server()
        defer { s.stop() }
        _ = try await widget.timeline(for: config(s), in: context(.large, environment: env))
        let before = s.requests.count
        let t = try await widget.timeline(for: config(s), in: context(.large, environment: env))
        let again = s.requests.dropFirst(before)
        #expect(again.filter { $0.path == "/notifications" }.allSatisfy { $0.headers["if-none-match"] == "\"n1\"" })
        #expect(again.filter { $0.path == "/search/issues" }.allSatisfy { $0.headers["if-none-match"] != nil })
        let entry = try #require(t.entries.first?.base as? GitHubEntry)
        #expect(entry.notes.count == 2, "a 304 shows the remembered answer")
    }

    @Test func tokenMissingWrongOrRateLimited() async throws {
        let s = try server()
        defer { s.stop() }
        let (none, t0) = try await liveTile(widget, config(s), .medium)
        #expect(none.text.contains("needs a token"))
        #expect(t0.policy == .after(testNow.addingTimeInterval(5 * 60)))
        let (wrong, t1) = try await liveTile(
            widget, config(s), .large, environment: [GitHubWidget.tokenVariable: "ghp_wrongtoken999"])
        assertSnapshot(portless(wrong.text, s), named: "github-401")
        #expect(wrong.text.contains("HTTP 401"))
        #expect(!wrong.text.contains("ghp_wrongtoken999"))
        #expect(t1.policy == .after(testNow.addingTimeInterval(30 * 60)))
        let limited = try server(limited: true)
        defer { limited.stop() }
        let (lim, t2) = try await liveTile(widget, config(limited), .large, environment: env)
        assertSnapshot(portless(lim.text, limited), named: "github-rate-limited")
        #expect(lim.text.contains("until 09:30"))
        #expect(t2.policy == .after(Date(timeIntervalSince1970: 1_795_426_200)), "X-RateLimit-Reset")
    }

    @Test func enterpriseEndpointAndPlainHTTPRefusal() async throws {
        let s = try server()
        defer { s.stop() }
        // A base path (GitHub Enterprise's /api/v3) is kept.
        let (ghe, _) = try await liveTile(
            widget, config(s, ["endpoint": .string(s.baseURL + "/api/v3")]), .small, environment: env)
        #expect(s.requests.last?.path.hasPrefix("/api/v3/") == true)
        #expect(ghe.text.contains("GitHub"))
        let e = await expectDataSourceError {
            _ = try await widget.timeline(
                for: config(s, ["endpoint": .string("http://ghe.example.com/api/v3")]),
                in: context(.small, environment: env))
        }
        #expect(e?.reason == .insecure)
    }
}
