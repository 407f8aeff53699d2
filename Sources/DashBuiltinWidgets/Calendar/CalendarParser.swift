import Foundation
import DashCore
import DashWidgets

/// Reads iCalendar (RFC 5545) files into `CalendarDocument`s: VEVENTs with their times,
/// zones (IANA, Windows names, VTIMEZONE blocks, Google's X-WR-TIMEZONE), recurrence
/// rules, exceptions and overrides. Bad lines and events are skipped with a reason.
public enum CalendarParser {
    /// Occurrences kept per expansion window.
    public static let maxOccurrences = 2000
    static let maxLinks = 6

    public static func parse(_ data: Data, source: String) -> CalendarDocument {
        let read = ICSReader.parse(data, source: source)
        var problems = read.problems
        var series: [String: CalendarDocument.Series] = [:]
        var order: [String] = []
        var name = ""
        var count = 0
        var calendars = read.calendars.filter { $0.name == "VCALENDAR" }
        // Bare VEVENTs without a VCALENDAR around them are read too.
        let loose = read.calendars.filter { $0.name != "VCALENDAR" }
        if !loose.isEmpty { calendars.append(ICSComponent(name: "VCALENDAR", line: 0, children: loose)) }
        func problem(_ line: Int?, _ message: String) {
            if problems.count < ICSReader.maxProblems {
                problems.append(CalendarProblem(source: source, line: line, message: message))
            }
        }

        for cal in calendars {
            if name.isEmpty, let n = cal.first("X-WR-CALNAME") { name = ICSReader.text(n.value) }
            var context = Context(source: source)
            for tz in cal.children where tz.name == "VTIMEZONE" {
                guard let id = tz.first("TZID")?.value.trimmingCharacters(in: .whitespaces), !id.isEmpty else {
                    problem(tz.line, "VTIMEZONE without TZID skipped")
                    continue
                }
                if let z = vtimezone(tz, id: id) {
                    context.vtimezones[id] = z
                } else {
                    problem(tz.line, "VTIMEZONE \(ICSReader.preview(id)) has no usable STANDARD or DAYLIGHT block")
                }
            }
            if let x = cal.first("X-WR-TIMEZONE") {
                let id = x.value.trimmingCharacters(in: .whitespaces)
                if let z = context.zone(id) {
                    context.xwr = z
                } else {
                    problem(x.line, "X-WR-TIMEZONE \(ICSReader.preview(id)) is not a known time zone: ignored")
                }
            }
            for c in cal.children where c.name == "VEVENT" {
                count += 1
                guard var e = event(c, &context) else { continue }
                if e.uid.isEmpty { e.uid = "line-\(c.line)" }
                if series[e.uid] == nil {
                    series[e.uid] = CalendarDocument.Series(uid: e.uid, core: nil, modifications: [])
                    order.append(e.uid)
                }
                if e.recurrenceID != nil {
                    series[e.uid]!.modifications.append(e)
                } else if let core = series[e.uid]!.core {
                    if e.sequence > core.sequence { series[e.uid]!.core = e }
                } else {
                    series[e.uid]!.core = e
                }
            }
            for p in context.problems { problem(p.line, p.message) }
        }
        // One override per RECURRENCE-ID: the highest SEQUENCE, the first on a tie.
        let utc = CalendarZone.utc
        for uid in order {
            var best: [Int64: CalendarVEvent] = [:]
            var keys: [Int64] = []
            for m in series[uid]!.modifications {
                guard let k = m.recurrenceID?.keys(viewer: utc).first else { continue }
                if let b = best[k] {
                    if m.sequence > b.sequence { best[k] = m }
                } else {
                    best[k] = m
                    keys.append(k)
                }
            }
            series[uid]!.modifications = keys.map { best[$0]! }
        }
        return CalendarDocument(
            name: name.isEmpty ? displayName(source) : name, problems: problems,
            series: order.map { series[$0]! }, eventCount: count, isCalendar: !read.calendars.isEmpty)
    }

    static func displayName(_ source: String) -> String {
        let last = source.split(separator: "/").last.map(String.init) ?? source
        let base = last.hasSuffix(".ics") ? String(last.dropLast(4)) : last
        return TextSanitizer.singleLine(base.removingPercentEncoding ?? base)
    }

