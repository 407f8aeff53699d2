import Foundation
import DashWidgets

/// One coin's market data, as either source reports it.
public struct CoinQuote: Codable, Sendable, Hashable {
    public var id: String
    public var symbol: String
    public var name: String
    public var price: Double
    public var change1h: Double?
    /// Percent over 24 hours.
    public var change24h: Double?
    public var change7d: Double?
    public var marketCap: Double?
    public var volume24h: Double?
    public var high24h: Double?
    public var low24h: Double?
    public var rank: Int?
    /// Prices over the last 7 days, oldest first (CoinGecko's sparkline; empty for CoinMarketCap).
    public var history: [Double]

    public init(
        id: String, symbol: String, name: String, price: Double, change1h: Double? = nil, change24h: Double? = nil,
        change7d: Double? = nil, marketCap: Double? = nil, volume24h: Double? = nil, high24h: Double? = nil,
        low24h: Double? = nil, rank: Int? = nil, history: [Double] = []
    ) {
        self.id = id
        self.symbol = symbol
        self.name = name
        self.price = price
        self.change1h = change1h
        self.change24h = change24h
        self.change7d = change7d
        self.marketCap = marketCap
        self.volume24h = volume24h
        self.high24h = high24h
        self.low24h = low24h
        self.rank = rank
        self.history = history
    }
}

/// What the crypto tile shows at one moment.
public struct CryptoEntry: TimelineEntry, Hashable {
    public var date: Date
    public var currency: String
    /// "CoinGecko" or "CoinMarketCap".
    public var sourceName: String
    /// The configured coin's symbol.
    public var selected: String
    public var coin: CoinQuote?
    /// The top coins by market cap (the selected coin may be among them).
    public var top: [CoinQuote]
    public var isPlaceholder: Bool
    /// The `moveAlert` parameter: a 24-hour move of at least this many percent is relevant.
    public var moveAlert: Double?

    public init(
        date: Date, currency: String, sourceName: String, selected: String, coin: CoinQuote?, top: [CoinQuote],
        isPlaceholder: Bool = false
    ) {
        self.date = date
        self.currency = currency
        self.sourceName = sourceName
        self.selected = selected
        self.coin = coin
        self.top = top
        self.isPlaceholder = isPlaceholder
    }

    public var summary: String {
        guard let c = coin else { return "\(selected): no data" }
        var s = "\(c.symbol) \(CryptoFormat.price(c.price, currency)) \(currency)"
        if let ch = c.change24h { s += " \(CryptoFormat.percent(ch)) 24h" }
        if !top.isEmpty { s += "; top \(top.prefix(5).map(\.symbol).joined(separator: ","))" }
        return s + " (\(sourceName))"
    }

    /// A 24-hour move of at least `moveAlert` percent (default 5) is worth a look: the threshold
    /// scores 0.5, twice it 1. It holds for 30 minutes (two reloads' time).
    public var relevance: Relevance? {
        guard let c = coin, let ch = c.change24h, ch.isFinite, !isPlaceholder else { return nil }
        let threshold = max(0.1, moveAlert ?? CryptoWidget.defaultMoveAlert)
        guard abs(ch) >= threshold else { return nil }
        return Relevance(
            score: min(1, abs(ch) / (2 * threshold)), duration: 30 * 60,
            reason: "\(c.symbol) moved \(CryptoFormat.percent(ch, decimals: 1)) in 24 h")
    }

    /// The coin with this symbol among those the entry holds.
    public func quote(_ symbol: String) -> CoinQuote? {
        if let c = coin, c.symbol.caseInsensitiveCompare(symbol) == .orderedSame { return c }
        return top.first { $0.symbol.caseInsensitiveCompare(symbol) == .orderedSame }
    }
}

