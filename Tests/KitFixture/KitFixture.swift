// A widget package's code for the tests, written as WidgetKit teaches and seeing SwiftdashKit only
// (as a user's package does). Built with the tests as the `swiftdashkit-fixture` executable:
// - KitLamp: a room picked from an entity query (the Edit form's choices), a toggle whose intent
//   changes a file in the extension's state folder and counts in `UserDefaults(suiteName:)`, a
//   button that asks the home screen to reload KitEcho through WidgetCenter; it says how often its
//   process was started and drew a timeline; the room `basement` crashes it (a fatal error), the
//   `shed` traps in its provider (`try!`) and the `garage` in its view (an index out of range);
// - KitEcho: counts its timelines, and its button reloads every widget through WidgetCenter;
// - KitForecast: a static widget with a two-entry timeline, for preview snapshots;
// - KitBroken: a parameter whose default traps (a force unwrap), so every request for it does;
// - KitTall: a view taller and wider than its tile, padded four times over: clipped, never blank;
// - KitParcelActivity: a Live Activity whose compact trailing view names the stops left, and traps
//   (an index out of range) past three.
import SwiftdashKit

/// Files in the extension's state folder: they outlive the process.
enum Stored {
    static func read(_ name: String) -> String? {
        try? String(contentsOf: WidgetState.directory.appendingPathComponent(name), encoding: .utf8)
    }
    static func write(_ name: String, _ value: String) {
        try? value.write(to: WidgetState.directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    /// Which start of the extension this process is (1 the first time), counted once per process.
    static let run: Int = {
        let n = (Int(read("runs") ?? "") ?? 0) + 1
        write("runs", String(n))
        return n
    }()
}

/// How many timelines each widget drew in this process.
enum Drawn {
    nonisolated(unsafe) static var counts: [String: Int] = [:]
    static let lock = NSLock()
    static func next(_ kind: String) -> Int {
        lock.withLock {
            counts[kind, default: 0] += 1
            return counts[kind, default: 0]
        }
    }
}

// MARK: - KitLamp

struct RoomEntity: AppEntity {
    let id: String
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Room"
    static let defaultQuery = RoomQuery()
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(id.capitalized) room") }
}

struct NoSuchRoom: Error, CustomStringConvertible {
    let id: String
    var description: String { "there is no room `\(id)` in this house" }
}

struct RoomQuery: EntityQuery {
    static let rooms = ["kitchen", "study", "attic"]
    func entities(for identifiers: [String]) async throws -> [RoomEntity] {
        try identifiers.map { id in
            if id == "basement" { fatalError("no lamp in the basement") }
            if id == "shed" || id == "garage" { return RoomEntity(id: id) }
            guard Self.rooms.contains(id) else { throw NoSuchRoom(id: id) }
            return RoomEntity(id: id)
        }
    }
    func suggestedEntities() async throws -> [RoomEntity] { Self.rooms.map { RoomEntity(id: $0) } }
}

struct LampConfiguration: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Lamp"
    @Parameter(title: "Room") var room: RoomEntity?
}

struct FlipLight: AppIntent {
    static let title: LocalizedStringResource = "Flip the light"
    func perform() async throws -> some IntentResult {
        Stored.write("light", Stored.read("light") == "on" ? "off" : "on")
        let group = UserDefaults(suiteName: "group.x")
        group?.set((group?.integer(forKey: "flips") ?? 0) + 1, forKey: "flips")
        return .result()
    }
}

struct ReloadEcho: AppIntent {
    static let title: LocalizedStringResource = "Reload the echo"
    func perform() async throws -> some IntentResult {
        WidgetCenter.shared.reloadTimelines(ofKind: "KitEcho")
        return .result()
    }
}

struct LampEntry: TimelineEntry {
    let date: Date
    let room: String
    let on: Bool
    let run: Int
    let drawn: Int
    var flips = 0
}

struct LampProvider: AppIntentTimelineProvider {
    func entry(_ configuration: LampConfiguration, drawn: Int) -> LampEntry {
        if configuration.room?.id == "shed" {
            _ = try! String(contentsOfFile: "/no/such/shed/lamp", encoding: .utf8)
        }
        return LampEntry(
            date: Date(timeIntervalSince1970: 0),
            room: configuration.room?.displayRepresentation.title ?? "No room", on: Stored.read("light") == "on",
            run: Stored.run, drawn: drawn, flips: UserDefaults(suiteName: "group.x")?.integer(forKey: "flips") ?? 0)
    }
    func placeholder(in context: Context) -> LampEntry {
        LampEntry(date: Date(timeIntervalSince1970: 0), room: "Kitchen room", on: false, run: 0, drawn: 0)
    }
    func snapshot(for configuration: LampConfiguration, in context: Context) async -> LampEntry {
        entry(configuration, drawn: 0)
    }
    func timeline(for configuration: LampConfiguration, in context: Context) async -> Timeline<LampEntry> {
        Timeline(entries: [entry(configuration, drawn: Drawn.next("lamp"))], policy: .never)
    }
}

struct LampView: View {
    var entry: LampEntry
    @Environment(\.widgetFamily) var family
    var body: some View {
        let switches = ["main"]
        VStack(alignment: .leading) {
            Label(entry.room, systemImage: entry.on ? "lightbulb.fill" : "lightbulb")
            if entry.room == "Garage room" { Text(switches[entry.room.count]) }
            Toggle("Light, flipped \(entry.flips)", isOn: entry.on, intent: FlipLight())
            if family != .systemSmall {
                Text("run \(entry.run) · lamp drawn \(entry.drawn)")
                Button("Echo", intent: ReloadEcho())
            }
        }
    }
}

struct KitLamp: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "KitLamp", intent: LampConfiguration.self, provider: LampProvider()) { entry in
            LampView(entry: entry)
        }
        .configurationDisplayName("Lamp")
        .description("A lamp in a room")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

