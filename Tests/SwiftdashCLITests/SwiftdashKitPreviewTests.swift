import XCTest
import Foundation
import DashTestSupport

/// `swiftdash preview` on widgets written with SwiftdashKit (Tests/KitFixture, built as
/// `swiftdashkit-fixture`), listed under home.yaml's `extensions:` as a user lists their package's
/// release binary: the whole canvas as a text snapshot, and an error that names file and reason.
final class SwiftdashKitPreviewTests: XCTestCase {
    var home: URL!
    var env: [String: String] { TmuxSession.folders(in: home) }

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-kitcli-\(UUID().uuidString)")
        let config = home.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let exe = try XCTUnwrap(builtProduct("swiftdashkit-fixture"), "swift build builds the fixture")
        try "extensions:\n  - \(exe.path)\ntiles:\n  - {family: small, widget: clock}\n".write(
            to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { if let home { try? FileManager.default.removeItem(at: home) } }

    /// The snapshot, the placeholder and the timeline's second entry (09:00) of KitForecast.
    func testPreviewDrawsASwiftdashKitWidgetInEveryFamilyAsSnapshotPlaceholderAndTimeline() throws {
        var canvas = ""
        for extra in [[], ["--placeholder"], ["--live"]] {
            let r = try runSwiftdash(["preview", "kit-forecast", "--at", "2027-01-15T09:30:00Z"] + extra, env: env)
            XCTAssertEqual(r.status, 0, r.err)
            canvas += (["$ swiftdash preview kit-forecast"] + extra).joined(separator: " ") + "\n" + r.out
        }
        assertSnapshot(canvas, named: "kit-forecast-preview")
    }

    /// A view taller and wider than its tile, padded four times over, is clipped as SwiftUI clips
    /// it: its top and leading part is drawn, never a blank tile.
    func testAnOverflowingViewDrawsItsTopAndLeadingPartClipped() throws {
        let r = try runSwiftdash(["preview", "kit-tall", "--at", "2027-01-15T09:30:00Z"], env: env)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("Departures"), r.out)
        assertSnapshot("$ swiftdash preview kit-tall\n" + r.out, named: "kit-tall-preview")
    }

    func testAWidgetThatThrowsNamesItsFileAndTheReason() throws {
        let r = try runSwiftdash(["preview", "kit-lamp", "--family", "medium", "--set", "room=cellar"], env: env)
        // The tile wraps the message: compare without the frame and the spaces.
        func squeezed(_ s: String) -> String { s.filter { !" \n│╭╮╰╯─".contains($0) } }
        let text = squeezed(r.out + r.err)
        XCTAssertTrue(text.contains(squeezed("swiftdashkit_fixture/KitFixture.swift:")), r.out + r.err)
        XCTAssertTrue(text.contains(squeezed("room: there is no room `cellar` in this house")), r.out + r.err)
    }
}
