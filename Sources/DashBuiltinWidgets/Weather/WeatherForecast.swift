import Foundation
import DashWidgets

/// A configuration checked and put in the form the requests need.
struct WeatherRequest: Sendable {
    var location: String
    var latitude: Double?
    var longitude: Double?
    var temperatureUnit: String
    var windSpeedUnit: String
    var icons: String
    var endpoint: String
    var geocodingEndpoint: String

    init(_ c: WidgetConfig) throws {
        location = c.string("location").trimmingCharacters(in: .whitespaces)
        let lat = c.string("latitude").trimmingCharacters(in: .whitespaces)
        let lon = c.string("longitude").trimmingCharacters(in: .whitespaces)
        if lat.isEmpty != lon.isEmpty {
            throw DataSourceError(.configuration, "set both latitude and longitude, or neither (and a place name)")
        }
        if !lat.isEmpty {
            guard let la = Double(lat), (-90...90).contains(la) else {
                throw DataSourceError(.configuration, "latitude '\(Fmt.line(lat))' is not a number from -90 to 90")
            }
            guard let lo = Double(lon), (-180...180).contains(lo) else {
                throw DataSourceError(.configuration, "longitude '\(Fmt.line(lon))' is not a number from -180 to 180")
            }
            latitude = la
            longitude = lo
        } else if location.isEmpty {
            throw DataSourceError(.configuration, "set a place name (location) or latitude and longitude")
        }
        let t = c.string("temperatureUnit").lowercased()
        temperatureUnit = t == "fahrenheit" ? "fahrenheit" : "celsius"
        let w = c.string("windSpeedUnit").lowercased()
        windSpeedUnit = ["kmh", "mph", "ms", "kn"].contains(w) ? w : "kmh"
        icons = c.string("icons").lowercased() == "text" ? "text" : "emoji"
        let ep = c.string("endpoint").trimmingCharacters(in: .whitespaces)
        endpoint = ep.isEmpty ? WeatherWidget.forecastEndpoint : ep
        let gep = c.string("geocodingEndpoint").trimmingCharacters(in: .whitespaces)
        geocodingEndpoint = gep.isEmpty ? WeatherWidget.geocodingEndpoint : gep
    }

    /// What the tile is titled when the coordinates are configured.
    var label: String {
        if !location.isEmpty { return Fmt.line(location) }
        guard let latitude, let longitude else { return "" }
        return WeatherFormat.coordinate(latitude) + ", " + WeatherFormat.coordinate(longitude)
    }

    var temperatureSymbol: String { temperatureUnit == "fahrenheit" ? "°F" : "°C" }
    var windSymbol: String {
        switch windSpeedUnit {
        case "mph": return "mph"
        case "ms": return "m/s"
        case "kn": return "kn"
        default: return "km/h"
        }
    }

    /// "Paris, FR" → ("Paris", "FR"): the part after the last comma narrows the search.
    static func split(_ location: String) -> (String, String?) {
        guard let comma = location.lastIndex(of: ",") else { return (location, nil) }
        let name = location[..<comma].trimmingCharacters(in: .whitespaces)
        let q = location[location.index(after: comma)...].trimmingCharacters(in: .whitespaces)
        return name.isEmpty || q.isEmpty ? (location, nil) : (name, q)
    }
}

/// Open-Meteo's answer, as much of it as the widget reads (times as Unix seconds).
struct OpenMeteoForecast: Decodable {
    struct Current: Decodable {
        var time: Double
        var temperature_2m: Double?
        var apparent_temperature: Double?
        var relative_humidity_2m: Double?
        var is_day: Int?
        var precipitation: Double?
        var weather_code: Int?
        var wind_speed_10m: Double?
        var wind_direction_10m: Double?
    }
    struct Hourly: Decodable {
        var time: [Double]
        var temperature_2m: [Double?]
        var apparent_temperature: [Double?]?
        var relative_humidity_2m: [Double?]?
        var precipitation_probability: [Double?]?
        var weather_code: [Int?]
        var wind_speed_10m: [Double?]?
        var is_day: [Int?]?
    }
    struct Daily: Decodable {
        var time: [Double]
        var weather_code: [Int?]
        var temperature_2m_max: [Double?]
        var temperature_2m_min: [Double?]
        var precipitation_probability_max: [Double?]?
        var precipitation_sum: [Double?]?
        var wind_speed_10m_max: [Double?]?
        var sunrise: [Double?]?
        var sunset: [Double?]?
    }
    var latitude: Double?
    var longitude: Double?
    var utc_offset_seconds: Int?
    var timezone: String?
    var current: Current?
    var hourly: Hourly
    var daily: Daily
}

