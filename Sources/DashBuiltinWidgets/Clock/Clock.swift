import Foundation
import DashWidgets

/// One minute of the clock: the time to show and the zone to show it in.
public struct ClockEntry: TimelineEntry, Hashable {
    public var date: Date
    public var timeZone: String
    public var label: String
    public var summary: String { "\(ClockFormat.time(date, zone: timeZone)) \(label)" }
}

enum ClockFormat {
    static func calendar(_ zone: String) -> Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!
        c.firstWeekday = 2  // Monday, ISO 8601
        return c
    }
    static func time(_ d: Date, zone: String) -> String {
        let c = calendar(zone).dateComponents([.hour, .minute], from: d)
        return FixedFormat.zeroPadded(c.hour ?? 0) + ":" + FixedFormat.zeroPadded(c.minute ?? 0)
    }
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December",
    ]
}

/// A timeline of one entry per minute for the next hour, reloaded at its end.
public struct ClockProvider: TimelineProvider {
    public init() {}

    /// The configured zone, or the user's own (from the context) when empty or unknown.
    func zone(_ config: WidgetConfig, _ context: TimelineContext) -> String {
        let z = config.string("timeZone")
        return z.isEmpty || TimeZone(identifier: z) == nil ? context.timeZone.identifier : z
    }
    func label(_ config: WidgetConfig, _ context: TimelineContext) -> String {
        let l = config.string("label")
        let z = zone(config, context)
        return l.isEmpty ? ClockWidget.zoneName(z) : l
    }

    public func placeholder(in context: TimelineContext) -> ClockEntry {
        ClockEntry(date: context.now, timeZone: context.timeZone.identifier, label: label(WidgetConfig(), context))
    }

    public func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> ClockEntry {
        ClockEntry(date: context.now, timeZone: zone(configuration, context), label: label(configuration, context))
    }

    public struct UnknownTimeZone: Error, CustomStringConvertible {
        public var name: String
        public init(name: String) { self.name = name }
        /// The error for `name` if it is set and names no zone (the provider and the schema ask alike).
        public init?(checking name: String) {
            guard !name.isEmpty, TimeZone(identifier: name) == nil else { return nil }
            self.name = name
        }
        public var description: String { "unknown time zone '\(name)'; use an IANA name such as Europe/Paris" }
    }

    public func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<
        ClockEntry
    > {
        let asked = configuration.string("timeZone")
        if let unknown = UnknownTimeZone(checking: asked) { throw unknown }
        let minute = (context.now.timeIntervalSince1970 / 60).rounded(.down) * 60
        let entries = (0..<60).map { i in
            ClockEntry(
                date: Date(timeIntervalSince1970: minute + Double(i) * 60),
                timeZone: zone(configuration, context), label: label(configuration, context))
        }
        return Timeline(entries: entries, policy: .atEnd)
    }
}

