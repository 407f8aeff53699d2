import XCTest
import Foundation
import DashCore
import DashWidgets
import DashTestSupport
@testable import DashRender

let t0 = Date(timeIntervalSince1970: 1_795_426_200)  // 2026-11-23T09:30:00Z

func draw(_ view: TileView, _ w: Int, _ h: Int, now: Date = t0, highlighted: String? = nil) -> (
    CellBuffer, RenderResult
) {
    var b = CellBuffer(width: w, height: h)
    let env = RenderEnvironment(
        theme: .dark, now: now, timeZone: TimeZone(identifier: "UTC")!, highlightedLink: highlighted)
    let r = TileRenderer.render(view, in: b.bounds, buffer: &b, environment: env)
    return (b, r)
}

final class TileLayoutTests: XCTestCase {
    func testTextNeverSpillsAndTruncatesWithEllipsis() {
        let (b, _) = draw(Text("A very long headline that does not fit").lineLimit(1), 12, 1)
        XCTAssertEqual(b.textDump, "A very long…")
    }

    func testTextWrapsToAvailableRowsThenEllipsis() {
        let (b, _) = draw(Text("one two three four five six seven"), 10, 2)
        XCTAssertEqual(b.textDump, "one two\nthree fou…")
    }

    func testWideTextTruncatesWithoutSplitting() {
        let (b, _) = draw(Text("日本語のニュース").lineLimit(1), 7, 1)
        XCTAssertEqual(b.textDump, "日本語…")
        XCTAssertLessThanOrEqual(DisplayWidth.of(b.rowText(0)), 7)
    }

    func testHStackSpacerRightAlignsAndWaterFillsTheWidest() {
        let (b, _) = draw(
            HStack {
                Text("BTC")
                Spacer()
                Text("$43,210")
            }, 20, 1)
        XCTAssertEqual(b.textDump, "BTC          $43,210")
        let (c, _) = draw(
            HStack {
                Text("ETH")
                Text("Ethereum is a long name")
                Text("+2%")
            }, 20, 1)
        XCTAssertEqual(c.textDump, "ETH Ethereum is… +2%", "short labels survive, the widest is cut")
    }

    func testVStackSpacerPushesToBottom() {
        let (b, _) = draw(
            VStack {
                Text("top")
                Spacer()
                Text("bottom")
            }, 8, 4)
        XCTAssertEqual(b.textDump, "top\n\n\nbottom")
    }

    func testGaugeAndSparkline() {
        XCTAssertEqual(draw(Gauge(value: 0.5), 10, 1).0.textDump, "█████░░░░░")
        XCTAssertEqual(draw(Gauge(value: 0.55), 10, 1).0.textDump, "█████▌░░░░")
        XCTAssertEqual(draw(Sparkline([1, 2, 3, 4, 5, 6, 7, 8]), 8, 1).0.textDump, "▁▂▃▄▅▆▇█")
        XCTAssertEqual(draw(Sparkline([0, 10, 0, 10]), 2, 1).0.textDump, "▄▄", "resampled by averaging")
    }

    func testAbsurdNumbersAndDatesFromOutsideNeverTrap() {
        XCTAssertEqual(draw(Sparkline([-1.7e308, 1.7e308, 0, 5]), 4, 1).0.textDump.count, 4)
        XCTAssertEqual(draw(Sparkline([.nan, .infinity, 1, 2]), 4, 1).0.textDump, "▁█")
        XCTAssertEqual(draw(Gauge(value: .nan), 4, 1).0.textDump, "░░░░")
        XCTAssertEqual(draw(Gauge(value: 1e308), 4, 1).0.textDump, "████")
        let far = Date(timeIntervalSince1970: 1e15)
        XCTAssertFalse(draw(Text(far, style: .relative), 20, 1).0.textDump.isEmpty)
        XCTAssertFalse(draw(Text(far, style: .timer), 20, 1).0.textDump.isEmpty)
        XCTAssertEqual(draw(Text(t0.addingTimeInterval(-86_400 * 800), style: .relative), 20, 1).0.textDump, "2 y ago")
    }

    func testLinksReportTapRegionsInReadingOrderAndHighlight() {
        let view = VStack {
            Text("Headlines").font(.headline)
            Text("First story").link("swiftdash://news/1")
            Text("Second story").link("swiftdash://news/2")
        }.widgetURL("swiftdash://news")
        let (b, r) = draw(view, 20, 3, highlighted: "swiftdash://news/2")
        XCTAssertEqual(r.tapRegions.map(\.url), ["swiftdash://news/1", "swiftdash://news/2"])
        XCTAssertEqual(r.tapRegions[0].rect, Rect(x: 0, y: 1, width: 20, height: 1))
        XCTAssertEqual(r.widgetURL, "swiftdash://news")
        XCTAssertEqual(
            b[0, 2].style.background, Theme.dark[.focus], "the highlighted link is drawn in the focus colour")
        XCTAssertEqual(view.links, ["swiftdash://news/1", "swiftdash://news/2"])
    }

    func testRedactedDrawsBlocksOfSameWidth() {
        let (b, _) = draw(Text("ab cd").redacted(), 10, 1)
        XCTAssertEqual(b.textDump, "▆▆ ▆▆")
    }

    func testLiveDatesRenderFromClockAndReportNextChange() {
        let started = t0.addingTimeInterval(-125)
        let (b, r) = draw(
            VStack {
                Text(started, style: .timer)
                Text(started, style: .relative)
                Text(t0, style: .time(seconds: false))
            }, 12, 3)
        XCTAssertEqual(b.textDump, "2:05\n2 min ago\n09:30")
        XCTAssertEqual(r.nextLiveChange, t0.addingTimeInterval(1), "the timer ticks next second")
        let (_, r2) = draw(Text(started, style: .relative), 12, 1)
        XCTAssertEqual(
            r2.nextLiveChange, started.addingTimeInterval(180), "relative text changes at the next whole minute")
    }
}

