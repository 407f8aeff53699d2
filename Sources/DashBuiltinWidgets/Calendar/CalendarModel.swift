import Foundation
import DashCore
import DashWidgets

/// Where a calendar time is anchored: UTC (`…Z`), a named zone (`TZID=`), or floating
/// (no zone: the viewer's local time; all-day dates are floating too).
enum TimeAnchor: Hashable, Sendable {
    case floating, utc
    case zone(CalendarZone)
}

/// A DATE or DATE-TIME value as written: its wall-clock digits and its anchor.
struct ICalTime: Hashable, Sendable {
    var wall: Int64
    var isDate: Bool
    var anchor: TimeAnchor

    func instant(viewer: CalendarZone) -> Int64 {
        switch anchor {
        case .utc: return wall
        case .floating: return viewer.utc(fromWall: wall)
        case .zone(let z): return z.utc(fromWall: wall)
        }
    }

    /// The keys a RECURRENCE-ID or EXDATE is matched by: the UTC time and the wall time
    /// (either may match, as in the reference), or only the wall time when floating.
    func keys(viewer: CalendarZone) -> [Int64] {
        switch anchor {
        case .floating, .utc: return [wall]
        case .zone(let z): return [z.utc(fromWall: wall), wall]
        }
    }

    /// True when subtracting two times is a wall-clock difference (Python subtracts
    /// datetimes of the same zone on the clock face).
    func sameClock(_ other: ICalTime) -> Bool {
        switch (anchor, other.anchor) {
        case (.floating, _), (_, .floating), (.utc, .utc): return true
        case (.zone(let a), .zone(let b)): return a == b
        default: return false
        }
    }
}

/// One VEVENT as read: a series master, a single event, or a RECURRENCE-ID override.
struct CalendarVEvent: Sendable {
    var uid: String
    var line: Int
    var start: ICalTime
    var end: ICalTime?
    var duration: (seconds: Int64, hasTime: Bool)?
    var rules: [RecurrenceRule] = []
    var rdates: [(time: ICalTime, duration: Int64?)] = []
    var exdates: [ICalTime] = []
    var recurrenceID: ICalTime?
    /// `RECURRENCE-ID;RANGE=THISANDFUTURE`: the change holds for every later instance too.
    var thisAndFuture = false
    var sequence = -1
    var status = ""
    var transparent = false
    var summary = ""
    var location = ""
    var description = ""
    var organizer = ""
    var links: [String] = []
    /// The rule could not be expanded (unsupported or broken): only DTSTART is shown.
    var ruleProblem: String?

    var isCancelled: Bool { status == "CANCELLED" }

    /// (start, end) as Python's adapter has them: the end from DTEND, DURATION, or the
    /// default (a day for dates, zero for times); swapped when reversed.
    func span(viewer: CalendarZone) -> (ICalTime, ICalTime) {
        var e: ICalTime
        if let end {
            e = end
        } else if let d = duration {
            if start.isDate && d.hasTime {
                e = ICalTime(wall: start.wall + d.seconds, isDate: false, anchor: .floating)
            } else {
                e = ICalTime(wall: start.wall + d.seconds, isDate: start.isDate, anchor: start.anchor)
            }
        } else {
            e = ICalTime(wall: start.wall + (start.isDate ? 86_400 : 0), isDate: start.isDate, anchor: start.anchor)
        }
        var s = start
        if e.isDate != s.isDate {
            // A date beside a time: the date is midnight on the same clock.
            if s.isDate { s = ICalTime(wall: s.wall, isDate: false, anchor: e.isDate ? .floating : e.anchor) }
            if e.isDate { e = ICalTime(wall: e.wall, isDate: false, anchor: s.anchor) }
        }
        if e.instant(viewer: viewer) < s.instant(viewer: viewer) { return (e, s) }
        return (s, e)
    }
}

