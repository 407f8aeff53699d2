import DashWidgets
import Foundation
import XCTest

@testable import SwiftdashKit

/// The extension protocol's Live Activity half (decision 68): `describe` lists the kinds a bundle
/// declares, and `activity` draws a record as `Activity.request` wrote it, or says why not.
final class ActivityProtocolTests: XCTestCase {
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