    /// Zones known while reading one calendar.
    struct Context {
        var source: String
        var vtimezones: [String: CalendarZone] = [:]
        var resolved: [String: CalendarZone?] = [:]
        var xwr: CalendarZone? = nil
        var problems: [CalendarProblem] = []
        var reported = Set<String>()

        /// A TZID: an IANA name, a Windows name, the file's VTIMEZONE, or a vendor-prefixed IANA name.
        mutating func zone(_ id: String) -> CalendarZone? {
            if let r = resolved[id] { return r }
            var z: CalendarZone? = nil
            let cleaned = id.trimmingCharacters(in: CharacterSet(charactersIn: "/ \""))
            if let i = CalendarZone.iana(cleaned) {
                z = i
            } else if WindowsZones.iana[cleaned] != nil {
                z = WindowsZones.resolve(cleaned)
            } else if let v = vtimezones[id] ?? vtimezones[cleaned] {
                z = v
            } else {
                z = WindowsZones.resolve(id)
            }
            resolved[id] = z
            return z
        }

        mutating func note(_ line: Int, _ message: String) {
            guard reported.insert(message).inserted, problems.count < ICSReader.maxProblems else { return }
            problems.append(CalendarProblem(source: source, line: line, message: message))
        }
    }

    /// A DATE or DATE-TIME value of a property (one of a comma-separated list).
    static func time(_ raw: Substring, _ p: ICSProperty, _ ctx: inout Context) -> ICalTime? {
        let length = raw.utf8.filter { $0 != 0x20 && $0 != 0x09 }.count
        let isDate = length == 8 || p.param("VALUE")?.uppercased() == "DATE"
        if isDate {
            guard let d = ICSReader.date(raw) else { return nil }
            return ICalTime(wall: d, isDate: true, anchor: .floating)
        }
        guard let dt = ICSReader.dateTime(raw) else { return nil }
        var t = ICalTime(wall: dt.wall, isDate: false, anchor: dt.utc ? .utc : .floating)
        if !dt.utc, let tzid = p.param("TZID") {
            if let z = ctx.zone(tzid) {
                t.anchor = ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Z"].contains(z.id) ? .utc : .zone(z)
            } else {
                ctx.note(p.line, "unknown time zone \(ICSReader.preview(tzid)): its times are read as local time")
            }
        }
        // Google's X-WR-TIMEZONE: UTC and floating times are that zone's.
        if let x = ctx.xwr {
            switch t.anchor {
            case .utc: t = ICalTime(wall: x.wall(fromUTC: t.wall), isDate: false, anchor: .zone(x))
            case .floating: t.anchor = .zone(x)
            case .zone: break
            }
        }
        return t
    }

