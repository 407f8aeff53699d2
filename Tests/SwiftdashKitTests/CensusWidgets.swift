import AppIntents
import Foundation
import SwiftUI
import WidgetKit

// Widgets in the shapes the census (docs/sdk-census.md) found most often, written here for the tests
// with the imports a widget extension has on Apple's systems and no other change. They see
// WidgetKit, SwiftUI and AppIntents only, as a ported widget does.

// MARK: - An interactive to-do list

struct Chore: Identifiable, Codable, Hashable {
    var id: String
    var title: String
    var done: Bool
}

enum ChoreBook {
    nonisolated(unsafe) static var chores = [
        Chore(id: "a", title: "Water plants", done: false), Chore(id: "b", title: "Post letter", done: true),
    ]
}

struct FlipChore: AppIntent {
    static var title: LocalizedStringResource = "Flip a chore"
    static var isDiscoverable = false
    @Parameter(title: "Chore") var choreID: String
    init() {}
    init(choreID: String) { self.choreID = choreID }
    func perform() async throws -> some IntentResult {
        if let i = ChoreBook.chores.firstIndex(where: { $0.id == choreID }) { ChoreBook.chores[i].done.toggle() }
        WidgetCenter.shared.reloadTimelines(ofKind: "ChoresWidget")
        return .result()
    }
}

struct ChoresEntry: TimelineEntry {
    let date: Date
    let chores: [Chore]
}

struct ChoresProvider: TimelineProvider {
    func placeholder(in context: Context) -> ChoresEntry { ChoresEntry(date: .now, chores: []) }
    func getSnapshot(in context: Context, completion: @escaping (ChoresEntry) -> Void) {
        completion(ChoresEntry(date: Date(timeIntervalSince1970: 1_800_000_000), chores: ChoreBook.chores))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<ChoresEntry>) -> Void) {
        getSnapshot(in: context) { completion(Timeline(entries: [$0], policy: .never)) }
    }
}

struct ChoresView: View {
    let entry: ChoresEntry
    static let stamp: DateFormatter = {
        let f = DateFormatter()
        f.dateFormat = "HH:mm"
        f.timeZone = TimeZone(identifier: "UTC")
        return f
    }()
    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            Label("Chores", systemImage: "checklist")
                .labelStyle(.titleAndIcon)
                .font(.headline)
            ForEach(entry.chores) { chore in
                HStack {
                    Button(intent: FlipChore(choreID: chore.id)) {
                        Image(systemName: chore.done ? "checkmark.circle.fill" : "circle")
                    }
                    .buttonStyle(.plain)
                    Text(chore.title)
                        .strikethrough(chore.done, pattern: .solid, color: .gray)
                        .lineLimit(1)
                }
            }
            Text("at \(entry.date, formatter: Self.stamp)")
                .textScale(.secondary)
                .foregroundStyle(.secondary)
        }
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

struct ChoresWidget: Widget {
    let kind = "ChoresWidget"
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: ChoresProvider()) { entry in
            ChoresView(entry: entry)
        }
        .configurationDisplayName("Chores")
        .description("Tick chores off.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

// MARK: - Gauges and progress, on the home screen and the lock screen

struct LevelEntry: TimelineEntry {
    let date: Date
    let level: Double
}

struct LevelProvider: TimelineProvider {
    func placeholder(in context: Context) -> LevelEntry { LevelEntry(date: .now, level: 0.5) }
    func getSnapshot(in context: Context, completion: @escaping (LevelEntry) -> Void) {
        completion(LevelEntry(date: Date(timeIntervalSince1970: 1_800_000_000), level: 0.8))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<LevelEntry>) -> Void) {
        getSnapshot(in: context) { completion(Timeline(entries: [$0], policy: .atEnd)) }
    }
}

struct LevelView: View {
    @Environment(\.widgetFamily) var family
    let entry: LevelEntry
    var body: some View {
        switch family {
        case .accessoryCircular:
            Gauge(value: entry.level) {
                Image(systemName: "bolt.fill")
            } currentValueLabel: {
                Text("ring \(Int(entry.level * 100))")
            }
            .gaugeStyle(.accessoryCircularCapacity)
        case .accessoryInline:
            Text("Charge \(Int(entry.level * 100))%")
        default:
            ZStack {
                Circle().stroke(lineWidth: 4).opacity(0.3)
                Circle().trim(from: 0, to: entry.level).stroke(
                    .green, style: StrokeStyle(lineWidth: 4, lineCap: .round))
                VStack {
                    Text("Tile \(Int(entry.level * 100))").font(.title).bold()
                    Gauge(value: entry.level, in: 0...1) { Text("Cells") }
                        .gaugeStyle(.accessoryLinearCapacity)
                        .tint(.green)
                    ProgressView(value: entry.level)
                        .progressViewStyle(.circular)
                    GroupBox("Spare") { Text("2 packs").foregroundStyle(.primary.opacity(0.5)) }
                }
            }
            .containerBackground(for: .widget) { Color.black.opacity(0.8) }
        }
    }
}

struct LevelWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "LevelWidget", provider: LevelProvider()) { LevelView(entry: $0) }
            .configurationDisplayName("Charge")
            .supportedFamilies([.accessoryCircular, .systemSmall, .accessoryInline])
    }
}