/// One occurrence of an event, as the widget shows it.
public struct CalendarOccurrence: Codable, Sendable, Hashable {
    public var uid: String
    public var start: Date
    public var end: Date
    public var allDay: Bool
    public var summary: String
    public var location: String
    public var description: String
    public var organizer: String
    /// http(s) links found in the event (meeting URLs first).
    public var links: [String]
    /// The calendar it came from (X-WR-CALNAME or the file name).
    public var calendar: String
    public var recurring: Bool
    public var tentative: Bool

    public init(
        uid: String, start: Date, end: Date, allDay: Bool, summary: String, location: String = "",
        description: String = "", organizer: String = "", links: [String] = [], calendar: String = "",
        recurring: Bool = false, tentative: Bool = false
    ) {
        self.uid = uid
        self.start = start
        self.end = end
        self.allDay = allDay
        self.summary = summary
        self.location = location
        self.description = description
        self.organizer = organizer
        self.links = links
        self.calendar = calendar
        self.recurring = recurring
        self.tentative = tentative
    }

    /// A stable id of this occurrence for deep links: the UID and the start.
    public var occurrenceID: String { "\(uid)@\(Int64(clamping: start.timeIntervalSince1970, to: .unixSeconds))" }
}

/// A parsed calendar file: its events grouped by UID, ready to expand over any window.
public struct CalendarDocument: Sendable {
    public var name: String
    public var problems: [CalendarProblem]
    var series: [Series]
    /// How many VEVENTs were read.
    public var eventCount: Int
    /// False when the text had no component at all (an HTML error page, a wrong file).
    public var isCalendar: Bool

    struct Series: Sendable {
        var uid: String
        var core: CalendarVEvent?
        var modifications: [CalendarVEvent]
    }

    /// Occurrences overlapping [from, to), sorted by start, at most `limit`.
    public func occurrences(
        from: Date, to: Date, viewer: CalendarZone,
        limit: Int = CalendarParser.maxOccurrences
    ) -> (occurrences: [CalendarOccurrence], problems: [CalendarProblem]) {
        let ws = Int64(clamping: from.timeIntervalSince1970.rounded(.down), to: .unixSeconds)
        let we = Int64(clamping: to.timeIntervalSince1970.rounded(.up), to: .unixSeconds)
        var out: [(Int64, Int64, CalendarVEvent, Bool, Bool)] = []  // start, end, event, allDay, recurring
        var problems: [CalendarProblem] = []
        var truncated = false
        for s in series {
            let r = CalendarExpansion.expand(s, ws: ws, we: we, viewer: viewer, limit: limit)
            if r.truncated { truncated = true }
            out += r.occurrences
            if out.count > limit * 4 {
                truncated = true
                break
            }
        }
        out.sort { a, b in
            if a.0 != b.0 { return a.0 < b.0 }
            if a.1 != b.1 { return a.1 < b.1 }
            return a.2.summary < b.2.summary
        }
        if out.count > limit {
            out.removeLast(out.count - limit)
            truncated = true
        }
        if truncated {
            problems.append(
                CalendarProblem(
                    source: name, line: nil,
                    message: "more than \(limit) occurrences in the window: only the first \(limit) are shown"))
        }
        let occurrences = out.map { start, end, e, allDay, recurring in
            CalendarOccurrence(
                uid: e.uid, start: Date(timeIntervalSince1970: TimeInterval(start)),
                end: Date(timeIntervalSince1970: TimeInterval(end)), allDay: allDay, summary: e.summary,
                location: e.location, description: e.description, organizer: e.organizer, links: e.links,
                calendar: name, recurring: recurring, tentative: e.status == "TENTATIVE")
        }
        return (occurrences, problems)
    }
}

/// The expansion of one UID's series over a window, following the reference
/// (recurring-ical-events): DTSTART is always an occurrence, RDATEs are added, EXDATEs
/// removed, RECURRENCE-ID overrides replace theirs, and cancelled ones are dropped.
enum CalendarExpansion {
    typealias Found = (Int64, Int64, CalendarVEvent, Bool, Bool)

