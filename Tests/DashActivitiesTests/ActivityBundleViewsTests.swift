import XCTest
import DashActivities
import DashCore
import DashWidgets
import DashTestSupport

/// A widget bundle's own views of an activity (decision 68): the `activity` answer read and
/// cleaned, its texts in the strip's regions and the detail pane, the built-in outcome marks kept
/// for an ended one, and the built-in face with the reason when the views failed.
final class ActivityBundleViewsTests: XCTestCase {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func parcel(ended: Bool = false) throws -> ActivityBook {
        var b = ActivityBook()
        try b.start(
            Activity(
                id: "p1", kind: "parcel-attributes", attributes: .object(["parcel": .string("Books")]),
                content: ActivityContent(state: .object(["stopsLeft": .number(3)])), started: t0), at: t0)
        if ended {
            try b.end(
                "p1", content: ActivityContent(state: .object(["stopsLeft": .number(0), "outcome": .string("success")])),
                dismissal: .default, at: t0.addingTimeInterval(125))
        }
        return b
    }

    let answer = JSONValue.object([
        "lockScreen": .string("Books: 3 stops\nRing twice"), "compactLeading": .string("📦 Books"),
        "compactTrailing": .string("3 stops"), "minimal": .string("3"),
        "expanded": .object([
            "leading": .string("Parcel"), "trailing": .string("3"), "bottom": .string("Leave it at the door"),
            "unknown": .string("ignored"),
        ]),
        "url": .string("https://example.com/parcels/1"),
    ])

    func testAnAnswerIsReadAndEveryTextCleaned() throws {
        let p = try ActivityPresentation.parse(answer)
        XCTAssertEqual(p.compactLeading, "📦 Books")
        XCTAssertEqual(p.lockScreen, "Books: 3 stops\nRing twice", "the Lock Screen text keeps its lines")
        XCTAssertEqual(p.expanded, ["leading": "Parcel", "trailing": "3", "bottom": "Leave it at the door"])
        XCTAssertEqual(p.url, "https://example.com/parcels/1")

        let hostile = try ActivityPresentation.parse(.object([
            "lockScreen": .string("\u{1B}]52;c;AAAA\u{07}Books\u{1B}[2J"), "compactLeading": .string("a\nb\u{1B}[31mc"),
            "compactTrailing": .string(String(repeating: "x", count: 500)), "minimal": .string("12345678901"),
            "expanded": .object(["center": .string("   ")]), "url": .string("https://x.example/a b"),
        ]))
        XCTAssertFalse(hostile.lockScreen.contains("\u{1B}"), hostile.lockScreen)
        XCTAssertTrue(hostile.lockScreen.contains("Books"), hostile.lockScreen)
        XCTAssertFalse(hostile.compactLeading.contains("\n") || hostile.compactLeading.contains("\u{1B}"))
        XCTAssertLessThanOrEqual(hostile.compactTrailing.count, ActivityPresentation.maxRegionCharacters)
        XCTAssertLessThanOrEqual(hostile.minimal.count, 8)
        XCTAssertEqual(hostile.expanded, [:], "an empty region is no region")
        XCTAssertNil(hostile.url, "a link with a space in it is no link")

        XCTAssertThrowsError(try ActivityPresentation.parse(.string("no")))
        XCTAssertThrowsError(try ActivityPresentation.parse(.object(["compactLeading": .number(3)])))
    }

    func testTheRequestCarriesTheRecordAsTheFileHoldsIt() throws {
        let a = try XCTUnwrap(try parcel()["p1"])
        let params = ActivityPresentation.request(for: a, at: t0)
        XCTAssertEqual(params["kind"], .string("parcel-attributes"))
        XCTAssertEqual(params["attributes"], a.attributes)
        XCTAssertEqual(params["state"], a.content.state)
        XCTAssertEqual(params["isStale"], .bool(false))
        // The key changes with the content, the stale date passing and the end; not with the clock.
        XCTAssertEqual(ActivityViewKey(a, at: t0), ActivityViewKey(a, at: t0.addingTimeInterval(60)))
        XCTAssertNotEqual(ActivityViewKey(a, at: t0), ActivityViewKey(try XCTUnwrap(try parcel(ended: true)["p1"]), at: t0))
    }

