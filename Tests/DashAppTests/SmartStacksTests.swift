import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles
@testable import DashRuntime

/// A test widget whose entries say how relevant they are and what content they show.
struct SignalEntry: TimelineEntry {
    var date: Date
    var text: String
    var score: Double? = nil
    var reason: String? = nil
    var duration: TimeInterval? = nil
    var content: String? = nil
    var untilSeen = false

    var relevance: Relevance? {
        score.map { Relevance(score: $0, duration: duration, reason: reason, untilSeen: untilSeen) }
    }
    var contentID: String? { content }
    var summary: String { text }
}

struct SignalProvider: TimelineProvider {
    func placeholder(in context: TimelineContext) -> SignalEntry { SignalEntry(date: context.now, text: "…") }
    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> SignalEntry {
        placeholder(in: context)
    }
    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<SignalEntry> {
        Timeline(entries: [placeholder(in: context)], policy: .never)
    }
}

let signalWidget = Widget(
    kind: "signal", displayName: "Signal", description: "test", supportedFamilies: [.small],
    provider: SignalProvider(), view: { e, _ in Text(e.text) })

/// Smart Rotate and attention through the app's core, on the virtual clock.
final class SmartStacksTests: XCTestCase {
    let minute: TimeInterval = 60

    /// t1: one signal tile (focused at the start); t2: a stack of w2 and w3.
    func harness(
        rotation: StackRotation = StackRotation(), attention: AttentionMode = .highlight,
        usage: UsageHistory = UsageHistory()
    ) -> AppHarness {
        var stack = TileInstance(
            id: "t2", family: .small,
            items: [
                WidgetInstance(id: "w2", kind: "signal"),
                WidgetInstance(id: "w3", kind: "signal"),
            ])
        stack.rotation = rotation
        var single = TileInstance(id: "t1", family: .small, items: [WidgetInstance(id: "w1", kind: "signal")])
        single.attention = attention
        return AppHarness(widgets: [signalWidget], home: HomeConfig(tiles: [single, stack]), now: start, usage: usage)
    }

    func shown(_ h: AppHarness) -> String? { h.state.shownInstance("t2")?.id }

    func shownSince(_ since: Date) -> UsageHistory {
        var u = UsageHistory()
        u.stacks["t2"] = StackMemory(shown: "w2", since: since)
        return u
    }

    func testAStackWhoseSecondItemBecomesRelevantRotatesAfterTheDwellNotBefore() {
        let h = harness(usage: shownSince(start))
        h.finish("w1", entries: [SignalEntry(date: start, text: "One")])
        h.finish("w2", entries: [SignalEntry(date: start, text: "Alpha")])
        h.finish(
            "w3",
            entries: [
                SignalEntry(date: start, text: "Beta quiet"),
                SignalEntry(
                    date: start + 5 * minute, text: "Beta news", score: 0.8,
                    reason: "Beta moved"),
            ])
        XCTAssertEqual(shown(h), "w2")
        XCTAssertEqual(h.state.nextDeadline, start + 5 * minute, "the entry date")
        h.advance(to: start + 5 * minute)
        XCTAssertEqual(shown(h), "w2", "relevant now, but the dwell is not over")
        XCTAssertEqual(h.state.nextDeadline, start + 15 * minute, "the loop sleeps until the dwell ends, no polling")
        h.advance(to: start + 15 * minute - 1)
        XCTAssertEqual(shown(h), "w2")
        _ = h.takeEffects()
        h.advance(to: start + 15 * minute)
        XCTAssertEqual(shown(h), "w3")
        XCTAssertTrue(h.screen.contains("Beta news"), h.screen)
        XCTAssertTrue(
            h.takeEffects().contains { if case .saveUsage = $0 { return true } else { return false } },
            "the stack's memory is saved through an effect")
        XCTAssertEqual(h.savedUsage?.stacks["t2"]?.shown, "w3")
        XCTAssertEqual(h.savedUsage?.stacks["t2"]?.since, start + 15 * minute)
    }

