import Foundation
import DashWidgets

/// What the reminders tile shows for one day: the tasks of the todo.txt file.
public struct RemindersEntry: TimelineEntry, Hashable {
    public var date: Date
    /// The day the entry is for (`2026-11-23`, in the user's zone): what "today" and "overdue" mean.
    public var day: String
    /// The file as the user wrote it (`~/todo.txt`).
    public var file: String
    /// Open tasks and broken lines (done tasks are only counted).
    public var items: [TodoItem]
    public var doneToday: Int
    public var doneTotal: Int
    /// Open tasks and broken lines in the whole file (`items` keeps at most 1,000 of them);
    /// nil in an entry cached before these were counted.
    public var openTotal: Int? = nil
    public var brokenTotal: Int? = nil
    /// True when there is no file yet (a first run): the tile says how to start a list.
    public var missingFile: Bool? = nil

    public var open: [TodoItem] { items.filter { !$0.done && !$0.isBroken } }
    public var broken: [TodoItem] { items.filter(\.isBroken) }
    /// How many tasks are open in the file, all of them counted.
    public var openCount: Int { max(openTotal ?? 0, open.count) }
    /// How many lines of the file are not understood, all of them counted.
    public var brokenCount: Int { max(brokenTotal ?? 0, broken.count) }

    /// Open tasks, the next due first: by due date (overdue first), then those without one by
    /// priority; ties in file order.
    public var upcoming: [TodoItem] {
        open.sorted { a, b in
            switch (a.due, b.due) {
            case (let x?, let y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default:
                let pa = a.priority ?? "~", pb = b.priority ?? "~"
                return pa != pb ? pa < pb : a.line < b.line
            }
        }
    }

    /// Days from the entry's day to `item`'s due date (negative: overdue).
    public func daysUntilDue(_ item: TodoItem) -> Int? {
        guard let due = item.due, let d = LocalDay.number(due), let t = LocalDay.number(day) else { return nil }
        return d - t
    }

    public var overdueCount: Int { open.filter { (daysUntilDue($0) ?? 0) < 0 }.count }
    public var dueTodayCount: Int { open.filter { daysUntilDue($0) == 0 }.count }

    /// Overdue tasks make the tile most relevant; tasks due today, a little less.
    public var relevance: Relevance? {
        if overdueCount > 0 { return Relevance(score: 1.0) }
        if dueTodayCount > 0 { return Relevance(score: 0.7) }
        return nil
    }

    public var summary: String {
        if missingFile == true { return "no \(file) yet" }
        var s = "\(openCount) open"
        if overdueCount > 0 { s += ", \(overdueCount) overdue" }
        if dueTodayCount > 0 { s += ", \(dueTodayCount) due today" }
        if let next = upcoming.first { s += "; next: \(next.title)" }
        if brokenCount > 0 { s += "; \(brokenCount) line\(brokenCount == 1 ? "" : "s") not understood" }
        return s
    }
}

/// What a checkbox of the reminders tile does to the file.
public enum ReminderAction: Codable, Sendable, Hashable {
    /// Marks the task on `line` (whose text was `text`) done or open again.
    case setDone(line: Int, text: String, done: Bool)
    /// Puts `with` back where `expected` is (the undo of a `setDone`).
    case replace(line: Int, expected: String, with: String)
}

public struct RemindersProvider: TimelineProvider {
    public init() {}

    /// The most of a file read (larger files are refused with a message).
    static let maxBytes = 1024 * 1024
    /// Tasks kept in an entry (the cache holds entries).
    static let maxItems = 1000

    /// The configured file with `~` expanded against `$HOME` (a relative path is under `$HOME`).
    static func path(_ config: WidgetConfig, _ context: TimelineContext) -> String {
        var p = config.string("file")
        if p.isEmpty { p = "~/todo.txt" }
        let home = context.environment["HOME"] ?? NSHomeDirectory()
        if p == "~" { return home }
        if p.hasPrefix("~/") { return home + "/" + p.dropFirst(2) }
        if !p.hasPrefix("/") { return home + "/" + p }
        return p
    }

    static func shownPath(_ config: WidgetConfig) -> String {
        let p = config.string("file")
        return TextSanitizer.singleLine(p.isEmpty ? "~/todo.txt" : p)
    }

    public func placeholder(in context: TimelineContext) -> RemindersEntry {
        Self.sample(context)
    }

    public func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> RemindersEntry {
        if context.isPreview { return Self.sample(context) }
        return (try? entries(configuration, context, days: 1).first) ?? Self.sample(context)
    }

    public func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws
        -> Timeline<RemindersEntry>
    {
        // One entry for today and one at each of the next two midnights (what is overdue
        // changes then); the file is watched, so an edit reloads at once. A missing file waits
        // for the watch to see it appear, not for the clock (issue 35.1: every new user's default
        // home reloaded it every second, held back only by the budget).
        let entries = try entries(configuration, context, days: 3)
        return Timeline(entries: entries, policy: entries.first?.missingFile == true ? .never : .atEnd)
    }