final class HomeLayoutTests: XCTestCase {
    let slots = [
        TileSlot(id: "a", family: .small), TileSlot(id: "b", family: .small), TileSlot(id: "c", family: .medium),
        TileSlot(id: "d", family: .large), TileSlot(id: "e", family: .medium),
    ]

    func testTileSizes() {
        XCTAssertEqual(GridMetrics.tileSize(.small), Size(width: 19, height: 7))
        XCTAssertEqual(GridMetrics.tileSize(.medium), Size(width: 39, height: 7))
        XCTAssertEqual(GridMetrics.tileSize(.large), Size(width: 39, height: 15))
        XCTAssertEqual(GridMetrics.tileSize(.extraLarge), Size(width: 79, height: 15))
    }

    func testFlowsTopLeftAndPaginatesAt80x24() {
        let l = HomeLayout.compute(slots, screen: Size(width: 80, height: 24))
        XCTAssertEqual(l.columns, 8)
        XCTAssertEqual(l.rows, 6)
        XCTAssertEqual(l.tile("a")?.rect, Rect(x: 0, y: 0, width: 19, height: 7))
        XCTAssertEqual(l.tile("b")?.rect.x, 20)
        XCTAssertEqual(l.tile("c")?.rect.x, 40)
        XCTAssertEqual(l.tile("d")?.rect, Rect(x: 0, y: 8, width: 39, height: 15))
        XCTAssertEqual(l.tile("e")?.rect, Rect(x: 40, y: 8, width: 39, height: 7))
        XCTAssertEqual(l.pageCount, 1)
        let small = HomeLayout.compute(slots, screen: Size(width: 40, height: 16))
        XCTAssertGreaterThan(small.pageCount, 1, "what does not fit flows to the next page")
    }

    func testWideScreenWrapsTilesIntoRowsShapedLikeTheScreen() {
        // All five in one band (the old layout) left three quarters of a 200x60 screen empty;
        // then a centred 80x24 block left two thirds of it empty. The tiles now keep the 80x24
        // arrangement and grow with the screen (decision 45).
        let l = HomeLayout.compute(slots, screen: Size(width: 200, height: 60))
        XCTAssertEqual(l.pages.count, 1)
        XCTAssertEqual(l.columns, 8, "the arrangement that covers the most of the screen")
        XCTAssertEqual(l.unit, Size(width: 25, height: 10))
        XCTAssertEqual(Set(l.pages[0].map { $0.rect.y }).count, 2, "the tiles wrap into rows")
        XCTAssertEqual(l.tile("a")?.rect, Rect(x: 0, y: 0, width: 49, height: 19))
        let at80 = HomeLayout.compute(slots, screen: Size(width: 80, height: 24))
        XCTAssertEqual(at80.unit, GridMetrics.baseUnit)
        for s in slots {
            func units(_ layout: HomeLayout) -> Point? {
                layout.tile(s.id).map {
                    Point(
                        x: ($0.rect.x - layout.origin.x) / layout.unit.width,
                        y: ($0.rect.y - layout.origin.y) / layout.unit.height)
                }
            }
            XCTAssertEqual(units(l), units(at80), "the same arrangement, bigger: \(s.id)")
            XCTAssertEqual(l.tile(s.id)?.family, at80.tile(s.id)?.family)
        }
        // A wide, short screen takes more columns: rows would not fit the height's shape.
        let short = HomeLayout.compute(slots, screen: Size(width: 200, height: 24))
        XCTAssertEqual(short.columns, 12)
        XCTAssertEqual(short.pageCount, 1)
        // Many small tiles: a block of 5 x 4 rather than two full rows of 10.
        let twenty = (0..<20).map { TileSlot(id: "s\($0)", family: .small) }
        let many = HomeLayout.compute(twenty, screen: Size(width: 200, height: 60))
        XCTAssertEqual(many.columns, 10)
        XCTAssertEqual(Set(many.pages[0].map { $0.rect.y }).count, 4)
        // More than a page at full width: every column is used, as before.
        let lots = (0..<80).map { TileSlot(id: "s\($0)", family: .small) }
        let full = HomeLayout.compute(lots, screen: Size(width: 200, height: 60))
        XCTAssertEqual(full.columns, 20)
        XCTAssertEqual(full.pages[0].count, 70)
    }

    func testTooSmallAndNarrowFallback() {
        XCTAssertTrue(HomeLayout.compute(slots, screen: Size(width: 15, height: 5)).isTooSmall)
        let narrow = HomeLayout.compute(
            [TileSlot(id: "x", family: .large, fallbacks: [.small, .medium, .large])],
            screen: Size(width: 30, height: 20))
        XCTAssertEqual(
            narrow.tile("x")?.family, .small, "a tile too wide for the screen falls back to a size it supports")
    }

    func testTooSmallScreenSaysSo() {
        let l = HomeLayout.compute(slots, screen: Size(width: 16, height: 6))
        let f = HomeScreen.draw(
            layout: l, page: 0, tiles: [:], message: nil,
            environment: RenderEnvironment(theme: .dark, now: t0, timeZone: TimeZone(identifier: "UTC")!))
        XCTAssertTrue(f.buffer.textDump.contains("Too small"), f.buffer.textDump)
    }
}
