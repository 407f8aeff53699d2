import Foundation
import Testing
import DashCore
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// A state directory of its own and contexts for one instance that keep state there.
final class StateDir {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    func context(_ now: Date, zone: String = "UTC", id: String = "w1") -> TimelineContext {
        var c = TimelineContext(
            family: .medium, size: contentSize(.medium), now: now,
            timeZone: TimeZone(identifier: zone)!)
        c.instanceID = id
        c.stateDirectory = url.path
        return c
    }
}

func iso(_ s: String) -> Date { try! Date(s, strategy: .iso8601) }

func minutes(_ dates: [Date], from start: Date) -> [Int] {
    dates.map { Int($0.timeIntervalSince(start) / 60) }
}

@Suite struct RecipeTimerTests {
    let widget = RecipeTimerWidget.widget

    func press(
        _ action: RecipeAction, _ s: StateDir, at now: Date, config: WidgetConfig = WidgetConfig(),
        zone: String = "UTC"
    ) async throws -> RecipeAction? {
        try await widget.perform(ActionPayload(action), configuration: config, in: s.context(now, zone: zone))?
            .decode(RecipeAction.self)
    }

    func timeline(_ s: StateDir, at now: Date, config: WidgetConfig = WidgetConfig(), zone: String = "UTC")
        async throws -> Timeline<RecipeEntry>
    {
        try await RecipeTimerProvider().timeline(
            for: RecipeTimerWidget.schema.resolve(config),
            in: s.context(now, zone: zone))
    }

    @Test func idleUntilStartedThenOneEntryPerStepChangeAt15_30_10Minutes() async throws {
        let s = try StateDir()
        let t0 = iso("2026-11-23T18:00:00Z")
        let idle = try await timeline(s, at: t0)
        #expect(idle.entries.map(\.phase) == [.idle] && idle.policy == .never)
        _ = try await press(.start, s, at: t0)
        let running = try await timeline(s, at: t0)
        #expect(
            minutes(running.entries.map(\.date), from: t0) == [0, 15, 45, 55], "Preheat 15, Cook 30, Rest 10, done")
        #expect(running.entries.map(\.phase) == [.running, .running, .running, .done])
        #expect(
            running.entries.map { $0.steps.indices.contains($0.step) ? $0.steps[$0.step].name : "" }
                == ["Preheat", "Cook", "Rest", "Rest"])
        #expect(running.entries[1].stepEnds == t0.addingTimeInterval(45 * 60), "the countdown's target")
        #expect(running.policy == .never, "no reloads while it runs: the countdown is live text")
        #expect(running.entries.allSatisfy { $0.phase != .running || $0.relevance?.score == 1.0 })
        #expect(running.entries[1].relevance == Relevance(score: 1.0, duration: 1800), "relevant for the whole step")
    }

    @Test func pauseResumeSkipAndReset() async throws {
        let s = try StateDir()
        let t0 = iso("2026-11-23T18:00:00Z")
        _ = try await press(.start, s, at: t0)
        // Paused 5 minutes into Cook: 25 minutes left, nothing scheduled.
        _ = try await press(.pause, s, at: t0.addingTimeInterval(20 * 60))
        let paused = try await timeline(s, at: t0.addingTimeInterval(21 * 60))
        #expect(paused.entries.count == 1 && paused.entries[0].phase == .paused)
        #expect(paused.entries[0].remaining == 25 * 60 && paused.entries[0].step == 1)
        // Resumed ten minutes later: Cook ends 25 minutes after that.
        let resumeAt = t0.addingTimeInterval(30 * 60)
        _ = try await press(.resume, s, at: resumeAt)
        let resumed = try await timeline(s, at: resumeAt)
        #expect(minutes(resumed.entries.map(\.date), from: resumeAt) == [-5, 25, 35])
        // Skip Rest's remainder straight after it begins: done.
        _ = try await press(.skip, s, at: resumeAt.addingTimeInterval(26 * 60))
        let done = try await timeline(s, at: resumeAt.addingTimeInterval(26 * 60))
        #expect(done.entries.map(\.phase) == [.done])
        _ = try await press(.reset, s, at: resumeAt.addingTimeInterval(27 * 60))
        #expect(try await timeline(s, at: resumeAt.addingTimeInterval(27 * 60)).entries.map(\.phase) == [.idle])
    }

    @Test func everyButtonReturnsTheActionThatPutsTheTimerBack() async throws {
        let s = try StateDir()
        let t0 = iso("2026-11-23T18:00:00Z")
        _ = try await press(.start, s, at: t0)
        let before = try await timeline(s, at: t0.addingTimeInterval(60))
        let undo = try #require(try await press(.skip, s, at: t0.addingTimeInterval(60)))
        #expect(try await timeline(s, at: t0.addingTimeInterval(60)).entries[0].step == 1)
        _ = try await press(undo, s, at: t0.addingTimeInterval(90))
        #expect(try await timeline(s, at: t0.addingTimeInterval(60)).entries == before.entries)
    }

    @Test func pauseWhenNotRunningSaysWhy() async throws {
        let s = try StateDir()
        do {
            _ = try await press(.pause, s, at: testNow)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "the timer is not running")
        }
    }

    @Test func theRunningStateSurvivesARestart() async throws {
        // The state is a file in the cache's state directory: a new process (a new provider,
        // nothing in memory) reading the same directory finds the timer where it was.
        let s = try StateDir()
        let t0 = iso("2026-11-23T18:00:00Z")
        _ = try await press(.start, s, at: t0)
        let later = t0.addingTimeInterval(20 * 60)
        let again = try await RecipeTimerProvider().timeline(
            for: RecipeTimerWidget.schema.resolve(WidgetConfig()),
            in: s.context(later))
        #expect(again.entries.first?.steps[again.entries[0].step].name == "Cook")
        #expect(again.entries.first?.stepEnds == t0.addingTimeInterval(45 * 60))
        let file = s.url.appendingPathComponent("recipe-w1.json")
        #expect(FileManager.default.fileExists(atPath: file.path))
        // Another instance has its own timer.
        #expect(
            try await RecipeTimerProvider().timeline(for: WidgetConfig(), in: s.context(later, id: "w2"))
                .entries.map(\.phase) == [.idle])
    }

    @Test func configuredStepsAndTheBellAtEachStepChange() async throws {
        let s = try StateDir()
        let config = WidgetConfig([
            "steps": .list(["Boil:10", "Simmer:25"]), "bell": .bool(true),
            "label": .string("Soup"),
        ])
        let t0 = iso("2026-11-23T12:00:00Z")
        _ = try await press(.start, s, at: t0, config: config)
        let tl = try await timeline(s, at: t0, config: config)
        #expect(minutes(tl.entries.map(\.date), from: t0) == [0, 10, 35])
        #expect(tl.entries.map(\.bell) == [false, true, true], "a step change rings; the press itself does not")
        #expect(tl.entries[0].title == "Soup")
        // Another recipe configured later starts idle instead of carrying the old state.
        let other = WidgetConfig(["steps": .list(["Knead:10"])])
        #expect(try await timeline(s, at: t0, config: other).entries.map(\.phase) == [.idle])
    }

    @Test func stepsKeepTheirLengthAcrossADSTChange() async throws {
        // Berlin springs forward at 02:00 on 2026-03-29: a step that spans it still lasts its minutes.
        let s = try StateDir()
        let t0 = iso("2026-03-29T00:50:00Z")  // 01:50 CET
        _ = try await press(.start, s, at: t0, zone: "Europe/Berlin")
        let tl = try await timeline(s, at: t0, zone: "Europe/Berlin")
        #expect(minutes(tl.entries.map(\.date), from: t0) == [0, 15, 45, 55])
        let ctx = TimelineContext(
            family: .large, size: contentSize(.large), now: t0,
            timeZone: TimeZone(identifier: "Europe/Berlin")!)
        let text = render(widget.view(for: AnyEntry(tl.entries[0]), in: ctx), width: 35, height: 13).text
        #expect(text.contains("01:50 Preheat") && text.contains("03:05 Cook") && text.contains("03:35 Rest"), "\(text)")
    }
}

