import Foundation
import Testing
import DashWidgets
import DashTestSupport
@testable import DashBuiltinWidgets

/// The crypto widget's coin is checked by one rule, in one wording, wherever a value comes in:
/// the schema (the form, `config set`, `config check` and home.yaml all parse through it), the
/// provider at load time, and the coin list the form offers. (The form's and the command
/// line's own paths are tested in DashAppTests and SwiftdashCLITests.)
@Suite("crypto coin check")
struct CryptoCoinCheckTests {
    let widget = CryptoWidget.make(http: testHTTP)
    static let bad = ["x y", "", "   ", "BTC!", "usdc.e", "a/b", String(repeating: "a", count: 31), "₿"]
    static let good = ["BTC", "eth", " LTC ", "avalanche-2", "usd-coin", String(repeating: "a", count: 30)]

    @Test func theRuleInWords() {
        #expect(
            CryptoCoin.problem("x y")
                == "'x y' is not a coin; use a symbol such as BTC or a CoinGecko id such as bitcoin "
                + "(letters, digits and -, at most 30)")
        #expect(CryptoCoin.problem("  ")?.hasPrefix("'' is not a coin") == true, "quoted as it is checked: trimmed")
        for coin in Self.good { #expect(CryptoCoin.problem(coin) == nil, "\(coin)") }
    }

    @Test(arguments: bad) func theSchemaRefusesABadCoinInTheRulesWords(_ coin: String) throws {
        let problem = try #require(CryptoCoin.problem(coin))
        #expect(throws: ConfigError(key: "coin", message: problem, byCheck: true)) {
            try widget.schema.parse(key: "coin", text: coin)
        }
        #expect(widget.schema.validate(WidgetConfig(["coin": .string(coin)])).map(\.message) == [problem])
    }

    @Test func theSchemaTakesWhatTheRuleTakes() throws {
        for coin in Self.good {
            #expect(
                try widget.schema.parse(key: "coin", text: coin) == .string(coin.trimmingCharacters(in: .whitespaces)))
        }
    }

    @Test(arguments: bad) func theProviderRefusesABadCoinBeforeAnyRequestInTheSameWords(_ coin: String) async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let config = WidgetConfig(["endpoint": .string(server.baseURL + "/api/v3"), "coin": .string(coin)])
        let e = await expectDataSourceError { _ = try await widget.timeline(for: config, in: context(.small)) }
        #expect(e?.reason == .configuration)
        #expect(e?.message == "coin: " + (CryptoCoin.problem(coin) ?? ""))
        #expect(server.requests.isEmpty, "nothing asked of the network")
    }

    @Test func theCoinListOffersOnlyCoinsTheRuleTakes() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route(
            "/api/v3/coins/list",
            .init(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Data(
                    """
                    [{"id":"bitcoin","symbol":"btc","name":"Bitcoin"},
                     {"id":"bridged-usdc","symbol":"usdc.e","name":"Bridged USDC"},
                     {"id":"snow","symbol":"☃","name":"Snow"},
                     {"id":"pepe","symbol":"pepe","name":"Pepe"}]
                    """.utf8)))
        let load = try #require(widget.schema.parameter("coin")?.dynamicOptions)
        let options = try await load(WidgetConfig(["endpoint": .string(server.baseURL + "/api/v3")]))
        #expect(options.map(\.value) == ["BTC", "PEPE"])
        for o in options { #expect(try widget.schema.parse(key: "coin", text: o.value) == .string(o.value)) }
    }
}
