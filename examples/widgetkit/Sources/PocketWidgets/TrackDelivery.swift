import ActivityKit
import AppIntents
import SwiftUI
import WidgetKit

// A tile whose button drives the delivery Live Activity, as an app's intent does: the first press
// starts it (`Activity.request`), each later press is the next stop (`update`, with an alert), and
// the last stop ends it (`end`).

struct TrackDelivery: AppIntent {
    static var title: LocalizedStringResource = "Track the lamp"

    func perform() async throws -> some IntentResult {
        guard let current = Activity<DeliveryAttributes>.activities.first(where: { $0.activityState == .active }) else {
            _ = try Activity<DeliveryAttributes>.request(
                attributes: DeliveryAttributes(orderName: "Lamp"),
                content: ActivityContent(state: .init(stopsAway: 2, driver: "Ana"), staleDate: nil))
            return .result()
        }
        let left = max(current.content.state.stopsAway - 1, 0)
        let next = ActivityContent(state: DeliveryAttributes.ContentState(stopsAway: left, driver: current.content.state.driver), staleDate: nil)
        if left == 0 {
            await current.end(next, dismissalPolicy: .default)
        } else {
            await current.update(next, alertConfiguration: AlertConfiguration(title: "Lamp", body: "\(left) stops away", sound: .default))
        }
        return .result()
    }
}

struct TrackEntry: TimelineEntry {
    let date: Date
    /// Stops to go while the delivery is tracked.
    let stopsAway: Int?
}

struct TrackProvider: TimelineProvider {
    func placeholder(in context: Context) -> TrackEntry { TrackEntry(date: Date(), stopsAway: nil) }
    func getSnapshot(in context: Context, completion: @escaping (TrackEntry) -> Void) { completion(now()) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<TrackEntry>) -> Void) {
        completion(Timeline(entries: [now()], policy: .never))
    }

    func now() -> TrackEntry {
        let tracked = Activity<DeliveryAttributes>.activities.first { $0.activityState == .active }
        return TrackEntry(date: Date(), stopsAway: tracked?.content.state.stopsAway)
    }
}

struct TrackView: View {
    let entry: TrackEntry

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text("Lamp order").font(.headline)
            Button(intent: TrackDelivery()) {
                Text(entry.stopsAway == nil ? "Track" : "Next stop")
            }
        }
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

struct TrackWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "TrackWidget", provider: TrackProvider()) { entry in
            TrackView(entry: entry)
        }
        .configurationDisplayName("Track a delivery")
        .description("Starts, moves on and ends the delivery's Live Activity.")
        .supportedFamilies([.systemSmall])
    }
}