@Suite struct WaterReminderTests {
    let widget = WaterWidget.widget

    func timeline(_ s: StateDir, at now: Date, zone: String = "UTC", config: WidgetConfig = WidgetConfig())
        async throws -> Timeline<WaterEntry>
    {
        try await WaterProvider().timeline(for: WaterWidget.schema.resolve(config), in: s.context(now, zone: zone))
    }

    func drink(_ s: StateDir, at now: Date, zone: String = "UTC") async throws -> WaterAction? {
        try await widget.perform(
            ActionPayload(WaterAction.drank), configuration: WidgetConfig(),
            in: s.context(now, zone: zone))?.decode(WaterAction.self)
    }

    @Test func theDaysRemindersEveryTwoHoursThenQuietWithOneReloadAtWaking() async throws {
        let s = try StateDir()
        let morning = iso("2026-11-23T08:00:00Z")
        let tl = try await timeline(s, at: morning)
        let day = tl.entries.filter { $0.mode != .night }
        #expect(minutes(day.map(\.date), from: morning) == [0, 120, 240, 360, 480, 600, 720])
        #expect(day.allSatisfy { $0.mode == .due && $0.relevance?.score == 0.9 }, "relevant when due")
        let night = tl.entries.filter { $0.mode == .night }
        #expect(
            night.map(\.date) == [iso("2026-11-23T22:00:00Z"), iso("2026-11-24T00:00:00Z")],
            "quiet at 22:00, and the count starts again at midnight without a reload")
        #expect(night.allSatisfy { $0.relevance == nil && $0.quietUntil == iso("2026-11-24T08:00:00Z") })
        #expect(tl.policy == .after(iso("2026-11-24T08:00:00Z")), "the one reload: at the next waking time")
    }

    @Test func atNightOnlyTheWakingTime() async throws {
        let s = try StateDir()
        let tl = try await timeline(s, at: iso("2026-11-23T23:30:00Z"))
        #expect(tl.entries.map(\.mode) == [.night, .night])
        #expect(tl.policy == .after(iso("2026-11-24T08:00:00Z")))
        let early = try await timeline(s, at: iso("2026-11-24T05:00:00Z"))
        #expect(early.entries.map(\.mode) == [.night] && early.policy == .after(iso("2026-11-24T08:00:00Z")))
    }

    @Test func drankCountsAGlassAndStartsTheIntervalAgain() async throws {
        let s = try StateDir()
        let t = iso("2026-11-23T09:10:00Z")
        let undo = try #require(try await drink(s, at: t))
        let tl = try await timeline(s, at: t)
        #expect(tl.entries[0].glasses == 1 && tl.entries[0].mode == .waiting)
        #expect(tl.entries[0].nextDue == iso("2026-11-23T11:10:00Z"))
        #expect(minutes(tl.entries.filter { $0.mode == .due }.map(\.date), from: t) == [120, 240, 360, 480, 600, 720])
        _ = try await drink(s, at: t.addingTimeInterval(3600))
        #expect(try await timeline(s, at: t.addingTimeInterval(3600)).entries[0].glasses == 2)
        // The next day starts at zero.
        #expect(try await timeline(s, at: iso("2026-11-24T08:00:00Z")).entries[0].glasses == 0)
        // Undo of the first glass puts the state before it back.
        _ = try await widget.perform(ActionPayload(undo), configuration: WidgetConfig(), in: s.context(t))
        #expect(try await timeline(s, at: t).entries[0].glasses == 0)
    }

    @Test func wakingHoursAndIntervalAreConfigurable() async throws {
        let s = try StateDir()
        let config = WidgetConfig(["interval": .int(90), "wake": .string("07:30"), "sleep": .string("12:00")])
        let tl = try await timeline(s, at: iso("2026-11-23T07:30:00Z"), config: config)
        #expect(
            tl.entries.filter { $0.mode == .due }.map { LocalDay.time($0.date, TimeZone(identifier: "UTC")!) }
                == ["07:30", "09:00", "10:30"])
        #expect(tl.policy == .after(iso("2026-11-24T07:30:00Z")))
    }

    @Test(arguments: [
        // Spring forward: 08:00 CEST is 06:00 UTC, and the night before is an hour shorter.
        ("2026-03-28T22:30:00Z", "2026-03-29T06:00:00Z", "2026-03-29T20:00:00Z"),
        // Fall back: 08:00 CET is 07:00 UTC, and the night before is an hour longer.
        ("2026-10-24T21:30:00Z", "2026-10-25T07:00:00Z", "2026-10-25T21:00:00Z"),
    ])
    func wakingTimeIsLocalAcrossDSTChangesInBerlin(_ night: String, _ wake: String, _ sleep: String) async throws {
        let s = try StateDir()
        let before = try await timeline(s, at: iso(night), zone: "Europe/Berlin")
        #expect(before.policy == .after(iso(wake)))
        let day = try await timeline(s, at: iso(wake), zone: "Europe/Berlin")
        let zone = TimeZone(identifier: "Europe/Berlin")!
        #expect(
            day.entries.filter { $0.mode == .due }.map { LocalDay.time($0.date, zone) }
                == ["08:00", "10:00", "12:00", "14:00", "16:00", "18:00", "20:00"])
        #expect(day.entries.first { $0.mode == .night }?.date == iso(sleep), "22:00 local")
    }

    @Test(arguments: [WidgetFamily.small, .medium, .large])
    func tilesSayMoreAsTheyGrow(_ family: WidgetFamily) async throws {
        let s = try StateDir()
        _ = try await drink(s, at: iso("2026-11-23T08:40:00Z"))
        let tl = try await timeline(s, at: testNow)
        let tile = render(widget, AnyEntry(tl.entries[0]), family)
        assertSnapshot(tile.text, named: "water-\(family.rawValue)")
        #expect(tile.text.contains("[ Drank ]"))
    }

    /// Issue 38.7: at night the small tile says until when it is quiet, whole.
    @Test func smallWaterTileSaysQuietTillWhole() async throws {
        let s = try StateDir()
        let tl = try await timeline(s, at: iso("2026-11-23T23:00:00Z"))
        let tile = render(widget, AnyEntry(tl.entries[0]), .small)
        #expect(tile.text.contains("Quiet → 08:00"), "\(tile.text)")
        #expect(!tile.text.contains("…"), "\(tile.text)")
        let medium = render(widget, AnyEntry(tl.entries[0]), .medium)
        #expect(medium.text.contains("Quiet till 08:00"), "\(medium.text)")
    }
}
