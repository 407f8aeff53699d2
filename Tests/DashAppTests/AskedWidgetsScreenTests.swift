import Foundation
import XCTest
import DashApp
import DashHome
import DashCore
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// Answers from the fixtures of DashBuiltinWidgetsTests, by path, with no socket (the HTTP
/// path itself is tested there, against a server on 127.0.0.1).
struct FixtureTransport: HTTPTransport {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../DashBuiltinWidgetsTests/Fixtures").standardized

    func send(_ request: HTTPRequestSpec, options: HTTPOptions) async throws -> HTTPResponseData {
        let comps = URLComponents(string: request.url)
        let path = comps?.path ?? ""
        let query = comps?.queryItems?.first { $0.name == "q" }?.value ?? ""
        let name: String
        switch path {
        case "/search/issues":
            name =
                query.contains("review-requested") ? "github/search_review_requested.json" : "github/search_mine.json"
        case "/notifications": name = "github/notifications.json"
        case "/repos/me/swiftdash/pulls/12": name = "github/pull_12.json"
        case "/repos/me/swiftdash/pulls/11": name = "github/pull_11.json"
        case "/repos/me/dotfiles/pulls/3": name = "github/pull_3.json"
        case let p where p.hasSuffix("/check-runs"):
            name = p.contains("6dcb09b5") ? "github/check_runs_failing.json" : "github/check_runs_passing.json"
        case "/status": name = "api/service_status.json"
        default: return HTTPResponseData(status: 404, body: Data("{\"message\":\"Not Found\"}".utf8))
        }
        let body = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        return HTTPResponseData(status: 200, headers: ["Content-Type": "application/json"], body: body)
    }
}

/// The whole home screen with the api, chart and github widgets of issue 27, as a person sees it.
final class AskedWidgetsScreenTests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_795_424_400)  // 2026-11-23T09:00:00Z

    func testTheThreeWidgetsOnOneScreen() async throws {
        let widgets = BuiltinWidgets.make(transport: FixtureTransport()).widgets
        let home = HomeConfig(tiles: [
            TileInstance(
                id: "t1", family: .large,
                items: [
                    WidgetInstance(
                        id: "w1", kind: "github", config: WidgetConfig(["endpoint": .string("https://api.github.com")]))
                ]),
            TileInstance(
                id: "t2", family: .medium,
                items: [
                    WidgetInstance(
                        id: "w2", kind: "api",
                        config: WidgetConfig([
                            "url": .string("https://status.example.com/status"), "title": .string("Checkout"),
                            "fields": .list([
                                "Requests = metrics.requests_total | number",
                                "Errors = metrics.error_ratio | ratio:1 | warn>2 | alert>5",
                                "p95 = metrics.p95_ms | number:1",
                            ]),
                        ]))
                ]),
            TileInstance(
                id: "t3", family: .medium,
                items: [
                    WidgetInstance(
                        id: "w3", kind: "chart",
                        config: WidgetConfig([
                            "title": .string("Queue"), "command": .string("echo 7"), "min": .string("0"),
                            "max": .string("10"), "thresholds": .list(["warn>5"]), "style": .string("bars"),
                        ]))
                ]),
        ])
        let h = AppHarness(
            widgets: widgets, home: home, size: Size(width: 80, height: 24), now: at,
            environment: [GitHubWidget.tokenVariable: "ghp_screen_test_token"])
        await h.runLoads()
        XCTAssertFalse(h.screen.contains("ghp_screen_test_token"))
        assertSnapshot(h.screen, named: "asked-widgets-80x24")
    }
}