public enum ClockWidget {
    public static let schema = ConfigurationSchema([
        Parameter(
            key: "timeZone", title: "Time zone",
            help: "An IANA time zone such as Europe/Paris; empty for the machine's own zone.",
            // A list of the system's zones (the zone database), filtered as you type ("Tokyo"
            // finds Asia/Tokyo); any other valid IANA name is still taken.
            kind: .dynamicEnumeration(fixed: [ParameterOption("UTC", title: "UTC")], pattern: #"[A-Za-z0-9_+\-/]*"#),
            default: .string(""),
            dynamicOptions: { _ in
                TimeZone.knownTimeZoneIdentifiers.sorted().filter { $0 != "UTC" }.map { ParameterOption($0, title: $0) }
            }
        ).allowing("a time zone name such as Europe/Paris").checked { value in
            guard case .string(let name) = value, ClockProvider.UnknownTimeZone(checking: name) != nil else {
                return nil
            }
            return "'\(name)' is not a time zone; use an IANA name such as Europe/Paris, or leave it empty"
        },
        Parameter(
            key: "label", title: "Label", help: "The tile's title; Clock when empty.",
            kind: .string(pattern: nil), default: .string("")),
    ])

    public static let widget = Widget(
        kind: "clock", displayName: "Clock", description: "The time and date; the large size adds the month.",
        supportedFamilies: [.small, .medium, .large],
        schema: schema, cost: .local, timeout: 2,
        provider: ClockProvider(),
        view: { entry, context in view(entry, context) },
        detail: { _, entry, context in
            guard let entry else { return Text("No time yet") }
            return VStack(spacing: 1) {
                view(entry, TimelineContext(family: .large, now: context.now, timeZone: context.timeZone))
            }
        }
    )

    /// The zone as people write it: Foundation names the zero offset "GMT" or "Etc/UTC"
    /// even when asked for "UTC".
    static func zoneName(_ id: String) -> String {
        ["GMT", "Etc/UTC", "Etc/GMT", "UCT", "Universal", "Zulu"].contains(id) ? "UTC" : id
    }

    static func view(_ e: ClockEntry, _ context: TimelineContext) -> TileView {
        let cal = ClockFormat.calendar(e.timeZone)
        let c = cal.dateComponents([.weekday, .day, .month, .year, .hour, .minute], from: e.date)
        let weekday = ClockFormat.weekdays[(c.weekday ?? 1) - 1]
        let month = ClockFormat.months[(c.month ?? 1) - 1]
        let time = ClockFormat.time(e.date, zone: e.timeZone)
        let dayFraction = Double((c.hour ?? 0) * 60 + (c.minute ?? 0)) / 1440
        let link = DeepLink.make(kind: "clock", e.timeZone)
        switch context.family {
        case .small where context.size.height >= 9 && BigDigits.fits(time, width: context.size.width):
            return roomySmall(e, context, time: time, weekday: weekday, month: month, dayFraction: dayFraction)
        case .small:
            return VStack {
                Text(time).font(.largeTitle).foregroundStyle(.accent)
                Text(weekday).font(.headline)
                Text("\(c.day ?? 1) \(month)")
                Spacer()
                Text(zoneName(e.timeZone)).font(.caption)
            }.widgetURL(link)
        case .medium:
            return HStack(spacing: 3) {
                VStack {
                    Text(time).font(.largeTitle).foregroundStyle(.accent)
                    Text(weekday).font(.headline)
                    Text("\(c.day ?? 1) \(month) \(c.year ?? 0)")
                    Spacer()
                    Text(zoneName(e.timeZone)).font(.caption)
                }
                VStack {
                    Text("Week \(cal.component(.weekOfYear, from: e.date))").font(.caption)
                    Text("Day \(cal.ordinality(of: .day, in: .year, for: e.date) ?? 0)").font(.caption)
                    Spacer()
                    Text("Day \(Int(clamping: dayFraction * 100))% done").font(.caption)
                    Gauge(value: dayFraction)
                }
            }.widgetURL(link)
        case .large, .extraLarge:
            return VStack {
                HStack {
                    Text(time).font(.largeTitle).foregroundStyle(.accent)
                    Spacer()
                    Text(zoneName(e.timeZone)).font(.caption)
                }
                Text("\(weekday), \(c.day ?? 1) \(month) \(c.year ?? 0)").font(.headline)
                Gauge(value: dayFraction)
                Spacer(minLength: 1)
                HStack(spacing: 2) {
                    monthGrid(e.date, cal)
                    worldClocks(e.date)
                }
            }.widgetURL(link)
        }
    }

    /// The small tile with room (a big screen made it 9 rows or more): the time in big
    /// digits, the date, how far the day is, and the time in a few cities in the rows left.
    static func roomySmall(
        _ e: ClockEntry, _ context: TimelineContext, time: String, weekday: String, month: String,
        dayFraction: Double
    ) -> TileView {
        let cal = ClockFormat.calendar(e.timeZone)
        let c = cal.dateComponents([.day, .year], from: e.date)
        let big = BigDigits.rows(time) ?? [time]
        // The digits, a gap, weekday, date, week, gauge, and the zone at the foot.
        let cities = context.size.height - big.count - 6
        return VStack {
            for row in big { Text(row).foregroundStyle(.accent).lineLimit(1) }
            Text(" ")
            Text(weekday).font(.headline)
            Text("\(c.day ?? 1) \(month) \(c.year ?? 0)")
            Text(
                "Week \(cal.component(.weekOfYear, from: e.date)) · day \(cal.ordinality(of: .day, in: .year, for: e.date) ?? 0)"
            ).font(.caption).lineLimit(1)
            Gauge(value: dayFraction)
            if cities >= 3 {
                Text(" ")
                for (city, zone) in world.prefix(cities - 1) {
                    HStack(spacing: 0) {
                        Text(city).font(.caption).lineLimit(1)
                        Spacer(minLength: 1)
                        Text(ClockFormat.time(e.date, zone: zone))
                    }
                }
            }
            Spacer()
            Text(zoneName(e.timeZone)).font(.caption)
        }.widgetURL(DeepLink.make(kind: "clock", e.timeZone))
    }

    static let world: [(String, String)] = [
        ("NYC", "America/New_York"), ("London", "Europe/London"), ("Berlin", "Europe/Berlin"),
        ("Delhi", "Asia/Kolkata"), ("Tokyo", "Asia/Tokyo"), ("Sydney", "Australia/Sydney"),
    ]

    /// The same minute in a few cities.
    static func worldClocks(_ date: Date) -> TileView {
        VStack {
            Text("World").font(.headline)
            Text(" ")
            for (city, zone) in world {
                HStack(spacing: 0) {
                    Text(city).font(.caption).lineLimit(1)
                    Spacer(minLength: 1)
                    Text(ClockFormat.time(date, zone: zone))
                }
            }
        }
    }

    /// A month calendar, Monday first, today in the accent colour.
    static func monthGrid(_ date: Date, _ cal: Calendar) -> TileView {
        let today = cal.component(.day, from: date)
        let comps = cal.dateComponents([.year, .month], from: date)
        let first = cal.date(from: comps) ?? date
        let days = cal.range(of: .day, in: .month, for: date)?.count ?? 30
        let lead = (cal.component(.weekday, from: first) + 5) % 7  // Monday = 0
        var weeks: [[Int?]] = []
        var week: [Int?] = Array(repeating: nil, count: lead)
        for d in 1...days {
            week.append(d)
            if week.count == 7 {
                weeks.append(week)
                week = []
            }
        }
        if !week.isEmpty { weeks.append(week + Array(repeating: nil, count: 7 - week.count)) }
        let month = ClockFormat.months[(comps.month ?? 1) - 1]
        return VStack {
            Text("\(month) \(comps.year ?? 0)").font(.headline).fillWidth(alignment: .center).frame(width: 20)
            Text("Mo Tu We Th Fr Sa Su").font(.caption)
            for w in weeks {
                HStack(spacing: 1) {
                    for d in w {
                        if let d {
                            let t = Text(d < 10 ? " \(d)" : "\(d)")
                            d == today ? t.foregroundStyle(.accent).bold() : t
                        } else {
                            Text("  ")
                        }
                    }
                }
            }
        }
    }
}
