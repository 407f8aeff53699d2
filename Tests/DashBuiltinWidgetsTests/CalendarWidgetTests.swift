import Foundation
import Testing
import DashCore
import DashRender
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// Calendar tests run in Berlin, where the corpus's DST edges are.
let berlin = TimeZone(identifier: "Europe/Berlin")!

func calendarContext(
    _ family: WidgetFamily, now: Date = testNow, preview: Bool = false,
    environment: [String: String] = [:]
) -> TimelineContext {
    TimelineContext(
        family: family, size: contentSize(family), now: now, isPreview: preview, timeZone: berlin,
        environment: environment)
}

/// Draws a calendar view at `now`, with Berlin as the screen's zone.
func renderCalendar(_ view: TileView, width: Int, height: Int, now: Date = testNow) -> RenderedTile {
    var buffer = CellBuffer(width: width, height: height)
    let result = TileRenderer.render(
        view, in: Rect(x: 0, y: 0, width: width, height: height), buffer: &buffer,
        environment: RenderEnvironment(theme: .dark, now: now, timeZone: berlin))
    return RenderedTile(text: buffer.textDump, links: result.tapRegions.map(\.url), widgetURL: result.widgetURL)
}

func icsFixture(_ name: String) -> URL {
    testsDirectory.appendingPathComponent("Fixtures/ics").appendingPathComponent(name)
}

/// 2026-11-23 (a Monday) at a Berlin wall time.
func berlinTime(_ hh: Int, _ mm: Int, day: Int = 23, month: Int = 11) -> Date {
    let z = CalendarZone.iana("Europe/Berlin")!
    return Date(timeIntervalSince1970: TimeInterval(z.utc(fromWall: Civil.wall(2026, month, day, hh, mm))))
}