/// The crypto prices widget of seeds/000: small is the chosen coin, medium adds the top
/// coins, large adds a 7-day sparkline with its high and low.
public enum CryptoWidget {
    public static let kind = "crypto"
    public static let coinGeckoEndpoint = "https://api.coingecko.com/api/v3"
    public static let coinMarketCapEndpoint = "https://pro-api.coinmarketcap.com"
    public static let apiKeyVariable = "SWIFTDASH_CRYPTO_API_KEY"
    /// The default `moveAlert`: a 24-hour move of 5 % makes the tile relevant.
    public static let defaultMoveAlert = 5.0

    /// CoinGecko ids of the coins everyone asks for, so they need no `/coins/list` lookup.
    static let knownIDs: [String: String] = [
        "BTC": "bitcoin", "ETH": "ethereum", "LTC": "litecoin", "SOL": "solana", "XRP": "ripple",
        "DOGE": "dogecoin", "ADA": "cardano", "BNB": "binancecoin", "DOT": "polkadot", "USDT": "tether",
        "USDC": "usd-coin", "TRX": "tron", "AVAX": "avalanche-2", "LINK": "chainlink", "XMR": "monero",
    ]

    static func schema(http: HTTPClient) -> ConfigurationSchema {
        ConfigurationSchema([
            Parameter(
                key: "coin", title: "Coin", help: "The coin the small tile shows (a symbol such as BTC)",
                kind: .dynamicEnumeration(
                    fixed: [
                        ParameterOption("BTC", title: "Bitcoin"),
                        ParameterOption("ETH", title: "Ethereum"),
                        ParameterOption("LTC", title: "Litecoin"),
                    ],
                    // Any text is a choice here; which texts are coins is `CryptoCoin`'s one check.
                    pattern: ".*"),
                default: .string("BTC"),
                dynamicOptions: { config in try await CryptoSource(config: config, http: http).coinOptions() }
            ).allowing("another coin symbol such as SOL").checked { value in
                guard case .string(let coin) = value else { return nil }
                return CryptoCoin.problem(coin)
            },
            Parameter(
                key: "currency", title: "Currency", help: "The currency prices are shown in (USD, EUR, GBP, …)",
                kind: .string(pattern: "[A-Za-z]{3,5}"), default: .string("USD")
            ).allowing("a currency code of 3 to 5 letters such as EUR"),
            Parameter(
                key: "source", title: "Source", help: "Where prices come from",
                kind: .enumeration([
                    ParameterOption("coingecko", title: "CoinGecko"),
                    ParameterOption("coinmarketcap", title: "CoinMarketCap (needs an API key)"),
                ]),
                default: .string("coingecko")),
            Parameter(
                key: "endpoint", title: "Endpoint",
                help: "The API's base URL (CoinGecko: \(coinGeckoEndpoint); CoinMarketCap: \(coinMarketCapEndpoint))",
                kind: .string(pattern: "https?://.+"), default: .string(coinGeckoEndpoint)
            ).allowing("an http:// or https:// address"),
            Parameter(
                key: "apiKey", title: "API key",
                help: "CoinMarketCap's key (sent as X-CMC_PRO_API_KEY); optional CoinGecko demo key",
                kind: .string(), default: .string(""), isSecret: true, environmentVariable: apiKeyVariable),
            Parameter(
                key: "moveAlert", title: "Move alert",
                help: "A 24-hour move of at least this many percent makes the tile relevant "
                    + "(Smart Rotate, attention)",
                kind: .integer(1...100), default: .int(Int(defaultMoveAlert))),
        ])
    }

    public static func make(http: HTTPClient = HTTPClient()) -> Widget {
        Widget(
            kind: kind, displayName: "Crypto prices",
            description: "A coin's price and 24-hour change; the top coins; a 7-day chart (CoinGecko or CoinMarketCap)",
            supportedFamilies: [.small, .medium, .large],
            schema: schema(http: http), cost: .budgeted, timeout: 3 * http.options.totalTimeout + 5,
            provider: CryptoProvider(http: http),
            view: { entry, ctx in CryptoViews.tile(entry, ctx) },
            detail: { link, entry, ctx in CryptoViews.detail(link, entry, ctx) }
        )
        .relevance("when the coin moved at least moveAlert % in 24 h (score 0.5 at the threshold, 1 at twice it)")
    }

