/// Civil (proleptic Gregorian) date arithmetic on plain integers, the one place it is done:
/// calendar recurrences, feed dates and day keys need no `Calendar` (ICU) for it and get the
/// same answer on every machine.
/// "Wall seconds" are seconds since 1970-01-01 00:00 on a clock's face, whatever its zone.
public enum Civil {
    /// Days since 1970-01-01 of a year, month (1-12) and day (1-31).
    public static func days(_ y: Int, _ m: Int, _ d: Int) -> Int {
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Year, month and day of a day number.
    public static func date(_ days: Int) -> (y: Int, m: Int, d: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// 0 = Monday … 6 = Sunday (RFC 5545 lists weekdays from MO).
    public static func weekday(_ days: Int) -> Int { ((days % 7) + 7 + 3) % 7 }

    public static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    public static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: return isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func daysInYear(_ y: Int) -> Int { isLeap(y) ? 366 : 365 }

    public static func wall(_ y: Int, _ m: Int, _ d: Int, _ hh: Int = 0, _ mm: Int = 0, _ ss: Int = 0) -> Int64 {
        Int64(days(y, m, d)) * 86_400 + Int64(hh * 3600 + mm * 60 + ss)
    }

    /// The day number of wall seconds (floor division).
    public static func day(ofWall w: Int64) -> Int { Int((w >= 0 ? w : w - 86_399) / 86_400) }
    public static func secondOfDay(ofWall w: Int64) -> Int { Int(w - Int64(day(ofWall: w)) * 86_400) }
}
