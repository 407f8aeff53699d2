import Foundation
import Testing
import DashWidgets
import DashScheduler
import DashTestSupport
@testable import DashBuiltinWidgets

@Suite("weather widget")
struct WeatherWidgetTests {
    let widget = WeatherWidget.make(http: testHTTP, places: WeatherPlaceCache())

    /// Open-Meteo's two APIs on one local server: the forecast (metric or imperial, by the
    /// query) and the geocoding search.
    func server(failForecast: Bool = false) throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        server.handle("/v1/forecast") { req in
            if failForecast { return .init(status: 503, "{}") }
            if req.query["latitude"] == "91" { return fixtureResponse("openmeteo_error_400.json", status: 400) }
            if req.query["latitude"] == "1" { return fixtureResponse("openmeteo_forecast_short_arrays.json") }
            return fixtureResponse(
                req.query["temperature_unit"] == "fahrenheit"
                    ? "openmeteo_forecast_berlin_f.json" : "openmeteo_forecast_berlin.json")
        }
        server.handle("/v1/search") { req in
            let berlin = req.query["name"] == "Berlin"
            return fixtureResponse(berlin ? "openmeteo_geocoding_berlin.json" : "openmeteo_geocoding_none.json")
        }
        return server
    }

    func config(_ server: LocalHTTPServer, _ extra: [String: ConfigValue] = [:]) -> WidgetConfig {
        var c = WidgetConfig(["endpoint": .string(server.baseURL), "geocodingEndpoint": .string(server.baseURL)])
        for (k, v) in extra { c[k] = v }
        return c
    }

    func entries(_ t: AnyTimeline) -> [WeatherEntry] { t.entries.compactMap { $0.base as? WeatherEntry } }

    @Test func schema() {
        let s = WeatherWidget.schema
        #expect(
            s.parameters.map(\.key)
                == [
                    "location", "latitude", "longitude", "temperatureUnit", "windSpeedUnit", "icons", "endpoint",
                    "geocodingEndpoint",
                ])
        #expect(s.defaults.string("location") == "Berlin")
        #expect(s.defaults.string("endpoint") == "https://api.open-meteo.com")
        #expect(s.validate(WidgetConfig(["latitude": .string("48.85"), "longitude": .string("-2.35")])).isEmpty)
        #expect(!s.validate(WidgetConfig(["latitude": .string("north")])).isEmpty)
        #expect(!s.validate(WidgetConfig(["temperatureUnit": .string("kelvin")])).isEmpty)
        #expect(WeatherWidget.widget.cost == .budgeted)
        #expect(WeatherWidget.widget.supportedFamilies == [.small, .medium, .large, .extraLarge])
    }

    @Test func liveTilesByPlaceName() async throws {
        let server = try server()
        defer { server.stop() }
        for family in [WidgetFamily.small, .medium, .large] {
            let (tile, _) = try await liveTile(widget, config(server), family)
            assertSnapshot(tile.text, named: "weather-\(family.rawValue)")
            #expect(tile.text.contains("Berlin, DE") && tile.text.contains("3°C"))
            #expect(isClean(tile.text))
        }
        let small = try await liveTile(widget, config(server), .small).0
        #expect(small.widgetURL == "swiftdash://weather/now")
        #expect(small.text.contains("Fog") && small.text.contains("H 7° L -1°"))
        #expect(small.text.contains("rain 55% 12:00"))
        let medium = try await liveTile(widget, config(server), .medium).0
        // The next hours, in Berlin's time (UTC+1): 11:00 is the first hour after 10:00.
        #expect(medium.text.contains("11  12  13  14"))
        #expect(!small.text.contains("12  13"))
        let large = try await liveTile(widget, config(server), .large).0
        #expect(large.text.contains("Today") && large.text.contains("Thu") && large.text.contains("wind 12 km/h SW"))
        #expect(large.links.contains("swiftdash://weather/day/2026-11-26"))
        #expect(!medium.text.contains("Thu"))

        // One geocoding search, cached after; the forecast asked in the right shape.
        #expect(server.requests.filter { $0.path == "/v1/search" }.count == 1)
        let search = try #require(server.requests.first { $0.path == "/v1/search" })
        #expect(search.query["name"] == "Berlin" && search.query["count"] == "1")
        let f = try #require(server.requests.first { $0.path == "/v1/forecast" })
        #expect(f.query["latitude"] == "52.5244" && f.query["longitude"] == "13.4105")
        #expect(f.query["timezone"] == "auto" && f.query["timeformat"] == "unixtime" && f.query["forecast_days"] == "7")
        #expect(f.query["temperature_unit"] == "celsius" && f.query["wind_speed_unit"] == "kmh")
        #expect(f.query["current"]?.contains("weather_code") == true)
        #expect(f.query["daily"]?.contains("sunrise") == true)
    }

    @Test func timelineReloadsAtTheNextForecastHour() async throws {
        let server = try server()
        defer { server.stop() }
        let t = try await widget.timeline(for: config(server), in: context(.small))
        #expect(t.policy == .after(testNow.addingTimeInterval(3600)))
        let list = entries(t)
        #expect(list.map { $0.date.timeIntervalSince(testNow) } == [0, 3600, 7200, 10800, 14400, 18000])
        #expect(!list[0].isForecast && list[0].current.temperature == 3.4 && list[0].current.code == 45)
        // Later entries show that hour's forecast, so the tile moves on even if a reload fails.
        #expect(list[1].isForecast && list[1].current.temperature == 5.2 && list[1].current.code == 2)
        #expect(list[1].hours.first?.time == testNow.addingTimeInterval(7200))
        #expect(list[0].hours.count == 48 && list[0].days.count == 7)
        #expect(list[0].summary == "Berlin, DE 3°C Fog, high 7° low -1°")
        #expect(list[2].summary.hasSuffix("(forecast)"))

        // Twenty minutes past the hour: still reloads on the hour.
        var later = context(.small)
        later.now = testNow.addingTimeInterval(20 * 60)
        let t2 = try await widget.timeline(for: config(server), in: later)
        #expect(t2.policy == .after(testNow.addingTimeInterval(3600)))
        #expect(t2.entries.first?.date == later.now)
    }

    @Test func relevanceRisesWithRainAndStorms() async throws {
        let server = try server()
        defer { server.stop() }
        let list = entries(try await widget.timeline(for: config(server), in: context(.small)))
        // Within three hours of 10:00 local: rain at 80 % (13:00).
        let r = try #require(list[0].relevance)
        #expect(abs(r.score - (80 - 40) / 60.0) < 1e-9 && r.duration == 3600)
        var storm = list[0]
        storm.hours[1].code = 95
        #expect(storm.relevance?.score == 1)
        var dry = list[0]
        for i in dry.hours.indices { dry.hours[i].precipitationProbability = 10 }
        #expect(dry.relevance == nil)
        #expect(widget.placeholder(in: context(.small)).relevance == nil)
    }

    @Test func unitsIconsAndCoordinates() async throws {
        let server = try server()
        defer { server.stop() }
        let imperial = config(
            server,
            [
                "temperatureUnit": .string("fahrenheit"), "windSpeedUnit": .string("mph"),
                "latitude": .string("52.52"), "longitude": .string("13.41"),
                "location": .string(""),
            ])
        let (large, _) = try await liveTile(widget, imperial, .large)
        assertSnapshot(large.text, named: "weather-large-fahrenheit")
        #expect(large.text.contains("38°F") && large.text.contains("mph") && large.text.contains("52.52, 13.41"))
        // Coordinates set: no geocoding at all.
        #expect(server.requests.allSatisfy { $0.path == "/v1/forecast" })
        let f = try #require(server.requests.last)
        #expect(f.query["temperature_unit"] == "fahrenheit" && f.query["wind_speed_unit"] == "mph")
        #expect(f.query["latitude"] == "52.52")

        let text = config(
            server,
            [
                "icons": .string("text"), "latitude": .string("52.52"),
                "longitude": .string("13.41"), "location": .string("Home"),
            ])
        let (medium, _) = try await liveTile(widget, text, .medium)
        assertSnapshot(medium.text, named: "weather-medium-text")
        #expect(medium.text.contains("Home") && medium.text.contains("Fog") && medium.text.contains("Cloud"))
        #expect(!medium.text.unicodeScalars.contains { $0.properties.isEmojiPresentation || $0.value == 0xFE0F })
        let (textLarge, _) = try await liveTile(widget, text, .large)
        #expect(!textLarge.text.contains("…"))  // the plain-text words fit the day rows
    }

    @Test func placeQualifierPicksAmongMatches() async throws {
        let server = try server()
        defer { server.stop() }
        let e = entries(
            try await widget.timeline(
                for: config(server, ["location": .string("Berlin, US")]),
                in: context(.small)))[0]
        #expect(e.place == "Berlin, US" && e.latitude == 44.46867)
        #expect(server.requests.first?.query["count"] == "10")
        let nj = entries(
            try await widget.timeline(
                for: config(server, ["location": .string("Berlin, New Jersey")]),
                in: context(.small)))[0]
        #expect(nj.place == "Berlin Heights, US")  // the name's escape sequence is gone
        let missing = await expectDataSourceError {
            _ = try await widget.timeline(for: config(server, ["location": .string("Atlantis")]), in: context(.small))
        }
        #expect(
            missing?.message == "no place called 'Atlantis' in the geocoding results: "
                + "try another spelling or set latitude and longitude")
        let wrongCountry = await expectDataSourceError {
            _ = try await widget.timeline(for: config(server, ["location": .string("Berlin, FR")]), in: context(.small))
        }
        #expect(wrongCountry?.reason == .configuration)
    }

    @Test func badConfigurationAndBadAnswers() async throws {
        let server = try server()
        defer { server.stop() }
        func failure(_ extra: [String: ConfigValue]) async -> DataSourceError? {
            await expectDataSourceError {
                _ = try await widget.timeline(for: config(server, extra), in: context(.small))
            }
        }
        #expect(
            await failure(["latitude": .string("10")])?.message
                == "set both latitude and longitude, or neither (and a place name)")
        #expect(
            await failure(["latitude": .string("91"), "longitude": .string("0")])?.message
                == "latitude '91' is not a number from -90 to 90")
        #expect(
            await failure(["location": .string("")])?.message
                == "set a place name (location) or latitude and longitude")
        #expect(server.requests.isEmpty)  // all said before any request
        let short = await failure(["latitude": .string("1"), "longitude": .string("1")])
        #expect(
            short?.message == "127.0.0.1:\(server.port) sent a forecast with hourly series of different lengths "
                + "or out of order")

        let down = try self.server(failForecast: true)
        defer { down.stop() }
        let e = await expectDataSourceError {
            let coords: [String: ConfigValue] = ["latitude": .string("52.52"), "longitude": .string("13.41")]
            _ = try await widget.timeline(for: config(down, coords), in: context(.small))
        }
        #expect(e?.message == "HTTP 503 from 127.0.0.1:\(down.port): server error, try again later")
    }

    /// On the scheduler's virtual clock: a budgeted reload at the next forecast hour; when
    /// that reload fails the last good timeline stays, marked stale, and its later entries
    /// still move the tile on to the forecast for the hour.
    @Test func failedReloadKeepsTheForecastGoing() async throws {
        let good = try server()
        defer { good.stop() }
        let coords: [String: ConfigValue] = ["latitude": .string("52.52"), "longitude": .string("13.41")]
        let flaky = FlakyTransport(inner: testHTTP.transport)
        let http = HTTPClient(options: testHTTP.options, transport: flaky)
        let w = WeatherWidget.make(http: http, places: WeatherPlaceCache())
        var scheduler = Scheduler()
        scheduler.register("wx", widget: w, configuration: config(good, coords), family: .small, at: testNow)
        var now = testNow
        for req in scheduler.process(now: now) {
            scheduler.loadFinished(req.id, token: req.token, result: await req.perform(), at: now)
        }
        now = try #require(scheduler.nextWake)
        #expect(now == testNow.addingTimeInterval(3600))
        flaky.failing = true
        var reloads = 0
        for req in scheduler.process(now: now) {
            reloads += 1
            #expect(req.reason == .policy)
            scheduler.loadFinished(req.id, token: req.token, result: await req.perform(), at: now)
        }
        #expect(reloads == 1)
        #expect(scheduler.isStale("wx"))
        let shown = try #require(scheduler.currentEntry("wx", at: now)?.entry.base as? WeatherEntry)
        #expect(shown.isForecast && shown.current.time == now)
        let status = try #require(scheduler.status("wx", at: now))
        #expect(status.budget.used == 1 && status.budget.limit == 70)
    }

    @Test func detailPanes() async throws {
        let server = try server()
        defer { server.stop() }
        let e = try #require(try await widget.timeline(for: config(server), in: context(.large)).entries.first)
        var pane = context(.large)
        pane.size = (60, 24)
        func draw(_ url: String) -> String {
            render(widget.detail(for: DeepLink(url)!, entry: e, in: pane), width: 60, height: 24).text
        }
        let now = draw("swiftdash://weather/now")
        assertSnapshot(now, named: "weather-detail-now")
        for word in [
            "Feels like", "Humidity", "Wind", "from SW", "Sunrise · sunset", "07:45 · 16:05",
            "Next 24 hours", "measured 10:00", "Europe/Berlin",
        ] {
            #expect(now.contains(word), "\(word)")
        }
        let day = draw("swiftdash://weather/day/2026-11-24")
        assertSnapshot(day, named: "weather-detail-day")
        #expect(day.contains("Tue 24 Nov") && day.contains("Light snow") && day.contains("2.5 mm"))
        #expect(draw("swiftdash://weather/day/2026-12-25").contains("No forecast for 2026-12-25"))
        let later = draw("swiftdash://weather/day/2026-11-28")
        #expect(later.contains("covers the next 48 hours only"))
        let empty = widget.detail(for: DeepLink("swiftdash://weather/now")!, entry: nil, in: pane)
        let none = render(empty, width: 60, height: 24)
        #expect(none.text.contains("No forecast loaded yet"))
    }

    @Test func placeholderSnapshotAndCache() async throws {
        let server = try server()
        defer { server.stop() }
        let snap = await widget.snapshot(
            for: config(server, ["temperatureUnit": .string("fahrenheit")]),
            in: context(.small, preview: true))
        let tile = render(widget, snap, .small).text
        #expect(tile.contains("°F") && server.requests.isEmpty)
        let placeholder = render(widget, widget.placeholder(in: context(.medium)), .medium).text
        #expect(placeholder.contains("▆") && !placeholder.contains("Berlin"))

        let t = try await widget.timeline(for: config(server), in: context(.large))
        let back = try widget.decodeEntries(try widget.encodeEntries(t.entries))
        #expect(back.count == t.entries.count)
        #expect(render(widget, back[0], .large).text == render(widget, t.entries[0], .large).text)
    }

    @Test func formats() {
        #expect(WeatherFormat.compass(245) == "SW" && WeatherFormat.compass(359) == "N")
        #expect(WeatherFormat.compass(-90) == "W")
        #expect(WeatherFormat.compass(nil) == "")
        #expect(WeatherFormat.degrees(-0.4) == "0°" && WeatherFormat.degrees(-0.6) == "-1°")
        #expect(WeatherFormat.coordinate(52.52437) == "52.5244" && WeatherFormat.coordinate(-0.00001) == "0")
        #expect(WeatherFormat.isoDay(testNow, 3600) == "2026-11-23")
        #expect(WeatherFormat.isoDay(testNow, -10 * 3600) == "2026-11-22")
        #expect(WeatherFormat.longDay(Date(timeIntervalSince1970: 951_782_400), 0) == "Tue 29 Feb")  // 2000-02-29
        #expect(WeatherFormat.time(testNow, 5 * 3600 + 1800) == "14:30")
        #expect(WeatherFormat.weekday(Date(timeIntervalSince1970: -86400), 0) == "Wed")  // 1969-12-31
        #expect(WeatherCodes.describe(63) == "Rain" && WeatherCodes.describe(42) == "Weather code 42")
        for code in WeatherCodes.descriptions.keys {
            #expect(WeatherCodes.word(code, isDay: true).count <= 5)
            #expect(WeatherCodes.emoji(code, isDay: false) != "❔")
        }
        #expect(
            WeatherViews.rangeBar(WeatherDay(date: testNow, code: 0, high: 10, low: 0), low: 0, high: 20, width: 8)
                == "━━━━    ")
    }
}

/// A transport that fails on demand (to test a failed reload).
final class FlakyTransport: HTTPTransport, @unchecked Sendable {
    let inner: any HTTPTransport
    private let lock = NSLock()
    private var _failing = false
    var failing: Bool {
        get { lock.withLock { _failing } }
        set { lock.withLock { _failing = newValue } }
    }
    init(inner: any HTTPTransport) { self.inner = inner }

    func send(_ request: HTTPRequestSpec, options: HTTPOptions) async throws -> HTTPResponseData {
        if failing { throw HTTPTransportError(.unreachable) }
        return try await inner.send(request, options: options)
    }
}
