import Foundation
import DashWidgets

// Widgets and helpers the app, runtime and harness tests share (each test target used to reach
// them in DashAppTests): a headline-like widget with links, a widget with one parameter, the
// moment the tests start at, and a log any thread may append to.

/// The moment app and runtime tests start at.
public let start = Date(timeIntervalSince1970: 1_795_426_230)  // 2026-11-23T09:30:30Z

/// A headline-like test widget: each entry has two stories, each a link.
public struct StoryEntry: TimelineEntry {
    public var date: Date
    public var stories: [String]
    public var since: Date?

    public init(date: Date, stories: [String], since: Date? = nil) {
        self.date = date
        self.stories = stories
        self.since = since
    }
}

public struct StoryProvider: TimelineProvider {
    public init() {}
    public func placeholder(in context: TimelineContext) -> StoryEntry {
        StoryEntry(date: context.now, stories: ["Sample one", "Sample two"])
    }
    public func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> StoryEntry {
        placeholder(in: context)
    }
    public func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<
        StoryEntry
    > {
        Timeline(entries: [placeholder(in: context)], policy: .never)
    }
}

public let storyWidget = Widget(
    kind: "stories", displayName: "Stories", description: "test", supportedFamilies: [.small, .medium],
    provider: StoryProvider(),
    view: { e, _ in
        VStack {
            for (i, s) in e.stories.enumerated() { Text(s).link("swiftdash://stories/\(i)") }
            if let since = e.since { Text(since, style: .timer) }
        }.widgetURL("swiftdash://stories")
    },
    detail: { link, _, _ in
        VStack {
            Text("Detail of \(link.path.joined(separator: "/"))")
            Text("Read on the web").link("https://example.org/\(link.path.joined(separator: "/"))")
            Text("Next story").link("swiftdash://stories/9")
        }
    })

/// A widget with one parameter, for changes made in home.yaml.
public struct NoteEntry: TimelineEntry {
    public var date: Date
    public var text: String
    public var summary: String { text }

    public init(date: Date, text: String) {
        self.date = date
        self.text = text
    }
}

public struct NoteProvider: TimelineProvider {
    public init() {}
    public func placeholder(in context: TimelineContext) -> NoteEntry { NoteEntry(date: context.now, text: "…") }
    public func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> NoteEntry {
        NoteEntry(date: context.now, text: configuration.string("text"))
    }
    public func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<
        NoteEntry
    > {
        Timeline(entries: [NoteEntry(date: context.now, text: configuration.string("text"))], policy: .never)
    }
}

public let noteWidget = Widget(
    kind: "note", displayName: "Note", description: "test",
    schema: ConfigurationSchema([Parameter(key: "text", title: "Text", help: "", kind: .string(), default: .string(""))]
    ),
    provider: NoteProvider(), view: { e, _ in Text(e.text) })

/// Logs lines from any thread.
public final class LineLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    public init() {}
    public func add(_ s: String) { lock.withLock { items.append(s) } }
    public var lines: [String] { lock.withLock { items } }
}

/// A checklist widget for tests: a toggle per task, a button, a count marked invalidatable and
/// a link, so Tab has links and controls to walk. Its actions are answered by the test.
public struct ChecklistEntry: TimelineEntry, Hashable {
    public var date: Date
    public var tasks: [String]
    public var done: Set<String>

    public init(date: Date, tasks: [String], done: Set<String>) {
        self.date = date
        self.tasks = tasks
        self.done = done
    }
}

public enum ChecklistAction: Codable, Sendable, Hashable {
    case set(String, done: Bool)
    case clear
}

public struct ChecklistProvider: TimelineProvider {
    public init() {}
    public func placeholder(in context: TimelineContext) -> ChecklistEntry {
        ChecklistEntry(date: context.now, tasks: ["Milk", "Bread"], done: [])
    }
    public func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> ChecklistEntry {
        placeholder(in: context)
    }
    public func timeline(
        for configuration: WidgetConfig,
        in context: TimelineContext
    ) async throws -> Timeline<ChecklistEntry> {
        Timeline(entries: [placeholder(in: context)], policy: .never)
    }
}

public let checklistWidget = Widget(
    kind: "checklist", displayName: "Checklist", description: "test", supportedFamilies: [.small, .medium],
    provider: ChecklistProvider(),
    view: { e, ctx in
        VStack {
            Text("\(e.tasks.count - e.done.count) left").invalidatable()
            if ctx.family != .small { Text("All tasks").link("swiftdash://checklist/all") }
            for t in e.tasks {
                Toggle(isOn: e.done.contains(t), t, action: ChecklistAction.set(t, done: !e.done.contains(t)))
            }
            Button("Clear", action: ChecklistAction.clear)
        }
    }
)
.actions(ChecklistAction.self, timeout: 5) { _, _, _ in nil }
