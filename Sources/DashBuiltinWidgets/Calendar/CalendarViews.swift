import Foundation
import DashCore
import DashWidgets

/// Days and times on the viewer's clock, without `Calendar` (the zone does the work).
enum CalendarFormat {
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func zone(_ tz: TimeZone) -> CalendarZone { CalendarZone(id: tz.identifier, timeZone: tz) }
    static func zone(_ id: String) -> CalendarZone { CalendarZone.iana(id) ?? .utc }

    static func wall(_ d: Date, _ z: CalendarZone) -> Int64 {
        z.wall(fromUTC: Int64(clamping: d.timeIntervalSince1970.rounded(.down), to: .unixSeconds))
    }
    static func dayNumber(_ d: Date, _ z: CalendarZone) -> Int { Civil.day(ofWall: wall(d, z)) }

    static func hm(_ d: Date, _ z: CalendarZone) -> String {
        let s = Civil.secondOfDay(ofWall: wall(d, z))
        return FixedFormat.zeroPadded(s / 3600) + ":" + FixedFormat.zeroPadded(s / 60 % 60)
    }

    /// "Wed 25 Nov".
    static func dayTitle(_ day: Int) -> String {
        let (_, m, d) = Civil.date(day)
        return "\(weekdays[Civil.weekday(day)]) \(d) \(months[m - 1])"
    }

    /// "Today", "Tomorrow", else "Wed 25 Nov".
    static func day(_ d: Date, _ z: CalendarZone, today: Date) -> String {
        dayLabel(dayNumber(d, z), today: dayNumber(today, z))
    }
    static func dayLabel(_ day: Int, today: Int) -> String {
        if day == today { return "Today" }
        if day == today + 1 { return "Tomorrow" }
        return dayTitle(day)
    }

    /// The instant of the next local midnight after `d`.
    static func nextMidnight(after d: Date, _ z: CalendarZone) -> Date {
        let day = dayNumber(d, z) + 1
        return Date(timeIntervalSince1970: TimeInterval(z.utc(fromWall: Int64(day) * 86_400)))
    }
    static func midnight(_ day: Int, _ z: CalendarZone) -> Date {
        Date(timeIntervalSince1970: TimeInterval(z.utc(fromWall: Int64(day) * 86_400)))
    }

    /// "15 min", "1 h 30 min", "3 days".
    static func duration(_ seconds: TimeInterval) -> String {
        let m = Int(clamping: (seconds / 60).rounded())
        if m < 60 { return "\(m) min" }
        if m % 1440 == 0 { return m == 1440 ? "1 day" : "\(m / 1440) days" }
        if m < 1440 * 2 { return m % 60 == 0 ? "\(m / 60) h" : "\(m / 60) h \(m % 60) min" }
        return "\(Int(clamping: (Double(m) / 1440).rounded())) days"
    }

    /// The days (numbers) an event covers, clipped to [from, to].
    static func days(of e: CalendarOccurrence, _ z: CalendarZone) -> ClosedRange<Int> {
        let first = dayNumber(e.start, z)
        // An event ending at midnight does not cover the day that starts then.
        let endInstant = e.end > e.start ? e.end.addingTimeInterval(-1) : e.end
        return first...max(first, dayNumber(endInstant, z))
    }

    /// When an event happens, as a row's first column: "09:30", "Tue 09:30", "all day", "now".
    static func when(
        _ e: CalendarOccurrence, _ entry: CalendarEntry, _ z: CalendarZone,
        withDay: Bool = true
    ) -> String {
        let today = dayNumber(entry.date, z)
        if e.allDay {
            let d = days(of: e, z)
            return d.contains(today) ? "all day" : (withDay ? weekdays[Civil.weekday(d.lowerBound)] : "all day")
        }
        if e.start <= entry.date && entry.date < e.end { return "now" }
        let day = dayNumber(e.start, z)
        if day == today || !withDay { return hm(e.start, z) }
        return weekdays[Civil.weekday(day)] + " " + hm(e.start, z)
    }
}

