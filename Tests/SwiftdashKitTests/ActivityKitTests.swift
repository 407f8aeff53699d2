import ActivityKit
import DashWidgets
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

    func stored() throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent("activities.json"))
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
        XCTAssertEqual((try stored()["history"] as? [[String: Any]])?.count, 1)
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

    // MARK: The extension protocol (decision 68)

    /// A server for a bundle of one widget and the parcel's Live Activity.
    var server: ExtensionServer {
        ExtensionServer(widgets: [], activities: ParcelLiveActivity().body._activities)
    }

    func ask(_ method: String, _ params: [String: JSONValue]) throws -> JSONValue {
        let line = try JSONEncoder().encode(
            JSONValue.object(["id": .number(7), "method": .string(method), "params": .object(params)]))
        return try JSONValue.parse(Data(server.answer(line: String(decoding: line, as: UTF8.self)).utf8))
    }

    func testDescribeListsTheActivityKindsTheBundleDeclares() throws {
        let described = try ask("describe", [:])
        XCTAssertEqual(described["result"]?["activities"], .array([.object(["kind": .string("parcel-attributes")])]))
        XCTAssertEqual(Activity<ParcelAttributes>.kind, "parcel-attributes")
    }

    func testTheActivityRequestDrawsTheRecordActivityRequestWrote() throws {
        // The JSON the activities file holds, written by the same path `Activity.request` takes.
        let attributes = try ActivityCoding.json(ParcelAttributes(parcel: "Books"))
        let state = try ActivityCoding.json(ParcelAttributes.ContentState(stopsLeft: 3))
        let answer = try ask(
            "activity",
            ["kind": .string("parcel-attributes"), "id": .string("a1"), "attributes": attributes, "state": state,
             "isStale": .bool(false)])
        let r = try XCTUnwrap(answer["result"], "\(answer)")
        XCTAssertEqual(r["compactTrailing"], .string("3"))
        XCTAssertEqual(r["minimal"], .string("3"))
        XCTAssertEqual(r["expanded"]?["leading"], .string("Parcel"))
        XCTAssertEqual(r["expanded"]?["bottom"], .string("Books"))
        XCTAssertTrue(r["lockScreen"]?.string?.contains("Books: 3 stops") == true, "\(r)")
    }

    func testAMalformedRecordIsAnErrorNamingTheField() throws {
        let answer = try ask(
            "activity",
            ["kind": .string("parcel-attributes"), "id": .string("a1"), "attributes": .object(["parcel": .string("B")]),
             "state": .object(["stopsLeft": .string("three")])])
        XCTAssertNil(answer["result"])
        let error = try XCTUnwrap(answer["error"]?.string)
        XCTAssertTrue(error.contains("the state is not a ParcelAttributes.ContentState") && error.contains("stopsLeft"), error)

        let missing = try ask("activity", ["kind": .string("parcel-attributes"), "attributes": .object([:]), "state": .object([:])])
        XCTAssertTrue(missing["error"]?.string?.contains("no `parcel`") == true, "\(missing)")
        let unknown = try ask("activity", ["kind": .string("pizza-attributes")])
        XCTAssertTrue(unknown["error"]?.string?.contains("no Live Activity `pizza-attributes` here") == true, "\(unknown)")
    }
}
