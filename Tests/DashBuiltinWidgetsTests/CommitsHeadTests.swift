import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// Issue 23 point 8: with no branch set the commits widget follows the repository's HEAD, so a
/// `master` repository works as a `main` one (it failed with "branch 'main' not found").
@Suite("commits widget follows HEAD")
struct CommitsHeadTests {
    let widget = CommitsWidget.make(http: testHTTP, gitTimeout: 5)

    @Test func aLocalMasterRepositoryWithNoBranchSet() async throws {
        let repo = try TempRepo(commits: Array(CommitsWidgetTests.history.prefix(2)))
        try repo.git(["branch", "-m", "master"], date: testNow)
        let timeline = try await widget.timeline(for: WidgetConfig(["path": .string(repo.path)]), in: context(.medium))
        let entry = try #require(timeline.entries.first?.base as? CommitsEntry)
        #expect(entry.failure == nil)
        #expect(entry.branch == "master")
        #expect(entry.commits.count == 2)
        // A branch that is set is still followed, and still said when missing.
        let main = try await widget.timeline(
            for: WidgetConfig(["path": .string(repo.path), "branch": .string("main")]), in: context(.medium))
        #expect((main.entries.first?.base as? CommitsEntry)?.failure?.contains("branch 'main' not found") == true)
    }

    @Test func theAPIWithNoBranchSetAsksForTheDefaultBranch() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.handle("/repos/apple/swift/commits") { req in
            req.query["sha"] == nil
                ? fixtureResponse("github_commits.json") : fixtureResponse("github_404.json", status: 404)
        }
        let cfg = WidgetConfig(["endpoint": .string(server.baseURL)])
        for family in [WidgetFamily.small, .large] {
            let (tile, _) = try await liveTile(widget, cfg, family)
            #expect(tile.text.contains("Fix a crash"), "\(family)")
        }
        #expect(Set(server.requests.map(\.path)) == ["/repos/apple/swift/commits"])
        #expect(widget.schema.validate(cfg).isEmpty)
    }
}
