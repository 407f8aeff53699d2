import Foundation
import DashWidgets

/// Conditions at one moment: measured now, or forecast for an hour.
public struct WeatherNow: Codable, Sendable, Hashable {
    public var time: Date
    public var temperature: Double
    public var apparentTemperature: Double?
    /// Percent.
    public var humidity: Double?
    /// WMO weather interpretation code.
    public var code: Int
    public var windSpeed: Double?
    /// Degrees the wind comes from.
    public var windDirection: Double?
    public var isDay: Bool
    /// Millimetres (inches are not asked for).
    public var precipitation: Double?
}

/// One forecast hour.
public struct WeatherHour: Codable, Sendable, Hashable {
    public var time: Date
    public var temperature: Double
    public var code: Int
    /// Percent.
    public var precipitationProbability: Double?
    public var isDay: Bool
}

/// One forecast day (its date is the place's local midnight).
public struct WeatherDay: Codable, Sendable, Hashable {
    public var date: Date
    public var code: Int
    public var high: Double
    public var low: Double
    public var precipitationProbability: Double?
    /// Millimetres.
    public var precipitationSum: Double?
    public var windMax: Double?
    public var sunrise: Date?
    public var sunset: Date?
}

/// What the weather tile shows at one moment.
public struct WeatherEntry: TimelineEntry, Hashable {
    public var date: Date
    public var place: String
    public var latitude: Double
    public var longitude: Double
    /// The place's offset from UTC in seconds (times are shown in the place's time).
    public var utcOffset: Int
    public var timeZone: String
    /// "°C" or "°F".
    public var temperatureUnit: String
    /// "km/h", "mph", "m/s" or "kn".
    public var windUnit: String
    /// "emoji" or "text".
    public var icons: String
    public var current: WeatherNow
    /// True when `current` is the forecast for this hour (a later entry of the timeline),
    /// not the measured conditions.
    public var isForecast: Bool
    /// Hours after `current`, oldest first (up to 48).
    public var hours: [WeatherHour]
    /// Today (in the place's time) and the days after it.
    public var days: [WeatherDay]
    public var source: String
    public var isPlaceholder: Bool

    public var summary: String {
        var s =
            "\(place) \(WeatherFormat.temperature(current.temperature, temperatureUnit)) "
            + WeatherCodes.describe(current.code)
        if let d = days.first {
            s += ", high \(WeatherFormat.degrees(d.high)) low \(WeatherFormat.degrees(d.low))"
        }
        return s + (isForecast ? " (forecast)" : "")
    }

    /// Weather worth a look soon: a thunderstorm within three hours scores 1; rain (or
    /// snow) likely within three hours scores by its probability.
    public var relevance: Relevance? {
        guard !isPlaceholder else { return nil }
        let soon =
            [
                WeatherHour(
                    time: current.time, temperature: current.temperature, code: current.code,
                    precipitationProbability: nil, isDay: current.isDay)
            ]
            + hours.filter { $0.time.timeIntervalSince(date) <= 3 * 3600 }
        if soon.contains(where: { WeatherCodes.isStorm($0.code) }) { return Relevance(score: 1, duration: 3600) }
        let p = soon.compactMap(\.precipitationProbability).max() ?? 0
        guard p >= 50 else { return nil }
        return Relevance(score: min(1, (p - 40) / 60), duration: 3600)
    }
}

/// The weather widget: Open-Meteo's forecast (no key), for coordinates or a place found
/// through its geocoding API. Small is the conditions now, medium adds the next hours,
/// large the next days; reloads at the next forecast hour, charged to the budget.
public enum WeatherWidget {
    public static let kind = "weather"
    public static let forecastEndpoint = "https://api.open-meteo.com"
    public static let geocodingEndpoint = "https://geocoding-api.open-meteo.com"

    static let coordinate = #"-?[0-9]{1,3}(\.[0-9]+)?|"#