    func testAManualRotationPinsTheChoiceForThePause() {
        let h = harness()
        h.finish("w2", entries: [SignalEntry(date: start, text: "Alpha", score: 0.9, reason: "Alpha moved")])
        h.finish("w3", entries: [SignalEntry(date: start, text: "Beta")])
        XCTAssertEqual(shown(h), "w2")
        h.press(.char("l"))
        XCTAssertEqual(h.state.focusedTile, "t2")
        h.press(.char(">"))
        XCTAssertEqual(shown(h), "w3")
        XCTAssertEqual(h.savedUsage?.instances["w3"]?.use.value(at: start), 1, "a rotation to an item is use")
        XCTAssertEqual(h.savedUsage?.stacks["t2"]?.pinnedUntil, start + 60 * minute)
        h.press(.char("h"))
        XCTAssertEqual(h.state.smart.nextDecision, start + 60 * minute)
        h.advance(to: start + 59 * minute)
        XCTAssertEqual(shown(h), "w3", "the user's choice wins for the pause")
        h.advance(to: start + 60 * minute)
        XCTAssertEqual(shown(h), "w2")
        h.skipPendingWork()
    }

    func testFocusAndPanesBlockRotation() {
        let h = harness(usage: shownSince(start - 3600))
        h.finish("w2", entries: [SignalEntry(date: start, text: "Alpha")])
        h.finish(
            "w3",
            entries: [
                SignalEntry(date: start, text: "Beta"),
                SignalEntry(date: start + 5 * minute, text: "Beta news", score: 0.8),
            ])
        h.press(.char("l"))
        h.advance(to: start + 30 * minute)
        XCTAssertEqual(shown(h), "w2", "never under the user's focus")
        XCTAssertNil(h.state.smart.nextDecision, "nothing to wake for while focused")
        h.press(.char("?"))
        h.press(.char("h"))  // a pane is modal: focus stays
        XCTAssertEqual(shown(h), "w2")
        h.press(.escape, .char("h"))
        XCTAssertEqual(h.state.focusedTile, "t1")
        XCTAssertEqual(shown(h), "w3", "as soon as focus leaves")
        h.skipPendingWork()
    }

    func testTheExplanationIsOneSentence() {
        let h = harness(usage: shownSince(start - 3600))
        h.finish("w2", entries: [SignalEntry(date: start, text: "Alpha", score: 0.2)])
        h.finish("w3", entries: [SignalEntry(date: start, text: "Beta", score: 0.8, reason: "BTC moved +6.1% in 24 h")])
        XCTAssertEqual(shown(h), "w3")
        XCTAssertEqual(
            SmartStacks.sentence(h.state, tile: "t2"),
            "shown because: BTC moved +6.1% in 24 h (relevance 0.80); stays at least until 09:45")
        h.press(.char("l"), .char("w"))
        let because = "shown because: BTC moved +6.1% in 24 h (relevance 0.80)"
        XCTAssertEqual(h.state.statusText, because + "; Smart Rotate waits while the stack is focused")
        h.press(.enter)  // the detail pane says it too
        h.press(.char("w"))
        XCTAssertEqual(h.state.statusText, because + "; Smart Rotate waits while a pane is open")
        XCTAssertEqual(h.savedUsage?.instances["w3"]?.use.value(at: h.clock.now), 1, "a tap is use")
        h.advance(by: 5)
        XCTAssertNotNil(h.state.statusText, "the explanation stays a while")
        h.press(.escape, .char("h"), .char("w"))
        XCTAssertEqual(h.state.statusText, "not a stack; no entry yet")
        let report = SmartStacks.report(h.state)
        XCTAssertTrue(report.contains("stack t2 (small, 2 items): Smart Rotate on, dwell 15 min, pause 1 h"), report)
        XCTAssertTrue(report.contains("  ▶ w3 signal"), report)
        XCTAssertTrue(report.contains("0.80     1.0   0.90  BTC moved +6.1% in 24 h"), "use adds:\n\(report)")
        XCTAssertTrue(report.contains("next decision: 2026-11-23T09:45:30Z (in 14 min)"), "the dwell's end: \(report)")
        h.skipPendingWork()
    }

