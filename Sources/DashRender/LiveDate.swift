import Foundation
import DashWidgets

/// Formats live dates at draw time and says when the text will next change, so the
/// runtime can wake exactly then and not before.
public struct LiveDateFormatter: Sendable {
    public var timeZone: TimeZone
    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    private var calendar: Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        return c
    }

    /// The text for `date` in `style` at `now`, and the first moment after `now` when that text changes.
    public func format(_ date: Date, _ style: LiveDateStyle, now: Date) -> (text: String, nextChange: Date?) {
        switch style {
        case .time(let seconds):
            let c = calendar.dateComponents([.hour, .minute, .second], from: date)
            let hm = FixedFormat.zeroPadded(c.hour ?? 0) + ":" + FixedFormat.zeroPadded(c.minute ?? 0)
            let text = seconds ? hm + ":" + FixedFormat.zeroPadded(c.second ?? 0) : hm
            return (text, nil)
        case .date:
            let c = calendar.dateComponents([.weekday, .day, .month], from: date)
            let wd = LiveDateFormatter.weekdays[(c.weekday ?? 1) - 1]
            let mo = LiveDateFormatter.months[(c.month ?? 1) - 1]
            return ("\(wd) \(c.day ?? 1) \(mo)", nil)
        case .relative, .offset:
            let delta = now.timeIntervalSince(date)  // > 0: date is in the past
            let (text, step) = LiveDateFormatter.relative(delta, signed: style == .offset)
            return (text, LiveDateFormatter.nextBoundary(date: date, now: now, step: step))
        case .timer:
            // Dates come from outside: keep absurd ones from trapping the conversion.
            let secs = Int(clamping: abs(now.timeIntervalSince(date)).rounded(.down), to: 0...9_000_000_000_000_000)
            let h = secs / 3600, m = (secs % 3600) / 60, s = secs % 60
            let mmss = FixedFormat.zeroPadded(m) + ":" + FixedFormat.zeroPadded(s)
            let text = h > 0 ? "\(h):" + mmss : "\(m):" + FixedFormat.zeroPadded(s)
            return (text, LiveDateFormatter.nextBoundary(date: date, now: now, step: 1))
        }
    }

    /// Wall-clock formats (`time`, `date`) change at the next minute or day boundary.
    public func nextWallChange(for style: LiveDateStyle, now: Date) -> Date? {
        switch style {
        case .time(let seconds):
            let step: Double = seconds ? 1 : 60
            return Date(timeIntervalSince1970: (now.timeIntervalSince1970 / step).rounded(.down) * step + step)
        case .date:
            return calendar.nextDate(
                after: now, matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .nextTime)
        default:
            return nil
        }
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "now", "5 min ago", "in 3 h", "2 d ago"; `signed`: "+5 min", "-3 h". Also the unit in
    /// seconds that the text counts in, so the caller knows when it next changes.
    static func relative(_ delta: Double, signed: Bool) -> (String, Double) {
        let a = delta.isFinite ? min(abs(delta), 9e15) : 0
        let past = delta >= 0
        let (n, unit, step): (Int, String, Double)
        if a < 60 {
            if signed { return (past ? "-0 min" : "+0 min", 60) }
            return ("now", 60)
        } else if a < 3600 {
            (n, unit, step) = (Int(clamping: a / 60), "min", 60)
        } else if a < 86_400 {
            (n, unit, step) = (Int(clamping: a / 3600), "h", 3600)
        } else if a < 86_400 * 365 {
            (n, unit, step) = (Int(clamping: a / 86_400), "d", 86_400)
        } else {
            (n, unit, step) = (Int(clamping: a / (86_400 * 365)), "y", 86_400)
        }
        if signed { return ((past ? "-" : "+") + "\(n) \(unit)", step) }
        return (past ? "\(n) \(unit) ago" : "in \(n) \(unit)", step)
    }

    /// The next instant after `now` at which `now - date` crosses a multiple of `step`.
    static func nextBoundary(date: Date, now: Date, step: Double) -> Date {
        let elapsed = now.timeIntervalSince(date)
        let k = (elapsed / step).rounded(.down) + 1
        var next = date.addingTimeInterval(k * step)
        if next <= now { next = now.addingTimeInterval(step) }
        return next
    }
}
