import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
@testable import DashApp
@testable import DashHome

/// Issue 25: after a tick or load results, Smart Stacks looks only at the tiles whose timelines
/// changed. Its answer must be the pass over every tile's: two copies of one home get the same
/// random messages (the time passing, load results with relevance, windows and content, keys),
/// and one of them is made to look at every tile each time.
final class SmartStacksPartialTests: XCTestCase {
    /// 30 tiles of the signal widget: two in three a stack of two or three, with short dwells and
    /// pauses, every attention mode.
    func home(_ rng: inout SeededRandom) -> HomeConfig {
        var w = 0
        let tiles = (0..<30).map { t -> TileInstance in
            let count = t % 3 == 0 ? 1 : 2 + rng.below(2)
            let items = (0..<count).map { _ -> WidgetInstance in
                w += 1
                return WidgetInstance(id: "w\(w)", kind: "signal")
            }
            var tile = TileInstance(id: "t\(t + 1)", family: .small, items: items)
            tile.rotation = StackRotation(
                smartRotate: rng.below(5) != 0, dwell: TimeInterval(60 * (1 + rng.below(10))),
                pause: TimeInterval(60 * (1 + rng.below(20))))
            tile.attention = AttentionMode.allCases[rng.below(3)]
            return tile
        }
        return HomeConfig(tiles: tiles)
    }

    func entries(_ rng: inout SeededRandom, now: Date, id: String) -> [AnyEntry] {
        (0..<(1 + rng.below(3))).map { i in
            let offsets: [TimeInterval] = [-120, 0, 45, 300, 900, 2_000]
            let score: Double? = rng.below(3) == 0 ? nil : Double(rng.below(11)) / 10
            let duration: TimeInterval? = rng.below(2) == 0 ? nil : TimeInterval(60 * (1 + rng.below(30)))
            return AnyEntry(
                SignalEntry(
                    date: now.addingTimeInterval(offsets[rng.below(offsets.count)] + Double(i)),
                    text: "\(id) \(rng.below(5))", score: score, reason: score == nil ? nil : "\(id) moved",
                    duration: duration, content: rng.below(3) == 0 ? nil : "c\(rng.below(4))",
                    untilSeen: rng.below(5) == 0))
        }
    }

    func testAPassOverTheChangedTilesAnswersAsAPassOverEveryTile() {
        var looked = (partial: 0, whole: 0)
        for seed in UInt64(1)...6 {
            var rng = SeededRandom(seed: seed)
            var a = AppState(
                bundle: WidgetBundle([signalWidget]), home: home(&rng), screen: Size(width: 120, height: 40),
                theme: .dark, alternateTheme: .light, timeZone: TimeZone(identifier: "UTC")!, now: start)
            var b = a
            var now = start
            var waiting: [LoadJob] = []
            let keys: [Key] = [.right, .left, .down, .up, .char(">"), .char("<"), .enter, .escape, .char("w")]

            func step(_ what: String, _ body: (inout AppState) -> [Effect]) {
                let fa = body(&a)
                b.smart.quiet = nil  // every tile
                let fb = body(&b)
                XCTAssertEqual(a.stackIndex, b.stackIndex, "seed \(seed), \(what)")
                XCTAssertEqual(a.smart.attention, b.smart.attention, "seed \(seed), \(what)")
                XCTAssertEqual(a.smart.usage, b.smart.usage, "seed \(seed), \(what)")
                XCTAssertEqual(a.smart.nextDecision, b.smart.nextDecision, "seed \(seed), \(what)")
                XCTAssertEqual(a.nextDeadline, b.nextDeadline, "seed \(seed), \(what)")
                func bells(_ fx: [Effect]) -> Int { fx.filter { if case .bell = $0 { true } else { false } }.count }
                XCTAssertEqual(bells(fa), bells(fb), "seed \(seed), \(what)")
                let jobs = fa.compactMap { e -> LoadJob? in if case .startLoad(let j) = e { j } else { nil } }
                let jobsB = fb.compactMap { e -> LoadJob? in if case .startLoad(let j) = e { j } else { nil } }
                XCTAssertEqual(jobs.map(\.token), jobsB.map(\.token), "seed \(seed), \(what)")
                waiting += jobs
            }

            step("the first tick") { App.update(&$0, .tick(now)) }
            for i in 0..<160 {
                switch rng.below(10) {
                case 0, 1, 2:
                    now = now.addingTimeInterval(TimeInterval([1, 30, 61, 300, 901][rng.below(5)]))
                    step("tick \(i)") { [now] in App.update(&$0, .tick(now)) }
                case 3...5 where !waiting.isEmpty:
                    // Results that arrived together, as the runtime applies them; or one by one.
                    let n = 1 + rng.below(min(8, waiting.count))
                    let answers = (0..<n).map { _ -> Msg in
                        let job = waiting.remove(at: rng.below(waiting.count))
                        let timeline = AnyTimeline(
                            entries: entries(&rng, now: now, id: job.id),
                            policy: rng.below(2) == 0 ? .atEnd : .after(now.addingTimeInterval(600)))
                        return .loaded(id: job.id, token: job.token, result: .success(timeline))
                    }
                    if rng.below(2) == 0 {
                        step("a batch of \(n) at \(i)") { s in
                            answers.flatMap { App.apply(&s, $0) } + App.settle(&s)
                        }
                    } else {
                        for m in answers { step("a result at \(i)") { App.update(&$0, m) } }
                    }
                case 6:
                    let ids = a.home.allInstances.map(\.id)
                    let id = ids[rng.below(ids.count)]
                    step("reload \(id) at \(i)") { App.update(&$0, .widgetCenter(.reloadInstance(id))) }
                default:
                    let k = keys[rng.below(keys.count)]
                    step("key \(k) at \(i)") { App.update(&$0, .key(k)) }
                }
                if i % 20 == 19 {
                    XCTAssertEqual(AppView.render(a).buffer, AppView.render(b).buffer, "seed \(seed) at \(i)")
                }
            }
            looked.partial += a.smart.tilesLooked
            looked.whole += b.smart.tilesLooked
        }
        // The runs looked at far fewer tiles than a pass over every tile each time would.
        XCTAssertLessThan(looked.partial * 2, looked.whole, "\(looked)")
    }
}
