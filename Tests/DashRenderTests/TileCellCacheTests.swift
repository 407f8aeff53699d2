import DashCore
import DashTestSupport
import DashWidgets
import Foundation
import XCTest

@testable import DashRender

/// Decision 53: the home screen keeps what each tile drew last and reuses its cells when
/// nothing the tile's drawing depends on changed. Every frame must equal a fresh full draw.
final class TileCellCacheTests: XCTestCase {
    let start = Date(timeIntervalSince1970: 1_795_426_200)
    let utc = TimeZone(identifier: "UTC")!

    /// Views like the built-in widgets draw: text, wide text, gauges, sparklines, links,
    /// controls, placeholders, and live dates (a clock, "5 min ago").
    func views(_ now: Date) -> [TileView] {
        [
            VStack {
                Text("CPU").font(.headline)
                Gauge(value: 0.42)
                Sparkline([1, 3, 2, 5, 4], height: 2)
            },
            VStack {
                Text("load 0.12 1.09 1.61").foregroundStyle(.secondary)
                Text("東京 晴れ 12°").bold()
            }.link("https://example.com/a"),
            HStack {
                Text("up 3 d")
                Spacer()
                Text("ok").foregroundStyle(.positive)
            }.widgetURL("app://x"),
            Text(now.addingTimeInterval(-300), style: .relative),
            Text(now, style: .time(seconds: true)).font(.largeTitle),
            ViewThatFits {
                Text("a very long line that will not fit in a small tile at all, not even close")
                Text("short")
            },
            VStack {
                Text("Weather")
                Text("placeholder text")
            }.redacted(),
            .control(control),
            .empty,
        ]
    }

    let control = TileControl(kind: .button, title: "Run", action: ActionPayload(json: "{}"))

    func layout(_ size: Size, _ n: Int) -> HomeLayout {
        let families: [WidgetFamily] = [.small, .medium, .small, .large, .medium, .small]
        return HomeLayout.compute(
            (0..<n).map { TileSlot(id: "t\($0)", family: families[$0 % families.count], fallbacks: [.small]) },
            screen: size)
    }

