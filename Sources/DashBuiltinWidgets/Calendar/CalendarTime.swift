import Foundation
import DashCore

/// Calendar output of civil dates (the arithmetic itself is `DashCore.Civil`).
extension Civil {
    /// `2026-11-23T09:00:00` for messages and reference output.
    static func iso(_ w: Int64, date: Bool = false) -> String {
        let (y, m, d) = Civil.date(day(ofWall: w))
        let s = secondOfDay(ofWall: w)
        let ymd = FixedFormatYear.year(y) + "-" + pad(m) + "-" + pad(d)
        if date { return ymd }
        return ymd + "T" + pad(s / 3600) + ":" + pad(s / 60 % 60) + ":" + pad(s % 60)
    }

    static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

enum FixedFormatYear {
    static func year(_ y: Int) -> String {
        let s = String(abs(y))
        return (y < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}

/// A time zone as calendars name it: an IANA zone, or one defined by the file's own
/// `VTIMEZONE` block (Outlook's "Customized Time Zone"). Converts between wall seconds
/// and instants (seconds since the epoch, UTC).
public final class CalendarZone: Sendable, Hashable, CustomStringConvertible {
    public let id: String
    private let system: TimeZone?
    /// For a VTIMEZONE: onsets (UTC seconds) and the offset from each on, ascending.
    private let transitions: [(at: Int64, offset: Int)]
    private let initialOffset: Int

    init(id: String, timeZone: TimeZone) {
        self.id = id
        self.system = timeZone
        self.transitions = []
        self.initialOffset = 0
    }

    init(id: String, transitions: [(at: Int64, offset: Int)], initialOffset: Int) {
        self.id = id
        self.system = nil
        self.transitions = transitions.sorted { $0.at < $1.at }
        self.initialOffset = initialOffset
    }

    public static let utc = CalendarZone(id: "UTC", timeZone: TimeZone(secondsFromGMT: 0)!)

    /// An IANA zone by name, or nil when the system does not know it.
    public static func iana(_ name: String) -> CalendarZone? {
        guard !name.isEmpty, name.count < 80, let tz = TimeZone(identifier: name) else { return nil }
        return CalendarZone(id: name, timeZone: tz)
    }

    public var description: String { id }
    public static func == (a: CalendarZone, b: CalendarZone) -> Bool { a === b || a.id == b.id }
    public func hash(into h: inout Hasher) { h.combine(id) }

    /// The offset from UTC, in seconds, at an instant.
    public func offset(at utc: Int64) -> Int {
        if let system {
            return system.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc)))
        }
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid].at <= utc { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? initialOffset : transitions[lo - 1].offset
    }

    /// The instant of a wall time. An ambiguous time (autumn) is its first occurrence;
    /// a time that does not exist (spring gap) is read with the offset before the gap,
    /// so 02:30 on the spring day becomes 03:30 (as Python's zoneinfo with fold=0).
    public func utc(fromWall w: Int64) -> Int64 {
        let before = offset(at: w - 43_200)
        let after = offset(at: w + 43_200)
        if offset(at: w - Int64(before)) == before { return w - Int64(before) }
        if offset(at: w - Int64(after)) == after { return w - Int64(after) }
        return w - Int64(before)
    }

    public func wall(fromUTC t: Int64) -> Int64 { t + Int64(offset(at: t)) }
}