@Suite("calendar parser")
struct CalendarParserTests {
    @Test func unfoldingEscapesAndLinks() throws {
        let doc = CalendarParser.parse(try Data(contentsOf: icsFixture("google.ics")), source: "google.ics")
        #expect(doc.problems.isEmpty)
        #expect(doc.name == "Work (Google)")
        let z = CalendarZone.iana("Europe/Berlin")!
        let occ = doc.occurrences(from: berlinTime(0, 0), to: berlinTime(0, 0, day: 24), viewer: z).occurrences
        let moved = try #require(occ.first { $0.summary == "Team standup (moved)" })
        #expect(moved.start == berlinTime(11, 0))
        #expect(moved.location == "Room 2.12")
        // Nov 25's standup is cancelled by its override; Nov 27's is not.
        let week = doc.occurrences(from: berlinTime(0, 0), to: berlinTime(0, 0, day: 30), viewer: z).occurrences
        let standups = week.filter { $0.summary.hasPrefix("Team standup") }.map {
            CalendarFormat.dayNumber($0.start, z)
        }
        #expect(standups.count == 2)
        let master = try #require(week.first { $0.summary == "Team standup" })
        #expect(
            master.description.contains(
                "Daily standup, three times a week.\nJoin with Google Meet: https://meet.google.com/abc-defg-hij"))
        #expect(master.description.contains("yesterday; today; blockers\\nothing else"))
        #expect(master.location == "Room 4.01, Haus B")
        #expect(master.links.first == "https://meet.google.com/abc-defg-hij")
        #expect(master.recurring)
    }

    /// Issue 38.10: a fold that splits a multi-byte UTF-8 character is joined as bytes, then
    /// decoded (RFC 5545 §3.1): "Café Zürich", never U+FFFD.
    @Test func aFoldInsideAUTF8CharacterIsUnfoldedBeforeDecoding() throws {
        let summary = Array("SUMMARY:Café Zürich".utf8)
        let cut = summary.firstIndex(of: 0xC3)! + 1  // between the two bytes of "é"
        var ics = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20261123T100000Z\r\n".utf8)
        ics += summary[..<cut] + Array("\r\n ".utf8) + summary[cut...]
        ics += Array("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        let doc = CalendarParser.parse(Data([0xEF, 0xBB, 0xBF] + ics), source: "split.ics")
        #expect(doc.problems.isEmpty)
        let z = CalendarZone.iana("Europe/Berlin")!
        let occ = doc.occurrences(from: berlinTime(0, 0), to: berlinTime(0, 0, day: 24), viewer: z).occurrences
        #expect(occ.map(\.summary) == ["Café Zürich"])
    }

    /// Issue 38.10: a weekly 02:30–03:00 in Berlin meets the spring-forward gap on 29 March:
    /// that instance starts at 03:30 and keeps its 30 minutes (RFC 5545 §3.8.5.3), never
    /// ending before it starts.
    @Test func anInstanceInASpringForwardGapKeepsTheSeriesDuration() throws {
        let ics = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:gap
            DTSTART;TZID=Europe/Berlin:20260322T023000
            DTEND;TZID=Europe/Berlin:20260322T030000
            RRULE:FREQ=WEEKLY;COUNT=3
            SUMMARY:Night job
            END:VEVENT
            END:VCALENDAR
            """
        let doc = CalendarParser.parse(Data(ics.utf8), source: "gap.ics")
        let z = CalendarZone.iana("Europe/Berlin")!
        let occ = doc.occurrences(
            from: berlinTime(0, 0, day: 20, month: 3), to: berlinTime(0, 0, day: 6, month: 4), viewer: z
        ).occurrences
        #expect(occ.count == 3)
        for o in occ { #expect(o.end.timeIntervalSince(o.start) == 1800, "\(o.start)–\(o.end)") }
        #expect(occ.map { CalendarFormat.hm($0.start, z) } == ["02:30", "03:30", "02:30"])
    }

    /// Issue 38.10: `RECURRENCE-ID;RANGE=THISANDFUTURE` moves that instance and every later one
    /// (an hour later, an hour long, with the new summary); a later single override still wins.
    @Test func thisAndFutureMovesEveryLaterInstance() throws {
        let ics = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:weekly
            DTSTART;TZID=Europe/Berlin:20261102T100000
            DTEND;TZID=Europe/Berlin:20261102T103000
            RRULE:FREQ=WEEKLY;COUNT=5
            SUMMARY:Review
            END:VEVENT
            BEGIN:VEVENT
            UID:weekly
            RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20261116T100000
            DTSTART;TZID=Europe/Berlin:20261116T110000
            DTEND;TZID=Europe/Berlin:20261116T120000
            SUMMARY:Review (later)
            END:VEVENT
            BEGIN:VEVENT
            UID:weekly
            RECURRENCE-ID;TZID=Europe/Berlin:20261123T100000
            DTSTART;TZID=Europe/Berlin:20261123T140000
            DTEND;TZID=Europe/Berlin:20261123T143000
            SUMMARY:Review (one-off)
            END:VEVENT
            END:VCALENDAR
            """
        let doc = CalendarParser.parse(Data(ics.utf8), source: "future.ics")
        #expect(doc.problems.isEmpty)
        let z = CalendarZone.iana("Europe/Berlin")!
        let occ = doc.occurrences(from: berlinTime(0, 0, day: 1), to: berlinTime(0, 0, day: 10, month: 12), viewer: z)
            .occurrences.sorted { $0.start < $1.start }
        let first = CalendarFormat.dayNumber(berlinTime(0, 0, day: 1), z)
        #expect(
            occ.map {
                "\(CalendarFormat.dayNumber($0.start, z) - first) "
                    + "\(CalendarFormat.hm($0.start, z))–\(CalendarFormat.hm($0.end, z)) \($0.summary)"
            }
                == [
                    "1 10:00–10:30 Review", "8 10:00–10:30 Review", "15 11:00–12:00 Review (later)",
                    "22 14:00–14:30 Review (one-off)", "29 11:00–12:00 Review (later)",
                ])
    }

    /// Issue 38.10: the whole RRULE grammar: HOURLY (MINUTELY, SECONDLY) and BYWEEKNO expand
    /// as python-dateutil does, with no problem reported.
    @Test func hourlyAndWeekNumberRulesExpand() throws {
        func starts(_ rrule: String, days: Int = 2) -> [String] {
            let doc = CalendarParser.parse(Data(rule(rrule).utf8), source: "r.ics")
            #expect(doc.problems.isEmpty, "\(rrule): \(doc.problems)")
            let from = Date(timeIntervalSince1970: 1_795_392_000)  // 2026-11-23 00:00 UTC
            return doc.occurrences(from: from, to: from.addingTimeInterval(Double(days) * 86_400), viewer: .utc)
                .occurrences.map { $0.start.formatted(.iso8601) }.sorted()
        }
        #expect(
            starts("FREQ=HOURLY;INTERVAL=3;COUNT=4")
                == ["2026-11-23T10:00:00Z", "2026-11-23T13:00:00Z", "2026-11-23T16:00:00Z", "2026-11-23T19:00:00Z"])
        #expect(
            starts("FREQ=HOURLY;BYHOUR=10,11;BYMINUTE=0,30;COUNT=5")
                == [
                    "2026-11-23T10:00:00Z", "2026-11-23T10:30:00Z", "2026-11-23T11:00:00Z", "2026-11-23T11:30:00Z",
                    "2026-11-24T10:00:00Z",
                ])
        #expect(
            starts("FREQ=MINUTELY;INTERVAL=20;COUNT=3")
                == ["2026-11-23T10:00:00Z", "2026-11-23T10:20:00Z", "2026-11-23T10:40:00Z"])
        // ISO week 48 of 2026 is 23–29 November: its Tuesday, then week 48 of 2027's (DTSTART,
        // a Monday, is an occurrence of its own, as the reference has it).
        #expect(starts("FREQ=YEARLY;BYWEEKNO=48;BYDAY=TU;COUNT=2", days: 400).count == 3)
        #expect(
            starts("FREQ=YEARLY;BYWEEKNO=48;BYDAY=TU", days: 400)
                == ["2026-11-23T10:00:00Z", "2026-11-24T10:00:00Z", "2027-11-30T10:00:00Z"])
        // The last week: 53 in 2026 (from 28 December), 52 in 2027 (from 27 December).
        #expect(
            starts("FREQ=YEARLY;BYWEEKNO=-1;BYDAY=MO", days: 400)
                == ["2026-11-23T10:00:00Z", "2026-12-28T10:00:00Z", "2027-12-27T10:00:00Z"])
    }

    @Test func outlookWindowsZonesAndTeamsLinks() throws {
        let doc = CalendarParser.parse(try Data(contentsOf: icsFixture("outlook.ics")), source: "outlook.ics")
        #expect(doc.problems.isEmpty)
        let z = CalendarZone.iana("Europe/Berlin")!
        let occ = doc.occurrences(from: berlinTime(0, 0, day: 16), to: berlinTime(0, 0, day: 30), viewer: z).occurrences
        let sync = try #require(occ.first { $0.summary == "Berlin / New York sync" })
        #expect(sync.links.first?.hasPrefix("https://teams.microsoft.com/l/meetup-join/") == true)
        #expect(sync.description.contains("Microsoft Teams meeting"))
        #expect(sync.uid.hasSuffix("A2B3C4D5E6F708192A3B4C5D6E7F8"))
        let year = doc.occurrences(
            from: berlinTime(0, 0, day: 1, month: 1), to: berlinTime(0, 0, day: 1, month: 12),
            viewer: z
        ).occurrences
        let close = try #require(year.first { $0.summary == "Month-end close" })
        #expect(close.organizer == "Finance Team")
        // Without a VTIMEZONE block a Windows name still resolves.
        let bare = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:x
            DTSTART;TZID="W. Europe Standard Time":20260715T090000
            DTEND;TZID=Eastern Standard Time:20260715T090000
            SUMMARY:Windows names
            END:VEVENT
            END:VCALENDAR
            """
        let d2 = CalendarParser.parse(Data(bare.utf8), source: "bare.ics")
        let o = try #require(
            d2.occurrences(
                from: berlinTime(0, 0, day: 1, month: 7), to: berlinTime(0, 0, day: 1, month: 8),
                viewer: z
            ).occurrences.first)
        #expect(o.start == Date(timeIntervalSince1970: 1_784_098_800))  // 2026-07-15T07:00Z
        #expect(o.end == Date(timeIntervalSince1970: 1_784_120_400))  // 2026-07-15T13:00Z
        #expect(d2.problems.isEmpty)
        #expect(WindowsZones.iana.count >= 130)
    }

    @Test func textIsCappedAndSanitised() throws {
        let long = String(repeating: "x", count: 5000)
        let ics = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:evil
            DTSTART:20261123T100000Z
            SUMMARY:Hello \u{1B}[31mred\u{1B}[0m \u{1B}]8;;http://x\u{07}link\u{1B}]8;;\u{07} \u{202E}gnp.exe
            DESCRIPTION:\(long)
            LOCATION:Room\\n1\\, \u{9B}2J
            END:VEVENT
            END:VCALENDAR
            """
        let doc = CalendarParser.parse(Data(ics.utf8), source: "evil.ics")
        let o = try #require(
            doc.occurrences(from: testNow, to: testNow.addingTimeInterval(86_400), viewer: .utc).occurrences.first)
        #expect(o.summary == "Hello red link gnp.exe")
        #expect(o.description.count == 2000)
        #expect(o.location == "Room 1,")
        for s in [o.summary, o.description, o.location] { #expect(isClean(s)) }
    }

    @Test func brokenLinesAreSkippedWithAReason() throws {
        let doc = CalendarParser.parse(try Data(contentsOf: icsFixture("broken/broken.ics")), source: "broken.ics")
        let messages = doc.problems.map(\.description)
        let z = CalendarZone.iana("Europe/Berlin")!
        let occ = doc.occurrences(from: berlinTime(0, 0), to: berlinTime(0, 0, day: 30), viewer: z).occurrences
        // The good events survive every broken line around them.
        #expect(
            Set(occ.map(\.summary)) == [
                "Still here", "Weekly, rule half broken", "Unknown zone read as local",
                "Never closed",
            ])
        for fragment in [
            "broken.ics:5: not a 'NAME:value' line", "has no DTSTART", "DTSTART '2026-11-24' is not a date",
            "RRULE: FREQ=FORTNIGHTLY is not a frequency", "unknown time zone Mars/Olympus_Mons",
            "END:VTODO without a matching BEGIN", "is never closed",
        ] {
            #expect(messages.contains { $0.contains(fragment) }, "\(fragment) in \(messages)")
        }
        #expect(doc.problems.allSatisfy { $0.line != nil || $0.message.contains("never closed") })
    }

    func rule(_ r: String) -> String {
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:r\nDTSTART:20261123T100000Z\nRRULE:\(r)\nEND:VEVENT\nEND:VCALENDAR"
    }

    @Test func garbageNeverCrashes() {
        var rng = SeededRandom(seed: 5545)  // fixed: a failure can be replayed
        let base = Array((try? Data(contentsOf: icsFixture("outlook.ics"))) ?? Data())
        for round in 0..<60 {
            var bytes = base
            // Cut, flip and splice: truncated downloads, binary junk, lone CRs.
            let cut = Int.random(in: 0...bytes.count, using: &rng)
            if round % 3 == 0 { bytes = Array(bytes.prefix(cut)) }
            for _ in 0..<Int.random(in: 1...40, using: &rng) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            let doc = CalendarParser.parse(Data(bytes), source: "junk.ics")
            _ = doc.occurrences(from: testNow, to: testNow.addingTimeInterval(30 * 86_400), viewer: .utc)
        }
        for text in [
            "", "BEGIN:VCALENDAR", "END:VCALENDAR", ":::", "BEGIN:\nEND:", String(repeating: "BEGIN:X\n", count: 100),
            "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T100000Z\nRRULE:FREQ=DAILY;INTERVAL=0\nEND:VEVENT",
            rule("FREQ=MONTHLY;BYDAY=-9223372036854775808MO"), rule("FREQ=MONTHLY;BYMONTHDAY=-9223372036854775808"),
            rule("FREQ=YEARLY;INTERVAL=99999999999999999999"), rule("FREQ=DAILY;COUNT=9223372036854775807"),
            rule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"), rule("FREQ=WEEKLY;BYDAY=;WKST=XX"),
            "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:99991231T235959Z\nRRULE:FREQ=DAILY\nEND:VEVENT",
            "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:00010101T000000Z\nDURATION:-P99999999W\nEND:VEVENT",
        ] {
            let doc = CalendarParser.parse(Data(text.utf8), source: "t.ics")
            _ = doc.occurrences(from: testNow, to: testNow.addingTimeInterval(86_400), viewer: .utc)
        }
    }

    @Test func boundsOnSizeAndOccurrences() {
        let big = Data(count: ICSReader.maxBytes + 1)
        let refused = CalendarParser.parse(big, source: "big.ics")
        #expect(refused.problems.first?.message.contains("larger than 10 MB") == true)
        // A rule from long ago, every day, is walked from the window, not from 1970.
        let ics = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:many
            DTSTART:19700101T000000Z
            RRULE:FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYMINUTE=0,30
            SUMMARY:Every half hour
            END:VEVENT
            END:VCALENDAR
            """
        let doc = CalendarParser.parse(Data(ics.utf8), source: "many.ics")
        // Bounded: it stops at the cap and says so.
        let r = doc.occurrences(from: testNow, to: testNow.addingTimeInterval(365 * 86_400), viewer: .utc)
        #expect(r.occurrences.count == CalendarParser.maxOccurrences)
        #expect(r.problems.contains { $0.message.contains("only the first 2000") })
    }
}

@Suite("calendar widget")
struct CalendarWidgetTests {
    let widget = CalendarWidget.make(http: testHTTP)

    func config(_ files: [String], _ extra: [String: ConfigValue] = [:]) -> WidgetConfig {
        var c = WidgetConfig(["files": .list(files)])
        for (k, v) in extra { c[k] = v }
        return c
    }

    @Test func schemaAndBundle() throws {
        #expect(widget.schema.parameters.map(\.key) == ["files", "daysAhead", "label", "refreshMinutes"])
        let d = widget.schema.defaults
        #expect(d.list("files").isEmpty)
        #expect(d.int("daysAhead") == 7)
        #expect(widget.supportedFamilies == [.small, .medium, .large, .extraLarge])
        #expect(BuiltinWidgets.bundle["calendar"] != nil)
        #expect(widget.schema.validate(WidgetConfig(["daysAhead": .int(40)])).count == 1)
        #expect(
            try widget.schema.parse(key: "files", text: "~/a.ics, https://x.org/b.ics")
                == .list(["~/a.ics", "https://x.org/b.ics"]))
        #expect(CalendarWidget.reloadCost(for: config(["/tmp/a.ics"])) == .local)
        #expect(CalendarWidget.reloadCost(for: config(["/tmp/a.ics", "webcal://x.org/b.ics"])) == .budgeted)
    }

    @Test func shippedSampleIsTheBuiltInOne() async throws {
        let repo = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        let shipped = try String(
            contentsOf: repo.appendingPathComponent("examples/calendar/sample.ics"), encoding: .utf8)
        #expect(shipped == CalendarSample.ics + "\n" || shipped == CalendarSample.ics)
        #expect(CalendarSample.document.problems.isEmpty)
        // No files: the sample, offline, with events in every coming week.
        let t = try await widget.timeline(for: WidgetConfig(), in: calendarContext(.medium))
        let first = try #require(t.entries.first)
        let entry = try #require(first.base as? CalendarEntry)
        #expect(entry.isSample)
        #expect(entry.events.count >= 10)
    }

    @Test func entriesAtEveryStartAndEndAndReloadAfterTheWindow() async throws {
        let cfg = config([icsFixture("google.ics").path], ["refreshMinutes": .int(1440)])
        let now = berlinTime(9, 0)
        let t = try await widget.timeline(for: cfg, in: calendarContext(.large, now: now))
        #expect(t.policy == .after(now.addingTimeInterval(86_400)))
        let dates = Set(t.entries.map(\.date))
        // The moved standup (11:00–11:15), 15 minutes before it, and midnight.
        for d in [berlinTime(11, 0), berlinTime(11, 15), berlinTime(10, 45), berlinTime(0, 0, day: 24), now] {
            #expect(dates.contains(d), "\(d)")
        }
        #expect(t.entries.map(\.date) == t.entries.map(\.date).sorted())
        // The screen changes exactly at the start: a second before, the event is next; at the start it is on.
        let before = try #require(t.entry(at: berlinTime(11, 0).addingTimeInterval(-1))?.base as? CalendarEntry)
        let at = try #require(t.entry(at: berlinTime(11, 0))?.base as? CalendarEntry)
        let small = calendarContext(.small)
        let beforeTile = renderCalendar(
            widget.view(for: AnyEntry(before), in: small), width: 15, height: 5,
            now: berlinTime(11, 0).addingTimeInterval(-1)
        ).text
        let atTile = renderCalendar(
            widget.view(for: AnyEntry(at), in: small), width: 15, height: 5, now: berlinTime(11, 0)
        ).text
        #expect(beforeTile.contains("11:00–11:15") && beforeTile.contains("now"))
        #expect(atTile.contains("Now") && atTile.contains("ends in 15 min"))
        // And at the end it is gone.
        let after = try #require(t.entry(at: berlinTime(11, 15))?.base as? CalendarEntry)
        #expect(!after.events.contains { $0.summary == "Team standup (moved)" })
    }

    @Test func relevanceRisesBeforeAndWhileAnEventRuns() async throws {
        let cfg = config([icsFixture("google.ics").path], ["refreshMinutes": .int(600)])
        let t = try await widget.timeline(for: cfg, in: calendarContext(.small, now: berlinTime(9, 0)))
        func rel(_ d: Date) -> Relevance? { t.entry(at: d)?.relevance }
        #expect(rel(berlinTime(10, 0)) == nil)
        #expect(rel(berlinTime(10, 45))?.score == 0.75)
        #expect(abs((rel(berlinTime(10, 45))?.duration ?? 0) - 15 * 60) < 0.001)
        #expect(rel(berlinTime(11, 0))?.score == 1)
        #expect(abs((rel(berlinTime(11, 0))?.duration ?? 0) - 15 * 60) < 0.001)
        #expect(rel(berlinTime(11, 15)) == nil)
    }

    @Test func liveCountdownAndEveryFamily() async throws {
        let cfg = config([icsFixture("google.ics").path, icsFixture("fastmail.ics").path])
        // 10:48 Berlin: the moved standup starts in 12 minutes.
        let now = berlinTime(10, 48)
        for family in [WidgetFamily.small, .medium, .large, .extraLarge] {
            let t = try await widget.timeline(for: cfg, in: calendarContext(family, now: now))
            let entry = try #require(t.entries.first)
            let size = contentSize(family)
            let tile = renderCalendar(
                widget.view(for: entry, in: calendarContext(family, now: now)),
                width: size.width, height: size.height, now: now)
            assertSnapshot(tile.text, named: "calendar-\(family.rawValue)")
            #expect(tile.text.contains("Team sta"))
            switch family {
            case .small:
                #expect(tile.text.contains("in 12 min"))
                #expect(tile.widgetURL?.hasPrefix("swiftdash://calendar/event?") == true)
            case .medium:
                #expect(tile.text.contains("in 12 min") && tile.text.contains("Dentist"))
                #expect(tile.links.filter { $0.contains("/event?") }.count == 3)
            case .large:
                #expect(tile.text.contains("Tomorrow · Tue 24 Nov") && tile.text.contains("Design review"))
            case .extraLarge:
                #expect(tile.text.contains("Mon 23") && tile.text.contains("Sun 29"))
            }
        }
    }

    @Test func detailPaneShowsTimeLocationDescriptionAndLinks() async throws {
        let cfg = config([icsFixture("google.ics").path])
        let now = berlinTime(9, 0, day: 25)
        let t = try await widget.timeline(for: cfg, in: calendarContext(.medium, now: now))
        let entry = try #require(t.entries.first?.base as? CalendarEntry)
        let standup = try #require(entry.events.first { $0.summary == "Team standup" })
        let link = try #require(DeepLink(CalendarWidget.eventLink(standup)))
        #expect(link.query["uid"] == "standup-2026@google.com")
        var pane = calendarContext(.large, now: now)
        pane.size = (70, 24)
        let drawn = renderCalendar(
            widget.detail(for: link, entry: AnyEntry(entry), in: pane), width: 70, height: 24, now: now)
        assertSnapshot(drawn.text, named: "calendar-detail")
        for word in [
            "Team standup", "Fri 27 Nov, 09:30 – 09:45", "15 min", "Room 4.01, Haus B", "Daily standup",
            "Work (Google) · repeats", "https://meet.google.com/abc-defg-hij",
        ] {
            #expect(drawn.text.contains(word), "\(word)")
        }
        #expect(drawn.links.contains("https://meet.google.com/abc-defg-hij"))
        // The agenda and problems panes.
        let agenda = renderCalendar(
            widget.detail(for: DeepLink(CalendarWidget.agendaLink)!, entry: AnyEntry(entry), in: pane),
            width: 70, height: 24, now: now
        ).text
        // Nothing today (the standup is cancelled) or tomorrow: the agenda goes on to Friday.
        #expect(agenda.contains("Fri 27 Nov") && !agenda.contains("Today"))
        let gone = renderCalendar(
            widget.detail(
                for: DeepLink("swiftdash://calendar/event?uid=nope")!, entry: AnyEntry(entry),
                in: pane), width: 70, height: 24
        ).text
        #expect(gone.contains("no longer"))
    }

    @Test func problemsAreShownAndAMissingSourceIsOneOfThem() async throws {
        let cfg = config([icsFixture("broken/broken.ics").path, "/nonexistent/cal.ics"])
        let t = try await widget.timeline(for: cfg, in: calendarContext(.large, now: berlinTime(8, 0)))
        let entry = try #require(t.entries.first?.base as? CalendarEntry)
        #expect(entry.problems.contains { $0.message == "calendar file /nonexistent/cal.ics not found" })
        let tile = renderCalendar(widget.view(for: AnyEntry(entry), in: calendarContext(.large)), width: 35, height: 13)
            .text
        #expect(tile.contains("⚠ \(entry.problems.count)"))
        let pane = renderCalendar(
            widget.detail(
                for: DeepLink(CalendarWidget.problemsLink)!, entry: AnyEntry(entry),
                in: calendarContext(.large)), width: 70, height: 24
        ).text
        assertSnapshot(pane, named: "calendar-problems")
        #expect(pane.contains("broken.ics:5 "))
        // Only missing sources: the load fails, so the scheduler keeps the last good entry, marked stale.
        let e = await expectDataSourceError {
            _ = try await widget.timeline(for: config(["/nonexistent/cal.ics"]), in: calendarContext(.small))
        }
        #expect(e?.message == "calendar file /nonexistent/cal.ics not found")
        let folder = await expectDataSourceError {
            _ = try await widget.timeline(for: config([testsDirectory.path]), in: calendarContext(.small))
        }
        #expect(folder?.message.contains("is a folder") == true)
    }

    /// Issue 24.6: a FIFO or a device is refused at once (a read of one never ends).
    @Test func aCalendarFileThatIsAFIFOOrDeviceIsRefusedAtOnce() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("cal.ics").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let e = await expectDataSourceError {
            _ = try await widget.timeline(for: config([fifo]), in: calendarContext(.small))
        }
        #expect(e?.message == "\(fifo) is not a regular file (a named pipe); not read")
        let device = await expectDataSourceError {
            _ = try await widget.timeline(for: config(["/dev/zero"]), in: calendarContext(.small))
        }
        #expect(device?.message == "/dev/zero is not a regular file (a character device); not read")
    }

    @Test func urlsAreFetchedThroughTheHTTPClient() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route(
            "/cal/work.ics",
            .init(
                status: 200, headers: ["Content-Type": "text/calendar"],
                body: try Data(contentsOf: icsFixture("outlook.ics"))))
        server.route("/cal/gone.ics", .init(status: 404, "not here"))
        server.route(
            "/cal/login.html",
            .init(status: 200, contentType: "text/html", "<html><body>Sign in</body></html>"))
        let url = server.baseURL + "/cal/work.ics?token=secret123"
        let t = try await widget.timeline(
            for: config([url, "~/nope.ics"]),
            in: calendarContext(.medium, now: berlinTime(8, 0), environment: ["HOME": "/nonexistent"]))
        let entry = try #require(t.entries.first?.base as? CalendarEntry)
        #expect(entry.calendars == ["Calendar"])
        #expect(entry.problems.map(\.message) == ["calendar file ~/nope.ics not found"])
        // URLs re-read at most every 30 minutes (budgeted), files every hour by default.
        #expect(t.policy == .after(berlinTime(9, 0)))
        let fast = try await widget.timeline(
            for: config([url], ["refreshMinutes": .int(5)]), in: calendarContext(.small))
        #expect(fast.policy == .after(testNow.addingTimeInterval(30 * 60)))
        #expect(server.requests.first?.headers["accept"]?.contains("text/calendar") == true)
        let e = await expectDataSourceError {
            _ = try await widget.timeline(for: config([server.baseURL + "/cal/gone.ics"]), in: calendarContext(.small))
        }
        // The server's own words (decision 30), not a guess.
        #expect(e?.message == "HTTP 404 from 127.0.0.1:\(server.port): not here")
        #expect(
            CalendarSource.shownName("https://calendar.google.com/calendar/ical/x%40gmail.com/private-abc123/basic.ics")
                == "https://calendar.google.com/…")
        #expect(!CalendarSource.shownName(url).contains("secret"))
        // An HTML page where a calendar should be is a failure, not an empty calendar.
        let page = await expectDataSourceError {
            let login = config([server.baseURL + "/cal/login.html"])
            _ = try await widget.timeline(for: login, in: calendarContext(.small))
        }
        #expect(page?.message.contains("is not an iCalendar file") == true)
        #expect(
            CalendarSource.httpURL("webcal://calendar.example.com/a.ics")?.absoluteString
                == "https://calendar.example.com/a.ics")
        #expect(CalendarSource.httpURL("WEBCALS://x.org/b.ics")?.scheme == "https")
        #expect(CalendarSource.httpURL("https://") == nil && CalendarSource.httpURL("ftp://x.org/a.ics") == nil)
    }

    @Test func placeholderSnapshotAndCache() async throws {
        let placeholder = widget.placeholder(in: calendarContext(.medium))
        let drawn = renderCalendar(widget.view(for: placeholder, in: calendarContext(.medium)), width: 35, height: 5)
            .text
        #expect(!drawn.contains("standup"))
        let snap = await widget.snapshot(for: config(["/nonexistent.ics"]), in: calendarContext(.small, preview: true))
        #expect((snap.base as? CalendarEntry)?.isSample == true)
        let t = try await widget.timeline(for: config([icsFixture("apple.ics").path]), in: calendarContext(.large))
        let data = try widget.encodeEntries(t.entries)
        let back = try widget.decodeEntries(data)
        #expect(back.map { $0.base as? CalendarEntry } == t.entries.map { $0.base as? CalendarEntry })
        #expect(data.count < 200_000)
    }
}

/// Issue 38.9 and 38.10: the large tile's agenda covers the window the entry holds, and says
/// "now" only of what has begun.
@Suite("calendar agenda")
struct CalendarAgendaTests {
    func large(_ events: [CalendarOccurrence], daysAhead: Int, now: Date) -> String {
        let entry = CalendarEntry(
            date: now, label: "Calendar", timeZone: "Europe/Berlin", daysAhead: daysAhead, events: events)
        var ctx = calendarContext(.large, now: now)
        ctx.size = (39, 30)
        return renderCalendar(CalendarViews.tile(entry, ctx), width: 39, height: 30, now: now).text
    }

    func event(_ summary: String, _ start: Date, minutes: Double = 60) -> CalendarOccurrence {
        CalendarOccurrence(
            uid: summary, start: start, end: start.addingTimeInterval(minutes * 60), allDay: false, summary: summary)
    }

    /// "The next 14 days" is 14×24 h: an event on the 15th calendar day's morning, before this
    /// time of day, is in the window and drawn.
    @Test func largeCalendarAgendaCovers14Times24Hours() {
        let now = berlinTime(9, 30)
        let text = large([event("Early flight", berlinTime(8, 0, day: 7, month: 12))], daysAhead: 14, now: now)
        #expect(text.contains("Mon 7 Dec") && text.contains("Early flight"), "\(text)")
    }

    @Test func aFutureEventAtLocalMidnightIsDrawnFromItsStart() {
        let now = berlinTime(9, 30)
        let text = large([event("Night train", berlinTime(0, 0, day: 25))], daysAhead: 7, now: now)
        #expect(text.contains("00:00–01:00 Night train"), "\(text)")
        #expect(!text.contains("now–"), "\(text)")
    }
}
