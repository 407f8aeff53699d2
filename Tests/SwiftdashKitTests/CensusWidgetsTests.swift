import DashWidgets
import Foundation
import XCTest

@testable import SwiftdashKit

/// The census's widget shapes (CensusWidgets.swift, written with `import WidgetKit`, `SwiftUI` and
/// `AppIntents` unchanged) answered through the extension protocol, their answers read back by
/// swiftdash's own parsers.
final class CensusWidgetsTests: XCTestCase {
    let server = ExtensionServer(CensusBundle())

    func ask(_ method: String, _ params: [String: JSONValue] = [:]) throws -> JSONValue {
        let request = JSONValue.object(["id": .number(1), "method": .string(method), "params": .object(params)])
        let line = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        let answer = try JSONValue.parse(Data(server.answer(line: line).utf8))
        if let e = answer["error"]?.string {
            throw NSError(domain: e, code: 1, userInfo: [NSLocalizedDescriptionKey: e])
        }
        return answer["result"] ?? .null
    }

    func snapshot(_ kind: String, _ family: String = "small") throws -> JSONValue {
        try ask("snapshot", ["kind": .string(kind), "context": .object(["family": .string(family)])])
    }

    /// Every text of a view, in order.
    func texts(_ v: JSONValue?) -> [String] {
        guard let v else { return [] }
        switch v {
        case .string(let s): return [s]
        case .array(let a): return a.flatMap(texts)
        case .object(let o):
            var out: [String] = []
            for k in ["text", "button", "toggle"] { if let t = o[k]?.string { out.append(t) } }
            for k in ["vstack", "hstack", "view"] { out += texts(o[k]) }
            return out
        default: return []
        }
    }

    /// The first node (depth first) that has `key`.
    func find(_ key: String, in v: JSONValue?) -> JSONValue? {
        guard let v else { return nil }
        switch v {
        case .array(let a): return a.lazy.compactMap { self.find(key, in: $0) }.first
        case .object(let o):
            if o[key] != nil { return v }
            for k in ["vstack", "hstack", "view"] { if let f = find(key, in: o[k]) { return f } }
            return nil
        default: return nil
        }
    }

    func testTheBundleDescribesEveryWidgetWithoutRunningAParameterDefault() throws {
        let widgets = try ExtensionWidgetDescription.parse(try ask("describe"))
        XCTAssertEqual(widgets.map(\.kind), ["chores-widget", "level-widget", "ring-only", "departures", "pier"])
        XCTAssertEqual(widgets[1].families, [DashWidgets.WidgetFamily.small])
        let departures = widgets[3].parameters
        XCTAssertEqual(departures.map(\.key), ["station", "line", "speed", "countdown"])
    }

    func testAToDoDrawsItsButtonsPlainStruckDoneItemsAndAFormattedDate() throws {
        let view = try snapshot("chores-widget")["views"]?["small"]
        XCTAssertEqual(texts(view), ["•", "Chores", "○", "Water plants", "✔", "Post letter", "at 08:00"])
        let done = find("text", in: view?["vstack"]?.array?[2]["hstack"]?.array?[1])
        XCTAssertEqual(done?["color"], .string("secondary"), "struck-through text is drawn secondary")
        let stamp = view?["vstack"]?.array?.last
        XCTAssertEqual(stamp?["font"], .string("caption"), "textScale(.secondary)")
        let before = ChoreBook.chores[0].done
        let action = try XCTUnwrap(find("button", in: view)?["action"]?.string)
        XCTAssertEqual(try ask("perform", ["kind": .string("chores-widget"), "action": .string(action)]), .object([:]))
        XCTAssertEqual(ChoreBook.chores[0].done, !before)
    }

    func testASmallTileShowsTheSystemSmallViewAndTheLineShowsTheInlineView() throws {
        let json = try snapshot("level-widget")
        let view = json["views"]?["small"]
        XCTAssertTrue(texts(view).contains("Tile 80"), "\(texts(view))")
        XCTAssertFalse(texts(view).contains("ring 80"))
        XCTAssertEqual(json["summary"], .string("Charge 80%"))
        // Drawn styles: a linear capacity gauge is its label and a bar; a circular progress view
        // shows its percentage before the bar.
        XCTAssertNotNil(find("gauge", in: view))
        XCTAssertTrue(texts(view).contains("80%"), "\(texts(view))")
        XCTAssertTrue(texts(view).contains("Spare"))
    }

