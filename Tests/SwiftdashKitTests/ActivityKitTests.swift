import ActivityKit
import Foundation
import SwiftUI
import WidgetKit
import XCTest

@testable import SwiftdashKit

/// ActivityKit as an app writes it (issue 39.4): a request, an update with an alert and an end go to
/// the activities file the home screen shows; `ActivityConfiguration`'s presentations draw as text.
final class ActivityKitTests: XCTestCase {
    var dir: URL!

    override func setUp() {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kit-act-\(UUID().uuidString)")
        setenv("SWIFTDASH_ACTIVITIES", dir.path, 1)
    }

    override func tearDown() {
        unsetenv("SWIFTDASH_ACTIVITIES")
        try? FileManager.default.removeItem(at: dir)
    }

    func stored(_ name: String = "activities.json") throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent(name))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testRequestUpdateEndReachTheActivitiesFile() async throws {
        let activity = try Activity<ParcelAttributes>.request(
            attributes: ParcelAttributes(parcel: "Books"),
            content: ActivityContent(state: .init(stopsLeft: 3), staleDate: nil, relevanceScore: 2))
        XCTAssertEqual(Activity<ParcelAttributes>.kind, "parcel-attributes")
        var shown = Activity<ParcelAttributes>.activities
        XCTAssertEqual(shown.map(\.id), [activity.id])
        XCTAssertEqual(shown.first?.attributes.parcel, "Books")
        XCTAssertEqual(shown.first?.content.state.stopsLeft, 3)
        XCTAssertEqual(shown.first?.activityState, .active)
        await activity.update(
            ActivityContent(state: .init(stopsLeft: 1), staleDate: nil, relevanceScore: 2),
            alertConfiguration: AlertConfiguration(title: "Nearly there", body: "1 stop left", sound: .default))
        let file = try stored()
        let first = try XCTUnwrap((file["activities"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["kind"] as? String, "parcel-attributes")
        XCTAssertEqual((first["alert"] as? [String: Any])?["title"] as? String, "Nearly there")
        XCTAssertEqual(((first["content"] as? [String: Any])?["state"] as? [String: Any])?["stopsLeft"] as? Int, 1)
        await activity.end(ActivityContent(state: .init(stopsLeft: 0), staleDate: nil), dismissalPolicy: .immediate)
        XCTAssertEqual(activity.activityState, .dismissed)
        shown = Activity<ParcelAttributes>.activities
        XCTAssertEqual(shown.count, 0, "dismissed at once")
        XCTAssertEqual((try stored("activity-history.json")["history"] as? [[String: Any]])?.count, 1)
    }

    func testTheSixthActiveRequestIsRefused() throws {
        for i in 0..<5 {
            _ = try Activity<ParcelAttributes>.request(
                attributes: ParcelAttributes(parcel: "p\(i)"), content: ActivityContent(state: .init(stopsLeft: i), staleDate: nil))
        }
        XCTAssertThrowsError(
            try Activity<ParcelAttributes>.request(
                attributes: ParcelAttributes(parcel: "p6"), content: ActivityContent(state: .init(stopsLeft: 6), staleDate: nil))
        ) { XCTAssertEqual($0 as? ActivityAuthorizationError, .targetMaximumExceeded) }
    }

    func testTheConfigurationsPresentationsDrawAsText() throws {
        let configuration = try XCTUnwrap(ParcelLiveActivity().body as? ActivityConfiguration<ParcelAttributes>)
        let text = configuration.text(
            attributes: ParcelAttributes(parcel: "Books"), content: ActivityContent(state: .init(stopsLeft: 3), staleDate: nil))
        XCTAssertTrue(text.lockScreen.contains("Books: 3 stops"), text.lockScreen)
        XCTAssertEqual(text.compactTrailing, "3")
        XCTAssertEqual(text.minimal, "3")
        XCTAssertEqual(text.expanded["leading"], "Parcel")
        XCTAssertEqual(text.expanded["trailing"], "3")
        XCTAssertEqual(text.expanded["bottom"], "Books")
        XCTAssertNil(text.expanded["center"])
        XCTAssertEqual(configuration._widgets.count, 0, "it adds no tile")
    }

    func testATimerRegionIsReportedToCountLiveAndDatesReadAsText() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let ready = now.addingTimeInterval(240)
        let tea = ActivityConfiguration(for: TeaAttributes.self) { context in
            Text("\(context.attributes.name) ready in")
            Text(timerInterval: now...context.state.ready, countsDown: true)
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.bottom) { Text(timerInterval: now...context.state.ready) }
            } compactLeading: {
                Text(context.attributes.name)
            } compactTrailing: {
                Text(timerInterval: now...context.state.ready, countsDown: true).monospacedDigit()
            } minimal: {
                Image(systemName: "cup.and.saucer")
            }
        }
        let t = tea.text(
            attributes: TeaAttributes(name: "Tea"), content: ActivityContent(state: .init(ready: ready), staleDate: nil),
            now: now)
        XCTAssertEqual(t.compactTrailing, "4:00")
        XCTAssertEqual(t.timers["compactTrailing"], ActivityPresentationText.LiveTimer(date: ready, countsDown: true))
        XCTAssertEqual(t.timers["bottom"]?.date, ready)
        XCTAssertNil(t.timers["compactLeading"], "a region of text is not a timer")
        XCTAssertEqual(t.lockScreen, "Tea ready in\n4:00", "the views one under the other; a timer as of the drawing")
    }

    /// Push tokens as an app uses them (issue 39.1, "started by the app or by a push"): requested
    /// with `pushType: .token`, the token an app sends its server is, in hex, the activity's id, so
    /// the server's push is `swiftdash activity update TOKEN`.
    func testATokenActivitysPushTokenInHexIsItsID() async throws {
        let activity = try Activity<ParcelAttributes>.request(
            attributes: ParcelAttributes(parcel: "Lamp"), content: ActivityContent(state: .init(stopsLeft: 4), staleDate: nil),
            pushType: .token)
        var seen: [String] = []
        // As apps send it to their server.
        for await token in activity.pushTokenUpdates { seen.append(token.map { String(format: "%02x", $0) }.joined()) }
        XCTAssertEqual(seen, [activity.id], "one token, the id in hex")
        XCTAssertEqual(activity.pushToken.map { $0.count }, 4)
        let plain = try Activity<ParcelAttributes>.request(
            attributes: ParcelAttributes(parcel: "Desk"), content: ActivityContent(state: .init(stopsLeft: 1), staleDate: nil))
        XCTAssertNil(plain.pushToken, "no push type, no token, as on iOS")
        var none = 0
        for await _ in plain.pushTokenUpdates { none += 1 }
        XCTAssertEqual(none, 0)
        XCTAssertEqual(Activity<ParcelAttributes>.tokenBytes("0a1B2c3d"), Data([0x0a, 0x1b, 0x2c, 0x3d]))
    }
}

struct TeaAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var ready: Date
    }
    var name: String
}
