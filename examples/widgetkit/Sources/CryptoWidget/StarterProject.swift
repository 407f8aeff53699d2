// extra: the chapter's starter project (CryptoWidget_start), which the chapter describes but does
// not list: the Coin model, DataManager and the two views it shares with the widget, written
// from its description with SwiftdashKit imports; and ConfigurationIntent, which Xcode generates
// from the .intentdefinition file (the Coin Select enum: LTC, ETH, BTC), as an AppIntent.
import SwiftdashKit
import Foundation

struct QuoteData: Codable { let price: Double }
struct Quote: Codable { let USD: QuoteData }
struct Coin: Codable, Identifiable {
    let id: Int
    let name: String
    let symbol: String
    let quote: Quote
}
struct CoinList: Codable { let data: [Coin] }

class DataManager: ObservableObject {
    @Published var coins = CoinList(data: [
        Coin(id: 1, name: "Bitcoin", symbol: "BTC", quote: Quote(USD: QuoteData(price: 20000))),
        Coin(id: 2, name: "Litecoin", symbol: "LTC", quote: Quote(USD: QuoteData(price: 200))),
        Coin(id: 3, name: "Ethereum", symbol: "ETH", quote: Quote(USD: QuoteData(price: 1200))),
    ])
    @Published var loading = false
    let apiUrl = "https://sandbox-api.coinmarketcap.com/v1/cryptocurrency/listings/latest?limit=5"
    let apiKeyHeader = "X-CMC_PRO_API_KEY"
    let apiKeyValue = "b54bcf4d-1bca-4e8e-9a24-22ff2c3d462c"

    func refresh(completionHandler: @escaping (CoinList) -> Void) {
      guard let url = URL(string: apiUrl) else { return }
      var request = URLRequest(url: url)
      request.setValue(apiKeyValue, forHTTPHeaderField: apiKeyHeader)
      URLSession.shared.dataTask(with: request){ (data, _, _) in
        print("Update coins")
        // extra: the chapter's `try!` would crash the extension on a bad answer; keep the last coins.
        guard let data = data, let coins = try? JSONDecoder().decode(CoinList.self, from: data) else {
          DispatchQueue.main.async { completionHandler(self.coins) }
          return
        }
        DispatchQueue.main.async {
          print(coins)
          self.coins = coins
          self.loading = false
          completionHandler(coins)
        }
      }.resume()
    }
}

struct CoinDetail: View {
    let coin: Coin
    var body: some View {
        VStack {
            Text(coin.name).font(.headline)
            Text("\(coin.quote.USD.price, specifier: "%.2f") $")
        }
    }
}

struct CoinRow: View {
    let coin: Coin
    var body: some View {
        HStack {
            Text(coin.symbol).bold()
            Spacer()
            Text("\(coin.quote.USD.price, specifier: "%.2f")")
        }
    }
}

struct CoinListView: View {
    let data: [Coin]
    var body: some View {
      VStack {
        ForEach(data, id: \.symbol){ coin in
          CoinRow(coin: coin)
        }
      }
    }
}

enum CoinSelect: String, AppEnum {
    case unknown, lTC, eTH, bTC
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Coin Select"
    static var caseDisplayRepresentations: [CoinSelect: DisplayRepresentation] = [
        .unknown: "BTC (default)", .lTC: "LTC", .eTH: "ETH", .bTC: "BTC",
    ]
}

struct ConfigurationIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Coin"
    @Parameter(title: "Coin", default: .bTC) var coinSelect: CoinSelect
}