    public static let schema = ConfigurationSchema([
        Parameter(
            key: "location", title: "Place",
            help: "A place name found through the geocoding API (Berlin, or 'Paris, FR'); "
                + "only a label when latitude and longitude are set",
            kind: .string(pattern: #"[^\n]{0,80}"#), default: .string("Berlin")
        ).allowing("a place name of at most 80 characters"),
        Parameter(
            key: "latitude", title: "Latitude", help: "Decimal degrees, -90 to 90 (with longitude: no geocoding)",
            kind: .string(pattern: coordinate), default: .string("")
        ).allowing("decimal degrees such as 52.52, or nothing"),
        Parameter(
            key: "longitude", title: "Longitude", help: "Decimal degrees, -180 to 180",
            kind: .string(pattern: coordinate), default: .string("")
        ).allowing("decimal degrees such as 13.41, or nothing"),
        Parameter(
            key: "temperatureUnit", title: "Temperature",
            help: "Degrees Celsius or Fahrenheit",
            kind: .enumeration([
                ParameterOption("celsius", title: "°C"),
                ParameterOption("fahrenheit", title: "°F"),
            ]),
            default: .string("celsius")),
        Parameter(
            key: "windSpeedUnit", title: "Wind speed", help: "km/h, mph, m/s or knots",
            kind: .enumeration([
                ParameterOption("kmh", title: "km/h"), ParameterOption("mph", title: "mph"),
                ParameterOption("ms", title: "m/s"), ParameterOption("kn", title: "knots"),
            ]),
            default: .string("kmh")),
        Parameter(
            key: "icons", title: "Icons",
            help: "Emoji for each condition, or plain text where a terminal or font lacks them",
            kind: .enumeration([
                ParameterOption("emoji", title: "Emoji"),
                ParameterOption("text", title: "Plain text"),
            ]),
            default: .string("emoji")),
        Parameter(
            key: "endpoint", title: "Forecast endpoint", help: "Open-Meteo's forecast API (\(forecastEndpoint))",
            kind: .string(pattern: "https?://.+"), default: .string(forecastEndpoint)
        ).allowing("an http:// or https:// address"),
        Parameter(
            key: "geocodingEndpoint", title: "Geocoding endpoint",
            help: "Open-Meteo's geocoding API (\(geocodingEndpoint))",
            kind: .string(pattern: "https?://.+"), default: .string(geocodingEndpoint)
        ).allowing("an http:// or https:// address"),
    ])

    public static let widget = make()

    /// - Parameter places: remembers geocoded places (a place does not move between reloads).
    public static func make(http: HTTPClient = HTTPClient(), places: WeatherPlaceCache = .shared) -> Widget {
        Widget(
            kind: kind, displayName: "Weather",
            description: "Conditions now, the next hours and the next days, from Open-Meteo (no key needed)",
            supportedFamilies: [.small, .medium, .large, .extraLarge],
            schema: schema, cost: .budgeted, timeout: 2 * http.options.totalTimeout + 5,
            provider: WeatherProvider(http: http, places: places),
            view: { entry, ctx in WeatherViews.tile(entry, ctx) },
            detail: { link, entry, ctx in WeatherViews.detail(link, entry, ctx) })
    }

    static func link(_ path: String...) -> String { DeepLink.make(kind: kind, path.joined(separator: "/")) }
}

/// A place found by name, and what it is shown as.
public struct WeatherPlace: Sendable, Hashable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
}

/// Geocoded places by endpoint and name, for the whole process: a reload does not ask
/// the geocoding API again for a place it already found.
public actor WeatherPlaceCache {
    public static let shared = WeatherPlaceCache()
    private var places: [String: WeatherPlace] = [:]
    public init() {}
    func place(_ key: String) -> WeatherPlace? { places[key] }
    func store(_ key: String, _ place: WeatherPlace) {
        if places.count > 64 { places.removeAll() }
        places[key] = place
    }
}

struct WeatherProvider: TimelineProvider {
    let http: HTTPClient
    let places: WeatherPlaceCache

