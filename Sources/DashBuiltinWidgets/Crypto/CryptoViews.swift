import Foundation
import DashCore
import DashWidgets

/// Numbers as a glance wants them: grouped, few decimals, signed percents.
enum CryptoFormat {
    static func symbol(_ currency: String) -> String {
        switch currency.uppercased() {
        case "USD": return "$"
        case "EUR": return "€"
        case "GBP": return "£"
        case "JPY", "CNY": return "¥"
        case "INR": return "₹"
        case "KRW": return "₩"
        case "BTC": return "₿"
        default: return ""
        }
    }

    static func grouped(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "–" }
        let s = FixedFormat.decimal(abs(v), places: decimals)
        let parts = s.split(separator: ".", maxSplits: 1)
        var int = String(parts[0])
        var out = ""
        while int.count > 3 {
            out = "," + int.suffix(3) + out
            int = String(int.dropLast(3))
        }
        out = int + out
        if parts.count > 1 { out += "." + parts[1] }
        return (v < 0 ? "-" : "") + out
    }

    /// Decimals a price is written with: none from 100,000, 2 from 1, and under 1 at least 4
    /// and enough for 3 significant digits (0.0612, 0.00512, 0.00000123).
    static func decimals(_ v: Double) -> Int {
        let a = abs(v)
        guard a.isFinite, a > 0 else { return 2 }
        if a >= 100_000 { return 0 }
        if a >= 1 { return 2 }
        let zeros = max(0, Int(clamping: (-log10(a)).rounded(.up), to: 0...400) - 1)  // after the point, before the first digit
        return max(4, zeros + 3)
    }

    /// The longest fixed-point form; smaller prices are only written in scientific notation.
    static let maxDecimals = 12

    /// 43,210.55 · 123,456 · 1.25 · 0.0612 · 0.00000123 (1.23e-15 past twelve decimals).
    static func number(_ v: Double) -> String {
        let d = decimals(v)
        return d > maxDecimals ? scientific(v) : grouped(v, decimals: d)
    }

    /// Three significant digits in scientific notation: 1.23e-6. The short form of a tiny
    /// price where the fixed-point one does not fit.
    static func scientific(_ v: Double) -> String { FixedFormat.scientific(v, significant: 3) }

    /// A list figure: no decimals from 1,000 up.
    static func short(_ v: Double) -> String {
        abs(v) >= 1000 ? grouped(v, decimals: 0) : number(v)
    }

    static func price(_ v: Double, _ currency: String) -> String {
        let sym = symbol(currency)
        return sym.isEmpty ? number(v) : sym + number(v)
    }

    /// A low and a high (and the price beside them) written with the same decimals, enough
    /// for the smallest of them: 0.00000118 and 0.00000126, not 0.000001 twice.
    static func range(
        _ low: Double, _ high: Double, price: Double? = nil,
        currency: String? = nil
    ) -> (String, String) {
        let values = [low, high] + (price.map { [$0] } ?? [])
        let sym = currency.map(symbol) ?? ""
        func write(_ v: Double, _ d: Int) -> String { d > maxDecimals ? scientific(v) : grouped(v, decimals: d) }
        if currency == nil && max(abs(low), abs(high)) >= 1000 { return (short(low), short(high)) }
        let d = values.map(decimals).max() ?? 2
        return (sym + write(low, d), sym + write(high, d))
    }

    /// A price as a view: the fixed-point form, or where the tile has no room for it, the
    /// scientific one; never a number cut in the middle.
    static func priceView(_ v: Double, _ currency: String? = nil) -> TileView {
        let sym = currency.map(symbol) ?? ""
        let fixed = currency == nil ? short(v) : price(v, currency!)
        guard abs(v) < 0.01, abs(v) > 0 else { return Text(fixed) }
        return ViewThatFits {
            Text(fixed)
            Text(sym + scientific(v))
        }
    }

    /// Whether a change reads as zero at `decimals`: it is then written unsigned, with no arrow
    /// and no colour (never "-0.00%").
    static func isZero(_ v: Double, decimals: Int) -> Bool {
        (v * pow(10, Double(decimals))).rounded() == 0
    }

    /// +2.35%; a change that rounds to zero has no sign (not "-0.00%").
    static func percent(_ v: Double, decimals: Int = 2) -> String {
        if isZero(v, decimals: decimals) { return FixedFormat.decimal(0, places: decimals) + "%" }
        return FixedFormat.decimal(v, places: decimals, plusSign: true) + "%"
    }

    /// 812.3B, 4.1T, 950.0M
    static func compact(_ v: Double?, _ currency: String) -> String {
        guard let v, v.isFinite else { return "–" }
        let units: [(Double, String)] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")]
        for (size, unit) in units where abs(v) >= size {
            return symbol(currency) + FixedFormat.decimal(v / size, places: 1) + unit
        }
        return price(v, currency)
    }

    /// Green up, red down; grey for no change at the shown precision.
    static func color(_ change: Double?, decimals: Int = 2) -> SemanticColor {
        guard let c = change, !isZero(c, decimals: decimals) else { return .secondary }
        return c >= 0 ? .positive : .negative
    }

    /// ▲ +2.35% · ▼ -1.10% · 0.00% (no arrow for no change).
    static func arrow(_ change: Double?) -> String {
        guard let c = change else { return "–" }
        if isZero(c, decimals: 2) { return percent(c) }
        return (c >= 0 ? "▲ " : "▼ ") + percent(c)
    }
}

