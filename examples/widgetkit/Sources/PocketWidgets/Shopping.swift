import AppIntents
import SwiftUI
import WidgetKit

// An interactive shopping list: a tick button per item, struck-through when bought.

struct Grocery: Identifiable, Codable, Hashable {
    var id: String
    var name: String
    var bought: Bool
}

enum Pantry {
    static let defaults = UserDefaults(suiteName: "group.example.pocket")
    static var items: [Grocery] {
        get {
            guard let data = defaults?.data(forKey: "items"),
                let items = try? JSONDecoder().decode([Grocery].self, from: data)
            else {
                return [
                    Grocery(id: "milk", name: "Oat milk", bought: false),
                    Grocery(id: "rice", name: "Rice", bought: true),
                    Grocery(id: "figs", name: "Figs", bought: false),
                ]
            }
            return items
        }
        set { defaults?.set(try? JSONEncoder().encode(newValue), forKey: "items") }
    }
}

struct MarkBought: AppIntent {
    static var title: LocalizedStringResource = "Mark bought"
    @Parameter(title: "Item") var itemID: String
    init() {}
    init(itemID: String) { self.itemID = itemID }
    func perform() async throws -> some IntentResult {
        var items = Pantry.items
        if let i = items.firstIndex(where: { $0.id == itemID }) { items[i].bought.toggle() }
        Pantry.items = items
        return .result()
    }
}

struct ShoppingEntry: TimelineEntry {
    let date: Date
    let items: [Grocery]
}

struct ShoppingProvider: TimelineProvider {
    func placeholder(in context: Context) -> ShoppingEntry { ShoppingEntry(date: Date(), items: []) }
    func getSnapshot(in context: Context, completion: @escaping (ShoppingEntry) -> Void) {
        completion(ShoppingEntry(date: Date(), items: Pantry.items))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<ShoppingEntry>) -> Void) {
        completion(Timeline(entries: [ShoppingEntry(date: Date(), items: Pantry.items)], policy: .never))
    }
}

struct ShoppingView: View {
    var entry: ShoppingEntry
    @Environment(\.widgetFamily) var family
    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Label("Shopping", systemImage: "cart")
                .font(.headline)
                .labelStyle(.titleAndIcon)
            ForEach(entry.items.prefix(family == .systemSmall ? 3 : 6)) { item in
                HStack(spacing: 6) {
                    Button(intent: MarkBought(itemID: item.id)) {
                        Image(systemName: item.bought ? "checkmark.circle.fill" : "circle")
                    }
                    .buttonStyle(.plain)
                    Text(item.name)
                        .strikethrough(item.bought)
                        .foregroundStyle(item.bought ? .secondary : .primary)
                }
            }
            Spacer(minLength: 0)
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

struct ShoppingWidget: Widget {
    let kind = "ShoppingWidget"
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: ShoppingProvider()) { entry in
            ShoppingView(entry: entry)
        }
        .configurationDisplayName("Shopping")
        .description("Tick off what you bought.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

#Preview(as: .systemSmall) {
    ShoppingWidget()
} timeline: {
    let morning = Date.now
    ShoppingEntry(date: morning, items: [Grocery(id: "tea", name: "Green tea", bought: false)])
    ShoppingEntry(date: morning, items: [Grocery(id: "tea", name: "Green tea", bought: true)])
    ShoppingEntry(
        date: morning.addingTimeInterval(3600),
        items: [
            Grocery(id: "tea", name: "Green tea", bought: true),
            Grocery(id: "oats", name: "Oat milk", bought: false),
        ])
}

#Preview("Week", as: .systemMedium) {
    ShoppingWidget()
} timeline: {
    ShoppingEntry(date: .now, items: [Grocery(id: "rice", name: "Rice", bought: false)])
}

#Preview("Row") {
    Text("Oat milk").strikethrough()
}