    func testAWidgetWithOnlyAnAccessoryFamilyDrawsItInTheSmallTile() throws {
        let view = try snapshot("ring-only")["views"]?["small"]
        XCTAssertEqual(texts(view), ["ring 80"], "an accessoryCircular gauge draws its current-value label")
        XCTAssertEqual(find("gauge", in: view)?["gauge"], .number(0.8))
    }

    func testOptionsComeFromTheProviderAndAnEntityTakesItsQuerysDefault() throws {
        let widgets = try ExtensionWidgetDescription.parse(try ask("describe"))
        guard case .dynamicEnumeration = widgets[3].parameters[0].kind else {
            return XCTFail("station has choices from its provider: \(widgets[3].parameters[0].kind)")
        }
        let options = try ask("options", ["kind": .string("departures"), "parameter": .string("station")])
        XCTAssertEqual(
            options["options"]?.array?.compactMap { $0["value"]?.string }, ["North Quay", "Elm Street", "Harbour"])
        let view = try snapshot("departures", "medium")["views"]?["medium"]
        XCTAssertEqual(Array(texts(view).prefix(2)), ["Harbour", "Red line · min"])
        XCTAssertEqual(find("style", in: view)?["style"], .string("timer"))
    }

    func testAnEntityParameterWithoutAnyValueFailsItsWidgetOnlyNamingIt() throws {
        XCTAssertThrowsError(try snapshot("pier")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("CensusWidgets.swift"), text)
            XCTAssertTrue(text.contains("@Parameter pier"), text)
        }
        XCTAssertNoThrow(try snapshot("chores-widget"))
    }

    func testALiveActivityStartsAndAddsNoTileAndDonationsDoNothing() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("census-act-\(UUID().uuidString)")
        setenv("SWIFTDASH_ACTIVITIES", dir.path, 1)
        defer {
            unsetenv("SWIFTDASH_ACTIVITIES")
            try? FileManager.default.removeItem(at: dir)
        }
        let (started, tokens) = await ParcelTracking.start()
        XCTAssertTrue(started, "Live Activities run on swiftdash (issue 39)")
        XCTAssertEqual(tokens, 0, "no push service here")
        XCTAssertFalse(ServiceNotice.once("Activity.pushToStartTokenUpdates", "again"), "said once already")
        XCTAssertFalse(ServiceNotice.once("IntentDonationManager.donate", "again"), "said once already")
        _ = try? ask("describe")
        XCTAssertFalse(ServiceNotice.once("ControlWidget KettleControl", "again"), "the bundle's control was told")
    }

    func testAConfiguredControlsIntentAndAValueResultCompileAndRun() async throws {
        _ = try await KettleName().perform()
        XCTAssertEqual(KettleName().name, "Kettle")
        let result = try await FillKettle().perform()
        XCTAssertEqual((result as? _IntentValueResult<String>)?.value, "filled")
        let json = Render.view(FlattenedGauge(), date: Date(timeIntervalSince1970: 0), EnvironmentValues())
        XCTAssertNotNil(find("gauge", in: json["views"]?["small"]), "a scaled view is drawn unscaled")
    }

    func testAModelFileKeepsAnAppGroupFileAndLogs() throws {
        try ChoreArchive.save(["Water plants", "Post letter"])
        XCTAssertEqual(ChoreArchive.load(), ["Water plants", "Post letter"])
        XCTAssertEqual(UserDefaults.standard.value(forKey: "census.savedCount") as? Int, 2)
        XCTAssertTrue(ChoreArchive.url?.path.hasPrefix(WidgetState.directory.path) ?? false)
    }

    func testAGridDrawsRowsOfCells() {
        let json = Render.view(TimesGrid(), date: Date(timeIntervalSince1970: 0), EnvironmentValues())
        XCTAssertEqual(texts(json["views"]?["small"]), ["a", "b", "c", "d"])
        XCTAssertEqual(json["views"]?["small"]?["vstack"]?.array?.count, 2)
    }

    func testAppStorageReadsItsStoreAndUserDefaultsAnswersKeyValueCoding() throws {
        let store = try XCTUnwrap(UserDefaults(suiteName: "group.example.departures"))
        store.setValue("km", forKey: "units")
        defer { store.removeObject(forKey: "units") }
        XCTAssertEqual(store.value(forKey: "units") as? String, "km")
        let view = try snapshot("departures", "medium")["views"]?["medium"]
        XCTAssertEqual(texts(view)[1], "Red line · km")
    }
}
