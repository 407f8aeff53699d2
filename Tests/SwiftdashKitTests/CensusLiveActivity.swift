import ActivityKit
import AppIntents
import SwiftUI
import WidgetKit

// A Live Activity beside the widgets, as a widget extension has it: it compiles and adds no tile.

struct ParcelAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var stopsLeft: Int
    }
    var parcel: String
}

struct ParcelLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: ParcelAttributes.self) { context in
            HStack {
                Image(systemName: "shippingbox")
                Text("\(context.attributes.parcel): \(context.state.stopsLeft) stops")
            }
            .activityBackgroundTint(Color.cyan)
            .activitySystemActionForegroundColor(Color.black)
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) { Text("Parcel") }
                DynamicIslandExpandedRegion(.trailing) { Text("\(context.state.stopsLeft)") }
                DynamicIslandExpandedRegion(.bottom) { Text(context.attributes.parcel) }
            } compactLeading: {
                Image(systemName: "shippingbox")
            } compactTrailing: {
                Text("\(context.state.stopsLeft)")
            } minimal: {
                Text("\(context.state.stopsLeft)")
            }
            .keylineTint(Color.red)
        }
    }
}

enum ParcelTracking {
    /// Starts a Live Activity and donates the intent, as an app does: neither happens here.
    static func start() async -> (started: Bool, tokens: Int) {
        IntentDonationManager.shared.donate(intent: FlipChore(choreID: "a"))
        let activity = try? Activity<ParcelAttributes>.request(
            attributes: ParcelAttributes(parcel: "Books"),
            content: ActivityContent(state: .init(stopsLeft: 3), staleDate: nil), pushType: .token)
        var tokens = 0
        for await _ in Activity<ParcelAttributes>.pushToStartTokenUpdates { tokens += 1 }
        return (activity != nil, tokens)
    }
}