/// Turns Open-Meteo's answer into a timeline, checking it first.
enum WeatherForecastParser {
    static let storedHours = 48
    /// Entries after the first, one per forecast hour: what stays on screen if reloads fail.
    static let laterEntries = 5

    static func timeline(
        _ f: OpenMeteoForecast, request r: WeatherRequest, place: WeatherPlace,
        now: Date
    ) throws -> Timeline<WeatherEntry> {
        let host = (try? URL.api(r.endpoint, [])).map(HTTPClient.hostName) ?? "the server"
        func bad(_ what: String) -> DataSourceError {
            DataSourceError(.badData, "\(host) sent a forecast with \(what)")
        }
        let h = f.hourly
        let n = h.time.count
        guard n > 0 else { throw bad("no hours") }
        guard h.temperature_2m.count == n, h.weather_code.count == n,
            h.precipitation_probability.map({ $0.count == n }) ?? true, h.is_day.map({ $0.count == n }) ?? true,
            zip(h.time, h.time.dropFirst()).allSatisfy({ $0 < $1 })
        else {
            throw bad("hourly series of different lengths or out of order")
        }
        var hours: [WeatherHour] = []
        var extra: [Date: (feels: Double?, humidity: Double?, wind: Double?)] = [:]
        for i in 0..<n {
            guard let t = h.temperature_2m[i], t.isFinite, let c = h.weather_code[i] else { continue }
            let time = Date(timeIntervalSince1970: h.time[i])
            hours.append(
                WeatherHour(
                    time: time, temperature: t, code: c,
                    precipitationProbability: h.precipitation_probability?[i],
                    isDay: (h.is_day?[i] ?? 1) != 0))
            extra[time] = (
                h.apparent_temperature?[safe: i] ?? nil, h.relative_humidity_2m?[safe: i] ?? nil,
                h.wind_speed_10m?[safe: i] ?? nil
            )
        }
        let d = f.daily
        let m = d.time.count
        guard d.weather_code.count == m, d.temperature_2m_max.count == m, d.temperature_2m_min.count == m else {
            throw bad("daily series of different lengths")
        }
        var days: [WeatherDay] = []
        for i in 0..<m {
            guard let hi = d.temperature_2m_max[i], let lo = d.temperature_2m_min[i], hi.isFinite, lo.isFinite,
                let c = d.weather_code[i]
            else { continue }
            func date(_ a: [Double?]?) -> Date? { (a?[safe: i] ?? nil).map { Date(timeIntervalSince1970: $0) } }
            days.append(
                WeatherDay(
                    date: Date(timeIntervalSince1970: d.time[i]), code: c, high: hi, low: lo,
                    precipitationProbability: d.precipitation_probability_max?[safe: i] ?? nil,
                    precipitationSum: d.precipitation_sum?[safe: i] ?? nil,
                    windMax: d.wind_speed_10m_max?[safe: i] ?? nil,
                    sunrise: date(d.sunrise), sunset: date(d.sunset)))
        }
        guard !hours.isEmpty, !days.isEmpty else { throw bad("no usable values") }
        let offset = f.utc_offset_seconds.map { max(-18 * 3600, min(18 * 3600, $0)) } ?? 0

        // Now: the measured conditions, or else the forecast for the hour we are in.
        let measured: WeatherNow
        if let c = f.current, let t = c.temperature_2m, t.isFinite, let code = c.weather_code {
            measured = WeatherNow(
                time: Date(timeIntervalSince1970: c.time), temperature: t,
                apparentTemperature: c.apparent_temperature, humidity: c.relative_humidity_2m,
                code: code, windSpeed: c.wind_speed_10m, windDirection: c.wind_direction_10m,
                isDay: (c.is_day ?? 1) != 0, precipitation: c.precipitation)
        } else if let hour = hours.last(where: { $0.time <= now }) ?? hours.first {
            measured = conditions(from: hour, extra[hour.time])
        } else {
            throw bad("no current conditions")
        }

        func entry(at date: Date, current: WeatherNow, isForecast: Bool) -> WeatherEntry {
            let today = WeatherFormat.localDay(date, offset)
            return WeatherEntry(
                date: date, place: place.name, latitude: place.latitude, longitude: place.longitude, utcOffset: offset,
                timeZone: Fmt.line(f.timezone ?? ""), temperatureUnit: r.temperatureSymbol, windUnit: r.windSymbol,
                icons: r.icons, current: current, isForecast: isForecast,
                hours: Array(hours.filter { $0.time > date }.prefix(storedHours)),
                days: days.filter { WeatherFormat.localDay($0.date, offset) >= today },
                source: "Open-Meteo", isPlaceholder: false)
        }
        let upcoming = hours.filter { $0.time > now }
        var entries = [entry(at: now, current: measured, isForecast: false)]
        for hour in upcoming.prefix(laterEntries) {
            entries.append(entry(at: hour.time, current: conditions(from: hour, extra[hour.time]), isForecast: true))
        }
        // The next forecast hour; a forecast with nothing ahead is asked again in an hour.
        let next = upcoming.first?.time ?? now.addingTimeInterval(3600)
        return Timeline(entries: entries, policy: .after(next))
    }