    static func inSpan(_ s: Int64, _ e: Int64, _ ws: Int64, _ we: Int64) -> Bool {
        s == e ? (ws <= s && s < we) : (s < we && ws < e)
    }

    static func occurrence(of e: CalendarVEvent, viewer: CalendarZone) -> (Int64, Int64, Bool) {
        let (s, en) = e.span(viewer: viewer)
        return (s.instant(viewer: viewer), en.instant(viewer: viewer), s.isDate && en.isDate)
    }

    static func expand(
        _ series: CalendarDocument.Series, ws: Int64, we: Int64, viewer: CalendarZone,
        limit: Int
    ) -> (occurrences: [Found], truncated: Bool) {
        var found: [Found] = []
        var returnedMods = Set<Int>()
        var modIndex: [Int64: Int] = [:]
        for (i, m) in series.modifications.enumerated() {
            for k in m.recurrenceID?.keys(viewer: viewer) ?? [] { modIndex[k] = i }
        }
        // THISANDFUTURE overrides, by the instant they start to hold: each later instance is
        // moved as that one was, lasts as long, and reads as it does (RFC 5545 §3.8.4.4).
        let future = series.modifications.indices.compactMap { i -> (from: Int64, shift: Int64, index: Int)? in
            let m = series.modifications[i]
            guard m.thisAndFuture, let rid = m.recurrenceID else { return nil }
            let from = rid.instant(viewer: viewer)
            return (from, occurrence(of: m, viewer: viewer).0 - from, i)
        }.sorted { $0.from < $1.from }
        var truncated = false
        var exKeys = Set<Int64>()
        var exDays = Set<Int>()

        if let core = series.core {
            let (s, e) = core.span(viewer: viewer)
            let allDay = s.isDate && e.isDate
            let durationWall: Int64 =
                s.sameClock(e) ? e.wall - s.wall : e.instant(viewer: viewer) - s.instant(viewer: viewer)
            for x in core.exdates {
                exKeys.formUnion(x.keys(viewer: viewer))
                if x.isDate { exDays.insert(Civil.day(ofWall: x.wall)) }
            }
            let recurring = !core.rules.isEmpty || !core.rdates.isEmpty
            // Candidate starts, as wall times on the start's clock.
            var candidates: [Int64: Int64?] = [:]  // wall → period duration override
            let margin: Int64 = 2 * 86_400
            let horizonWall = we + margin + max(0, -durationWall)
            let fromWall = ws - margin - max(0, durationWall)
            var lastUntil: (RecurrenceRule.Until, Bool)? = nil
            if core.ruleProblem == nil {
                for rule in core.rules {
                    let until = rule.until
                    let expander = RecurrenceExpander(
                        rule: rule, start: s.wall,
                        isAfterUntil: { wall in until.map { isAfter(wall, $0, start: s, viewer: viewer) } ?? false },
                        horizon: horizonWall, from: fromWall, maxResults: limit * 2)
                    let r = expander.run()
                    if r.truncated { truncated = true }
                    for w in r.walls { candidates[w] = .some(nil) }
                    if let u = until {
                        if let (last, _) = lastUntil {
                            if untilInstant(u, start: s, viewer: viewer) > untilInstant(last, start: s, viewer: viewer)
                            {
                                lastUntil = (u, true)
                            }
                        } else {
                            lastUntil = (u, true)
                        }
                    }
                }
            }
            for rd in core.rdates {
                var w = rd.time.wall
                if !rd.time.sameClock(s) && !s.isDate {
                    let t = rd.time.instant(viewer: viewer)
                    switch s.anchor {
                    case .utc: w = t
                    case .zone(let z): w = z.wall(fromUTC: t)
                    case .floating: w = viewer.wall(fromUTC: t)
                    }
                }
                if candidates[w] == nil || rd.duration != nil { candidates[w] = .some(rd.duration) }
            }
            let startAfterUntil = lastUntil.map { isAfter(s.wall, $0.0, start: s, viewer: viewer) } ?? false
            if !startAfterUntil, candidates[s.wall] == nil { candidates[s.wall] = .some(nil) }

            for (w, periodDuration) in candidates.sorted(by: { $0.key < $1.key }) {
                let startT = ICalTime(wall: w, isDate: s.isDate, anchor: s.anchor)
                let keys = startT.keys(viewer: viewer)
                if exDays.contains(Civil.day(ofWall: w)) || keys.contains(where: exKeys.contains) { continue }
                if let mi = keys.compactMap({ modIndex[$0] }).last {
                    if returnedMods.contains(mi) { continue }
                    returnedMods.insert(mi)
                    let m = series.modifications[mi]
                    let (ms, me, mAllDay) = occurrence(of: m, viewer: viewer)
                    if inSpan(ms, me, ws, we) && !m.isCancelled { found.append((ms, me, m, mAllDay, true)) }
                    continue
                }
                let d = periodDuration ?? durationWall
                let endT = ICalTime(wall: w + d, isDate: e.isDate && s.isDate, anchor: s.anchor)
                let si = startT.instant(viewer: viewer)
                // A start in a spring-forward gap is moved past it; the instance keeps the
                // series' duration rather than ending at the wall time (RFC 5545 §3.8.5.3).
                let ei = inGap(w, startT, si, viewer: viewer) ? si + d : endT.instant(viewer: viewer)
                if let f = future.last(where: { $0.from <= si }) {
                    let m = series.modifications[f.index]
                    let (ms, me, mAllDay) = occurrence(of: m, viewer: viewer)
                    let (fs, fe) = (si + f.shift, si + f.shift + (me - ms))
                    if inSpan(fs, fe, ws, we) && !m.isCancelled { found.append((fs, fe, m, mAllDay, true)) }
                    if found.count > limit { return (found, true) }
                    continue
                }
                if inSpan(si, ei, ws, we) && !core.isCancelled {
                    found.append((si, ei, core, allDay, recurring))
                    if found.count > limit { return (found, true) }
                }
            }
        }
        for (i, m) in series.modifications.enumerated() where !returnedMods.contains(i) {
            if let keys = m.recurrenceID?.keys(viewer: viewer), keys.contains(where: exKeys.contains) { continue }
            let (ms, me, mAllDay) = occurrence(of: m, viewer: viewer)
            if inSpan(ms, me, ws, we) && !m.isCancelled { found.append((ms, me, m, mAllDay, true)) }
        }
        return (found, truncated)
    }

