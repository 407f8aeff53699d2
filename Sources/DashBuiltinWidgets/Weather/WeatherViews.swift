import Foundation
import DashWidgets

/// WMO weather interpretation codes, as Open-Meteo reports them.
enum WeatherCodes {
    static let descriptions: [Int: String] = [
        0: "Clear sky", 1: "Mainly clear", 2: "Partly cloudy", 3: "Overcast", 45: "Fog", 48: "Rime fog",
        51: "Light drizzle", 53: "Drizzle", 55: "Dense drizzle", 56: "Freezing drizzle", 57: "Dense freezing drizzle",
        61: "Light rain", 63: "Rain", 65: "Heavy rain", 66: "Freezing rain", 67: "Heavy freezing rain",
        71: "Light snow", 73: "Snow", 75: "Heavy snow", 77: "Snow grains", 80: "Light showers", 81: "Showers",
        82: "Violent showers", 85: "Snow showers", 86: "Heavy snow showers", 95: "Thunderstorm",
        96: "Thunderstorm, hail", 99: "Thunderstorm, heavy hail",
    ]

    static func describe(_ code: Int) -> String { descriptions[code] ?? "Weather code \(code)" }

    static func isStorm(_ code: Int) -> Bool { code >= 95 }

    /// An emoji (two cells wide; VS16 where the symbol needs it).
    static func emoji(_ code: Int, isDay: Bool) -> String {
        switch code {
        case 0: return isDay ? "☀️" : "🌙"
        case 1: return isDay ? "🌤️" : "🌙"
        case 2: return isDay ? "⛅" : "☁️"
        case 3: return "☁️"
        case 45, 48: return "🌫️"
        case 51, 53, 55, 80, 81, 82: return isDay ? "🌦️" : "🌧️"
        case 56, 57, 61, 63, 65, 66, 67: return "🌧️"
        case 71, 73, 75, 77, 85, 86: return "🌨️"
        case 95, 96, 99: return "⛈️"
        default: return "❔"
        }
    }

    /// The plain-text fallback: a word of at most five letters.
    static func word(_ code: Int, isDay: Bool) -> String {
        switch code {
        case 0: return isDay ? "Sunny" : "Clear"
        case 1: return "Fair"
        case 2: return "Cloud"
        case 3: return "Grey"
        case 45, 48: return "Fog"
        case 51, 53, 55: return "Drizl"
        case 56, 57, 66, 67: return "Ice"
        case 61, 63, 65: return "Rain"
        case 71, 73, 75, 77: return "Snow"
        case 80, 81, 82: return "Shwrs"
        case 85, 86: return "Snow"
        case 95, 96, 99: return "Storm"
        default: return "?"
        }
    }

    static func glyph(_ code: Int, isDay: Bool, icons: String) -> String {
        icons == "text" ? word(code, isDay: isDay) : emoji(code, isDay: isDay)
    }
}

/// Numbers, times and dates in the place's own time, without Calendar (no ICU on this path).
enum WeatherFormat {
    /// 3°, -1° (never "-0°").
    static func degrees(_ v: Double) -> String {
        let r = Int(clamping: v.rounded())
        return "\(r)°"
    }

    static func temperature(_ v: Double, _ unit: String) -> String { "\(Int(clamping: v.rounded()))\(unit)" }

    static func wind(_ v: Double?, _ unit: String) -> String {
        guard let v else { return "–" }
        return "\(Int(clamping: v.rounded())) \(unit)"
    }

    static func compass(_ degrees: Double?) -> String {
        guard let d = degrees, d.isFinite else { return "" }
        let names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let i = Int(clamping: ((d.truncatingRemainder(dividingBy: 360) + 360 + 22.5) / 45).rounded(.down), to: 0...16) % 8
        return names[i]
    }

    static func percent(_ v: Double?) -> String { v.map { "\(Int(clamping: $0.rounded()))%" } ?? "–" }

    /// 52.52, 13.4105: up to four decimals (about 10 m), no trailing zeros.
    static func coordinate(_ v: Double) -> String {
        var s = FixedFormat.decimal(v, places: 4)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }

