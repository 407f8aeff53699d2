import Foundation
import DashWidgets

/// The calendar a first run shows (and the gallery's sample): recurring events in
/// floating (local) time, so there is always a coming week to show, offline. The same
/// text is shipped as examples/calendar/sample.ics (a test keeps the two equal).
enum CalendarSample {
    static let ics = """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//swiftdash//Sample calendar//EN
        CALSCALE:GREGORIAN
        X-WR-CALNAME:Sample
        X-WR-CALDESC:A week of made-up meetings in local time, so a first run has something to show.
        BEGIN:VEVENT
        UID:sample-standup@swiftdash
        DTSTAMP:20250101T000000Z
        DTSTART:20250106T093000
        DTEND:20250106T094500
        RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR
        SUMMARY:Team standup
        LOCATION:Video call
        DESCRIPTION:Fifteen minutes: yesterday\\, today\\, blockers.\\nJoin: https://me
         et.example.com/standup
        URL:https://meet.example.com/standup
        END:VEVENT
        BEGIN:VEVENT
        UID:sample-review@swiftdash
        DTSTAMP:20250101T000000Z
        DTSTART:20250108T110000
        DTEND:20250108T120000
        RRULE:FREQ=WEEKLY;BYDAY=WE
        SUMMARY:Design review
        LOCATION:Room 2.12
        DESCRIPTION:Bring one screen you are unsure about.
        END:VEVENT
        BEGIN:VEVENT
        UID:sample-lunch@swiftdash
        DTSTAMP:20250101T000000Z
        DTSTART:20250106T123000
        DTEND:20250106T131500
        RRULE:FREQ=WEEKLY;BYDAY=MO,FR
        SUMMARY:Lunch with the team
        LOCATION:Canteen
        END:VEVENT
        BEGIN:VEVENT
        UID:sample-focus@swiftdash
        DTSTAMP:20250101T000000Z
        DTSTART:20250107T140000
        DTEND:20250107T160000
        RRULE:FREQ=WEEKLY;BYDAY=TU,TH
        SUMMARY:Focus time
        TRANSP:TRANSPARENT
        END:VEVENT
        BEGIN:VEVENT
        UID:sample-one-on-one@swiftdash
        DTSTAMP:20250101T000000Z
        DTSTART:20250109T110000
        DTEND:20250109T113000
        RRULE:FREQ=WEEKLY;BYDAY=TH
        SUMMARY:1:1 with Alex
        LOCATION:Café on the corner
        END:VEVENT
        BEGIN:VEVENT
        UID:sample-retro@swiftdash
        DTSTAMP:20250101T000000Z
        DTSTART:20250131T150000
        DTEND:20250131T160000
        RRULE:FREQ=MONTHLY;BYDAY=-1FR
        SUMMARY:Sprint retro
        LOCATION:Room 4.01
        END:VEVENT
        BEGIN:VEVENT
        UID:sample-gym@swiftdash
        DTSTAMP:20250101T000000Z
        DTSTART:20250106T183000
        DTEND:20250106T193000
        RRULE:FREQ=WEEKLY;BYDAY=MO,TH
        SUMMARY:Gym
        END:VEVENT
        BEGIN:VEVENT
        UID:sample-market@swiftdash
        DTSTAMP:20250101T000000Z
        DTSTART:20250111T100000
        DTEND:20250111T120000
        RRULE:FREQ=WEEKLY;BYDAY=SA
        SUMMARY:Farmers market
        LOCATION:Town square
        END:VEVENT
        BEGIN:VEVENT
        UID:sample-call@swiftdash
        DTSTAMP:20250101T000000Z
        DTSTART:20250112T170000
        DTEND:20250112T173000
        RRULE:FREQ=WEEKLY;BYDAY=SU
        SUMMARY:Call with family
        END:VEVENT
        BEGIN:VEVENT
        UID:sample-rent@swiftdash
        DTSTAMP:20250101T000000Z
        DTSTART;VALUE=DATE:20250101
        DTEND;VALUE=DATE:20250102
        RRULE:FREQ=MONTHLY;BYMONTHDAY=1
        SUMMARY:Pay rent
        TRANSP:TRANSPARENT
        END:VEVENT
        END:VCALENDAR
        """

    static let document = CalendarParser.parse(Data(ics.utf8), source: "sample")

    /// The sample's entry at `now`.
    static func entry(now: Date, zone: CalendarZone, label: String) -> CalendarEntry {
        let days = 7
        let until = now.addingTimeInterval(Double(days + 1) * 86_400)
        let expanded = document.occurrences(from: now, to: until, viewer: zone)
        let entries = CalendarWidget.entries(
            occurrences: expanded.occurrences, now: now, windowEnd: now.addingTimeInterval(1), daysAhead: days,
            zone: zone, label: label, problems: [], calendars: [document.name], isSample: true)
        return entries.first
            ?? CalendarEntry(date: now, label: label, timeZone: zone.id, daysAhead: days, events: [], isSample: true)
    }
}