    static func link(_ symbol: String) -> String { DeepLink.make(kind: kind, symbol.uppercased()) }
}

struct CryptoProvider: TimelineProvider {
    let http: HTTPClient

    func placeholder(in context: TimelineContext) -> CryptoEntry {
        var e = CryptoSamples.entry(selected: "BTC", currency: "USD", now: context.now)
        e.isPlaceholder = true
        return e
    }

    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> CryptoEntry {
        let coin = configuration.string("coin").isEmpty ? "BTC" : configuration.string("coin").uppercased()
        let currency = configuration.string("currency").isEmpty ? "USD" : configuration.string("currency").uppercased()
        let sample = CryptoSamples.entry(selected: coin, currency: currency, now: context.now)
        // The gallery and `preview` want an answer at once: sample data, no network.
        if context.isPreview { return sample }
        return (try? await timeline(for: configuration, in: context).entries.first) ?? sample
    }

    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<CryptoEntry> {
        let source = try CryptoSource(config: configuration, http: http)
        var entry = try await source.load(now: context.now)
        entry.moveAlert = configuration.int("moveAlert").map(Double.init)
        return Timeline(entries: [entry], policy: .after(context.now.addingTimeInterval(15 * 60)))
    }
}

/// Talks to CoinGecko or CoinMarketCap.
struct CryptoSource: Sendable {
    enum Kind: String { case coingecko, coinmarketcap }
    let kind: Kind
    let endpoint: String
    let apiKey: String
    let currency: String
    let coin: String
    let http: HTTPClient

    init(config: WidgetConfig, http: HTTPClient) throws {
        let src = config.string("source").lowercased()
        guard let k = Kind(rawValue: src.isEmpty ? "coingecko" : src) else {
            throw DataSourceError(.configuration, "source '\(Fmt.line(src))' is not coingecko or coinmarketcap")
        }
        kind = k
        var ep = config.string("endpoint").trimmingCharacters(in: .whitespaces)
        if ep.isEmpty || (k == .coinmarketcap && ep == CryptoWidget.coinGeckoEndpoint) {
            ep = k == .coingecko ? CryptoWidget.coinGeckoEndpoint : CryptoWidget.coinMarketCapEndpoint
        }
        endpoint = ep
        apiKey = config.string("apiKey").trimmingCharacters(in: .whitespaces)
        let cur = config.string("currency").trimmingCharacters(in: .whitespaces)
        currency = cur.isEmpty ? "USD" : cur.uppercased()
        // Not set: the schema's default. Set: the schema's own check, before any request.
        let c = config["coin"] == nil ? "BTC" : config.string("coin").trimmingCharacters(in: .whitespaces)
        if let problem = CryptoCoin.problem(c) { throw DataSourceError(.configuration, "coin: " + Fmt.line(problem)) }
        coin = c
        self.http = http
    }

    var sourceName: String { kind == .coingecko ? "CoinGecko" : "CoinMarketCap" }
    var secrets: [String] { apiKey.isEmpty ? [] : [apiKey] }

    var headers: [String: String] {
        var h = ["Accept": "application/json"]
        if !apiKey.isEmpty {
            h[kind == .coingecko ? "x-cg-demo-api-key" : "X-CMC_PRO_API_KEY"] = apiKey
        }
        return h
    }

    func load(now: Date) async throws -> CryptoEntry {
        switch kind {
        case .coingecko: return try await loadCoinGecko(now: now)
        case .coinmarketcap: return try await loadCoinMarketCap(now: now)
        }
    }

    // MARK: CoinGecko

