import Foundation
import SwiftdashKit

// Widgets written as WidgetKit teaches, for SwiftdashKitTests (this file sees SwiftdashKit only,
// as a widget package does).

struct CountEntry: TimelineEntry {
    let date: Date
    let count: Int
    var relevance: TimelineEntryRelevance? { TimelineEntryRelevance(score: Float(count), duration: 60) }
}

enum Store {
    nonisolated(unsafe) static var count = 0
}

struct Bump: AppIntent {
    static let title: LocalizedStringResource = "Bump"
    @Parameter(title: "By", default: 1) var by: Int
    init() {}
    init(by: Int) { self.by = by }
    func perform() async throws -> some IntentResult {
        Store.count += by
        return .result()
    }
}

enum Tone: String, AppEnum {
    case calm, loud
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Tone"
    static let caseDisplayRepresentations: [Tone: DisplayRepresentation] = [.calm: "Calm", .loud: "Loud"]
}

struct CounterIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Counter"
    @Parameter(title: "Name", default: "Ada") var name: String
    @Parameter(title: "Tone", default: .calm) var tone: Tone
    @Parameter(title: "Limit", default: 3, inclusiveRange: (1, 9)) var limit: Int
}

struct CounterProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> CountEntry { CountEntry(date: Date(timeIntervalSince1970: 0), count: 0) }
    func snapshot(for configuration: CounterIntent, in context: Context) async -> CountEntry {
        CountEntry(date: Date(timeIntervalSince1970: 1_800_000_000), count: 7)
    }
    func timeline(for configuration: CounterIntent, in context: Context) async -> Timeline<CountEntry> {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        return Timeline(
            entries: (0..<configuration.limit).map {
                CountEntry(date: start + Double($0) * 60, count: Store.count + $0)
            },
            policy: .after(start + 3600))
    }
}

struct CounterView: View {
    var entry: CountEntry
    var name: String = "Ada"
    @Environment(\.widgetFamily) var family
    var body: some View {
        VStack(alignment: .leading) {
            if family == .systemSmall {
                Text("\(entry.count)").font(.largeTitle)
            } else {
                Label("Count \(entry.count)", systemImage: "star.fill").foregroundStyle(.secondary)
                Text(entry.date, style: .relative)
            }
            if let first = ["x"].first {
                Text(first).bold()
            }
            Button("Bump", intent: Bump(by: 2))
            Link(destination: URL(string: "myapp://item/1")!) { Text("Open") }
        }
        .widgetURL(URL(string: "https://example.com/c"))
    }
}

struct CounterWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "CounterWidget", intent: CounterIntent.self, provider: CounterProvider()) {
            entry in
            CounterView(entry: entry)
        }
        .configurationDisplayName("Counter")
        .description("Counts")
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryInline])
    }
}

struct ClockProvider: TimelineProvider {
    func placeholder(in context: Context) -> CountEntry { CountEntry(date: Date(timeIntervalSince1970: 0), count: 1) }
    func getSnapshot(in context: Context, completion: @escaping (CountEntry) -> Void) {
        nonisolated(unsafe) let done = completion
        DispatchQueue.global().async { done(CountEntry(date: Date(timeIntervalSince1970: 5), count: 2)) }
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<CountEntry>) -> Void) {
        completion(Timeline(entries: [CountEntry(date: Date(timeIntervalSince1970: 5), count: 3)], policy: .never))
    }
}

struct ClockWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "clock", provider: ClockProvider()) { entry in
            Text("n=\(entry.count)")
        }
    }
}

/// A provider that implements neither spelling of getTimeline.
struct LazyProvider: TimelineProvider {
    func placeholder(in context: Context) -> CountEntry { CountEntry(date: Date(timeIntervalSince1970: 0), count: 1) }
    func getSnapshot(in context: Context, completion: @escaping (CountEntry) -> Void) {
        completion(placeholder(in: context))
    }
}

struct LazyWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "lazy", provider: LazyProvider()) { _ in Text("x") }
    }
}

struct TestBundle: WidgetBundle {
    var body: some Widget {
        CounterWidget()
        ClockWidget()
        LazyWidget()
    }
}