    static func event(_ c: ICSComponent, _ ctx: inout Context) -> CalendarVEvent? {
        guard let ds = c.first("DTSTART") else {
            ctx.note(c.line, "VEVENT at line \(c.line) has no DTSTART: skipped")
            return nil
        }
        guard let start = time(Substring(ds.value), ds, &ctx) else {
            ctx.note(ds.line, "DTSTART '\(ICSReader.preview(ds.value))' is not a date: event skipped")
            return nil
        }
        var e = CalendarVEvent(
            uid: String(ICSReader.text(c.first("UID")?.value ?? "").filter { $0 != " " }),
            line: c.line, start: start)
        if e.uid.count > 200 { e.uid = Fmt.shortID(e.uid) }
        if let p = c.first("DTEND") {
            if let t = time(Substring(p.value), p, &ctx) {
                e.end = t
            } else {
                ctx.note(p.line, "DTEND '\(ICSReader.preview(p.value))' is not a date: ignored")
            }
        } else if let p = c.first("DURATION") {
            if let d = ICSReader.duration(p.value) {
                e.duration = d
            } else {
                ctx.note(p.line, "DURATION '\(ICSReader.preview(p.value))' is not a duration: ignored")
            }
        }
        for p in c.all("RRULE") {
            do {
                e.rules.append(try RecurrenceRule.parse(p.value))
            } catch {
                e.ruleProblem = error.description
                ctx.note(p.line, "RRULE: \(error.description); only the first occurrence is shown")
            }
        }
        for p in c.all("RDATE") {
            let isPeriod = p.param("VALUE")?.uppercased() == "PERIOD"
            for item in p.value.split(separator: ",") {
                if isPeriod || item.contains("/") {
                    let parts = item.split(separator: "/", maxSplits: 1)
                    guard parts.count == 2, let s = time(parts[0], p, &ctx) else {
                        ctx.note(p.line, "RDATE period '\(ICSReader.preview(String(item)))' skipped")
                        continue
                    }
                    var dur: Int64? = nil
                    if parts[1].hasPrefix("P") || parts[1].hasPrefix("+") || parts[1].hasPrefix("-") {
                        dur = ICSReader.duration(String(parts[1]))?.seconds
                    } else if let en = time(parts[1], p, &ctx) {
                        dur = s.sameClock(en) ? en.wall - s.wall : en.instant(viewer: .utc) - s.instant(viewer: .utc)
                    }
                    e.rdates.append((s, dur))
                } else if let t = time(item, p, &ctx) {
                    e.rdates.append((t, nil))
                } else {
                    ctx.note(p.line, "RDATE '\(ICSReader.preview(String(item)))' is not a date: skipped")
                }
            }
        }
        for p in c.all("EXDATE") {
            for item in p.value.split(separator: ",") {
                if let t = time(item, p, &ctx) {
                    e.exdates.append(t)
                } else {
                    ctx.note(p.line, "EXDATE '\(ICSReader.preview(String(item)))' is not a date: skipped")
                }
            }
        }
        if let p = c.first("RECURRENCE-ID") {
            guard let t = time(Substring(p.value), p, &ctx) else {
                ctx.note(p.line, "RECURRENCE-ID '\(ICSReader.preview(p.value))' is not a date: override skipped")
                return nil
            }
            e.recurrenceID = t
            e.thisAndFuture = p.param("RANGE")?.trimmingCharacters(in: .whitespaces).uppercased() == "THISANDFUTURE"
        }
        if let p = c.first("SEQUENCE") { e.sequence = Int(p.value.trimmingCharacters(in: .whitespaces)) ?? 0 }
        e.status = (c.first("STATUS")?.value ?? "").trimmingCharacters(in: .whitespaces).uppercased()
        e.transparent = c.first("TRANSP")?.value.uppercased() == "TRANSPARENT"
        e.summary = ICSReader.text(c.first("SUMMARY")?.value ?? "")
        e.location = ICSReader.text(c.first("LOCATION")?.value ?? "")
        e.description = ICSReader.text(c.first("DESCRIPTION")?.value ?? "", multiline: true)
        if let o = c.first("ORGANIZER") {
            let cn = o.param("CN").map { ICSReader.text($0) } ?? ""
            var mail = o.value.trimmingCharacters(in: .whitespaces)
            if mail.lowercased().hasPrefix("mailto:") { mail = String(mail.dropFirst(7)) }
            e.organizer = cn.isEmpty ? ICSReader.text(mail) : cn
        }
        var links: [String] = []
        for key in [
            "X-GOOGLE-CONFERENCE", "X-MICROSOFT-SKYPETEAMSMEETINGURL", "X-MICROSOFT-ONLINEMEETINGEXTERNALLINK",
            "CONFERENCE", "URL",
        ] {
            for p in c.all(key) { links += urls(in: p.value) }
        }
        links += urls(in: c.first("LOCATION")?.value ?? "")
        links += urls(in: c.first("DESCRIPTION")?.value ?? "")
        var seen = Set<String>()
        e.links = Array(links.filter { seen.insert($0).inserted }.prefix(maxLinks))
        return e
    }