// MARK: - KitEcho

struct ReloadAll: AppIntent {
    static let title: LocalizedStringResource = "Reload all"
    func perform() async throws -> some IntentResult {
        WidgetCenter.shared.reloadAllTimelines()
        return .result()
    }
}

struct EchoEntry: TimelineEntry {
    let date: Date
    let drawn: Int
}

struct EchoProvider: TimelineProvider {
    func placeholder(in context: Context) -> EchoEntry { EchoEntry(date: Date(timeIntervalSince1970: 0), drawn: 0) }
    func getSnapshot(in context: Context, completion: @escaping (EchoEntry) -> Void) {
        completion(placeholder(in: context))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<EchoEntry>) -> Void) {
        let entry = EchoEntry(date: Date(timeIntervalSince1970: 0), drawn: Drawn.next("echo"))
        completion(Timeline(entries: [entry], policy: .never))
    }
}

struct KitEcho: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "KitEcho", provider: EchoProvider()) { entry in
            VStack(alignment: .leading) {
                Text("echo drawn \(entry.drawn)")
                Button("All", intent: ReloadAll())
            }
        }
        .configurationDisplayName("Echo")
        .supportedFamilies([.systemMedium])
    }
}

// MARK: - KitForecast

struct ForecastEntry: TimelineEntry {
    let date: Date
    let rain: Double
}

struct ForecastProvider: TimelineProvider {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    func placeholder(in context: Context) -> ForecastEntry { ForecastEntry(date: Self.start, rain: 0.5) }
    func getSnapshot(in context: Context, completion: @escaping (ForecastEntry) -> Void) {
        completion(ForecastEntry(date: Self.start, rain: 0.2))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<ForecastEntry>) -> Void) {
        let entries = [ForecastEntry(date: Self.start, rain: 0.8), ForecastEntry(date: Self.start + 3600, rain: 0.3)]
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

struct ForecastView: View {
    var entry: ForecastEntry
    @Environment(\.widgetFamily) var family
    var body: some View {
        VStack(alignment: .leading, spacing: 0) {
            HStack {
                Image(systemName: entry.rain > 0.5 ? "cloud.rain.fill" : "sun.max.fill")
                Text("Rain \(Int(entry.rain * 100))%").bold()
            }
            ProgressView(value: entry.rain)
            if family == .systemMedium {
                Text(entry.date, style: .time).foregroundStyle(.secondary)
            }
        }
    }
}

struct KitForecast: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "KitForecast", provider: ForecastProvider()) { entry in
            ForecastView(entry: entry)
        }
        .configurationDisplayName("Forecast")
        .description("Rain in the next hour")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

// MARK: - KitBroken

struct BrokenConfiguration: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Broken"
    @Parameter(title: "Level", default: Int("high")!) var level: Int
}

struct BrokenProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> EchoEntry { EchoEntry(date: Date(timeIntervalSince1970: 0), drawn: 0) }
    func snapshot(for configuration: BrokenConfiguration, in context: Context) async -> EchoEntry {
        placeholder(in: context)
    }
    func timeline(for configuration: BrokenConfiguration, in context: Context) async -> Timeline<EchoEntry> {
        Timeline(entries: [placeholder(in: context)], policy: .never)
    }
}

struct KitBroken: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "KitBroken", intent: BrokenConfiguration.self, provider: BrokenProvider()) { e in
            Text("level drawn \(e.drawn)")
        }
        .configurationDisplayName("Broken")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

// MARK: - KitTall

struct TallView: View {
    var body: some View {
        VStack(alignment: .leading) {
            VStack(alignment: .leading) {
                VStack(alignment: .leading) {
                    Text("Departures").font(.headline)
                    HStack { ForEach(1..<9) { Text("Platform \($0)") } }
                    ForEach(1..<25) { n in Text("\(n * 7 % 60) min · train \(n)") }
                }
                .padding()
            }
            .padding()
        }
        .padding()
        .padding(.vertical)
    }
}

struct KitTall: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "KitTall", provider: ForecastProvider()) { _ in TallView() }
            .configurationDisplayName("Tall")
            .supportedFamilies([.systemSmall, .systemMedium])
    }
}

@main
struct KitFixtureBundle: WidgetBundle {
    var body: some Widget {
        KitLamp()
        KitEcho()
        KitForecast()
        KitBroken()
        KitTall()
        KitParcelActivity()
    }
}

struct KitParcelAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var stopsLeft: Int
    }
    var parcel: String
}

/// The stops left in words: past three, an index out of range (a trap in a view).
func stopsInWords(_ n: Int) -> String { ["none", "one stop", "two stops", "three stops"][n] }

struct KitParcelActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: KitParcelAttributes.self) { context in
            Text("Parcel \(context.attributes.parcel): \(stopsInWords(context.state.stopsLeft)) left")
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.leading) { Text("Kit parcel") }
                DynamicIslandExpandedRegion(.bottom) { Text("Ring twice") }
            } compactLeading: {
                Text("Kit \(context.attributes.parcel)")
            } compactTrailing: {
                Text(stopsInWords(context.state.stopsLeft))
            } minimal: {
                Text("\(context.state.stopsLeft)")
            }
        }
    }
}
