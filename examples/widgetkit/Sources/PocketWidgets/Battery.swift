import SwiftUI
import WidgetKit

// A battery gauge for the home screen and the lock screen: a ring on the lock screen, a bar and a
// circular progress on the home screen, one line for the inline place.

struct ChargeEntry: TimelineEntry {
    let date: Date
    let charge: Double
    let charging: Bool
}

struct ChargeProvider: TimelineProvider {
    func placeholder(in context: Context) -> ChargeEntry { ChargeEntry(date: Date(), charge: 0.6, charging: false) }
    func getSnapshot(in context: Context, completion: @escaping (ChargeEntry) -> Void) {
        completion(ChargeEntry(date: Date(), charge: 0.72, charging: true))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<ChargeEntry>) -> Void) {
        let now = Date()
        let entries = (0..<6).map { step in
            ChargeEntry(
                date: now.addingTimeInterval(Double(step) * 600), charge: min(1, 0.72 + Double(step) * 0.05),
                charging: true)
        }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

struct ChargeView: View {
    var entry: ChargeEntry
    @Environment(\.widgetFamily) var family
    var percent: Int { Int((entry.charge * 100).rounded()) }
    var body: some View {
        switch family {
        case .accessoryCircular:
            Gauge(value: entry.charge) {
                Image(systemName: "bolt.fill")
            } currentValueLabel: {
                Text("\(percent)")
            }
            .gaugeStyle(.accessoryCircularCapacity)
        case .accessoryInline:
            Label("\(percent)% \(entry.charging ? "charging" : "")", systemImage: "bolt.fill")
        default:
            VStack(alignment: .leading, spacing: 6) {
                HStack {
                    Image(systemName: entry.charging ? "bolt.fill" : "battery.50")
                    Text("\(percent)%").font(.title).monospacedDigit()
                }
                Gauge(value: entry.charge, in: 0...1) {
                    Text("Battery")
                } currentValueLabel: {
                    Text("\(percent)%")
                } minimumValueLabel: {
                    Text("0")
                } maximumValueLabel: {
                    Text("100")
                }
                .gaugeStyle(.linearCapacity)
                ProgressView(value: entry.charge, total: 1.0)
                    .progressViewStyle(.circular)
                Text(entry.date, style: .time).textScale(.secondary)
            }
            .containerBackground(.background, for: .widget)
        }
    }
}

struct ChargeWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "ChargeWidget", provider: ChargeProvider()) { entry in
            ChargeView(entry: entry)
        }
        .configurationDisplayName("Battery")
        .supportedFamilies([.accessoryCircular, .systemSmall, .accessoryInline, .systemMedium])
    }
}

@main
struct PocketWidgets: WidgetBundle {
    var body: some Widget {
        ShoppingWidget()
        CommuteWidget()
        ChargeWidget()
        DeliveryLiveActivity()
        TrackWidget()
    }
}

#Preview(as: .systemSmall) {
    ChargeWidget()
} timelineProvider: {
    ChargeProvider()
}
