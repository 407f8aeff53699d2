import XCTest
import Foundation
import DashCore
import DashWidgets
import DashRender
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles
@testable import DashRuntime

/// Issue 23 point 9: `t` is remembered; a tile's first line does not repeat its frame's title.
final class SmallThingsTests: XCTestCase {
    let at = Date(timeIntervalSince1970: 1_795_426_200)

    func testTheThemeKeyIsRememberedInHomeYAMLMinimally() throws {
        let text = "# my home\ntiles:\n  - clock  # the time\n"
        let bundle = BuiltinWidgets.bundle
        let home = try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: bundle)
        let h = AppHarness(widgets: bundle.widgets, home: home, now: at)
        h.useHomeFile(HomeFileState(path: "/nonexistent/home.yaml", text: text, home: home))
        let dark = h.state.theme.name
        h.press(.char("t"))
        let light = h.state.theme.name
        XCTAssertNotEqual(dark, light)
        XCTAssertEqual(h.written.last?.theme, light)
        let edited = try HomeText.edit(text, holding: home, to: h.written.last!, bundle: bundle)
        XCTAssertEqual(edited, "# my home\ntheme: \(light)\ntiles:\n  - clock  # the time\n", "one line added")
        // Without a file (--default-home) it only switches.
        let bare = AppHarness(widgets: bundle.widgets, home: home, now: at)
        bare.press(.char("t"))
        XCTAssertTrue(bare.written.isEmpty)
        bare.skipPendingWork()
        h.skipPendingWork()
    }

    /// `view` drawn in `width` x `height` cells, as text.
    func draw(_ view: TileView, width: Int, height: Int) -> String {
        let env = RenderEnvironment(theme: .dark, now: at, timeZone: TimeZone(identifier: "UTC")!)
        var buffer = CellBuffer(width: width, height: height)
        _ = TileRenderer.render(
            view, in: Rect(x: 0, y: 0, width: width, height: height), buffer: &buffer, environment: env)
        return buffer.textDump
    }

    func testAFirstLineThatOnlyRepeatsTheTitleGoes() {
        let header = VStack {
            HStack {
                Text("Calendar").font(.headline)
                Spacer()
                Text("next 7 days")
            }
            Text("Today")
        }
        XCTAssertEqual(
            draw(header.droppingLeadingTitle("Calendar"), width: 20, height: 2), "         next 7 days\nToday")
        // A title line alone goes; another first line stays; so does a title further down.
        let alone = VStack {
            Text("Clock")
            Text("09:30")
        }
        XCTAssertEqual(
            draw(alone.droppingLeadingTitle("Clock"), width: 10, height: 2).split(separator: "\n").first, "09:30")
        let below = VStack {
            Text("09:30")
            Text("Clock")
        }
        XCTAssertEqual(draw(below.droppingLeadingTitle("Clock"), width: 10, height: 2), "09:30\nClock")
    }
}

/// Issue 23 point 4: the clock's form tells the truth.
final class ClockFormTests: XCTestCase {
    func testTheZoneIsAListOfTheSystemsZonesFilteredAsYouType() async throws {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "clock")])
        ])
        let h = AppHarness(
            widgets: BuiltinWidgets.bundle.widgets, home: home, now: Date(timeIntervalSince1970: 1_795_426_200))
        XCTAssertEqual(
            BuiltinWidgets.bundle["clock"]!.schema.parameter("label")!.help, "The tile's title; Clock when empty.")
        _ = h.takeEffects()
        h.press(.char("e"))
        h.select("timeZone")
        h.type("Tokyo")
        let request = try XCTUnwrap(
            h.takeEffects().compactMap { e -> OptionsRequest? in
                if case .edit(.loadOptions(let r)) = e { return r }
                return nil
            }.first)
        let options = try await request.load(request.configuration)
        XCTAssertTrue(options.contains { $0.value == "Asia/Tokyo" }, "from the zone database")
        h.send(.edit(.optionsLoaded(token: request.token, result: .success(options))))
        XCTAssertTrue(h.screen.contains("Asia/Tokyo"), h.screen)
        // The count is of what the filter leaves, not of every zone.
        let all = options.count + BuiltinWidgets.bundle["clock"]!.schema.parameter("timeZone")!.fixedOptions.count
        XCTAssertTrue(h.screen.contains("1 of \(all) choices"), h.screen)
        XCTAssertFalse(h.screen.contains("│ \(all) choices"), h.screen)
        // Any valid IANA name is still taken, typed whole.
        XCTAssertNil(
            BuiltinWidgets.bundle["clock"]!.schema.validate(WidgetConfig(["timeZone": .string("Etc/GMT+5")])).first)
        XCTAssertNotNil(
            BuiltinWidgets.bundle["clock"]!.schema.validate(WidgetConfig(["timeZone": .string("Mars/Olympus")])).first)
        h.skipPendingWork()
    }
}