    func placeholder(in context: TimelineContext) -> WeatherEntry {
        var e = WeatherSamples.entry(now: context.now)
        e.isPlaceholder = true
        return e
    }

    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> WeatherEntry {
        var sample = WeatherSamples.entry(now: context.now)
        let request = try? WeatherRequest(configuration)
        if let request {
            sample = WeatherSamples.converted(sample, request)
            if !configuration.string("location").isEmpty { sample.place = request.label }
        }
        if context.isPreview { return sample }
        return (try? await timeline(for: configuration, in: context).entries.first) ?? sample
    }

    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<WeatherEntry> {
        let request = try WeatherRequest(configuration)
        let place = try await locate(request)
        let forecast = try await load(request, place)
        return try WeatherForecastParser.timeline(forecast, request: request, place: place, now: context.now)
    }

    /// The coordinates: configured, else the first geocoding match (remembered).
    func locate(_ r: WeatherRequest) async throws -> WeatherPlace {
        if let lat = r.latitude, let lon = r.longitude {
            return WeatherPlace(name: r.label, latitude: lat, longitude: lon)
        }
        let key = r.geocodingEndpoint + "\n" + r.location.lowercased()
        if let known = await places.place(key) { return known }
        let (name, qualifier) = WeatherRequest.split(r.location)
        let url = try URL.api(
            r.geocodingEndpoint, ["v1", "search"],
            query: [
                ("name", name), ("count", qualifier == nil ? "1" : "10"), ("language", "en"),
                ("format", "json"),
            ])
        let answer = try await http.getJSON(
            GeocodingAnswer.self, from: url,
            notFoundHint: "no geocoding API there (check geocodingEndpoint)")
        let results = answer.results ?? []
        let match = results.first { g in
            guard let q = qualifier?.lowercased() else { return true }
            return [g.country_code, g.country, g.admin1].compactMap { $0?.lowercased() }.contains(q)
        }
        guard let g = match, (-90...90).contains(g.latitude), (-180...180).contains(g.longitude) else {
            throw DataSourceError(
                .configuration,
                "no place called '\(Fmt.line(r.location))' in the geocoding results: "
                    + "try another spelling or set latitude and longitude")
        }
        var label = Fmt.line(g.name)
        if let cc = g.country_code.map(Fmt.line), !cc.isEmpty { label += ", " + cc }
        let place = WeatherPlace(name: label, latitude: g.latitude, longitude: g.longitude)
        await places.store(key, place)
        return place
    }

    func load(_ r: WeatherRequest, _ place: WeatherPlace) async throws -> OpenMeteoForecast {
        let query: [(String, String)] = [
            ("latitude", WeatherFormat.coordinate(place.latitude)),
            ("longitude", WeatherFormat.coordinate(place.longitude)),
            (
                "current",
                "temperature_2m,relative_humidity_2m,apparent_temperature,is_day,precipitation,weather_code,"
                    + "wind_speed_10m,wind_direction_10m"
            ),
            (
                "hourly",
                "temperature_2m,apparent_temperature,relative_humidity_2m,precipitation_probability,"
                    + "weather_code,wind_speed_10m,is_day"
            ),
            (
                "daily",
                "weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max,"
                    + "precipitation_sum,wind_speed_10m_max,sunrise,sunset"
            ),
            ("timezone", "auto"), ("forecast_days", "7"), ("timeformat", "unixtime"),
            ("temperature_unit", r.temperatureUnit), ("wind_speed_unit", r.windSpeedUnit),
        ]
        let url = try URL.api(r.endpoint, ["v1", "forecast"], query: query)
        return try await http.getJSON(
            OpenMeteoForecast.self, from: url,
            notFoundHint: "no forecast API there (check the endpoint)")
    }

    struct GeocodingAnswer: Decodable {
        struct Place: Decodable {
            var name: String
            var latitude: Double
            var longitude: Double
            var country_code: String?
            var country: String?
            var admin1: String?
        }
        var results: [Place]?
    }
}

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
