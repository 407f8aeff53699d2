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

    /// The range of a coordinate, checked where it is typed (`config set`, `add --set`, the form,
    /// `config check`): the pattern only says it is a number.
    static func degrees(_ limit: Int) -> @Sendable (ConfigValue) -> String? {
        { value in
            let t = value.description.trimmingCharacters(in: .whitespaces)
            guard let d = Double(t), abs(d) > Double(limit) else { return nil }
            return "\(t) is out of range; allowed: decimal degrees from -\(limit) to \(limit)"
        }
    }

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
        ).allowing("decimal degrees such as 52.52, or nothing").checked(degrees(90)),
        Parameter(
            key: "longitude", title: "Longitude", help: "Decimal degrees, -180 to 180",
            kind: .string(pattern: coordinate), default: .string("")
        ).allowing("decimal degrees such as 13.41, or nothing").checked(degrees(180)),
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