enum CalendarViews {
    static func zone(_ entry: CalendarEntry, _ ctx: TimelineContext) -> CalendarZone {
        entry.timeZone == ctx.timeZone.identifier
            ? CalendarFormat.zone(ctx.timeZone) : CalendarFormat.zone(entry.timeZone)
    }

    static func tile(_ entry: CalendarEntry, _ ctx: TimelineContext) -> TileView {
        let z = zone(entry, ctx)
        let view: TileView
        switch ctx.family {
        case .small: view = small(entry, z)
        case .medium: view = medium(entry, z)
        case .large: view = large(entry, z, height: ctx.size.height > 0 ? ctx.size.height : 13)
        case .extraLarge: view = week(entry, z, height: ctx.size.height > 0 ? ctx.size.height : 13)
        }
        return entry.isPlaceholder ? view.redacted() : view
    }

    static func title(_ e: CalendarOccurrence) -> String { e.summary.isEmpty ? "(no title)" : e.summary }

    /// What "next" means: events by start, except that an all-day event already under
    /// way counts from the end of today (so today's meetings come before it).
    static func upcoming(_ entry: CalendarEntry, _ z: CalendarZone) -> [CalendarOccurrence] {
        let endOfToday = CalendarFormat.nextMidnight(after: entry.date, z)
        func key(_ e: CalendarOccurrence) -> Date { e.allDay && e.start <= entry.date ? endOfToday : e.start }
        return entry.events.enumerated().sorted { a, b in
            let (ka, kb) = (key(a.element), key(b.element))
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    static func empty(_ entry: CalendarEntry) -> TileView {
        VStack {
            Text("No events").font(.headline)
            Text("in the next \(entry.daysAhead) days").font(.caption)
            if !entry.problems.isEmpty {
                Spacer()
                Text("⚠ \(entry.problems.count) problem\(entry.problems.count == 1 ? "" : "s")")
                    .font(.caption).foregroundStyle(.warning)
            }
        }
    }

    // MARK: small: the next event and a live countdown

    static func small(_ entry: CalendarEntry, _ z: CalendarZone) -> TileView {
        guard let e = upcoming(entry, z).first else {
            return VStack {
                Text(entry.label).font(.caption)
                empty(entry)
            }.widgetURL(CalendarWidget.agendaLink)
        }
        let running = !e.allDay && e.start <= entry.date
        let today = CalendarFormat.dayNumber(entry.date, z)
        let head: String
        if e.allDay {
            head =
                CalendarFormat.days(of: e, z).contains(today)
                ? "Today" : CalendarFormat.day(e.start, z, today: entry.date)
        } else if running {
            head = "Now"
        } else if CalendarFormat.dayNumber(e.start, z) == today {
            head = CalendarFormat.hm(e.start, z) + "–" + CalendarFormat.hm(e.end, z)
        } else {
            head =
                CalendarFormat.weekdays[Civil.weekday(CalendarFormat.dayNumber(e.start, z))] + " "
                + CalendarFormat.hm(e.start, z)
        }
        return VStack {
            Text(head).font(.headline).foregroundStyle(running ? .positive : .accent).lineLimit(1)
            Text(title(e)).bold().lineLimit(2)
            if e.allDay {
                Text("all day").font(.caption)
            } else if running {
                HStack {
                    Text("ends").font(.caption)
                    Text(e.end, style: .relative).font(.caption)
                }
            } else {
                Text(e.start, style: .relative).font(.caption).foregroundStyle(.accent)
            }
            Spacer()
            if !e.location.isEmpty { Text(e.location).font(.caption).lineLimit(1) }
        }.widgetURL(CalendarWidget.eventLink(e))
    }

    // MARK: medium: the next three

    static func row(
        _ e: CalendarOccurrence, _ entry: CalendarEntry, _ z: CalendarZone, live: Bool,
        whenWidth: Int, withDay: Bool = true
    ) -> TileView {
        let when = CalendarFormat.when(e, entry, z, withDay: withDay)
        let running = when == "now"
        return HStack {
            Text(when).font(.monospacedDigit).foregroundStyle(running ? .positive : (e.allDay ? .secondary : .accent))
                .frame(width: whenWidth)
            Text(title(e)).lineLimit(1)
            Spacer()
            if live && !e.allDay {
                if running {
                    HStack {
                        Text("ends").font(.caption)
                        Text(e.end, style: .relative).font(.caption)
                    }
                } else {
                    Text(e.start, style: .relative).font(.caption)
                }
            }
        }.link(CalendarWidget.eventLink(e))
    }

    static func medium(_ entry: CalendarEntry, _ z: CalendarZone) -> TileView {
        let list = Array(upcoming(entry, z).prefix(3))
        let today = CalendarFormat.dayNumber(entry.date, z)
        let width = list.map { CalendarFormat.when($0, entry, z).count }.max() ?? 5
        return VStack {
            titleRow(entry.label, CalendarFormat.dayTitle(today)).link(CalendarWidget.agendaLink)
            if list.isEmpty {
                empty(entry)
            } else {
                for (i, e) in list.enumerated() { row(e, entry, z, live: i == 0, whenWidth: width) }
                Spacer()
                let more = entry.events.count - list.count
                if more > 0 { Text("+\(more) more in \(entry.daysAhead) days").font(.caption) }
            }
        }
    }

    // MARK: large: an agenda of the coming days

    /// Lines of the agenda: a header per day, then its events (all-day first).
    static func agenda(_ entry: CalendarEntry, _ z: CalendarZone, maxLines: Int) -> [TileView] {
        let today = CalendarFormat.dayNumber(entry.date, z)
        // "The next 14 days" is 14×24 h from now: the last day is the one that window ends in.
        let window = Double(min(31, max(1, entry.daysAhead))) * 86_400
        let last = max(today, CalendarFormat.dayNumber(entry.date.addingTimeInterval(window), z))
        var lines: [TileView] = []
        for day in today...last {
            let onDay = entry.events.filter {
                CalendarFormat.days(of: $0, z).contains(day) && ($0.allDay || $0.end > entry.date)
            }
            .sorted { ($0.allDay ? 0 : 1, $0.start) < ($1.allDay ? 0 : 1, $1.start) }
            guard !onDay.isEmpty else { continue }
            if lines.count + 2 > maxLines { break }
            let label = CalendarFormat.dayLabel(day, today: today)
            let header = label == CalendarFormat.dayTitle(day) ? label : "\(label) · \(CalendarFormat.dayTitle(day))"
            lines.append(Text(header).font(.headline).foregroundStyle(day == today ? .accent : .primary))
            for e in onDay {
                if lines.count >= maxLines { break }
                // "now" is said of now only: an event at a later day's midnight has not begun.
                var span = CalendarFormat.when(e, entry, z, withDay: false)
                let endsToday = CalendarFormat.days(of: e, z).upperBound == day
                let end = endsToday ? CalendarFormat.hm(e.end, z) : "…"
                if !e.allDay && span != "now" && CalendarFormat.dayNumber(e.start, z) == day {
                    span += "–" + end
                } else if !e.allDay && CalendarFormat.dayNumber(e.start, z) < day {
                    span = "…–" + end
                }
                if span == "now" { span = "now–" + CalendarFormat.hm(e.end, z) }
                lines.append(
                    HStack {
                        Text(span).font(.monospacedDigit).foregroundStyle(
                            span.hasPrefix("now") ? .positive : .secondary
                        )
                        .frame(width: 11)
                        Text(title(e)).lineLimit(1)
                    }.link(CalendarWidget.eventLink(e)))
            }
        }
        return lines
    }

    static func problemsBadge(_ entry: CalendarEntry) -> String {
        entry.problems.isEmpty ? "next \(entry.daysAhead) days" : "⚠ \(entry.problems.count)"
    }

    /// The large and extraLarge header: the calendar's name (its agenda) and the window, or
    /// how many problems the sources had (a link to them).
    static func header(_ entry: CalendarEntry) -> TileView {
        HStack {
            Text(entry.label).font(.headline).foregroundStyle(.accent).link(CalendarWidget.agendaLink)
            Spacer()
            if entry.problems.isEmpty {
                Text(problemsBadge(entry)).font(.caption)
            } else {
                Text(problemsBadge(entry)).font(.caption).foregroundStyle(.warning).link(CalendarWidget.problemsLink)
            }
        }
    }

    static func large(_ entry: CalendarEntry, _ z: CalendarZone, height: Int) -> TileView {
        let lines = agenda(entry, z, maxLines: max(1, height - 1))
        return VStack {
            header(entry)
            if lines.isEmpty { empty(entry) } else { lines }
        }
    }

    // MARK: extraLarge: a week grid

    static func week(_ entry: CalendarEntry, _ z: CalendarZone, height: Int) -> TileView {
        let today = CalendarFormat.dayNumber(entry.date, z)
        let rows = max(1, height - 3)
        return VStack {
            header(entry)
            HStack(spacing: 0) {
                for day in today..<(today + 7) {
                    weekColumn(entry, z, day: day, today: today, rows: rows).frame(width: 10)
                }
            }
        }
    }

    static func weekColumn(_ entry: CalendarEntry, _ z: CalendarZone, day: Int, today: Int, rows: Int) -> TileView {
        let (_, _, d) = Civil.date(day)
        let onDay = entry.events.filter {
            CalendarFormat.days(of: $0, z).contains(day) && ($0.allDay || $0.end > entry.date)
        }
        .sorted { ($0.allDay ? 0 : 1, $0.start) < ($1.allDay ? 0 : 1, $1.start) }
        var cells: [TileView] = []
        var used = 0
        for (i, e) in onDay.enumerated() {
            let need = e.allDay ? 1 : 2
            let left = onDay.count - i
            if used + need > rows || (left > 1 && used + need > rows - 1) {
                cells.append(Text("+\(left) more").font(.caption))
                break
            }
            if e.allDay {
                cells.append(Text("▪" + title(e)).font(.caption).lineLimit(1).link(CalendarWidget.eventLink(e)))
            } else {
                let running = e.start <= entry.date && entry.date < e.end
                let startedBefore = CalendarFormat.dayNumber(e.start, z) < day
                let t = running ? "now" : (startedBefore ? "…" : CalendarFormat.hm(e.start, z))
                cells.append(
                    VStack {
                        Text(t).font(.monospacedDigit).foregroundStyle(running ? .positive : .accent)
                        Text(title(e)).lineLimit(1)
                    }.link(CalendarWidget.eventLink(e)))
            }
            used += need
        }
        let head = "\(CalendarFormat.weekdays[Civil.weekday(day)]) \(d)"
        return VStack {
            Text(head).font(.headline).foregroundStyle(day == today ? .accent : .primary)
            Divider()
            cells
        }.padding(EdgeInsets(trailing: 1))
    }

    // MARK: detail panes

    static func detail(_ link: DeepLink, _ entry: CalendarEntry?, _ ctx: TimelineContext) -> TileView {
        guard let entry else {
            return VStack {
                Text("Calendar").font(.title)
                Text("No events loaded yet").font(.caption)
            }
        }
        let z = zone(entry, ctx)
        switch link.path.first {
        case "event":
            let start = link.query["start"].flatMap(Double.init)
            guard let uid = link.query["uid"], let e = entry.occurrence(uid: uid, start: start) else {
                return VStack {
                    Text("Calendar").font(.title)
                    Text("This event is no longer in the calendar's coming days").font(.caption)
                }
            }
            return eventPane(e, entry, z, ctx)
        case "problems":
            return problemsPane(entry)
        default:
            return VStack {
                titleRow(entry.label, entry.calendars.joined(separator: ", "))
                Divider()
                // The whole agenda: a pane longer than the screen scrolls (decision 39).
                let lines = agenda(entry, z, maxLines: 1_000)
                if lines.isEmpty { empty(entry) } else { lines }
                Spacer()
                if !entry.problems.isEmpty {
                    Text("⚠ \(entry.problems.count) problems reading the calendars")
                        .font(.caption).foregroundStyle(.warning).link(CalendarWidget.problemsLink)
                }
            }
        }
    }

    static func eventPane(
        _ e: CalendarOccurrence, _ entry: CalendarEntry, _ z: CalendarZone,
        _ ctx: TimelineContext
    ) -> TileView {
        let startDay = CalendarFormat.dayNumber(e.start, z)
        let when: String
        if e.allDay {
            let days = CalendarFormat.days(of: e, z)
            when =
                days.count == 1
                ? CalendarFormat.dayTitle(startDay) + ", all day"
                : CalendarFormat.dayTitle(days.lowerBound) + " – " + CalendarFormat.dayTitle(days.upperBound)
                    + ", all day"
        } else {
            let endDay = CalendarFormat.dayNumber(e.end, z)
            when =
                CalendarFormat.dayTitle(startDay) + ", " + CalendarFormat.hm(e.start, z) + " – "
                + (endDay == startDay ? "" : CalendarFormat.dayTitle(endDay) + " ") + CalendarFormat.hm(e.end, z)
        }
        let running = !e.allDay && e.start <= ctx.now && ctx.now < e.end
        let used =
            9 + min(e.links.count, CalendarParser.maxLinks) + (e.location.isEmpty ? 0 : 1)
            + (e.organizer.isEmpty ? 0 : 1)
        let descriptionLines = max(2, (ctx.size.height > 0 ? ctx.size.height : 24) - used)
        return VStack {
            Text(title(e)).font(.title).lineLimit(2)
            HStack {
                Text(when).foregroundStyle(.accent)
                if !e.allDay { Text("(\(CalendarFormat.duration(e.end.timeIntervalSince(e.start))))").font(.caption) }
            }
            HStack {
                if running {
                    Text("now · ends").foregroundStyle(.positive)
                    Text(e.end, style: .relative).foregroundStyle(.positive)
                } else if !e.allDay && e.start > ctx.now {
                    Text("starts " + CalendarFormat.starts(e.start, now: ctx.now, z)).font(.caption)
                }
                Spacer()
                Text(e.calendar + (e.recurring ? " · repeats" : "") + (e.tentative ? " · tentative" : "")).font(
                    .caption)
            }
            Divider()
            if !e.location.isEmpty { factRow("Where", e.location) }
            if !e.organizer.isEmpty { factRow("Organizer", e.organizer) }
            if e.description.isEmpty {
                Text("No description").font(.caption)
            } else {
                Text(e.description).lineLimit(descriptionLines)
            }
            Spacer()
            if !e.links.isEmpty {
                Divider()
                HStack {
                    Text("o").font(.headline).foregroundStyle(.accent)
                    Text("opens the selected link").font(.caption)
                }
                for url in e.links { Text(url).foregroundStyle(.accent).lineLimit(1).link(url) }
            }
        }
    }

    static func factRow(_ label: String, _ value: String) -> TileView {
        HStack {
            Text(label).font(.caption).frame(width: 10)
            Text(value).lineLimit(2)
        }
    }

    static func problemsPane(_ entry: CalendarEntry) -> TileView {
        VStack {
            titleRow("Problems reading the calendars", "\(entry.problems.count)", color: .warning)
            Divider()
            if entry.problems.isEmpty {
                Text("None: every line was understood.").font(.caption)
            }
            for p in entry.problems {
                HStack {
                    Text(p.source + (p.line.map { ":\($0)" } ?? "")).font(.caption)
                    Text(p.message).lineLimit(2)
                }
            }
            Spacer()
            Text("Lines that cannot be read are skipped; the rest of the calendar is shown.").font(.caption)
        }
    }
}