    func testSmartRotateOffLeavesTheStackToTheUser() {
        let h = harness(rotation: StackRotation(smartRotate: false))
        h.finish("w3", entries: [SignalEntry(date: start, text: "Beta", score: 1)])
        h.advance(by: 3 * 3600)
        XCTAssertEqual(shown(h), "w2")
        XCTAssertEqual(
            SmartStacks.sentence(h.state, tile: "t2"),
            "Smart Rotate is off for this stack (smartRotate: false); < > rotate it")
        h.skipPendingWork()
    }

    func testANewStoryIsRelevantUntilSeen() {
        let h = harness(rotation: StackRotation(dwell: 10 * minute))
        h.finish("w2", entries: [SignalEntry(date: start, text: "Alpha", score: 0.3)])
        h.finish(
            "w3",
            entries: [
                SignalEntry(
                    date: start, text: "Breaking", score: 0.6,
                    reason: "new top story: Breaking", content: "s1", untilSeen: true)
            ])
        XCTAssertEqual(shown(h), "w3", "a story not seen before comes forward")
        XCTAssertEqual(h.savedUsage?.instances["w3"]?.seen, ["s1"], "and counts as seen once shown")
        let sentence = SmartStacks.sentence(h.state, tile: "t2") ?? ""
        XCTAssertTrue(sentence.hasPrefix("shown because: new top story: Breaking"), sentence)
        h.advance(to: start + 10 * minute)
        XCTAssertEqual(shown(h), "w2", "seen news no longer holds the stack after the dwell")
        h.skipPendingWork()
    }