    struct GeckoMarket: Decodable {
        struct Spark: Decodable { var price: [Double?]? }
        var id: String
        var symbol: String
        var name: String
        var current_price: Double?
        var market_cap: Double?
        var market_cap_rank: Int?
        var total_volume: Double?
        var high_24h: Double?
        var low_24h: Double?
        var price_change_percentage_24h: Double?
        var price_change_percentage_1h_in_currency: Double?
        var price_change_percentage_24h_in_currency: Double?
        var price_change_percentage_7d_in_currency: Double?
        var sparkline_in_7d: Spark?

        var quote: CoinQuote? {
            guard let p = current_price, p.isFinite else { return nil }
            return CoinQuote(
                id: Fmt.line(id), symbol: Fmt.line(symbol).uppercased(), name: Fmt.line(name), price: p,
                change1h: price_change_percentage_1h_in_currency,
                change24h: price_change_percentage_24h_in_currency ?? price_change_percentage_24h,
                change7d: price_change_percentage_7d_in_currency,
                marketCap: market_cap, volume24h: total_volume, high24h: high_24h, low24h: low_24h,
                rank: market_cap_rank,
                history: (sparkline_in_7d?.price ?? []).prefix(1_000).compactMap { $0 })
        }
    }

    struct GeckoCoin: Decodable {
        var id: String
        var symbol: String
        var name: String
    }

    func marketsURL(ids: [String]?, perPage: Int) throws -> URL {
        var q: [(String, String)] = [("vs_currency", currency.lowercased())]
        if let ids { q.append(("ids", ids.joined(separator: ","))) }
        q += [
            ("order", "market_cap_desc"), ("per_page", String(perPage)), ("page", "1"),
            ("sparkline", "true"), ("price_change_percentage", "1h,24h,7d"),
        ]
        return try URL.api(endpoint, ["coins", "markets"], query: q)
    }

    func markets(ids: [String]?, perPage: Int) async throws -> [CoinQuote] {
        try await marketRows(ids: ids, perPage: perPage).compactMap(\.quote)
    }

    /// The rows as sent, a coin with no price (`current_price: null`) among them.
    func marketRows(ids: [String]?, perPage: Int) async throws -> ArraySlice<GeckoMarket> {
        let url = try marketsURL(ids: ids, perPage: perPage)
        let rows = try await http.getJSON(
            [GeckoMarket].self, from: url, headers: headers,
            notFoundHint: "no such API path (check the endpoint)", secrets: secrets)
        return rows.prefix(Fmt.maxItems)
    }

    /// The chosen coin is listed but has no price: said so, not that the coin does not exist.
    func noPrice(_ row: GeckoMarket) -> DataSourceError {
        DataSourceError(
            .badData,
            "\(sourceName) lists \(Fmt.line(row.name)) (\(Fmt.line(row.symbol).uppercased())) but has no price "
                + "for it in \(currency) now")
    }

    func isChosen(id: String, symbol: String) -> Bool {
        symbol.caseInsensitiveCompare(coin) == .orderedSame || id == coin.lowercased()
    }

    func coinList() async throws -> [GeckoCoin] {
        let url = try URL.api(endpoint, ["coins", "list"])
        return try await http.getJSON([GeckoCoin].self, from: url, headers: headers, secrets: secrets)
    }

    /// The CoinGecko id of the configured coin: a well-known symbol, else `/coins/list`.
    func geckoID() async throws -> String {
        if let id = CryptoWidget.knownIDs[coin.uppercased()] { return id }
        let list = try await coinList()
        if let exact = list.first(where: { $0.id == coin.lowercased() }) { return exact.id }
        let matches = list.filter { $0.symbol.caseInsensitiveCompare(coin) == .orderedSame }
        guard let best = matches.min(by: { $0.id.count < $1.id.count }) else {
            throw DataSourceError(
                .configuration, "\(sourceName) has no coin '\(Fmt.line(coin))': pick one from its list")
        }
        return best.id
    }

