import Foundation
import DashCore

/// An `RRULE` value (RFC 5545 section 3.3.10): the whole grammar, every frequency from
/// secondly to yearly and every BY rule.
struct RecurrenceRule: Sendable, Hashable {
    enum Frequency: String, Sendable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY"
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"

        /// The length of one period of a frequency under a day, in seconds.
        var subDailyPeriod: Int64? {
            switch self {
            case .secondly: return 1
            case .minutely: return 60
            case .hourly: return 3600
            default: return nil
            }
        }
    }
    struct WeekdayNum: Sendable, Hashable {
        /// 0 = none; 1 = first, -1 = last …
        var ordinal: Int
        /// 0 = Monday … 6 = Sunday.
        var weekday: Int
    }
    /// UNTIL as written: its digits (wall seconds), and whether it was a date or UTC.
    struct Until: Sendable, Hashable {
        var wall: Int64
        var isDate: Bool
        var isUTC: Bool
    }

    var frequency: Frequency
    var interval = 1
    var count: Int? = nil
    var until: Until? = nil
    var byMonth: [Int] = []
    var byMonthDay: [Int] = []
    var byYearDay: [Int] = []
    var byWeekNo: [Int] = []
    var byDay: [WeekdayNum] = []
    var byHour: [Int] = []
    var byMinute: [Int] = []
    var bySecond: [Int] = []
    var bySetPos: [Int] = []
    var weekStart = 0

    static let weekdayNames = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    enum ParseError: Error, CustomStringConvertible {
        case bad(String)
        case unsupported(String)
        var description: String {
            switch self {
            case .bad(let s): return s
            case .unsupported(let s): return s
            }
        }
    }

    /// Parses `FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T000000Z`.
    static func parse(_ text: String) throws(ParseError) -> RecurrenceRule {
        var fields: [String: String] = [:]
        for part in text.split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { throw .bad("'\(ICSReader.preview(String(part)))' is not NAME=VALUE") }
            fields[kv[0].trimmingCharacters(in: .whitespaces).uppercased()] = kv[1].trimmingCharacters(in: .whitespaces)
        }
        guard let f = fields["FREQ"]?.uppercased() else { throw .bad("no FREQ") }
        guard let freq = Frequency(rawValue: f) else {
            throw .bad("FREQ=\(ICSReader.preview(f)) is not a frequency")
        }
        var rule = RecurrenceRule(frequency: freq)
        func ints(_ key: String, _ range: ClosedRange<Int>, allowNegative: Bool) throws(ParseError) -> [Int] {
            guard let v = fields[key] else { return [] }
            var out: [Int] = []
            for item in v.split(separator: ",") {
                guard let n = Int(item.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "+", with: "")),
                    n > -1000, n < 1000, range.contains(abs(n)), allowNegative || n >= 0,
                    n != 0 || range.lowerBound == 0
                else {
                    throw .bad("\(key)=\(ICSReader.preview(v)) is out of range")
                }
                out.append(n)
            }
            return out
        }
        if let v = fields["INTERVAL"] {
            guard let n = Int(v), n >= 1, n <= 10_000 else {
                throw .bad("INTERVAL=\(ICSReader.preview(v)) is not a positive number")
            }
            rule.interval = n
        }
        if let v = fields["COUNT"] {
            guard let n = Int(v) else { throw .bad("COUNT=\(ICSReader.preview(v)) is not a number") }
            // A negative COUNT is ignored, as the reference does.
            if n >= 0 { rule.count = n }
        }
        if let v = fields["UNTIL"] {
            if let d = ICSReader.date(Substring(v)) {
                rule.until = Until(wall: d, isDate: true, isUTC: false)
            } else if let dt = ICSReader.dateTime(Substring(v)) {
                rule.until = Until(wall: dt.wall, isDate: false, isUTC: dt.utc)
            } else {
                throw .bad("UNTIL=\(ICSReader.preview(v)) is not a date")
            }
        }
        rule.byWeekNo = try ints("BYWEEKNO", 1...53, allowNegative: true)
        rule.byMonth = try ints("BYMONTH", 1...12, allowNegative: false)
        rule.byMonthDay = try ints("BYMONTHDAY", 1...31, allowNegative: true)
        rule.byYearDay = try ints("BYYEARDAY", 1...366, allowNegative: true)
        rule.byHour = try ints("BYHOUR", 0...23, allowNegative: false)
        rule.byMinute = try ints("BYMINUTE", 0...59, allowNegative: false)
        rule.bySecond = try ints("BYSECOND", 0...60, allowNegative: false).map { min($0, 59) }
        rule.bySetPos = try ints("BYSETPOS", 1...366, allowNegative: true)
        if let v = fields["BYDAY"] {
            for item in v.split(separator: ",") {
                let s = item.trimmingCharacters(in: .whitespaces).uppercased()
                guard s.count >= 2, let wd = weekdayNames.firstIndex(of: String(s.suffix(2))) else {
                    throw .bad("BYDAY=\(ICSReader.preview(v)) has an unknown weekday")
                }
                let num = s.dropLast(2)
                var ordinal = 0
                if !num.isEmpty {
                    guard let n = Int(num.replacingOccurrences(of: "+", with: "")), n != 0, n >= -53, n <= 53 else {
                        throw .bad("BYDAY=\(ICSReader.preview(v)) has a bad ordinal")
                    }
                    ordinal = n
                }
                rule.byDay.append(WeekdayNum(ordinal: ordinal, weekday: wd))
            }
        }
        if let v = fields["WKST"] {
            guard let wd = weekdayNames.firstIndex(of: v.uppercased()) else {
                throw .bad("WKST=\(ICSReader.preview(v)) is not a weekday")
            }
            rule.weekStart = wd
        }
        return rule
    }
}