/// Windows time zone names (Outlook, Exchange) to IANA names, from the Unicode CLDR's
/// windowsZones mapping (territory "001").
enum WindowsZones {
    static let iana: [String: String] = [
        "Dateline Standard Time": "Etc/GMT+12", "UTC-11": "Etc/GMT+11",
        "Aleutian Standard Time": "America/Adak", "Hawaiian Standard Time": "Pacific/Honolulu",
        "Marquesas Standard Time": "Pacific/Marquesas", "Alaskan Standard Time": "America/Anchorage",
        "UTC-09": "Etc/GMT+9", "Pacific Standard Time (Mexico)": "America/Tijuana", "UTC-08": "Etc/GMT+8",
        "Pacific Standard Time": "America/Los_Angeles", "US Mountain Standard Time": "America/Phoenix",
        "Mountain Standard Time (Mexico)": "America/Mazatlan", "Mountain Standard Time": "America/Denver",
        "Yukon Standard Time": "America/Whitehorse", "Central America Standard Time": "America/Guatemala",
        "Central Standard Time": "America/Chicago", "Easter Island Standard Time": "Pacific/Easter",
        "Central Standard Time (Mexico)": "America/Mexico_City", "Canada Central Standard Time": "America/Regina",
        "SA Pacific Standard Time": "America/Bogota", "Eastern Standard Time (Mexico)": "America/Cancun",
        "Eastern Standard Time": "America/New_York", "Haiti Standard Time": "America/Port-au-Prince",
        "Cuba Standard Time": "America/Havana", "US Eastern Standard Time": "America/Indiana/Indianapolis",
        "Turks And Caicos Standard Time": "America/Grand_Turk", "Paraguay Standard Time": "America/Asuncion",
        "Atlantic Standard Time": "America/Halifax", "Venezuela Standard Time": "America/Caracas",
        "Central Brazilian Standard Time": "America/Cuiaba", "SA Western Standard Time": "America/La_Paz",
        "Pacific SA Standard Time": "America/Santiago", "Newfoundland Standard Time": "America/St_Johns",
        "Tocantins Standard Time": "America/Araguaina", "E. South America Standard Time": "America/Sao_Paulo",
        "SA Eastern Standard Time": "America/Cayenne", "Argentina Standard Time": "America/Argentina/Buenos_Aires",
        "Greenland Standard Time": "America/Nuuk", "Montevideo Standard Time": "America/Montevideo",
        "Magallanes Standard Time": "America/Punta_Arenas", "Saint Pierre Standard Time": "America/Miquelon",
        "Bahia Standard Time": "America/Bahia", "UTC-02": "Etc/GMT+2", "Azores Standard Time": "Atlantic/Azores",
        "Cape Verde Standard Time": "Atlantic/Cape_Verde", "UTC": "Etc/UTC", "GMT Standard Time": "Europe/London",
        "Greenwich Standard Time": "Atlantic/Reykjavik", "Sao Tome Standard Time": "Africa/Sao_Tome",
        "Morocco Standard Time": "Africa/Casablanca", "W. Europe Standard Time": "Europe/Berlin",
        "Central Europe Standard Time": "Europe/Budapest", "Romance Standard Time": "Europe/Paris",
        "Central European Standard Time": "Europe/Warsaw", "W. Central Africa Standard Time": "Africa/Lagos",
        "Jordan Standard Time": "Asia/Amman", "GTB Standard Time": "Europe/Bucharest",
        "Middle East Standard Time": "Asia/Beirut", "Egypt Standard Time": "Africa/Cairo",
        "E. Europe Standard Time": "Europe/Chisinau", "Syria Standard Time": "Asia/Damascus",
        "West Bank Standard Time": "Asia/Hebron", "South Africa Standard Time": "Africa/Johannesburg",
        "FLE Standard Time": "Europe/Kiev", "Israel Standard Time": "Asia/Jerusalem",
        "South Sudan Standard Time": "Africa/Juba", "Kaliningrad Standard Time": "Europe/Kaliningrad",
        "Sudan Standard Time": "Africa/Khartoum", "Libya Standard Time": "Africa/Tripoli",
        "Namibia Standard Time": "Africa/Windhoek", "Arabic Standard Time": "Asia/Baghdad",
        "Turkey Standard Time": "Europe/Istanbul", "Arab Standard Time": "Asia/Riyadh",
        "Belarus Standard Time": "Europe/Minsk", "Russian Standard Time": "Europe/Moscow",
        "E. Africa Standard Time": "Africa/Nairobi", "Volgograd Standard Time": "Europe/Volgograd",
        "Iran Standard Time": "Asia/Tehran", "Arabian Standard Time": "Asia/Dubai",
        "Astrakhan Standard Time": "Europe/Astrakhan", "Azerbaijan Standard Time": "Asia/Baku",
        "Russia Time Zone 3": "Europe/Samara", "Mauritius Standard Time": "Indian/Mauritius",
        "Saratov Standard Time": "Europe/Saratov", "Georgian Standard Time": "Asia/Tbilisi",
        "Caucasus Standard Time": "Asia/Yerevan", "Afghanistan Standard Time": "Asia/Kabul",
        "West Asia Standard Time": "Asia/Tashkent", "Ekaterinburg Standard Time": "Asia/Yekaterinburg",
        "Pakistan Standard Time": "Asia/Karachi", "Qyzylorda Standard Time": "Asia/Qyzylorda",
        "India Standard Time": "Asia/Kolkata", "Sri Lanka Standard Time": "Asia/Colombo",
        "Nepal Standard Time": "Asia/Kathmandu", "Central Asia Standard Time": "Asia/Almaty",
        "Bangladesh Standard Time": "Asia/Dhaka", "Omsk Standard Time": "Asia/Omsk",
        "Myanmar Standard Time": "Asia/Yangon", "SE Asia Standard Time": "Asia/Bangkok",
        "Altai Standard Time": "Asia/Barnaul", "W. Mongolia Standard Time": "Asia/Hovd",
        "North Asia Standard Time": "Asia/Krasnoyarsk", "N. Central Asia Standard Time": "Asia/Novosibirsk",
        "Tomsk Standard Time": "Asia/Tomsk", "China Standard Time": "Asia/Shanghai",
        "North Asia East Standard Time": "Asia/Irkutsk", "Singapore Standard Time": "Asia/Singapore",
        "W. Australia Standard Time": "Australia/Perth", "Taipei Standard Time": "Asia/Taipei",
        "Ulaanbaatar Standard Time": "Asia/Ulaanbaatar", "Aus Central W. Standard Time": "Australia/Eucla",
        "Transbaikal Standard Time": "Asia/Chita", "Tokyo Standard Time": "Asia/Tokyo",
        "North Korea Standard Time": "Asia/Pyongyang", "Korea Standard Time": "Asia/Seoul",
        "Yakutsk Standard Time": "Asia/Yakutsk", "Cen. Australia Standard Time": "Australia/Adelaide",
        "AUS Central Standard Time": "Australia/Darwin", "E. Australia Standard Time": "Australia/Brisbane",
        "AUS Eastern Standard Time": "Australia/Sydney", "West Pacific Standard Time": "Pacific/Port_Moresby",
        "Tasmania Standard Time": "Australia/Hobart", "Vladivostok Standard Time": "Asia/Vladivostok",
        "Lord Howe Standard Time": "Australia/Lord_Howe", "Bougainville Standard Time": "Pacific/Bougainville",
        "Russia Time Zone 10": "Asia/Srednekolymsk", "Magadan Standard Time": "Asia/Magadan",
        "Norfolk Standard Time": "Pacific/Norfolk", "Sakhalin Standard Time": "Asia/Sakhalin",
        "Central Pacific Standard Time": "Pacific/Guadalcanal", "Russia Time Zone 11": "Asia/Kamchatka",
        "New Zealand Standard Time": "Pacific/Auckland", "UTC+12": "Etc/GMT-12", "Fiji Standard Time": "Pacific/Fiji",
        "Chatham Islands Standard Time": "Pacific/Chatham", "UTC+13": "Etc/GMT-13",
        "Tonga Standard Time": "Pacific/Tongatapu", "Samoa Standard Time": "Pacific/Apia",
        "Line Islands Standard Time": "Pacific/Kiritimati",
    ]

    /// The IANA zone for a TZID as calendars write it: an IANA name, a Windows name, or
    /// a "globally unique" id such as `/mozilla.org/20050126_1/Europe/Berlin`.
    static func resolve(_ tzid: String) -> CalendarZone? {
        let cleaned = tzid.trimmingCharacters(in: CharacterSet(charactersIn: "/ \""))
        if cleaned.isEmpty { return nil }
        if let z = CalendarZone.iana(cleaned) { return z }
        if let name = iana[cleaned], let z = CalendarZone.iana(name) {
            return CalendarZone(id: cleaned, timeZone: z.timeZoneForAlias)
        }
        if tzid.hasPrefix("/") {
            let parts = cleaned.split(separator: "/")
            for start in parts.indices.dropFirst() {
                if let z = CalendarZone.iana(parts[start...].joined(separator: "/")) { return z }
            }
        }
        return nil
    }
}

extension CalendarZone {
    /// The system zone behind an IANA zone (used to alias a Windows name to it).
    var timeZoneForAlias: TimeZone { system ?? TimeZone(secondsFromGMT: 0)! }
}
