import ActivityKit
import Foundation
import XCTest

@testable import SwiftdashKit

/// Push tokens as an app uses them (issue 39.1, "started by the app or by a push"): requested with
/// `pushType: .token`, the token an app sends its server is, in hex, the activity's id, so the
/// server's push is `swiftdash activity update TOKEN`.
final class ActivityPushTokenTests: XCTestCase {
    var dir: URL!

    override func setUp() {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kit-push-\(UUID().uuidString)")
        setenv("SWIFTDASH_ACTIVITIES", dir.path, 1)
    }

    override func tearDown() {
        unsetenv("SWIFTDASH_ACTIVITIES")
        try? FileManager.default.removeItem(at: dir)
    }

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