/// Expands a rule in wall time, like python-dateutil's `rrule` (which the reference
/// uses): periods of the frequency from DTSTART, each filtered by the BY rules,
/// BYSETPOS over the period, stopping at COUNT or UNTIL.
struct RecurrenceExpander {
    var rule: RecurrenceRule
    /// DTSTART, wall seconds.
    var start: Int64
    /// Whether an occurrence (wall seconds) lies beyond UNTIL.
    var isAfterUntil: (Int64) -> Bool
    /// No occurrence after this wall time is wanted.
    var horizon: Int64
    /// Occurrences before this wall time are not wanted; without COUNT, whole periods
    /// before it are skipped instead of walked.
    var from: Int64
    /// Periods walked at most (COUNT rules must be walked from DTSTART).
    var maxPeriods = 200_000
    var maxResults = 5000

    struct Output {
        var walls: [Int64]
        var truncated: Bool
    }

    func run() -> Output {
        if let period = rule.frequency.subDailyPeriod { return runSubDaily(period: period) }
        var out: [Int64] = []
        var emitted = 0
        let startDay = Civil.day(ofWall: start)
        let (y0, m0, _) = Civil.date(startDay)
        let r = rule
        let plainDays = Set(
            r.byDay.filter { $0.ordinal == 0 || r.frequency == .weekly || r.frequency == .daily }.map(\.weekday))
        let nthDays = r.frequency == .weekly || r.frequency == .daily ? [] : r.byDay.filter { $0.ordinal != 0 }
        var byMonth = r.byMonth
        var byMonthDay = r.byMonthDay
        var plain = plainDays
        if r.byYearDay.isEmpty && r.byMonthDay.isEmpty && r.byDay.isEmpty && r.byWeekNo.isEmpty {
            let (_, sm, sd) = Civil.date(startDay)
            switch r.frequency {
            case .yearly:
                if byMonth.isEmpty { byMonth = [sm] }
                byMonthDay = [sd]
            case .monthly: byMonthDay = [sd]
            case .weekly: plain = [Civil.weekday(startDay)]
            case .daily, .hourly, .minutely, .secondly: break
            }
        }
        let sod = Civil.secondOfDay(ofWall: start)
        let hours = r.byHour.isEmpty ? [sod / 3600] : r.byHour
        let minutes = r.byMinute.isEmpty ? [sod / 60 % 60] : r.byMinute
        let seconds = r.bySecond.isEmpty ? [sod % 60] : r.bySecond
        var times: [Int] = []
        for h in hours { for m in minutes { for s in seconds { times.append(h * 3600 + m * 60 + s) } } }
        times = Array(Set(times)).sorted()

        // Which period (k) to begin at: skipping is only sound without COUNT.
        var k = 0
        if r.count == nil, from > start {
            let fromDay = Civil.day(ofWall: from) - 1
            let (fy, fm, _) = Civil.date(fromDay)
            switch r.frequency {
            case .daily: k = max(0, (fromDay - startDay) / r.interval - 1)
            case .weekly: k = max(0, (fromDay - startDay) / (7 * r.interval) - 1)
            case .monthly: k = max(0, ((fy - y0) * 12 + fm - m0) / r.interval - 1)
            case .yearly: k = max(0, (fy - y0) / r.interval - 1)
            case .hourly, .minutely, .secondly: break
            }
        }
        let weekStartDay = startDay - ((Civil.weekday(startDay) - r.weekStart + 7) % 7)
        var walked = 0
        while walked < maxPeriods {
            walked += 1
            // The days of period k.
            var days: [Int]
            switch r.frequency {
            case .daily:
                days = [startDay + k * r.interval]
            case .weekly:
                let first = weekStartDay + k * 7 * r.interval
                days = (first..<(first + 7)).filter { $0 >= startDay }
            case .monthly:
                let mi = (m0 - 1) + k * r.interval
                let y = y0 + mi / 12, m = mi % 12 + 1
                let first = Civil.days(y, m, 1)
                days = Array(first..<(first + Civil.daysInMonth(y, m)))
            case .hourly, .minutely, .secondly:
                days = []
            case .yearly:
                let y = y0 + k * r.interval
                if byMonth.isEmpty || !r.byYearDay.isEmpty || !r.byWeekNo.isEmpty {
                    let first = Civil.days(y, 1, 1)
                    days = Array(first..<(first + Civil.daysInYear(y)))
                } else {
                    // Only the months BYMONTH keeps: the same result, a twelfth of the work.
                    days = []
                    for m in byMonth.sorted() {
                        let first = Civil.days(y, m, 1)
                        days += first..<(first + Civil.daysInMonth(y, m))
                    }
                }
            }
            guard let firstDay = days.first ?? (r.frequency == .weekly ? startDay : nil) else { break }
            if Int64(firstDay) * 86_400 > horizon { break }
            k += 1
            if days.isEmpty { continue }
            let nthOK = nthSet(days, nthDays, byMonth: !r.byMonth.isEmpty)
            let kept = days.filter { d in
                let (y, m, md) = Civil.date(d)
                if !byMonth.isEmpty && !byMonth.contains(m) { return false }
                if !plain.isEmpty && !plain.contains(Civil.weekday(d)) { return false }
                if !nthDays.isEmpty && !nthOK.contains(d) { return false }
                if !byMonthDay.isEmpty {
                    let neg = md - Civil.daysInMonth(y, m) - 1
                    if !byMonthDay.contains(md) && !byMonthDay.contains(neg) { return false }
                }
                if !r.byYearDay.isEmpty {
                    let yd = d - Civil.days(y, 1, 1) + 1
                    let neg = yd - Civil.daysInYear(y) - 1
                    if !r.byYearDay.contains(yd) && !r.byYearDay.contains(neg) { return false }
                }
                return r.byWeekNo.isEmpty || inWeeks(d)
            }
            var candidates: [Int64] = []
            for d in kept { for t in times { candidates.append(Int64(d) * 86_400 + Int64(t)) } }
            if !r.bySetPos.isEmpty, !candidates.isEmpty {
                var picked = Set<Int64>()
                for p in r.bySetPos {
                    let i = p > 0 ? p - 1 : candidates.count + p
                    if i >= 0 && i < candidates.count { picked.insert(candidates[i]) }
                }
                candidates = picked.sorted()
            }
            for c in candidates where c >= start {
                if isAfterUntil(c) || c > horizon { return Output(walls: out, truncated: false) }
                if let count = r.count, emitted >= count { return Output(walls: out, truncated: false) }
                emitted += 1
                if c >= from {
                    out.append(c)
                    if out.count >= maxResults { return Output(walls: out, truncated: true) }
                }
            }
            if let count = r.count, emitted >= count { break }
        }
        return Output(walls: out, truncated: walked >= maxPeriods)
    }