    /// Seconds since 1970 in the place's time; a date past ±31,000 years is held there.
    static func localSeconds(_ d: Date, _ offset: Int) -> Int {
        Int(clamping: d.timeIntervalSince1970.rounded(.down), to: .unixSeconds) + offset
    }

    /// Days since 1970-01-01 in the place's time.
    static func localDay(_ d: Date, _ offset: Int) -> Int {
        let s = localSeconds(d, offset)
        return s >= 0 ? s / 86400 : (s - 86399) / 86400
    }

    /// "14:05".
    static func time(_ d: Date, _ offset: Int) -> String {
        let s = localSeconds(d, offset) - localDay(d, offset) * 86400
        return FixedFormat.zeroPadded(s / 3600) + ":" + FixedFormat.zeroPadded(s % 3600 / 60)
    }

    /// "14" (the hour of a forecast column).
    static func hour(_ d: Date, _ offset: Int) -> String {
        let s = localSeconds(d, offset) - localDay(d, offset) * 86400
        return FixedFormat.zeroPadded(s / 3600)
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func weekday(_ d: Date, _ offset: Int) -> String {
        let day = localDay(d, offset)
        return weekdays[((day % 7) + 7 + 4) % 7]
    }

    /// (year, month, day) of a day number (Howard Hinnant's civil-from-days).
    static func civil(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// "2026-11-23", for deep links.
    static func isoDay(_ d: Date, _ offset: Int) -> String {
        let (y, m, day) = civil(localDay(d, offset))
        return "\(y)-" + FixedFormat.zeroPadded(m) + "-" + FixedFormat.zeroPadded(day)
    }

    /// "Mon 23 Nov".
    static func longDay(_ d: Date, _ offset: Int) -> String {
        let (_, m, day) = civil(localDay(d, offset))
        return "\(weekday(d, offset)) \(day) \(months[m - 1])"
    }
}

/// The weather tile: small is the conditions now; medium adds the next four hours; large
/// adds six hours and the week, each day a link to its own pane.
enum WeatherViews {
    static func tile(_ e: WeatherEntry, _ ctx: TimelineContext) -> TileView {
        let view: TileView
        switch ctx.family {
        case .small: view = small(e)
        case .medium: view = medium(e)
        // A bigger tile (extraLarge, or a big screen's grown grid) shows more hours.
        case .large: view = large(e, hoursWidth: ctx.size.width > 0 ? ctx.size.width : 35, precipitation: false)
        case .extraLarge: view = large(e, hoursWidth: ctx.size.width > 0 ? ctx.size.width : 75, precipitation: true)
        }
        return e.isPlaceholder ? view.redacted() : view
    }

    static func glyph(_ e: WeatherEntry, _ code: Int, _ isDay: Bool) -> String {
        WeatherCodes.glyph(code, isDay: isDay, icons: e.icons)
    }

    /// The icon beside the current conditions; none in text mode, where the
    /// description next to it already says it in words.
    static func currentGlyph(_ e: WeatherEntry) -> [TileView] {
        e.icons == "text" ? [] : [Text(glyph(e, e.current.code, e.current.isDay))]
    }

    static func today(_ e: WeatherEntry) -> WeatherDay? { e.days.first }

    static func highLow(_ e: WeatherEntry) -> String {
        guard let d = today(e) else { return "" }
        return "H \(WeatherFormat.degrees(d.high)) L \(WeatherFormat.degrees(d.low))"
    }

    /// The line under the conditions: rain coming soon, else how it feels.
    static func outlook(_ e: WeatherEntry, short: Bool = false) -> String {
        if let wet = e.hours.prefix(6).first(where: { ($0.precipitationProbability ?? 0) >= 50 }) {
            let what = [71, 73, 75, 77, 85, 86].contains(wet.code) ? "snow" : "rain"
            return "\(what) \(WeatherFormat.percent(wet.precipitationProbability))" + (short ? " " : " at ")
                + WeatherFormat.time(wet.time, e.utcOffset)
        }
        if let f = e.current.apparentTemperature {
            return (short ? "feels " : "feels like ") + WeatherFormat.degrees(f)
        }
        return WeatherFormat.wind(e.current.windSpeed, e.windUnit)
    }

    static func small(_ e: WeatherEntry) -> TileView {
        VStack {
            HStack {
                Text(e.place).font(.headline).foregroundStyle(.accent).lineLimit(1)
                Spacer(minLength: 1)
                currentGlyph(e)
            }
            Text(WeatherFormat.temperature(e.current.temperature, e.temperatureUnit)).font(.largeTitle)
            Text(WeatherCodes.describe(e.current.code)).lineLimit(1)
            Text(highLow(e)).font(.caption)
            Text(outlook(e, short: true)).font(.caption).lineLimit(1)
        }.widgetURL(WeatherWidget.link("now"))
    }

    static func currentBlock(_ e: WeatherEntry) -> TileView {
        VStack {
            Text(e.place).font(.headline).foregroundStyle(.accent).lineLimit(1)
            HStack {
                currentGlyph(e)
                Text(WeatherFormat.temperature(e.current.temperature, e.temperatureUnit)).font(.title)
            }
            Text(WeatherCodes.describe(e.current.code)).lineLimit(1)
            Text(highLow(e)).font(.caption)
            Text(outlook(e, short: true)).font(.caption).lineLimit(1)
        }
    }

    /// One forecast hour as a column: hour, glyph, temperature (and rain chance).
    static func hourColumn(_ e: WeatherEntry, _ h: WeatherHour, width: Int, precipitation: Bool) -> TileView {
        VStack(alignment: .center) {
            Text(WeatherFormat.hour(h.time, e.utcOffset)).font(.caption)
            Text(glyph(e, h.code, h.isDay))
            Text(WeatherFormat.degrees(h.temperature))
            if precipitation {
                Text(WeatherFormat.percent(h.precipitationProbability))
                    .foregroundStyle((h.precipitationProbability ?? 0) >= 50 ? .accent : .secondary)
            }
        }.frame(width: width, alignment: .center)
    }

    /// As many hour columns as fit `width`; `tight` drops the gap between columns.
    static func hoursRow(_ e: WeatherEntry, width: Int, precipitation: Bool, tight: Bool = false) -> TileView {
        let column = e.icons == "text" ? 5 : 4
        let gap = tight && e.icons != "text" ? 0 : 1
        let count = max(1, (width + gap) / (column + gap))
        return HStack(spacing: gap) {
            for h in e.hours.prefix(count) { hourColumn(e, h, width: column, precipitation: precipitation) }
        }.link(WeatherWidget.link("hours"))
    }

    static func medium(_ e: WeatherEntry) -> TileView {
        HStack {
            currentBlock(e).frame(width: 14).link(WeatherWidget.link("now"))
            Divider()
            hoursRow(e, width: 18, precipitation: true, tight: true)
        }
    }

    /// Where a day's low and high sit within the week's range: `  ━━━━  `.
    static func rangeBar(_ d: WeatherDay, low: Double, high: Double, width: Int) -> String {
        guard high > low else { return String(repeating: "━", count: width) }
        let a = Int(clamping: ((d.low - low) / (high - low) * Double(width)).rounded(.down), to: 0...max(0, width - 1))
        let b = Int(clamping: ((d.high - low) / (high - low) * Double(width)).rounded(.up), to: 0...max(0, width))
        let from = max(0, min(width - 1, a)), to = max(from + 1, min(width, b))
        return String(repeating: " ", count: from) + String(repeating: "━", count: to - from)
            + String(repeating: " ", count: width - to)
    }

    static func dayRow(_ e: WeatherEntry, _ d: WeatherDay, index: Int, low: Double, high: Double) -> TileView {
        let rain = d.precipitationProbability ?? 0
        let text = e.icons == "text"
        return HStack {
            Text(index == 0 ? "Today" : WeatherFormat.weekday(d.date, e.utcOffset)).frame(width: 5)
            Text(glyph(e, d.code, true)).frame(width: text ? 5 : 2)
            Text(rain >= 20 ? WeatherFormat.percent(rain) : "").foregroundStyle(.accent)
                .frame(width: 4, alignment: .trailing)
            Spacer(minLength: 1)
            Text(WeatherFormat.degrees(d.low)).font(.monospacedDigit).foregroundStyle(.secondary)
                .frame(width: 4, alignment: .trailing)
            Text(rangeBar(d, low: low, high: high, width: text ? 5 : 8))
                .foregroundStyle(d.high >= 25 ? .warning : .accent)
            Text(WeatherFormat.degrees(d.high)).font(.monospacedDigit).frame(width: 4, alignment: .trailing)
        }.link(WeatherWidget.link("day", WeatherFormat.isoDay(d.date, e.utcOffset)))
    }

    static func large(_ e: WeatherEntry, hoursWidth: Int = 35, precipitation: Bool = false) -> TileView {
        let days = Array(e.days.prefix(7))
        let low = days.map(\.low).min() ?? 0, high = days.map(\.high).max() ?? 0
        let wind = WeatherFormat.wind(e.current.windSpeed, e.windUnit)
        let dir = WeatherFormat.compass(e.current.windDirection)
        return VStack {
            VStack {
                HStack {
                    Text(e.place).font(.headline).foregroundStyle(.accent).lineLimit(1)
                    Spacer(minLength: 1)
                    Text(WeatherCodes.describe(e.current.code)).lineLimit(1)
                }
                HStack {
                    currentGlyph(e)
                    Text(WeatherFormat.temperature(e.current.temperature, e.temperatureUnit)).font(.largeTitle)
                    Spacer(minLength: 1)
                    Text(highLow(e))
                }
                HStack {
                    Text(outlook(e)).lineLimit(1)
                    Spacer(minLength: 1)
                    Text("wind \(wind)" + (dir.isEmpty ? "" : " \(dir)")).lineLimit(1)
                }.font(.caption)
            }.link(WeatherWidget.link("now"))
            hoursRow(e, width: hoursWidth, precipitation: precipitation)
            for (i, d) in days.enumerated() { dayRow(e, d, index: i, low: low, high: high) }
        }
    }

    // MARK: detail

    static func detail(_ link: DeepLink, _ entry: WeatherEntry?, _ ctx: TimelineContext) -> TileView {
        guard let e = entry else {
            return VStack {
                Text("Weather").font(.title)
                Text("No forecast loaded yet").font(.caption)
            }
        }
        let chart = max(2, min(6, ctx.size.height / 6))
        let body: TileView
        switch link.path.first ?? "now" {
        case "day":
            let id = link.path.count > 1 ? link.path[1] : ""
            if let d = e.days.first(where: { WeatherFormat.isoDay($0.date, e.utcOffset) == id }) {
                body = dayDetail(e, d, chart: chart, width: ctx.size.width)
            } else {
                body = VStack {
                    Text("Weather").font(.title)
                    Text("No forecast for \(id) in the last update").font(.caption)
                }
            }
        default:
            body = nowDetail(e, chart: chart, rows: max(3, ctx.size.height - 12 - chart), width: ctx.size.width)
        }
        return VStack {
            body
            Spacer()
            HStack {
                Text(
                    "\(e.source) · \(WeatherFormat.coordinate(e.latitude)), \(WeatherFormat.coordinate(e.longitude))"
                        + (e.timeZone.isEmpty ? "" : " · \(e.timeZone)") + " · updated"
                ).font(.caption).lineLimit(1)
                Text(e.date, style: .relative).font(.caption)
            }
        }
    }

    static func sunTimes(_ e: WeatherEntry, _ rise: Date, _ set: Date) -> String {
        WeatherFormat.time(rise, e.utcOffset) + " · " + WeatherFormat.time(set, e.utcOffset)
    }

    static func fact(_ label: String, _ value: String) -> TileView {
        HStack {
            Text(label).font(.caption)
            Spacer(minLength: 1)
            Text(value)
        }
    }

    static func temperatureChart(_ e: WeatherEntry, _ hours: [WeatherHour], chart: Int, width: Int) -> TileView {
        let lo = hours.min { $0.temperature < $1.temperature }, hi = hours.max { $0.temperature < $1.temperature }
        return VStack {
            Sparkline(SystemViews.stretch(hours.map(\.temperature), width: width), color: .accent, height: chart)
            if let lo, let hi {
                HStack {
                    Text("low \(WeatherFormat.degrees(lo.temperature)) at \(WeatherFormat.time(lo.time, e.utcOffset))")
                        .font(.caption)
                    Spacer(minLength: 1)
                    Text("high \(WeatherFormat.degrees(hi.temperature)) at \(WeatherFormat.time(hi.time, e.utcOffset))")
                        .font(.caption)
                }
            }
        }
    }

    static func hourLine(_ e: WeatherEntry, _ h: WeatherHour) -> TileView {
        HStack {
            Text(WeatherFormat.time(h.time, e.utcOffset)).font(.monospacedDigit).frame(width: 6)
            Text(glyph(e, h.code, h.isDay)).frame(width: e.icons == "text" ? 5 : 2)
            Text(WeatherFormat.degrees(h.temperature)).frame(width: 5, alignment: .trailing)
            Text(WeatherCodes.describe(h.code)).lineLimit(1)
            Spacer(minLength: 1)
            Text(WeatherFormat.percent(h.precipitationProbability)).foregroundStyle(.accent)
        }
    }

    static func nowDetail(_ e: WeatherEntry, chart: Int, rows: Int, width: Int) -> TileView {
        let c = e.current
        let wind = WeatherFormat.wind(c.windSpeed, e.windUnit)
        let dir = WeatherFormat.compass(c.windDirection)
        let next = Array(e.hours.prefix(24))
        return VStack {
            titleRow(
                e.place,
                e.isForecast
                    ? "forecast for \(WeatherFormat.time(c.time, e.utcOffset))"
                    : "measured \(WeatherFormat.time(c.time, e.utcOffset))")
            HStack {
                currentGlyph(e)
                Text(WeatherFormat.temperature(c.temperature, e.temperatureUnit)).font(.largeTitle)
                Text(WeatherCodes.describe(c.code))
                Spacer(minLength: 1)
                Text(highLow(e))
            }
            fact("Feels like", c.apparentTemperature.map(WeatherFormat.degrees) ?? "–")
            fact("Humidity", WeatherFormat.percent(c.humidity))
            fact("Wind", wind + (dir.isEmpty ? "" : " from \(dir)"))
            if let p = c.precipitation { fact("Precipitation", FixedFormat.decimal(p, places: 1) + " mm") }
            if let d = today(e), let rise = d.sunrise, let set = d.sunset {
                fact("Sunrise · sunset", sunTimes(e, rise, set))
            }
            Divider()
            Text("Next 24 hours").font(.headline)
            if !next.isEmpty { temperatureChart(e, next, chart: chart, width: width) }
            for h in stride(from: 0, to: next.count, by: 3).map({ next[$0] }).prefix(rows) { hourLine(e, h) }
        }
    }

    static func dayDetail(_ e: WeatherEntry, _ d: WeatherDay, chart: Int, width: Int) -> TileView {
        let day = WeatherFormat.localDay(d.date, e.utcOffset)
        let hours = e.hours.filter { WeatherFormat.localDay($0.time, e.utcOffset) == day }
        return VStack {
            titleRow("\(e.place) · \(WeatherFormat.longDay(d.date, e.utcOffset))", WeatherCodes.describe(d.code))
            HStack {
                Text(glyph(e, d.code, true))
                Text("\(WeatherFormat.degrees(d.high)) / \(WeatherFormat.degrees(d.low))").font(.largeTitle)
                Spacer()
            }
            fact("Chance of precipitation", WeatherFormat.percent(d.precipitationProbability))
            if let s = d.precipitationSum { fact("Precipitation", FixedFormat.decimal(s, places: 1) + " mm") }
            fact("Strongest wind", WeatherFormat.wind(d.windMax, e.windUnit))
            if let rise = d.sunrise, let set = d.sunset {
                fact("Sunrise · sunset", sunTimes(e, rise, set))
            }
            Divider()
            if hours.isEmpty {
                Text("Hourly forecast covers the next \(WeatherForecastParser.storedHours) hours only").font(.caption)
            } else {
                temperatureChart(e, hours, chart: chart, width: width)
                for h in stride(from: 0, to: hours.count, by: 3).map({ hours[$0] }) { hourLine(e, h) }
            }
        }
    }
}