    func testRestartKeepsTheShownItemAndItsDwell() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-usage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = UsageStore(directory: dir)
        XCTAssertEqual(store.load(), UsageHistory(), "no file: empty")
        var history = shownSince(start)
        history.stacks["t2"]?.shown = "w3"
        history.instances["w3"] = InstanceUsage(kind: "signal")
        history.instances["w3"]?.use.add(at: start)
        history.instances["gone"] = InstanceUsage(kind: "signal")
        try store.save(history)
        let back = store.load()
        XCTAssertEqual(back, history)
        let h = harness(usage: back)
        XCTAssertEqual(shown(h), "w3")
        XCTAssertNil(h.state.smart.usage.instances["gone"], "what belongs to no tile is dropped")
        try Data("{ not json".utf8).write(to: store.fileURL)
        var lines: [String] = []
        XCTAssertEqual(store.load { lines.append($0) }, UsageHistory())
        XCTAssertEqual(lines.count, 1)
        h.skipPendingWork()
    }

    // MARK: - Attention

    func testAttentionMarksNewContentUntilFocused() {
        let h = harness()
        h.finish("w1", entries: [SignalEntry(date: start, text: "First", content: "c1")])
        h.press(.char("l"))  // look away
        XCTAssertFalse(h.screen.contains(Chrome.attentionMark))
        h.send(.widgetCenter(.reloadTimelines(kind: "signal")))
        h.finish("w1", entries: [SignalEntry(date: start, text: "Second", content: "c2")])
        XCTAssertEqual(h.state.smart.attention["t1"]?.reason, "new: Second")
        XCTAssertTrue(h.screen.contains("◆ Signal"), "a glyph, so NO_COLOR shows it too:\n\(h.screen)")
        assertSnapshot(h.screen, named: "attention-80x24")
        // The mark means something by its colour too: the style layer keeps it in its role.
        assertSnapshot(StyleDump.dump(h.frame.buffer, theme: h.state.theme), named: "styles-attention-80x24")
        h.press(.char("h"))
        XCTAssertNil(h.state.smart.attention["t1"])
        h.press(.char("l"))
        XCTAssertFalse(h.screen.contains(Chrome.attentionMark), "cleared once looked at")
        XCTAssertEqual(h.bells, 0, "highlight does not ring")
        h.skipPendingWork()
        h.skipPendingWork()
    }

    func testAttentionMarksARelevantEntryOnce() {
        let h = harness()
        h.press(.char("l"))
        h.finish(
            "w1",
            entries: [
                SignalEntry(date: start, text: "Calm", score: 0.2),
                SignalEntry(date: start + minute, text: "Storm", score: 0.9, reason: "storm ahead"),
                SignalEntry(date: start + 2 * minute, text: "Storm goes on", score: 0.9),
            ])
        XCTAssertNil(h.state.smart.attention["t1"], "0.2 is below the threshold")
        h.advance(to: start + minute)
        XCTAssertEqual(h.state.smart.attention["t1"]?.reason, "storm ahead")
        h.press(.char("h"), .char("l"))
        h.advance(to: start + 2 * minute)
        XCTAssertNil(h.state.smart.attention["t1"], "the same run of relevant entries marks once")
        h.skipPendingWork()
        h.skipPendingWork()
    }

    func testTheBellRingsOncePerEntry() {
        let h = harness(attention: .bell)
        h.finish("w1", entries: [SignalEntry(date: start, text: "First", content: "c1")])
        h.press(.char("l"))
        func arrive(_ c: String) {
            h.send(.widgetCenter(.reloadTimelines(kind: "signal")))
            h.finish("w1", entries: [SignalEntry(date: h.clock.now, text: c, content: c)])
        }
        arrive("c2")
        XCTAssertEqual(h.bells, 1)
        h.advance(by: 60)
        XCTAssertEqual(h.bells, 1)
        arrive("c3")
        XCTAssertEqual(h.bells, 1, "still marked: no second bell")
        h.press(.char("h"), .char("l"))
        arrive("c4")
        XCTAssertEqual(h.bells, 2)
        let runtime = Runtime(
            state: h.state, terminal: HeadlessTerminal(size: Size(width: 80, height: 24)),
            clock: h.clock, inbox: Inbox(wake: {}))
        runtime.run([.bell])
        XCTAssertEqual((runtime.terminal as? HeadlessTerminal)?.bells, 1, "the runtime rings the terminal")
        h.skipPendingWork()
        h.skipPendingWork()
    }
}

final class SmartRotateToggleTests: XCTestCase {
    /// Issue 11: `smartRotate: false` in home.yaml *and a toggle in the stack's Edit form*.
    func testTheStacksEditFormTurnsSmartRotateOffAndWritesIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sd-toggle-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("home.yaml")
        let text = """
            # my stacks
            tiles:
              - family: small
                stack:   # two clocks
                  - widget: clock
                  - widget: clock
                    config: { label: Paris, timeZone: Europe/Paris }

            """
        try text.write(to: file, atomically: true, encoding: .utf8)
        let homeFile = HomeFile(url: file, bundle: BuiltinWidgets.bundle)
        let (home, state) = try homeFile.load()
        let h = AppHarness(
            widgets: BuiltinWidgets.bundle.widgets, home: home, now: Date(timeIntervalSince1970: 1_795_426_230))
        h.useHomeFile(state)
        h.homeWriter = { homeFile.write($0, over: $1) }
        h.press(.char("e"))
        XCTAssertTrue(h.screen.contains("Smart Rotate: on"), h.screen)
        h.press(.char(" "))
        XCTAssertEqual(h.state.home.tiles[0].rotation.smartRotate, false)
        XCTAssertTrue(h.screen.contains("Smart Rotate: off"), h.screen)
        let written = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(written.contains("smartRotate: false"), written)
        XCTAssertTrue(written.hasPrefix("# my stacks\ntiles:\n"), "comments kept: \(written)")
        XCTAssertTrue(written.contains("stack:   # two clocks"), written)
        let again = try homeFile.load().home
        XCTAssertEqual(again.tiles[0].rotation.smartRotate, false, "it reads back")
        h.skipPendingWork()
    }
}