    /// Days of the period that satisfy an ordinal BYDAY (`1MO`, `-1FR`): counted within
    /// each month for MONTHLY, or YEARLY with BYMONTH; within the year otherwise.
    private func nthSet(_ days: [Int], _ nth: [RecurrenceRule.WeekdayNum], byMonth: Bool) -> Set<Int> {
        guard !nth.isEmpty else { return [] }
        var groups: [[Int]] = []
        if rule.frequency == .monthly || (rule.frequency == .yearly && byMonth) {
            var current: [Int] = []
            var month = -1
            for d in days {
                let m = Civil.date(d).m
                if m != month, !current.isEmpty {
                    groups.append(current)
                    current = []
                }
                month = m
                current.append(d)
            }
            if !current.isEmpty { groups.append(current) }
        } else {
            groups = [days]
        }
        var out = Set<Int>()
        for g in groups {
            for n in nth {
                let matching = g.filter { Civil.weekday($0) == n.weekday }
                let i = n.ordinal > 0 ? n.ordinal - 1 : matching.count + n.ordinal
                if i >= 0 && i < matching.count { out.insert(matching[i]) }
            }
        }
        return out
    }
}

// MARK: - Frequencies under a day, and week numbers

extension RecurrenceExpander {
    /// HOURLY, MINUTELY and SECONDLY: periods of `period` seconds from DTSTART's, each kept
    /// when the BY rules above its own unit allow it, then filled with the smaller units
    /// (BYMINUTE, BYSECOND, else DTSTART's), as python-dateutil does.
    func runSubDaily(period: Int64) -> Output {
        let r = rule
        let step = period * Int64(r.interval)
        let first = start - (start % period + period) % period
        var k: Int64 = 0
        if r.count == nil, from > start { k = max(0, (from - first) / step - 1) }
        let weekdays = Set(r.byDay.map(\.weekday))
        let sod = Civil.secondOfDay(ofWall: start)
        let minutes = r.byMinute.isEmpty ? [sod / 60 % 60] : r.byMinute.sorted()
        let seconds = r.bySecond.isEmpty ? [sod % 60] : r.bySecond.sorted()
        var out: [Int64] = []
        var emitted = 0
        var walked = 0
        while walked < maxPeriods {
            walked += 1
            let p = first + k * step
            if p > horizon { break }
            k += 1
            let d = Civil.day(ofWall: p)
            let s = Civil.secondOfDay(ofWall: p)
            let (y, m, md) = Civil.date(d)
            if !r.byMonth.isEmpty && !r.byMonth.contains(m) { continue }
            if !weekdays.isEmpty && !weekdays.contains(Civil.weekday(d)) { continue }
            if !r.byMonthDay.isEmpty {
                let neg = md - Civil.daysInMonth(y, m) - 1
                if !r.byMonthDay.contains(md) && !r.byMonthDay.contains(neg) { continue }
            }
            if !r.byYearDay.isEmpty {
                let yd = d - Civil.days(y, 1, 1) + 1
                if !r.byYearDay.contains(yd) && !r.byYearDay.contains(yd - Civil.daysInYear(y) - 1) { continue }
            }
            if !r.byWeekNo.isEmpty && !inWeeks(d) { continue }
            if !r.byHour.isEmpty && !r.byHour.contains(s / 3600) { continue }
            if period <= 60 && !r.byMinute.isEmpty && !r.byMinute.contains(s / 60 % 60) { continue }
            if period == 1 && !r.bySecond.isEmpty && !r.bySecond.contains(s % 60) { continue }
            var candidates: [Int64]
            switch period {
            case 3600: candidates = minutes.flatMap { mi in seconds.map { p + Int64(mi * 60 + $0) } }
            case 60: candidates = seconds.map { p + Int64($0) }
            default: candidates = [p]
            }
            if !r.bySetPos.isEmpty, !candidates.isEmpty {
                let all = candidates
                candidates = Set(
                    r.bySetPos.compactMap { pos -> Int64? in
                        let i = pos > 0 ? pos - 1 : all.count + pos
                        return i >= 0 && i < all.count ? all[i] : nil
                    }
                ).sorted()
            }
            for c in candidates where c >= start {
                if isAfterUntil(c) || c > horizon { return Output(walls: out, truncated: false) }
                if let count = r.count, emitted >= count { return Output(walls: out, truncated: false) }
                emitted += 1
                if c >= from {
                    out.append(c)
                    if out.count >= maxResults { return Output(walls: out, truncated: true) }
                }
            }
            if let count = r.count, emitted >= count { break }
        }
        return Output(walls: out, truncated: walked >= maxPeriods)
    }

    /// The first day of week 1 of year `y`: the week (from WKST) that holds at least four of
    /// its days (RFC 5545 §3.3.10, ISO 8601 with Monday).
    func weekOneStart(_ y: Int) -> Int {
        let jan1 = Civil.days(y, 1, 1)
        let back = (Civil.weekday(jan1) - rule.weekStart + 7) % 7
        return back <= 3 ? jan1 - back : jan1 - back + 7
    }

    /// Whether day `d` lies in one of BYWEEKNO's weeks of its year (negative: from the end).
    /// A day before week 1 is in the last week of the year before, one in the next year's
    /// week 1 is in week 1, as python-dateutil counts them.
    func inWeeks(_ d: Int) -> Bool {
        let y = Civil.date(d).y
        let start = weekOneStart(y), next = weekOneStart(y + 1)
        if d >= next { return rule.byWeekNo.contains(1) }
        if d < start {
            let weeks = (start - weekOneStart(y - 1)) / 7
            return rule.byWeekNo.contains(weeks) || rule.byWeekNo.contains(-1)
        }
        let n = (d - start) / 7 + 1, weeks = (next - start) / 7
        return rule.byWeekNo.contains(n) || rule.byWeekNo.contains(n - weeks - 1)
    }
}
