import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

@Suite("crypto widget")
struct CryptoWidgetTests {
    let widget = CryptoWidget.make(http: testHTTP)

    /// A CoinGecko stand-in: the top list, Litecoin by id, the coin list.
    func geckoServer() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        server.handle("/api/v3/coins/markets") { req in
            switch req.query["ids"] {
            case nil: return fixtureResponse("coingecko_markets.json")
            case "litecoin": return fixtureResponse("coingecko_markets_litecoin.json")
            case "bitcoin":
                let all = try! JSONSerialization.jsonObject(with: fixture("coingecko_markets.json")) as! [Any]
                return .init(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: try! JSONSerialization.data(withJSONObject: [all[0]]))
            default: return .init(status: 200, "[]")
            }
        }
        server.route("/api/v3/coins/list", fixtureResponse("coingecko_coins_list.json"))
        return server
    }

    func config(_ server: LocalHTTPServer, _ extra: [String: ConfigValue] = [:]) -> WidgetConfig {
        var c = WidgetConfig(["endpoint": .string(server.baseURL + "/api/v3")])
        for (k, v) in extra { c[k] = v }
        return c
    }

    @Test func schemaHasTheIssueKeysAndDefaults() throws {
        let keys = widget.schema.parameters.map(\.key)
        #expect(keys == ["coin", "currency", "source", "endpoint", "apiKey", "moveAlert"])
        let d = widget.schema.defaults
        #expect(d.string("coin") == "BTC")
        #expect(d.string("currency") == "USD")
        #expect(d.string("source") == "coingecko")
        #expect(d.string("endpoint").hasPrefix("https://"))
        let key = try #require(widget.schema.parameter("apiKey"))
        #expect(key.isSecret)
        #expect(key.environmentVariable == CryptoWidget.apiKeyVariable)
        guard case .dynamicEnumeration(let fixed, _) = try #require(widget.schema.parameter("coin")).kind else {
            Issue.record("coin is not a dynamic enumeration")
            return
        }
        #expect(Set(fixed.map(\.value)) == ["BTC", "ETH", "LTC"])
        #expect(widget.schema.validate(WidgetConfig(["coin": .string("DOGE")])).isEmpty)
    }

    @Test func liveTilesInEveryFamily() async throws {
        let server = try geckoServer()
        defer { server.stop() }
        for family in [WidgetFamily.small, .medium, .large] {
            let (tile, timeline) = try await liveTile(widget, config(server), family)
            assertSnapshot(tile.text, named: "crypto-\(family.rawValue)")
            #expect(timeline.policy == .after(testNow.addingTimeInterval(15 * 60)))
            #expect(timeline.entries.count == 1)
            #expect(timeline.entries[0].date == testNow)
            #expect(tile.text.contains("$67,234.12"))
            #expect(tile.text.contains("+2.35%"))
            if family == .small {
                #expect(tile.widgetURL == "swiftdash://crypto/BTC")
                #expect(tile.links.isEmpty)
            } else {
                #expect(tile.links.first == "swiftdash://crypto/BTC")
                #expect(tile.links.contains("swiftdash://crypto/ETH"))
            }
        }
        let large = try await liveTile(widget, config(server), .large).0.text
        #expect(large.contains("7d low"))
        #expect(large.contains { "▁▂▃▄▅▆▇█".contains($0) })
        // Each size shows more than the one before.
        let small = try await liveTile(widget, config(server), .small).0.text
        let medium = try await liveTile(widget, config(server), .medium).0.text
        #expect(!small.contains("ETH") && medium.contains("ETH") && large.contains("SOL") && !medium.contains("7d low"))

        let paths = server.requests.map(\.path)
        #expect(paths.allSatisfy { $0 == "/api/v3/coins/markets" })
        let top = try #require(server.requests.first { $0.query["ids"] == nil })
        #expect(top.query["vs_currency"] == "usd")
        #expect(top.query["sparkline"] == "true")
    }

    @Test func otherCoinsAndCurrencies() async throws {
        let server = try geckoServer()
        defer { server.stop() }
        let (ltc, _) = try await liveTile(widget, config(server, ["coin": .string("LTC")]), .small)
        #expect(ltc.text.contains("LTC"))
        #expect(ltc.text.contains("$72.34"))
        #expect(ltc.text.contains("-4.56%"))
        #expect(server.requests.last?.query["ids"] == "litecoin")

        // LTC is not in the top ten: the medium tile asks for it separately.
        let (medium, _) = try await liveTile(widget, config(server, ["coin": .string("LTC")]), .medium)
        #expect(medium.text.contains("LTC") && medium.text.contains("BTC"))

        // An unknown symbol is looked up in /coins/list.
        let e = await expectDataSourceError {
            _ = try await widget.timeline(for: config(server, ["coin": .string("PEPE")]), in: context(.small))
        }
        #expect(server.requests.contains { $0.path == "/api/v3/coins/list" })
        #expect(server.requests.last?.query["ids"] == "pepe")
        #expect(e?.message.contains("no price for PEPE") == true)

        let missing = await expectDataSourceError {
            _ = try await widget.timeline(for: config(server, ["coin": .string("NOPE")]), in: context(.small))
        }
        #expect(missing?.message == "CoinGecko has no coin 'NOPE': pick one from its list")
    }

    /// Issue 38.9: a coin CoinGecko lists with `current_price: null` is said to have no price,
    /// not to be unknown; in the top list and asked for by its id.
    @Test func aCoinWithANullPriceIsListedButHasNoPrice() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let wbtc = #"{"id":"wrapped-bitcoin","symbol":"wbtc","name":"Wrapped Bitcoin","current_price":null}"#
        server.handle("/api/v3/coins/markets") { req in
            req.query["ids"] == nil
                ? .init(status: 200, headers: ["Content-Type": "application/json"], body: Data("[\(wbtc)]".utf8))
                : .init(status: 200, headers: ["Content-Type": "application/json"], body: Data("[\(wbtc)]".utf8))
        }
        let list = #"[{"id":"wrapped-bitcoin","symbol":"wbtc","name":"Wrapped Bitcoin"}]"#
        server.route("/api/v3/coins/list", .init(status: 200, list))
        for coin in ["WBTC", "wrapped-bitcoin"] {
            let e = await expectDataSourceError {
                _ = try await widget.timeline(for: config(server, ["coin": .string(coin)]), in: context(.small))
            }
            #expect(e?.message == "CoinGecko lists Wrapped Bitcoin (WBTC) but has no price for it in USD now")
        }
    }

    /// Issue 38.9: the medium tile keeps a two-digit change on one line; the large tile writes a
    /// tiny coin's 7-day low and high whole.
    @Test func cryptoTilesKeepChangesAndTinyRangesWhole() {
        var entry = CryptoSamples.entry(selected: "BTC", currency: "USD", now: testNow)
        entry.coin?.change24h = 12.75
        let medium = render(widget, AnyEntry(entry), .medium).text
        #expect(medium.contains("▲ +12.75%"), "\(medium)")
        for price in [0.00001234, 0.0000001234] {
            var tiny = CoinQuote(id: "pepe", symbol: "PEPE", name: "Pepe", price: price, change24h: 1.2)
            tiny.history = [price * 0.9, price, price * 1.1]
            entry.coin = tiny
            entry.selected = "PEPE"
            let large = render(widget, AnyEntry(entry), .large).text
            let row = large.split(separator: "\n").first { $0.contains("7d low") }.map(String.init) ?? ""
            #expect(row.contains("high") && !row.contains("…"), "\(large)")
        }
    }

    @Test func dynamicOptionsComeFromTheCoinList() async throws {
        let server = try geckoServer()
        defer { server.stop() }
        let load = try #require(widget.schema.parameter("coin")?.dynamicOptions)
        let options = try await load(config(server))
        #expect(options.map(\.value).prefix(3) == ["BTC", "LTC", "ETH"])
        #expect(options.filter { $0.value == "PEPE" }.count == 1)
        #expect(options.allSatisfy { isClean($0.value) && isClean($0.title) })
    }

    @Test func coinMarketCapSendsTheKeyInItsHeader() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.handle("/v1/cryptocurrency/listings/latest") { req in
            req.headers["x-cmc_pro_api_key"] == "cmc-secret-key-123"
                ? fixtureResponse("cmc_listings.json") : fixtureResponse("cmc_error_401.json", status: 401)
        }
        let cfg = WidgetConfig([
            "source": .string("coinmarketcap"), "endpoint": .string(server.baseURL), "coin": .string("ETH"),
        ])
        // The key may come from the environment.
        let env = [CryptoWidget.apiKeyVariable: "cmc-secret-key-123"]
        let (medium, _) = try await liveTile(widget, cfg, .medium, environment: env)
        assertSnapshot(medium.text, named: "crypto-cmc-medium")
        #expect(medium.text.contains("$3,456.78"))
        let (large, _) = try await liveTile(widget, cfg, .large, environment: env)
        assertSnapshot(large.text, named: "crypto-cmc-large")
        #expect(large.text.contains("7d"))
        let req = try #require(server.requests.last)
        #expect(req.query["convert"] == "USD")
        #expect(req.query.values.allSatisfy { !$0.contains("cmc-secret") })
        let cached = try widget.encodeEntries(
            try await widget.timeline(for: cfg, in: context(.small, environment: env)).entries)
        #expect(!String(decoding: cached, as: UTF8.self).contains("cmc-secret"))
        #expect(!medium.text.contains("cmc-secret") && !large.text.contains("cmc-secret"))

        // A wrong key: a clear error that does not repeat it.
        var bad = cfg
        bad["apiKey"] = .string("wrong-key-456")
        let e = await expectDataSourceError { _ = try await widget.timeline(for: bad, in: context(.small)) }
        #expect(e?.message == "HTTP 401 from 127.0.0.1:\(server.port): API key missing.", "CoinMarketCap's own words")
        #expect(e?.description.contains("wrong-key") == false)

        // No key at all: said before any request is made.
        let before = server.requests.count
        let none = await expectDataSourceError { _ = try await widget.timeline(for: cfg, in: context(.small)) }
        #expect(none?.message.contains("needs an API key") == true)
        #expect(server.requests.count == before)
    }

    @Test func snapshotAndPlaceholderNeedNoNetwork() async throws {
        let server = try geckoServer()
        defer { server.stop() }
        let snap = await widget.snapshot(
            for: config(server, ["coin": .string("ETH")]), in: context(.small, preview: true))
        let tile = render(widget, snap, .small)
        #expect(tile.text.contains("ETH"))
        #expect(server.requests.isEmpty)
        let placeholder = widget.placeholder(in: context(.medium))
        let drawn = render(widget, placeholder, .medium).text
        assertSnapshot(drawn, named: "crypto-placeholder-medium")
        #expect(drawn.contains("▆"))
        #expect(!drawn.contains("BTC"))
    }

    @Test func detailPaneShowsMoreThanTheTile() async throws {
        let server = try geckoServer()
        defer { server.stop() }
        let timeline = try await widget.timeline(for: config(server), in: context(.medium))
        let entry = timeline.entries[0]
        let link = try #require(DeepLink("swiftdash://crypto/BTC"))
        var pane = context(.large)
        pane.size = (60, 24)
        let detail = render(widget.detail(for: link, entry: entry, in: pane), width: 60, height: 24).text
        assertSnapshot(detail, named: "crypto-detail")
        for word in ["Bitcoin (BTC)", "Market cap", "Volume 24h", "7-day history", "$1.3T"] {
            #expect(detail.contains(word), "\(word)")
        }
        // Another coin of the list has its own pane.
        let eth = render(
            widget.detail(for: DeepLink("swiftdash://crypto/ETH")!, entry: entry, in: context(.large)),
            width: 60, height: 24
        ).text
        #expect(eth.contains("Ethereum (ETH)"))
        let top = render(
            widget.detail(for: DeepLink("swiftdash://crypto/top")!, entry: entry, in: pane), width: 60, height: 24)
        #expect(top.text.contains("Top coins by market cap"))
        #expect(top.links.count == 10)
    }

    @Test func entriesSurviveTheCache() async throws {
        let server = try geckoServer()
        defer { server.stop() }
        let timeline = try await widget.timeline(for: config(server, ["moveAlert": .int(2)]), in: context(.large))
        let data = try widget.encodeEntries(timeline.entries)
        let back = try widget.decodeEntries(data)
        #expect(render(widget, back[0], .large).text == render(widget, timeline.entries[0], .large).text)
        #expect(back[0].summary.hasPrefix("BTC $67,234.12 USD +2.35% 24h"))
        let score = try #require(back[0].relevance?.score, "a 2.35 % move is relevant with moveAlert 2")
        #expect(abs(score - 2.345 / 4) < 0.001)
    }

    // MARK: numbers as people read them (issue 14, point 3)

    /// A CoinGecko stand-in whose chosen coin trades under a cent.
    func microServer() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        server.handle("/api/v3/coins/markets") { req in
            fixtureResponse(req.query["ids"] == "pepe" ? "coingecko_markets_pepe.json" : "coingecko_markets.json")
        }
        server.route("/api/v3/coins/list", .init(status: 200, #"[{"id":"pepe","symbol":"pepe","name":"Pepe"}]"#))
        return server
    }

    @Test func aPriceUnderACentKeepsThreeSignificantDigits() async throws {
        let server = try microServer()
        defer { server.stop() }
        for family in [WidgetFamily.small, .medium, .large] {
            let (tile, _) = try await liveTile(widget, config(server, ["coin": .string("PEPE")]), family)
            #expect(tile.text.contains("$0.00000123"), "\(family):\n\(tile.text)")
            #expect(!tile.text.contains("0.000001 ") && !tile.text.contains("0.000000"), "\(tile.text)")
            if family == .large { assertSnapshot(tile.text, named: "crypto-micro-large") }
        }
        #expect(CryptoFormat.number(0.00000123) == "0.00000123")
        #expect(CryptoFormat.number(0.00512) == "0.00512")
        #expect(CryptoFormat.number(0.0612) == "0.0612", "four decimals from a cent up, as before")
        #expect(CryptoFormat.number(0.5) == "0.5000")
        #expect(CryptoFormat.number(67234.12) == "67,234.12")
        #expect(CryptoFormat.number(123_456.7) == "123,457")
        #expect(CryptoFormat.number(1.5e-15) == "1.50e-15", "past twelve decimals only the scientific form is readable")
    }

    @Test func theSevenDayLowAndHighShareOnePrecision() async throws {
        let server = try microServer()
        defer { server.stop() }
        let (large, _) = try await liveTile(widget, config(server, ["coin": .string("PEPE")]), .large)
        #expect(large.text.contains("7d low 0.00000118"), "\(large.text)")
        #expect(large.text.contains("high 0.00000126"))
        let (lo, hi) = CryptoFormat.range(0.0098, 0.0123, price: 0.011)
        #expect(lo == "0.00980" && hi == "0.01230", "the decimals the smallest needs, for both")
        #expect(CryptoFormat.range(64_000, 68_012.7) == ("64,000", "68,013"))
    }

    @Test func aChangeThatRoundsToZeroIsUnsignedWithNoArrowOrColour() async throws {
        #expect(CryptoFormat.arrow(-0.004) == "0.00%")
        #expect(CryptoFormat.arrow(0.004) == "0.00%")
        #expect(CryptoFormat.arrow(-0.006) == "▼ -0.01%")
        #expect(CryptoFormat.arrow(2.345) == "▲ +2.35%")
        #expect(CryptoFormat.percent(-0.04, decimals: 1) == "0.0%")
        #expect(CryptoFormat.percent(-0.0) == "0.00%")
        #expect(CryptoFormat.color(-0.004) == .secondary)
        #expect(CryptoFormat.color(-0.04, decimals: 1) == .secondary, "the list shows one decimal")
        #expect(CryptoFormat.color(-0.06, decimals: 1) == .negative)
        let server = try microServer()
        defer { server.stop() }
        for family in [WidgetFamily.small, .medium, .large] {
            let (tile, _) = try await liveTile(widget, config(server, ["coin": .string("PEPE")]), family)
            #expect(!tile.text.contains("-0.0"), "\(tile.text)")
            #expect(!tile.text.contains("▼ 0.00%") && !tile.text.contains("▲ 0.00%"), "\(tile.text)")
        }
    }

    @Test func aPriceWithNoRoomIsWrittenShorterNeverCutMidDigit() async throws {
        var entry = CryptoSamples.entry(selected: "BTC", currency: "USD", now: testNow)
        let shib = CoinQuote(id: "shiba-inu", symbol: "SHIB", name: "Shiba Inu", price: 0.00001234, change24h: 1.2)
        entry.top.insert(shib, at: 2)
        let medium = render(widget, AnyEntry(entry), .medium).text
        #expect(medium.contains("SHIB 1.23e-5"), "the scientific form where 0.0000123 does not fit:\n\(medium)")
        let large = render(widget, AnyEntry(entry), .large).text
        #expect(large.contains("0.0000123"), "the fixed form where it fits:\n\(large)")
        // No room even for the short form: the number goes whole.
        let cramped = render(CryptoFormat.priceView(0.00001234), width: 5, height: 1).text
        #expect(cramped == "…")
        // A price that does not fit is never shown with its digits cut.
        for width in 1...12 {
            let text = render(CryptoFormat.priceView(0.00001234, "USD"), width: width, height: 1).text
            let whole = ["$0.0000123", "$1.23e-5", "…", ""].contains(text) || text.allSatisfy { $0 == "." }
            #expect(whole, "\(width): \(text)")
        }
    }
}