/// A lock-screen-only widget: its accessory view is drawn in the small tile.
struct RingOnlyWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "RingOnly", provider: LevelProvider()) { LevelView(entry: $0) }
            .supportedFamilies([.accessoryCircular])
    }
}

// MARK: - AppIntent configuration with choices from a provider, and a timer

struct StationOptions: DynamicOptionsProvider {
    func results() async throws -> [String] { ["North Quay", "Elm Street", "Harbour"] }
}

enum Speed: String, AppEnum {
    case walk, cycle
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Speed"
    static var caseDisplayRepresentations: [Speed: DisplayRepresentation] = [.walk: "Walking", .cycle: "Cycling"]
}

struct Line: AppEntity {
    let id: String
    let name: String
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Line"
    static var defaultQuery = LineQuery()
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)") }
    static let all = [Line(id: "red", name: "Red line"), Line(id: "blue", name: "Blue line")]
}

struct LineQuery: EntityQuery {
    func entities(for identifiers: [Line.ID]) async throws -> [Line] { Line.all.filter { identifiers.contains($0.id) } }
    func suggestedEntities() async throws -> [Line] { Line.all }
    func defaultResult() async -> Line? { Line.all.first }
}

struct DepartureIntent: WidgetConfigurationIntent, CustomIntentMigratedAppIntent {
    static let intentClassName = "DepartureConfigurationIntent"
    static var title: LocalizedStringResource = "Departures"
    static var description = IntentDescription("Next departures from a station.")

    @Parameter(title: "Station", default: "Harbour", optionsProvider: StationOptions())
    var station: String
    @Parameter(title: "Line") var line: Line
    @Parameter(title: "Speed", default: .walk) var speed: Speed
    @Parameter(title: "Show countdown", default: true) var countdown: Bool

    static var parameterSummary: some ParameterSummary {
        When(\.$countdown, .equalTo, true) {
            Summary("Departures from \(\.$station) on \(\.$line)") {
                \.$speed
            }
        } otherwise: {
            Summary("Departures from \(\.$station)")
        }
    }
}

struct DepartureEntry: TimelineEntry {
    let date: Date
    let configuration: DepartureIntent
}

struct DepartureProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> DepartureEntry {
        DepartureEntry(date: .now, configuration: DepartureIntent())
    }
    func snapshot(for configuration: DepartureIntent, in context: Context) async -> DepartureEntry {
        DepartureEntry(date: Date(timeIntervalSince1970: 1_800_000_000), configuration: configuration)
    }
    func timeline(for configuration: DepartureIntent, in context: Context) async -> Timeline<DepartureEntry> {
        Timeline(
            entries: [await snapshot(for: configuration, in: context)], policy: .after(.now.addingTimeInterval(900)))
    }
    func recommendations() -> [AppIntentRecommendation<DepartureIntent>] {
        [AppIntentRecommendation(intent: DepartureIntent(), description: "Harbour")]
    }
}

struct DepartureView: View {
    let entry: DepartureEntry
    @AppStorage("units", store: UserDefaults(suiteName: "group.example.departures")) var units = "min"
    var body: some View {
        GeometryReader { proxy in
            VStack(alignment: .leading) {
                Text(entry.configuration.station).font(.headline)
                Text("\(entry.configuration.line.name) · \(units)")
                if entry.configuration.countdown {
                    ProgressView(
                        timerInterval: entry.date...entry.date.addingTimeInterval(300), countsDown: true
                    ) {
                        Text("Leaves")
                    } currentValueLabel: {
                        Text(entry.date, style: .timer)
                    }
                }
                Text("\(Int(proxy.frame(in: .local).width)) wide")
            }
            .background()
        }
    }
}

struct TimesGrid: View {
    var body: some View {
        Grid(alignment: .leading) {
            GridRow {
                Text("a")
                Text("b")
            }
            GridRow {
                Text("c")
                Text("d")
            }
        }
    }
}

struct DepartureWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "Departures", intent: DepartureIntent.self, provider: DepartureProvider()) {
            DepartureView(entry: $0)
                .containerBackground(.background, for: .widget)
        }
        .supportedFamilies([.systemMedium])
    }
}

// MARK: - A widget whose entity parameter has no value at all

struct EmptyQuery: EntityQuery {
    func entities(for identifiers: [Pier.ID]) async throws -> [Pier] { [] }
}

struct Pier: AppEntity {
    let id: String
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Pier"
    static var defaultQuery = EmptyQuery()
    var displayRepresentation: DisplayRepresentation { "\(id)" }
}

struct PierIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Pier"
    @Parameter(title: "Pier") var pier: Pier
}

struct PierProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> DepartureEntry {
        DepartureEntry(date: .now, configuration: DepartureIntent())
    }
    func snapshot(for configuration: PierIntent, in context: Context) async -> DepartureEntry {
        _ = configuration.pier
        return placeholder(in: context)
    }
    func timeline(for configuration: PierIntent, in context: Context) async -> Timeline<DepartureEntry> {
        Timeline(entries: [await snapshot(for: configuration, in: context)], policy: .never)
    }
}

struct PierWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "Pier", intent: PierIntent.self, provider: PierProvider()) {
            DepartureView(entry: $0)
        }
    }
}

struct CensusBundle: WidgetBundle {
    var body: some Widget {
        ChoresWidget()
        LevelWidget()
        RingOnlyWidget()
        DepartureWidget()
        PierWidget()
        ParcelLiveActivity()
        KettleControl()
    }
}
