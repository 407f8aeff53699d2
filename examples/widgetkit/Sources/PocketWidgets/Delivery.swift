import ActivityKit
import SwiftUI
import WidgetKit

// A delivery on its way as a Live Activity, beside the bundle's widgets: the Lock Screen view, the
// Dynamic Island's expanded regions and its compact and minimal presentations. The app (or an
// intent) starts it with `Activity<DeliveryAttributes>.request`; the stops count down with updates.

struct DeliveryAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var stopsAway: Int
        var driver: String
    }

    var orderName: String
}

struct DeliveryLockScreenView: View {
    let context: ActivityViewContext<DeliveryAttributes>

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text("\(context.attributes.orderName) is on its way")
                .font(.headline)
            Text(context.isStale ? "No news from \(context.state.driver) for a while" : "\(context.state.driver) is \(context.state.stopsAway) stops away")
                .foregroundStyle(.secondary)
        }
        .padding()
        .activityBackgroundTint(Color.black.opacity(0.8))
        .activitySystemActionForegroundColor(.white)
    }
}

struct DeliveryLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: DeliveryAttributes.self) { context in
            DeliveryLockScreenView(context: context)
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) {
                    Text("\(context.state.stopsAway) stops")
                }
                DynamicIslandExpandedRegion(.trailing) {
                    Text(context.state.driver)
                }
                DynamicIslandExpandedRegion(.center) {
                    Text(context.attributes.orderName).lineLimit(1)
                }
                DynamicIslandExpandedRegion(.bottom) {
                    Text("Leave it at the door")
                        .font(.caption)
                }
            } compactLeading: {
                Text("Van: \(context.attributes.orderName)")
            } compactTrailing: {
                Text("\(context.state.stopsAway) stops")
                    .monospacedDigit()
            } minimal: {
                Text("\(context.state.stopsAway)")
            }
            .widgetURL(URL(string: "https://example.com/orders/42"))
            .keylineTint(.orange)
        }
    }
}
