import Foundation
import Testing
import DashCore
import DashWidgets
import DashTestSupport
import DashHome
import DashApp
@testable import DashBuiltinWidgets

/// Widgets whose colour says something about a value (issue 36.4): a load level, a price going
/// up or down, an API threshold. Each is drawn on the whole home screen and snapshotted as text
/// and style together (`StyleDump.screen`), and the cells that carry the meaning are checked by
/// role, so a high load drawn in the calm colour fails even when every character is right.
@Suite struct ColourMeaningTests {
    /// The home screen, 80×24, with one tile of `widget` in `family` showing `entry`.
    func screen(_ widget: Widget, _ entry: any TimelineEntry, family: WidgetFamily) -> (CellBuffer, Theme) {
        let home = HomeConfig(tiles: [
            TileInstance(id: "t1", family: family, items: [WidgetInstance(id: "w1", kind: widget.kind)])
        ])
        let h = AppHarness(widgets: [widget], home: home, now: testNow)
        h.finish("w1", entries: [entry])
        defer { h.skipPendingWork() }
        return (h.frame.buffer, h.state.theme)
    }

    func foreground(_ text: String, _ buffer: CellBuffer, onRowWith row: String? = nil) -> Color? {
        StyleDump.style(of: text, in: buffer, onRowWith: row)?.foreground
    }

    /// The system tile's cores: calm below 70 %, busy from 70 %, critical from 90 %.
    @Test func systemLoadLevelsAreCalmBusyAndCritical() async throws {
        let machine = try FakeMachine()
        let widget = machine.widget()
        let timeline = try await widget.timeline(for: WidgetConfig(), in: context(.large))
        var entry = try #require(timeline.entries.first?.base as? SystemEntry)
        entry.cores = [96, 77, 21, 4]
        entry.memory.available = entry.memory.total / 20  // 95 % used
        let (buffer, theme) = screen(widget, entry, family: .large)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-system-levels-80x24")
        #expect(foreground("96%", buffer) == theme[.negative], "a core at 96 % is critical")
        #expect(foreground("77%", buffer) == theme[.warning], "a core at 77 % is busy")
        #expect(foreground("21%", buffer) == theme[.accent], "a core at 21 % is calm")
        #expect(foreground("█", buffer, onRowWith: "Mem ") == theme[.negative], "memory 95 % used: a critical gauge")
        #expect(foreground("█", buffer, onRowWith: "CPU ") == theme[.accent], "a calm CPU gauge")
    }

    /// A coin's change: up in the positive colour, down in the negative one.
    @Test func coinPricesUpAndDown() throws {
        let entry = CryptoSamples.entry(selected: "BTC", currency: "USD", now: testNow)
        let (buffer, theme) = screen(CryptoWidget.make(), entry, family: .large)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-crypto-up-down-80x24")
        #expect(foreground("+2.40%", buffer) == theme[.positive], "Bitcoin went up 2.4 %")
        #expect(foreground("-1.3%", buffer) == theme[.negative], "Ether went down 1.3 %")
        #expect(foreground("+0.8%", buffer) == theme[.positive], "BNB went up 0.8 %")
        #expect(foreground("0.0%", buffer) == theme[.secondaryText], "Tether did not move: no colour for no change")
    }

    /// An API widget's values by their thresholds: normal, warning, alert.
    @Test func apiThresholdLevels() throws {
        var entry = APISamples.entry(now: testNow)
        entry.values.append(
            APIValue(
                label: "Queue", text: "9,120", problem: nil, level: .alert, number: 9120, limits: ["alert>5000"]))
        let (buffer, theme) = screen(APIWidget.make(), entry, family: .large)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-api-thresholds-80x24")
        #expect(foreground("12,408", buffer) == theme[.text], "a value within its limits is plain")
        #expect(foreground("3.2 %", buffer) == theme[.warning], "a value over warn>2 is a warning")
        #expect(foreground("9,120", buffer) == theme[.negative], "a value over alert>5000 is an alert")
    }