    func testTheBundlesTextsFillTheRegionsAndTheDetail() throws {
        let views = ActivityViews(drawn: ["p1": try ActivityPresentation.parse(answer)])
        let face = try XCTUnwrap(ActivityStripModel.at(t0, book: try parcel(), views: views).faces.first)
        XCTAssertEqual(face.compactLeading, "📦 Books")
        XCTAssertEqual(face.compactTrailing, "3 stops")
        XCTAssertEqual(face.minimal, "3")
        XCTAssertEqual(face.url, "https://example.com/parcels/1")
        XCTAssertEqual(ActivityLine.status(try parcel(), at: t0, views: views), "📦 Books 3 stops")

        var buffer = CellBuffer(width: 80, height: 2)
        ActivityStripView.draw(
            ActivityStripModel.at(t0, book: try parcel(), focused: true, views: views), into: &buffer, rect: buffer.bounds,
            theme: .dark)
        let strip = framedDump(buffer)
        XCTAssertTrue(strip.contains("Parcel") && strip.contains("Leave it at the door"), strip)
        XCTAssertFalse(strip.contains("📦 Books"), "the expanded leading region replaces the compact one\n\(strip)")

        let detail = try XCTUnwrap(ActivityDetailModel.at(t0, book: try parcel(), id: "p1", views: views))
        var pane = CellBuffer(width: 60, height: 16)
        ActivityDetailView.draw(detail, into: &pane, rect: pane.bounds, theme: .dark)
        let text = framedDump(pane)
        XCTAssertTrue(text.contains("Books: 3 stops") && text.contains("Ring twice"), text)
        XCTAssertTrue(text.contains("link: https://example.com/parcels/1"), text)
    }

    func testAnEndedActivityKeepsItsOutcomeMarksAndDuration() throws {
        let views = ActivityViews(drawn: ["p1": try ActivityPresentation.parse(answer)])
        let at = t0.addingTimeInterval(130)
        let face = try XCTUnwrap(ActivityStripModel.at(at, book: try parcel(ended: true), views: views).faces.first)
        XCTAssertEqual(face.compactLeading, "✓ 📦 Books")
        XCTAssertEqual(face.compactTrailing, "2m 05s")
        XCTAssertEqual(face.minimal, "✓")
        XCTAssertEqual(face.outcomeText, "✓ succeeded after 2m 05s")
    }

    func testAnEmptyRegionKeepsTheBuiltInTextAndAFailureSaysWhy() throws {
        let blank = ActivityViews(drawn: [
            "p1": ActivityPresentation(lockScreen: "", compactLeading: "", compactTrailing: "", minimal: "")
        ])
        let builtIn = try XCTUnwrap(ActivityStripModel.at(t0, book: try parcel()).faces.first)
        let face = try XCTUnwrap(ActivityStripModel.at(t0, book: try parcel(), views: blank).faces.first)
        XCTAssertEqual(face.compactLeading, builtIn.compactLeading, "never a blank pill")
        XCTAssertEqual(face.compactTrailing, builtIn.compactTrailing)

        let failed = ActivityViews(problems: ["p1": "crashed: Parcel.swift:12: Fatal error: Index out of range"])
        let detail = try XCTUnwrap(ActivityDetailModel.at(t0, book: try parcel(), id: "p1", views: failed))
        XCTAssertEqual(detail.face.compactLeading, builtIn.compactLeading)
        var pane = CellBuffer(width: 100, height: 16)
        ActivityDetailView.draw(detail, into: &pane, rect: pane.bounds, theme: .dark)
        XCTAssertTrue(framedDump(pane).contains("views could not draw it: crashed: Parcel.swift:12"), framedDump(pane))
    }

    func testDescribeDeclaresActivityKinds() throws {
        let described = try JSONValue.parse(Data(#"{"protocol":1,"widgets":[],"activities":[{"kind":"parcel-attributes"},{"kind":"parcel-attributes"}]}"#.utf8))
        XCTAssertEqual(try ExtensionWidgetDescription.activityKinds(described), ["parcel-attributes"])
        XCTAssertEqual(try ExtensionWidgetDescription.parse(described).count, 0, "a bundle of Live Activities alone")
        XCTAssertEqual(try ExtensionWidgetDescription.activityKinds(.object(["widgets": .array([])])), [], "an older extension")
        XCTAssertThrowsError(try ExtensionWidgetDescription.parse(.object(["widgets": .array([])])))
        XCTAssertThrowsError(
            try ExtensionWidgetDescription.activityKinds(.object(["activities": .array([.object(["kind": .string("a b\u{1B}")])])])))
    }

    func testATimerRegionCountsAtEachSecond() throws {
        let p = try ActivityPresentation.parse(.object([
            "compactLeading": .string("Tea"), "compactTrailing": .string("4:00"),
            "timers": .object([
                "compactTrailing": .object(["date": .number(t0.timeIntervalSince1970 + 240), "countsDown": .bool(true)]),
                "bogus": .object(["date": .number(1)]),
            ]),
        ]))
        XCTAssertEqual(Array(p.timers.keys), ["compactTrailing"])
        let views = ActivityViews(drawn: ["p1": p])
        let later = try XCTUnwrap(ActivityStripModel.at(t0.addingTimeInterval(65), book: try parcel(), views: views).faces.first)
        XCTAssertEqual(later.compactTrailing, "2:55")
        XCTAssertTrue(later.ticks, "the strip redraws each second while it counts")
        let done = try XCTUnwrap(ActivityStripModel.at(t0.addingTimeInterval(400), book: try parcel(), views: views).faces.first)
        XCTAssertEqual(done.compactTrailing, "0:00", "a countdown stops at zero")
    }
}