    func loadCoinGecko(now: Date) async throws -> CryptoEntry {
        // The top list comes with every load, whatever the family: it is one request, it
        // usually holds the chosen coin too, and an entry made for one family can be drawn
        // in another (the preview draws every family from one timeline).
        let rows = try await marketRows(ids: nil, perPage: 10)
        let top = rows.compactMap(\.quote)
        var chosen = top.first { isChosen(id: $0.id, symbol: $0.symbol) }
        if chosen == nil, let listed = rows.first(where: { isChosen(id: $0.id, symbol: $0.symbol) }) {
            throw noPrice(listed)
        }
        if chosen == nil {
            let id = try await geckoID()
            let own = try await marketRows(ids: [id], perPage: 1)
            chosen = own.compactMap(\.quote).first
            guard chosen != nil else {
                if let listed = own.first { throw noPrice(listed) }
                throw DataSourceError(.badData, "\(sourceName) returned no price for \(Fmt.line(coin)) in \(currency)")
            }
        }
        return CryptoEntry(
            date: now, currency: currency, sourceName: sourceName,
            selected: chosen?.symbol ?? coin.uppercased(), coin: chosen, top: top)
    }

    // MARK: CoinMarketCap

    struct CMCListing: Decodable {
        struct Status: Decodable {
            var error_code: Int?
            var error_message: String?
        }
        struct Coin: Decodable {
            struct Quote: Decodable {
                var price: Double?
                var volume_24h: Double?
                var percent_change_1h: Double?
                var percent_change_24h: Double?
                var percent_change_7d: Double?
                var market_cap: Double?
            }
            var id: Int
            var name: String
            var symbol: String
            var cmc_rank: Int?
            var quote: [String: Quote]
        }
        var status: Status?
        var data: [Coin]?
    }

    func loadCoinMarketCap(now: Date) async throws -> CryptoEntry {
        guard !apiKey.isEmpty else {
            throw DataSourceError(
                .configuration, "coinmarketcap needs an API key: set apiKey or \(CryptoWidget.apiKeyVariable)")
        }
        let all = try await cmcListing(limit: 100)
        guard let chosen = all.first(where: { $0.symbol.caseInsensitiveCompare(coin) == .orderedSame }) else {
            throw DataSourceError(
                .configuration, "\(Fmt.line(coin.uppercased())) is not in CoinMarketCap's top 100 listing")
        }
        return CryptoEntry(
            date: now, currency: currency, sourceName: sourceName, selected: chosen.symbol,
            coin: chosen, top: Array(all.prefix(10)))
    }

    func cmcListing(limit: Int) async throws -> [CoinQuote] {
        let url = try URL.api(
            endpoint, ["v1", "cryptocurrency", "listings", "latest"],
            query: [("start", "1"), ("limit", String(limit)), ("convert", currency)])
        let host = HTTPClient.hostName(url)
        let listing = try await http.getJSON(
            CMCListing.self, from: url, headers: headers,
            notFoundHint: "no such API path (check the endpoint)", secrets: secrets)
        if let code = listing.status?.error_code, code != 0 {
            let msg = Fmt.line(listing.status?.error_message ?? "error \(code)")
            throw DataSourceError(.httpStatus, "\(host): \(msg)").masking(secrets)
        }
        guard let data = listing.data else { throw DataSourceError(.badData, "\(host) sent JSON without 'data'") }
        return data.prefix(Fmt.maxItems).compactMap { c in
            guard let q = c.quote[currency] ?? c.quote.values.first, let p = q.price, p.isFinite else { return nil }
            return CoinQuote(
                id: String(c.id), symbol: Fmt.line(c.symbol).uppercased(), name: Fmt.line(c.name), price: p,
                change1h: q.percent_change_1h, change24h: q.percent_change_24h, change7d: q.percent_change_7d,
                marketCap: q.market_cap, volume24h: q.volume_24h, rank: c.cmc_rank)
        }
    }

