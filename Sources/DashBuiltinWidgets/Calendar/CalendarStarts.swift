import Foundation

extension CalendarFormat {
    /// When an event starts, as a person says it: "in 5 min", "in 1 h 20 min", "in 23 h" (later
    /// today), "tomorrow 09:30", "in 3 days" (calendar days). A plain count of days
    /// rounded down read "in 1 d" for an event 23 hours away.
    static func starts(_ start: Date, now: Date, _ z: CalendarZone) -> String {
        let seconds = start.timeIntervalSince(now)
        guard seconds >= 60 else { return "now" }
        let minutes = Int(clamping: seconds / 60)
        if minutes < 60 { return "in \(minutes) min" }
        if minutes < 120 { return minutes == 60 ? "in 1 h" : "in 1 h \(minutes - 60) min" }
        let days = dayNumber(start, z) - dayNumber(now, z)
        if days == 0 { return "in \(minutes / 60) h" }
        if days == 1 { return "tomorrow " + hm(start, z) }
        return "in \(days) days"
    }
}