    /// Pull requests' checks: passing, failing, pending.
    @Test func githubChecksPassFailAndWait() throws {
        var entry = GitHubSamples.entry(now: testNow)
        var pending = entry.mine[0]
        pending.number = 415
        pending.title = "Wait for the runner"
        pending.checks = .pending
        entry.mine.append(pending)
        entry.mineCount = entry.mine.count
        let (buffer, theme) = screen(GitHubWidget.make(), entry, family: .large)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-github-checks-80x24")
        #expect(foreground("✓ #408", buffer) == theme[.positive], "passing checks")
        #expect(foreground("✗ #77", buffer) == theme[.negative], "failing checks")
        #expect(foreground("● #415", buffer) == theme[.warning], "checks still running")
    }

    /// Reminders by when they are due: late, today, later.
    @Test func remindersLateAndDueToday() throws {
        let entry = RemindersProvider.sample(context(.large))
        let (buffer, theme) = screen(RemindersWidget.widget, entry, family: .large)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-reminders-due-80x24")
        #expect(foreground("1 d late", buffer) == theme[.negative], "an overdue task")
        #expect(foreground("today", buffer, onRowWith: "Send the invoice") == theme[.warning], "a task due today")
        #expect(foreground("Wed", buffer, onRowWith: "Book dentist") == theme[.secondaryText], "a task due later")
    }

    /// Every foreground colour drawn on the rows that show `row`.
    func foregrounds(onRowWith row: String, _ buffer: CellBuffer) -> Set<Color> {
        var colours: Set<Color> = []
        for y in 0..<buffer.height where buffer.rowText(y).contains(row) {
            for x in 0..<buffer.width { colours.insert(buffer[x, y].style.foreground) }
        }
        return colours
    }

    /// The week's forecast: a day of 25° or more has its range bar in the warning colour.
    @Test func weatherHotDaysAreWarnings() throws {
        var entry = WeatherSamples.entry(now: testNow)
        entry.days[2].high = 31
        let (buffer, theme) = screen(WeatherWidget.widget, entry, family: .large)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-weather-hot-day-80x24")
        #expect(foregrounds(onRowWith: "31°", buffer).contains(theme[.warning]), "a hot day")
        #expect(!foregrounds(onRowWith: "19°", buffer).contains(theme[.warning]), "a mild day")
    }

    /// A command that failed: its exit status in the negative colour, its output in the colours
    /// its escape codes asked for.
    @Test func commandExitStatusAndOutputColours() throws {
        var entry = CommandWidgetTests.sample
        entry.exitStatus = 2
        let (buffer, theme) = screen(CommandWidget.make(runs: CommandRunRegistry()), entry, family: .large)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-command-exit-80x24")
        #expect(foreground("exit 2", buffer) == theme[.negative], "a failed run")
        #expect(foreground("?? notes.txt", buffer) == theme[.negative], "red output stays red")
        #expect(foreground("A  new.swift", buffer) == theme[.positive], "green output stays green")
        #expect(foreground(" D old.txt", buffer) == theme[.text], "uncoloured output is plain")
    }

    /// The water reminder: due is a warning, waiting is quiet.
    @Test func waterDueIsAWarning() throws {
        var entry = WaterEntry(
            date: testNow, mode: .due, glasses: 3, goal: 8, interval: 90, lastDrink: testNow.addingTimeInterval(-6000),
            nextDue: nil, dueSince: testNow.addingTimeInterval(-600), quietUntil: nil, wake: "08:00", sleep: "22:00",
            reminders: [], zone: "UTC")
        let (due, theme) = screen(WaterWidget.widget, entry, family: .medium)
        assertSnapshot(StyleDump.screen(due, theme: theme), named: "styles-water-due-80x24")
        #expect(foreground("Drink a glass", due) == theme[.warning], "a glass is due")
        entry.mode = .waiting
        entry.dueSince = nil
        entry.nextDue = testNow.addingTimeInterval(3600)
        let (waiting, _) = screen(WaterWidget.widget, entry, family: .medium)
        #expect(foreground("Next at", waiting) == theme[.secondaryText], "waiting is quiet")
    }
}