    /// http(s) links in outside text: scheme and host checked, cut at white space, at a
    /// backslash (an escaped `\\n` in calendar text) and at the characters that end a link
    /// in prose, cleaned, at most 500 characters. Scans UTF-8 bytes.
    static func urls(in text: String) -> [String] {
        var out: [String] = []
        let b = Array(text.utf8)
        func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 0x20 : c }
        func isEnd(_ c: UInt8) -> Bool {
            // Space and controls, " ' < > [ ] \ ^ ` { | } and DEL.
            c <= 0x20 || c == 0x22 || c == 0x27 || c == 0x3C || c == 0x3E || c == 0x5B || c == 0x5C || c == 0x5D
                || c == 0x5E || c == 0x60 || c == 0x7B || c == 0x7C || c == 0x7D || c == 0x7F
        }
        var i = 0
        while i + 7 < b.count, out.count < maxLinks * 2 {
            // "http", any case.
            guard lower(b[i]) == 0x68, lower(b[i + 1]) == 0x74, lower(b[i + 2]) == 0x74, lower(b[i + 3]) == 0x70 else {
                i += 1
                continue
            }
            var j = i + 4
            if lower(b[j]) == 0x73 { j += 1 }
            guard j + 2 < b.count, b[j] == 0x3A, b[j + 1] == 0x2F, b[j + 2] == 0x2F else {
                i += 1
                continue
            }
            var k = j + 3
            while k < b.count, !isEnd(b[k]) { k += 1 }
            var end = k
            // Prose punctuation after a link is not part of it.
            while end > j + 3, [0x2E, 0x2C, 0x3B, 0x3A, 0x29, 0x21, 0x3F].contains(b[end - 1]) { end -= 1 }
            let length = end - i
            let url = String(decoding: b[i..<end], as: UTF8.self)
            i = k
            guard length <= 2000, url.count <= 500, let comps = URLComponents(string: url), let host = comps.host,
                !host.isEmpty, ["http", "https"].contains(comps.scheme?.lowercased() ?? "")
            else { continue }
            out.append(TextSanitizer.clean(url))
        }
        return out
    }

    /// `+0100`, `-0500`, `+013000` → seconds.
    static func utcOffset(_ s: String) -> Int? {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard let sign = t.first, sign == "+" || sign == "-" else { return nil }
        let digits = Array(t.dropFirst())
        guard digits.count == 4 || digits.count == 6, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
            return nil
        }
        let n = digits.map { Int(String($0))! }
        let secs = (n[0] * 10 + n[1]) * 3600 + (n[2] * 10 + n[3]) * 60 + (digits.count == 6 ? n[4] * 10 + n[5] : 0)
        guard secs < 24 * 3600 else { return nil }
        return sign == "-" ? -secs : secs
    }

    /// A zone from a VTIMEZONE block: every onset of its STANDARD and DAYLIGHT
    /// observances (DTSTART, RRULE, RDATE) from 1970 to 2100 (Outlook starts its rules
    /// in 1601; walking those centuries would cost every reload for nothing).
    static func vtimezone(_ c: ICSComponent, id: String) -> CalendarZone? {
        var transitions: [(at: Int64, offset: Int)] = []
        var firstFrom: (Int64, Int)? = nil
        let horizon = Civil.wall(2100, 1, 1)
        for obs in c.children where obs.name == "STANDARD" || obs.name == "DAYLIGHT" {
            guard let ds = obs.first("DTSTART"), let start = ICSReader.dateTime(Substring(ds.value)),
                let from = obs.first("TZOFFSETFROM").flatMap({ utcOffset($0.value) }),
                let to = obs.first("TZOFFSETTO").flatMap({ utcOffset($0.value) })
            else { continue }
            var onsets: [Int64] = [start.wall]
            if let r = obs.first("RRULE"), let rule = try? RecurrenceRule.parse(r.value) {
                let expander = RecurrenceExpander(
                    rule: rule, start: start.wall,
                    isAfterUntil: { wall in
                        guard let u = rule.until else { return false }
                        return (u.isUTC ? wall - Int64(from) : wall) > u.wall
                    },
                    horizon: horizon, from: max(start.wall, Civil.wall(1970, 1, 1)), maxPeriods: 10_000,
                    maxResults: 2000)
                onsets += expander.run().walls
            }
            for r in obs.all("RDATE") {
                for item in r.value.split(separator: ",") {
                    if let t = ICSReader.dateTime(item) { onsets.append(t.utc ? t.wall + Int64(from) : t.wall) }
                }
            }
            for w in Set(onsets) { transitions.append((w - Int64(from), to)) }
            if firstFrom == nil || start.wall - Int64(from) < firstFrom!.0 {
                firstFrom = (start.wall - Int64(from), from)
            }
        }
        guard let first = firstFrom else { return nil }
        return CalendarZone(id: id, transitions: transitions, initialOffset: first.1)
    }
}