enum CryptoViews {
    static func tile(_ entry: CryptoEntry, _ ctx: TimelineContext) -> TileView {
        let view: TileView
        if let coin = entry.coin {
            switch ctx.family {
            case .small: view = small(coin, entry, width: ctx.size.width)
            case .medium: view = medium(coin, entry)
            case .large, .extraLarge: view = large(coin, entry, width: ctx.size.width)
            }
        } else {
            view = failureView(entry.selected, "no price for \(entry.selected) in \(entry.currency)")
        }
        return entry.isPlaceholder ? view.redacted() : view
    }

    /// The coin block: symbol, price, 24-hour change, name.
    static func coinBlock(_ c: CoinQuote, _ entry: CryptoEntry, width: Int) -> TileView {
        let arrow = CryptoFormat.arrow(c.change24h)
        let change = Text(arrow).foregroundStyle(CryptoFormat.color(c.change24h))
        return VStack {
            titleRow(c.symbol, entry.currency)
            CryptoFormat.priceView(c.price, entry.currency).font(.title)
            // A two-digit change (▲ +12.75%) leaves no room for "24h" in the medium tile's
            // column: the change stays on its line, the label gives way (0: room unknown).
            if width > 0 && DisplayWidth.of(arrow) + 5 > width {
                change.lineLimit(1)
            } else {
                HStack {
                    change
                    Spacer()
                    Text("24h").font(.caption)
                }
            }
            Spacer()
            if let lo = c.low24h, let hi = c.high24h, hi > lo {
                // Where the price sits between today's low and high.
                HStack {
                    Text("L").font(.caption)
                    Gauge(value: (c.price - lo) / (hi - lo), color: .accent)
                    Text("H").font(.caption)
                }
            }
            HStack {
                Text(c.name).font(.caption)
                Spacer()
                if let r = c.rank { Text("#\(r)").font(.caption) }
            }
        }
    }

    static func small(_ c: CoinQuote, _ entry: CryptoEntry, width: Int) -> TileView {
        coinBlock(c, entry, width: width).widgetURL(CryptoWidget.link(c.symbol))
    }

    /// One row of the top list: symbol, price, change, right-aligned.
    static func listRow(_ c: CoinQuote) -> TileView {
        HStack {
            Text(c.symbol).font(.headline).frame(width: 4)
            // Right-aligned in all the room between (a spacer would take a column of it).
            CryptoFormat.priceView(c.price).font(.monospacedDigit).fillWidth(alignment: .trailing)
            Text(c.change24h.map { CryptoFormat.percent($0, decimals: 1) } ?? "–")
                .foregroundStyle(CryptoFormat.color(c.change24h, decimals: 1)).frame(width: 6, alignment: .trailing)
        }.link(CryptoWidget.link(c.symbol))
    }

    static func others(_ entry: CryptoEntry, _ n: Int) -> [CoinQuote] {
        Array(entry.top.filter { $0.symbol != entry.coin?.symbol }.prefix(n))
    }

    static func medium(_ c: CoinQuote, _ entry: CryptoEntry) -> TileView {
        HStack {
            coinBlock(c, entry, width: 13).frame(width: 13).link(CryptoWidget.link(c.symbol))
            Divider()
            VStack {
                Text("Top coins").font(.caption).link(DeepLink.make(kind: CryptoWidget.kind, "top"))
                for row in others(entry, 4) { listRow(row) }
            }.fillWidth()
        }
    }

    static func large(_ c: CoinQuote, _ entry: CryptoEntry, width: Int) -> TileView {
        let hist = c.history
        let trend = CryptoFormat.color(hist.count > 1 ? (hist.last! - hist.first!) : c.change7d)
        let header = VStack {
            titleRow("\(c.symbol) · \(c.name)", entry.currency)
            HStack {
                CryptoFormat.priceView(c.price, entry.currency).font(.title)
                Spacer()
                Text(CryptoFormat.arrow(c.change24h)).foregroundStyle(CryptoFormat.color(c.change24h))
                Text("24h").font(.caption)
            }
            if hist.count > 1 {
                Sparkline(hist, color: trend, height: 3)
                lowHigh("7d", hist.min()!, hist.max()!, price: c.price, width: width)
            } else {
                // No history from this source: the changes over three spans, and more of the list.
                changesRow(c)
                if let low = c.low24h, let high = c.high24h { lowHigh("24h", low, high, price: c.price, width: width) }
            }
            HStack {
                Text("Cap").font(.caption)
                Text(CryptoFormat.compact(c.marketCap, entry.currency))
                Spacer()
                Text("Vol").font(.caption)
                Text(CryptoFormat.compact(c.volume24h, entry.currency))
            }
        }.link(CryptoWidget.link(c.symbol))
        return VStack {
            header
            Divider()
            for row in others(entry, hist.count > 1 ? 5 : 8) { listRow(row) }
        }
    }