    /// Whether the wall time `w` of `start`'s clock does not exist (a spring-forward gap): the
    /// instant it was read as shows another wall time.
    static func inGap(_ w: Int64, _ start: ICalTime, _ instant: Int64, viewer: CalendarZone) -> Bool {
        guard !start.isDate else { return false }
        switch start.anchor {
        case .utc: return false
        case .zone(let z): return z.wall(fromUTC: instant) != w
        case .floating: return viewer.wall(fromUTC: instant) != w
        }
    }

    /// The instant UNTIL stands for, for comparing two rules' UNTILs.
    static func untilInstant(_ u: RecurrenceRule.Until, start: ICalTime, viewer: CalendarZone) -> Int64 {
        switch start.anchor {
        case .floating: return viewer.utc(fromWall: u.wall)
        case .utc, .zone: return u.wall
        }
    }

    /// Whether an occurrence (wall time on the start's clock) lies after UNTIL. As the
    /// reference does: dates compare by day, floating times on the clock face, zoned
    /// times as instants with UNTIL read as UTC (with or without its `Z`).
    static func isAfter(_ wall: Int64, _ u: RecurrenceRule.Until, start: ICalTime, viewer: CalendarZone) -> Bool {
        if start.isDate { return Civil.day(ofWall: wall) > Civil.day(ofWall: u.wall) }
        switch start.anchor {
        case .floating: return wall > u.wall
        case .utc, .zone:
            return ICalTime(wall: wall, isDate: false, anchor: start.anchor).instant(viewer: viewer) > u.wall
        }
    }
}