    static func conditions(
        from hour: WeatherHour,
        _ extra: (feels: Double?, humidity: Double?, wind: Double?)?
    ) -> WeatherNow {
        WeatherNow(
            time: hour.time, temperature: hour.temperature, apparentTemperature: extra?.feels,
            humidity: extra?.humidity, code: hour.code, windSpeed: extra?.wind, windDirection: nil,
            isDay: hour.isDay, precipitation: nil)
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

/// Sample data for the placeholder, the gallery and `preview`.
enum WeatherSamples {
    static func entry(now: Date) -> WeatherEntry {
        let hourStart = (now.timeIntervalSince1970 / 3600).rounded(.down) * 3600
        let codes = [2, 2, 3, 61, 63, 80, 3, 2, 1, 0, 0, 0]
        let hours = (1...24).map { i -> WeatherHour in
            let t = Date(timeIntervalSince1970: hourStart + Double(i) * 3600)
            return WeatherHour(
                time: t, temperature: 12 + 4 * sin(Double(i) / 4), code: codes[i % codes.count],
                precipitationProbability: [10, 20, 35, 70, 80, 60, 30, 10][i % 8], isDay: i < 8)
        }
        let dayStart = (now.timeIntervalSince1970 / 86400).rounded(.down) * 86400
        let dayCodes = [2, 61, 0, 95, 3, 71, 1]
        let highs = [14.0, 11.5, 16.2, 18.9, 13.0, 4.5, 9.8]
        let lows = [6.0, 5.1, 7.4, 11.2, 6.6, -1.3, 2.0]
        let days = (0..<7).map { i -> WeatherDay in
            let d = dayStart + Double(i) * 86400
            return WeatherDay(
                date: Date(timeIntervalSince1970: d), code: dayCodes[i], high: highs[i], low: lows[i],
                precipitationProbability: [20, 75, 5, 90, 30, 60, 10][i],
                precipitationSum: [0.2, 6, 0, 14, 1, 3, 0][i],
                windMax: [14, 22, 9, 38, 17, 25, 12][i],
                sunrise: Date(timeIntervalSince1970: d + 7 * 3600 + 12 * 60),
                sunset: Date(timeIntervalSince1970: d + 16 * 3600 + 41 * 60))
        }
        return WeatherEntry(
            date: now, place: "Berlin", latitude: 52.52, longitude: 13.41, utcOffset: 0, timeZone: "UTC",
            temperatureUnit: "°C", windUnit: "km/h", icons: "emoji",
            current: WeatherNow(
                time: now, temperature: 12.6, apparentTemperature: 10.9, humidity: 72, code: 2,
                windSpeed: 14, windDirection: 290, isDay: true, precipitation: 0),
            isForecast: false, hours: hours, days: days, source: "sample data", isPlaceholder: false)
    }

    /// The sample in the configured units and icons.
    static func converted(_ e: WeatherEntry, _ r: WeatherRequest) -> WeatherEntry {
        var e = e
        e.icons = r.icons
        if r.temperatureUnit == "fahrenheit" {
            func f(_ c: Double) -> Double { c * 9 / 5 + 32 }
            e.temperatureUnit = "°F"
            e.current.temperature = f(e.current.temperature)
            e.current.apparentTemperature = e.current.apparentTemperature.map(f)
            for i in e.hours.indices { e.hours[i].temperature = f(e.hours[i].temperature) }
            for i in e.days.indices {
                e.days[i].high = f(e.days[i].high)
                e.days[i].low = f(e.days[i].low)
            }
        }
        let factor: Double = ["mph": 1 / 1.609344, "ms": 1 / 3.6, "kn": 1 / 1.852][r.windSpeedUnit] ?? 1
        e.windUnit = r.windSymbol
        e.current.windSpeed = e.current.windSpeed.map { $0 * factor }
        for i in e.days.indices { e.days[i].windMax = e.days[i].windMax.map { $0 * factor } }
        return e
    }
}