    /// `7d low 0.00000118   high 0.00000126`; where a tiny price's digits leave no room in
    /// `width` (0: unknown), the same in scientific notation, never a number cut.
    static func lowHigh(_ span: String, _ low: Double, _ high: Double, price: Double, width: Int) -> TileView {
        var (lo, hi) = CryptoFormat.range(low, high, price: price)
        let label = "\(span) low"
        if width > 0, label.count + lo.count + hi.count + 8 > width {
            (lo, hi) = (CryptoFormat.scientific(low), CryptoFormat.scientific(high))
        }
        return HStack {
            Text(label).font(.caption)
            Text(lo).font(.monospacedDigit)
            Spacer()
            Text("high").font(.caption)
            Text(hi).font(.monospacedDigit)
        }
    }

    static func changesRow(_ c: CoinQuote) -> TileView {
        HStack(spacing: 2) {
            for (label, v) in [("1h", c.change1h), ("24h", c.change24h), ("7d", c.change7d)] {
                HStack {
                    Text(label).font(.caption)
                    Text(v.map { CryptoFormat.percent($0) } ?? "–").foregroundStyle(CryptoFormat.color(v))
                }
            }
        }
    }

    // MARK: detail

    static func detail(_ link: DeepLink, _ entry: CryptoEntry?, _ ctx: TimelineContext) -> TileView {
        guard let entry else {
            return VStack {
                Text("Crypto prices").font(.title)
                Text("No data loaded yet").font(.caption)
            }
        }
        let symbol = link.path.first ?? entry.selected
        if symbol == "top" {
            return VStack {
                titleRow("Top coins by market cap", entry.currency)
                Divider()
                for c in entry.top { detailListRow(c, entry.currency) }
                Spacer()
                Text("Source: \(entry.sourceName)").font(.caption)
            }
        }
        guard let c = entry.quote(symbol) else {
            return VStack {
                Text(symbol.uppercased()).font(.title)
                Text("No data for \(symbol.uppercased()) in this tile's last update").font(.caption)
            }
        }
        let cur = entry.currency
        let chartHeight = max(3, min(10, ctx.size.height - 12))
        return VStack {
            titleRow("\(c.name) (\(c.symbol))", c.rank.map { "rank #\($0)" } ?? "")
            HStack {
                CryptoFormat.priceView(c.price, cur).font(.largeTitle)
                Text(cur).font(.caption)
                Spacer()
                Text(CryptoFormat.arrow(c.change24h)).foregroundStyle(CryptoFormat.color(c.change24h))
                Text("24h").font(.caption)
            }
            changesRow(c)
            Divider()
            factRow("Market cap", CryptoFormat.compact(c.marketCap, cur))
            factRow("Volume 24h", CryptoFormat.compact(c.volume24h, cur))
            let day = c.low24h.flatMap { lo in
                c.high24h.map { CryptoFormat.range(lo, $0, price: c.price, currency: cur) }
            }
            factRow("24h high", day?.1 ?? "–")
            factRow("24h low", day?.0 ?? "–")
            Divider()
            if c.history.count > 1 {
                Text("7-day history").font(.headline)
                Sparkline(c.history, color: CryptoFormat.color(c.history.last! - c.history.first!), height: chartHeight)
                let (lo, hi) = CryptoFormat.range(c.history.min()!, c.history.max()!, price: c.price, currency: cur)
                HStack {
                    Text("low \(lo)").font(.caption)
                    Spacer()
                    Text("high \(hi)").font(.caption)
                }
            } else {
                Text("No price history from \(entry.sourceName)").font(.caption)
            }
            Spacer()
            HStack {
                Text("Source: \(entry.sourceName) · updated").font(.caption)
                Text(entry.date, style: .relative).font(.caption)
            }
        }
    }

    static func factRow(_ label: String, _ value: String) -> TileView {
        HStack {
            Text(label).font(.caption)
            Spacer()
            Text(value).font(.monospacedDigit)
        }
    }

    static func detailListRow(_ c: CoinQuote, _ currency: String) -> TileView {
        HStack {
            Text(c.rank.map { "\($0)." } ?? "").font(.caption).frame(width: 3)
            Text(c.symbol).font(.headline).frame(width: 6)
            Text(c.name).font(.caption)
            Spacer()
            CryptoFormat.priceView(c.price, currency).font(.monospacedDigit)
            Text(c.change24h.map { CryptoFormat.percent($0) } ?? "–")
                .foregroundStyle(CryptoFormat.color(c.change24h)).frame(width: 8, alignment: .trailing)
            Text(CryptoFormat.compact(c.marketCap, currency)).font(.caption).frame(width: 9, alignment: .trailing)
        }.link(CryptoWidget.link(c.symbol))
    }
}
