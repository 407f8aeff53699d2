/// The one check of the crypto widget's coin. The schema runs it (so the Edit form, `swiftdash
/// config set`, `config check` and home.yaml get its words), the provider runs it at load time
/// before asking the network, and the coin list the form offers holds only coins it takes.
enum CryptoCoin {
    /// The longest symbol or id taken (CoinGecko ids such as `bridged-wrapped-ether-starkgate` fit).
    static let maxLength = 30

    /// What is wrong with `coin` as a coin (a symbol such as BTC or a CoinGecko id such as
    /// avalanche-2), or nil. Spaces around it do not count, as the schema trims them.
    static func problem(_ coin: String) -> String? {
        let c = coin.trimmingCharacters(in: .whitespaces)
        let ok =
            (1...maxLength).contains(c.utf8.count)
            && c.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D
            }
        if ok { return nil }
        return "'\(c)' is not a coin; use a symbol such as BTC or a CoinGecko id such as bitcoin "
            + "(letters, digits and -, at most \(maxLength))"
    }
}