    // MARK: dynamic options

    /// Every coin the source lists, as options for the `coin` parameter.
    func coinOptions() async throws -> [ParameterOption] {
        var seen = Set<String>()
        var out: [ParameterOption] = []
        switch kind {
        case .coingecko:
            for c in try await coinList() {
                let sym = Fmt.line(c.symbol).uppercased()
                guard CryptoCoin.problem(sym) == nil, seen.insert(sym).inserted else { continue }
                out.append(ParameterOption(sym, title: "\(Fmt.line(c.name)) (\(sym))"))
            }
        case .coinmarketcap:
            guard !apiKey.isEmpty else {
                throw DataSourceError(
                    .configuration, "coinmarketcap needs an API key: set apiKey or \(CryptoWidget.apiKeyVariable)")
            }
            for c in try await cmcListing(limit: 200)
            where CryptoCoin.problem(c.symbol) == nil && seen.insert(c.symbol).inserted {
                out.append(ParameterOption(c.symbol, title: "\(c.name) (\(c.symbol))"))
            }
        }
        return out
    }
}

/// Generic sample data for the placeholder and the gallery.
enum CryptoSamples {
    static func series(_ base: Double, _ seed: Int) -> [Double] {
        (0..<42).map { i in
            let x = Double(i + seed)
            return base * (1 + 0.03 * sin(x / 5) + 0.015 * cos(x / 2.3) + 0.0008 * Double(i))
        }
    }

    static let coins: [CoinQuote] = [
        CoinQuote(
            id: "bitcoin", symbol: "BTC", name: "Bitcoin", price: 20000, change1h: 0.1, change24h: 2.4, change7d: 3.1,
            marketCap: 390e9, volume24h: 21e9, high24h: 20250, low24h: 19500, rank: 1, history: series(20000, 0)),
        CoinQuote(
            id: "ethereum", symbol: "ETH", name: "Ethereum", price: 1200, change1h: -0.2, change24h: -1.3,
            change7d: 1.8,
            marketCap: 145e9, volume24h: 9e9, high24h: 1230, low24h: 1180, rank: 2, history: series(1200, 7)),
        CoinQuote(
            id: "tether", symbol: "USDT", name: "Tether", price: 1, change1h: 0, change24h: 0.01, change7d: 0,
            marketCap: 68e9, volume24h: 30e9, high24h: 1.001, low24h: 0.999, rank: 3, history: series(1, 3)),
        CoinQuote(
            id: "binancecoin", symbol: "BNB", name: "BNB", price: 280, change1h: 0.3, change24h: 0.8, change7d: -2.2,
            marketCap: 44e9, volume24h: 0.9e9, high24h: 284, low24h: 276, rank: 4, history: series(280, 11)),
        CoinQuote(
            id: "ripple", symbol: "XRP", name: "XRP", price: 0.5, change1h: 0.1, change24h: 1.1, change7d: 4.0,
            marketCap: 25e9, volume24h: 1.2e9, high24h: 0.51, low24h: 0.49, rank: 5, history: series(0.5, 5)),
        CoinQuote(
            id: "litecoin", symbol: "LTC", name: "Litecoin", price: 200, change1h: 0.0, change24h: -0.6, change7d: 2.0,
            marketCap: 14e9, volume24h: 0.5e9, high24h: 204, low24h: 197, rank: 6, history: series(200, 2)),
    ]

    static func entry(selected: String, currency: String, now: Date) -> CryptoEntry {
        let coin =
            coins.first { $0.symbol == selected.uppercased() }
            ?? CoinQuote(
                id: selected.lowercased(), symbol: selected.uppercased(), name: selected.uppercased(), price: 1.5,
                change24h: 0.5, history: series(1.5, 1))
        return CryptoEntry(
            date: now, currency: currency, sourceName: "sample data", selected: coin.symbol,
            coin: coin, top: coins)
    }
}
