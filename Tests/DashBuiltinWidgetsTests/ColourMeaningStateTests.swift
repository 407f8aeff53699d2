import Foundation
import Testing
import DashCore
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// More colours that say something (issue 36.4): a meeting under way, a timer on hold, steps
/// behind, a failed command in the small size, a notice that data is partial. Each is drawn on
/// the whole home screen and snapshotted as text and style together; the meaningful cells are
/// checked by role, so a change of what a colour means fails even when the text is right.
extension ColourMeaningTests {
    /// The calendar: the event under way in the positive colour, the sources' problems as a
    /// warning badge in the header.
    @Test func calendarRunningEventAndProblemsBadge() {
        func event(_ summary: String, from start: TimeInterval, minutes: Double) -> CalendarOccurrence {
            let begins = testNow.addingTimeInterval(start)
            return CalendarOccurrence(
                uid: summary, start: begins, end: begins.addingTimeInterval(minutes * 60), allDay: false,
                summary: summary)
        }
        let entry = CalendarEntry(
            date: testNow, label: "Work", timeZone: "UTC", daysAhead: 7,
            events: [event("Standup", from: -900, minutes: 30), event("Design review", from: 10_800, minutes: 60)],
            problems: [
                CalendarProblem(source: "team.ics", line: 12, message: "DTSTART is not a date"),
                CalendarProblem(source: "holidays.ics", line: nil, message: "not a calendar"),
            ])
        let (buffer, theme) = screen(CalendarWidget.widget, entry, family: .large)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-calendar-now-problems-80x24")
        #expect(foreground("now–09:15", buffer) == theme[.positive], "the meeting under way")
        #expect(foreground("⚠ 2", buffer) == theme[.warning], "two problems reading the calendars")
        #expect(foreground("12:00", buffer, onRowWith: "Design review") == theme[.secondaryText], "a later event")
    }

    /// The recipe timer on hold: the countdown in the warning colour, the steps behind ticked in
    /// the positive one, the step under way in the accent.
    @Test func recipePausedCountdownAndDoneSteps() {
        let steps = [RecipeStep(name: "Preheat", minutes: 15), RecipeStep(name: "Cook", minutes: 30),
                     RecipeStep(name: "Rest", minutes: 10)]
        let entry = RecipeEntry(
            date: testNow, title: "Lasagne", steps: steps, phase: .paused, step: 1, stepEnds: nil, starts: [],
            finishes: nil, remaining: 1_234, bell: false)
        let (buffer, theme) = screen(RecipeTimerWidget.widget, entry, family: .medium)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-recipe-paused-80x24")
        #expect(foreground("20:34", buffer) == theme[.warning], "a paused countdown")
        #expect(foreground("✓", buffer, onRowWith: "Preheat") == theme[.positive], "a step done")
        #expect(foreground("▶", buffer, onRowWith: "Cook") == theme[.accent], "the step under way")
    }

    /// The small command tile: a failed run's status as a short "✗2" in the negative colour.
    @Test func commandSmallExitStatus() {
        var entry = CommandWidgetTests.sample
        entry.exitStatus = 2
        let (buffer, theme) = screen(CommandWidget.make(runs: CommandRunRegistry()), entry, family: .small)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-command-small-exit-80x24")
        #expect(foreground("✗2", buffer) == theme[.negative], "a failed run, in short")
        #expect(StyleDump.style(of: "✗2", in: buffer)?.attributes.contains(.bold) == true)
    }

    /// A chart whose data is partial says so under the chart in the warning colour.
    @Test func chartNoticeIsAWarning() {
        var entry = ChartSamples.entry(now: testNow)
        entry.notice = "the history could not be saved"
        let (buffer, theme) = screen(ChartWidget.make(), entry, family: .medium)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-chart-notice-80x24")
        #expect(foreground("the history could not be saved", buffer) == theme[.warning], "a notice")
        #expect(foreground("Load", buffer) == theme[.accent], "the title stays in the accent")
    }

    /// An API widget whose data is partial says so under its title in the warning colour; a
    /// field missing from the answer says so in the warning colour too.
    @Test func apiNoticeIsAWarning() {
        var entry = APISamples.entry(now: testNow)
        entry.notice = "rate limited: showing the values of 09:00"
        entry.values.append(
            APIValue(label: "Queue", text: nil, problem: "not in the answer", level: .normal, number: nil, limits: []))
        let (buffer, theme) = screen(APIWidget.make(), entry, family: .large)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-api-notice-80x24")
        #expect(foreground("rate limited", buffer) == theme[.warning], "a notice")
        #expect(foreground("not in the answer", buffer) == theme[.warning], "a field the answer lacks")
        #expect(foreground("12,408", buffer) == theme[.text], "a value within its limits stays plain")
    }

    /// A network widget that failed: "Failed to load" in the negative colour, the reason quiet.
    @Test func networkWidgetFailedToLoadIsNegative() {
        var entry = APISamples.entry(now: testNow)
        entry.failure = "HTTP 503 from api.example.com: the server is busy; swiftdash retries in 5 min"
        let (buffer, theme) = screen(APIWidget.make(), entry, family: .large)
        assertSnapshot(StyleDump.screen(buffer, theme: theme), named: "styles-api-failed-80x24")
        #expect(foreground("Failed to load", buffer) == theme[.negative], "the load failed")
        #expect(foreground("HTTP 503", buffer) == theme[.secondaryText], "why, in the quiet caption")
    }
}