    func assertSame(_ a: HomeFrame, _ b: HomeFrame, _ what: String, file: StaticString = #filePath, line: UInt = #line)
    {
        XCTAssertEqual(a.buffer.textDump, b.buffer.textDump, what, file: file, line: line)
        XCTAssertTrue(a.buffer == b.buffer, "cells differ: \(what)", file: file, line: line)
        XCTAssertEqual(a.tapRegions, b.tapRegions, what, file: file, line: line)
        XCTAssertEqual(a.controlRegions, b.controlRegions, what, file: file, line: line)
        XCTAssertEqual(a.nextLiveChange, b.nextLiveChange, what, file: file, line: line)
    }

    /// Randomised frames: contents change, focus moves, links and controls are highlighted,
    /// stacks turn, tiles go stale, the theme flips, the screen resizes, pages turn and the
    /// clock runs; each frame drawn with the cache equals the same frame drawn fresh.
    func testEveryFrameDrawnWithTheCacheEqualsAFreshDraw() {
        for seed in UInt64(1)...6 {
            var rng = SeededRandom(seed: seed)
            let cache = TileCellCache()
            let sizes = [Size(width: 160, height: 48), Size(width: 80, height: 24), Size(width: 120, height: 40)]
            var size = sizes[0]
            var n = 8
            var now = start
            var theme = Theme.dark
            var page = 0
            var chosen: [Int] = (0..<12).map { _ in Int.random(in: 0..<9, using: &rng) }
            var focused: Int? = nil
            var stale: Set<Int> = []
            var message: String? = nil
            for step in 0..<60 {
                switch Int.random(in: 0..<12, using: &rng) {
                case 0, 1, 2: chosen[Int.random(in: 0..<12, using: &rng)] = Int.random(in: 0..<9, using: &rng)
                case 3: focused = Bool.random(using: &rng) ? Int.random(in: 0..<n, using: &rng) : nil
                case 4: now += [1, 59, 300, 3600].randomElement(using: &rng)!
                case 5: theme = theme == .dark ? .light : .dark
                case 6: size = sizes.randomElement(using: &rng)!
                case 7: stale.formSymmetricDifference([Int.random(in: 0..<n, using: &rng)])
                case 8: message = message == nil ? "Saved home.yaml; press u to undo" : nil
                case 9: n = [3, 8, 12].randomElement(using: &rng)!
                case 10: page = Int.random(in: 0..<3, using: &rng)
                default: break
                }
                let l = layout(size, n)
                let pool = views(now)
                var tiles: [String: HomeTileContent] = [:]
                for i in 0..<n {
                    var d = TileDecoration(
                        title: "Tile \(i)", focused: focused == i, staleMessage: stale.contains(i) ? "offline" : nil,
                        stackPosition: i % 4 == 1 ? (chosen[i] % 3, 3) : nil)
                    d.attention = i == 5 && focused != 5
                    tiles["t\(i)"] = HomeTileContent(
                        view: pool[chosen[i]], decoration: d,
                        highlightedLink: focused == i ? "https://example.com/a" : nil,
                        highlightedControl: focused == i ? control.identity : nil)
                }
                let env = RenderEnvironment(theme: theme, now: now, timeZone: utc)
                let cached = HomeScreen.draw(
                    layout: l, page: page, tiles: tiles, message: message, environment: env, cache: cache)
                let fresh = HomeScreen.draw(layout: l, page: page, tiles: tiles, message: message, environment: env)
                assertSame(cached, fresh, "seed \(seed) step \(step)")
            }
            XCTAssertGreaterThan(cache.reused, 0, "seed \(seed): the cache was never used")
        }
    }

    /// A turn where one tile got a new entry draws that tile only; the others' cells come back.
    func testATurnWithOneChangedTileDrawsOnlyThatTile() {
        let l = layout(Size(width: 160, height: 48), 6)
        let cache = TileCellCache()
        let env = RenderEnvironment(theme: .dark, now: start, timeZone: utc)
        func tiles(cpu: Double) -> [String: HomeTileContent] {
            var out: [String: HomeTileContent] = [:]
            for i in 0..<6 {
                out["t\(i)"] = HomeTileContent(
                    view: VStack {
                        Text("Tile \(i)")
                        if i == 2 { Gauge(value: cpu) }
                    }, decoration: TileDecoration(title: "T\(i)", focused: i == 0))
            }
            return out
        }
        _ = HomeScreen.draw(layout: l, page: 0, tiles: tiles(cpu: 0.1), message: nil, environment: env, cache: cache)
        XCTAssertEqual(cache.drawn, 6)
        let frame = HomeScreen.draw(
            layout: l, page: 0, tiles: tiles(cpu: 0.9), message: nil, environment: env, cache: cache)
        XCTAssertEqual(cache.lastDrawn, ["t2"])
        XCTAssertEqual(cache.drawn, 7)
        XCTAssertEqual(cache.reused, 5)
        assertSame(
            frame, HomeScreen.draw(layout: l, page: 0, tiles: tiles(cpu: 0.9), message: nil, environment: env), "one")
        // Nothing changed: nothing is drawn; a new theme draws them all.
        _ = HomeScreen.draw(layout: l, page: 0, tiles: tiles(cpu: 0.9), message: nil, environment: env, cache: cache)
        XCTAssertEqual(cache.lastDrawn, [])
        var light = env
        light.theme = .light
        _ = HomeScreen.draw(layout: l, page: 0, tiles: tiles(cpu: 0.9), message: nil, environment: light, cache: cache)
        XCTAssertEqual(cache.lastDrawn.count, 6)
    }

    /// Live date text reads differently as time passes: such a tile is drawn every frame.
    func testATileWithLiveDateTextIsAlwaysDrawn() {
        let l = layout(Size(width: 80, height: 24), 2)
        let cache = TileCellCache()
        let tiles = [
            "t0": HomeTileContent(
                view: VStack { Text(start.addingTimeInterval(-300), style: .relative) }, decoration: .init(title: "a")),
            "t1": HomeTileContent(view: Text("still"), decoration: .init(title: "b")),
        ]
        for _ in 0..<3 {
            let env = RenderEnvironment(theme: .dark, now: start, timeZone: utc)
            _ = HomeScreen.draw(layout: l, page: 0, tiles: tiles, message: nil, environment: env, cache: cache)
        }
        XCTAssertEqual(cache.lastDrawn, ["t0"])
    }
}
