import AppIntents
import SwiftUI
import WidgetKit

// A configurable commute countdown: the stop's choices come from a provider, the route is an
// entity with a query, and the next departure counts down live.

struct StopChoices: DynamicOptionsProvider {
    func results() async throws -> [String] { ["Mill Lane", "Station Square", "Old Bridge"] }
}

struct Route: AppEntity {
    let id: String
    let label: String
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Route"
    static var defaultQuery = RouteQuery()
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(label)") }
    static let known = [Route(id: "12", label: "Bus 12"), Route(id: "tram-3", label: "Tram 3")]
}

struct RouteQuery: EntityQuery {
    func entities(for identifiers: [Route.ID]) async throws -> [Route] {
        Route.known.filter { identifiers.contains($0.id) }
    }
    func suggestedEntities() async throws -> [Route] { Route.known }
    func defaultResult() async -> Route? { Route.known.first }
}

struct CommuteIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Commute"
    static var description = IntentDescription("Counts down to the next departure.")

    @Parameter(title: "Stop", default: "Mill Lane", optionsProvider: StopChoices())
    var stop: String
    @Parameter(title: "Route") var route: Route
    @Parameter(title: "Every (minutes)", default: 10) var every: Int

    static var parameterSummary: some ParameterSummary {
        Summary("\(\.$route) from \(\.$stop)") {
            \.$every
        }
    }
}

struct CommuteEntry: TimelineEntry {
    let date: Date
    let next: Date
    let configuration: CommuteIntent
}

struct CommuteProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> CommuteEntry {
        CommuteEntry(date: Date(), next: Date().addingTimeInterval(300), configuration: CommuteIntent())
    }
    func snapshot(for configuration: CommuteIntent, in context: Context) async -> CommuteEntry {
        CommuteEntry(date: Date(), next: Date().addingTimeInterval(240), configuration: configuration)
    }
    func timeline(for configuration: CommuteIntent, in context: Context) async -> Timeline<CommuteEntry> {
        let gap = TimeInterval(max(1, configuration.every) * 60)
        let now = Date()
        let entries = (0..<4).map { i in
            CommuteEntry(
                date: now.addingTimeInterval(Double(i) * gap), next: now.addingTimeInterval(Double(i + 1) * gap),
                configuration: configuration)
        }
        return Timeline(entries: entries, policy: .atEnd)
    }
}

struct CommuteView: View {
    var entry: CommuteEntry
    var body: some View {
        VStack(alignment: .leading) {
            Text(entry.configuration.route.label).font(.headline)
            Text(entry.configuration.stop).foregroundStyle(.secondary)
            ProgressView(timerInterval: entry.date...entry.next, countsDown: true) {
                Text("Next")
            } currentValueLabel: {
                Text(timerInterval: entry.date...entry.next, countsDown: true)
            }
            .progressViewStyle(.linear)
        }
        .containerBackground(for: .widget) {
            LinearGradient(colors: [.blue, .teal], startPoint: .top, endPoint: .bottom)
        }
    }
}

struct CommuteWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "CommuteWidget", intent: CommuteIntent.self, provider: CommuteProvider()) {
            entry in
            CommuteView(entry: entry)
        }
        .configurationDisplayName("Commute")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

#Preview(as: .systemMedium, using: CommuteIntent()) {
    CommuteWidget()
} timeline: {
    CommuteEntry(date: .now, next: .now.addingTimeInterval(120), configuration: CommuteIntent())
}