    func entries(_ config: WidgetConfig, _ context: TimelineContext, days: Int) throws -> [RemindersEntry] {
        let data: Data
        do {
            data = try AtomicFile.read(Self.path(config, context), limit: Self.maxBytes)
        } catch let f as AtomicFile.Failure where f.missing {
            // Not an error: nobody has written a list yet. The file is watched, so creating it
            // (or choosing another with e) loads it at once.
            return [
                RemindersEntry(
                    date: context.now, day: LocalDay.key(context.now, context.timeZone), file: Self.shownPath(config),
                    items: [], doneToday: 0, doneTotal: 0, missingFile: true)
            ]
        }
        let all = TodoTxt.items(TodoFile(data))
        var dates = [context.now]
        for _ in 1..<max(1, days) { dates.append(LocalDay.nextMidnight(after: dates.last!, context.timeZone)) }
        let kept = Array(all.filter { !$0.done || $0.isBroken }.prefix(Self.maxItems))
        let doneAll = all.filter { $0.done && !$0.isBroken }
        let brokenAll = all.filter(\.isBroken).count
        return dates.map { d in
            let day = LocalDay.key(d, context.timeZone)
            return RemindersEntry(
                date: d, day: day, file: Self.shownPath(config), items: kept,
                doneToday: doneAll.filter { $0.completed == day }.count, doneTotal: doneAll.count,
                openTotal: all.count - doneAll.count - brokenAll, brokenTotal: brokenAll)
        }
    }

    /// Sample tasks around `context.now` for previews and the placeholder.
    static func sample(_ context: TimelineContext) -> RemindersEntry {
        let day = LocalDay.key(context.now, context.timeZone)
        func key(_ offset: Int) -> String {
            LocalDay.key(context.now.addingTimeInterval(Double(offset) * 86_400), context.timeZone)
        }
        let lines = [
            "(A) Call the plumber +house due:\(key(-1))",
            "Buy oat milk @shop due:\(key(0))",
            "(B) Send the invoice +work due:\(key(0))",
            "Book dentist @phone due:\(key(2))",
            "Water the plants +house",
            "(C) Read chapter 16 +book",
        ]
        let items = lines.enumerated().map { TodoTxt.parse($0.element, index: $0.offset) }
        return RemindersEntry(date: context.now, day: day, file: "~/todo.txt", items: items, doneToday: 1, doneTotal: 4)
    }

    /// Runs a checkbox: the one line changes, every other byte of the file stays, and the
    /// file is replaced atomically, and only if it is still what was read (compare-and-swap):
    /// when an editor wrote it meanwhile, the file is read again and the one-line change made
    /// again on what it holds now, or refused with the reason. Returns the action that puts the
    /// line back.
    static func perform(
        _ action: ReminderAction, _ config: WidgetConfig,
        _ context: TimelineContext
    ) throws -> ReminderAction? {
        for _ in 0..<5 {
            do { return try performOnce(action, config, context) } catch is AtomicFile.Changed { continue }
        }
        throw ActionError("\(shownPath(config)) kept changing while the tick was written; nothing written")
    }

    static func performOnce(
        _ action: ReminderAction, _ config: WidgetConfig,
        _ context: TimelineContext
    ) throws -> ReminderAction? {
        let path = Self.path(config, context)
        let (data, identity) = try AtomicFile.readForUpdate(path, limit: maxBytes)
        var file = TodoFile(data)
        let (hint, expected): (Int, String)
        switch action {
        case .setDone(let line, let text, _): (hint, expected) = (line, text)
        case .replace(let line, let text, _): (hint, expected) = (line, text)
        }
        guard let i = file.find(expected, near: hint) else {
            let shown = TodoTxt.parse(expected, index: hint).title
            throw ActionError("“\(shown)” changed in \(shownPath(config)); nothing written")
        }
        let replacement: String
        switch action {
        case .setDone(_, let text, let done):
            let item = TodoTxt.parse(file.lines[i], index: i)
            if item.isBroken { throw ActionError("line \(i + 1) is not understood; it is left as it is") }
            let day = LocalDay.key(context.now, context.timeZone)
            replacement = TodoTxt.keepingBOM(text) { done ? TodoTxt.markDone($0, day: day) : TodoTxt.reopen($0) }
        case .replace(_, _, let with):
            replacement = with
        }
        guard replacement != expected else { return nil }
        file.lines[i].bytes = Array(replacement.utf8)
        try AtomicFile.write(file.data, to: path, ifStill: identity)
        return .replace(line: i, expected: replacement, with: expected)
    }
}

public enum RemindersWidget {
    public static let schema = ConfigurationSchema([
        Parameter(
            key: "file", title: "todo.txt file",
            help: "A todo.txt file (todotxt.org); ~ is your home. Empty: $TODO_FILE, else ~/todo.txt.",
            kind: .filePath, default: .string(""), environmentVariable: "TODO_FILE"),
        Parameter(
            key: "label", title: "Label", help: "The tile's title; Reminders when empty.",
            kind: .string(pattern: nil), default: .string("")),
    ])

    public static let widget = Widget(
        kind: "reminders", displayName: "Reminders",
        description: "Tasks from a todo.txt file; tick them off in the tile.",
        supportedFamilies: [.small, .medium, .large],
        schema: schema, cost: .local, timeout: 5,
        provider: RemindersProvider(),
        view: { entry, context in RemindersViews.view(entry, context) },
        detail: { link, entry, context in RemindersViews.detail(link, entry, context) }
    )
    .actions(ReminderAction.self, timeout: 5) { action, config, context in
        try RemindersProvider.perform(action, config, context)
    }
    .watchingFiles { config, context in [RemindersProvider.path(config, context)] }
}
