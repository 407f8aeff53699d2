import Foundation
import DashWidgets

enum RemindersViews {
    static let link = DeepLink.make(kind: "reminders")
    static let allLink = DeepLink.make(kind: "reminders", "all")

    /// The checkbox of a task: ticking it marks the task done in the file.
    static func checkbox(_ item: TodoItem) -> TileView {
        Toggle(
            isOn: item.done, item.title,
            action: ReminderAction.setDone(line: item.line, text: item.raw, done: !item.done))
    }

    /// "2 d late", "today", "tomorrow", "Wed", "30 Nov", or nothing without a due date.
    static func dueText(_ e: RemindersEntry, _ item: TodoItem) -> (String, SemanticColor)? {
        guard let d = e.daysUntilDue(item), let due = item.due else { return nil }
        switch d {
        case ..<0: return ("\(-d) d late", .negative)
        case 0: return ("today", .warning)
        case 1: return ("tomorrow", .secondary)
        case 2...6: return (String(LocalDay.label(due).prefix(3)), .secondary)
        default: return (String(LocalDay.label(due).dropFirst(4)), .secondary)
        }
    }

    /// A group heading for a due day.
    static func group(_ e: RemindersEntry, _ item: TodoItem) -> String {
        guard let d = e.daysUntilDue(item), let due = item.due else { return "No date" }
        switch d {
        case ..<0: return "Overdue"
        case 0: return "Today"
        case 1: return "Tomorrow"
        default: return LocalDay.label(due)
        }
    }

    static func counts(_ e: RemindersEntry, long: Bool) -> String {
        var parts = ["\(e.openCount) open"]
        if e.overdueCount > 0 { parts.append("\(e.overdueCount) overdue") }
        if !long, e.brokenCount > 0 { parts.append("⚠ \(e.brokenCount)") }
        if long, e.doneToday > 0 { parts.append("\(e.doneToday) done today") }
        return parts.joined(separator: " · ")
    }

    /// A line that is not understood, as the tile lists it: marked, sanitised, never a checkbox.
    static func brokenRow(_ item: TodoItem) -> TileView {
        Text("⚠ line \(item.line + 1): " + item.title).foregroundStyle(.warning).lineLimit(1)
    }

    /// "All done" only when the file holds nothing open and nothing not understood.
    static func allDone(_ e: RemindersEntry) -> Bool { e.upcoming.isEmpty && e.broken.isEmpty }

    static func row(_ e: RemindersEntry, _ item: TodoItem, priority: Bool) -> TileView {
        HStack(spacing: 1) {
            checkbox(item)
            if priority, let p = item.priority { Text("(\(p))").font(.caption) }
            Spacer(minLength: 0)
            if let due = dueText(e, item) { Text(due.0).foregroundStyle(due.1) }
        }
    }

    /// No file yet (a first run): how to start a list, calmly, not an error.
    static func start(_ e: RemindersEntry) -> TileView {
        let name = e.file.split(separator: "/").last.map(String.init) ?? e.file
        return VStack {
            Text("No \(name) yet").font(.headline)
            Text("press e to choose a file, or create \(e.file)").font(.caption)
        }.widgetURL(link)
    }

    static func view(_ e: RemindersEntry, _ context: TimelineContext) -> TileView {
        if e.missingFile == true { return start(e) }
        let upcoming = e.upcoming
        switch context.family {
        case .small:
            if upcoming.isEmpty, let first = e.broken.first {
                return VStack {
                    Text("⚠ \(e.brokenCount) not understood").font(.caption).foregroundStyle(.warning)
                    Text("line \(first.line + 1): " + first.title).lineLimit(2)
                    Spacer()
                    Text(counts(e, long: false)).font(.caption).lineLimit(1).invalidatable()
                }.widgetURL(link)
            }
            guard let next = upcoming.first else {
                return VStack {
                    Text("All done").font(.headline).foregroundStyle(.positive)
                    Text("\(e.doneToday) done today").font(.caption).invalidatable()
                    Spacer()
                    if !e.broken.isEmpty { Text("⚠ \(e.broken.count) not understood").font(.caption) }
                }.widgetURL(link)
            }
            return VStack {
                Text(e.overdueCount > 0 ? "Next · \(e.overdueCount) late" : "Next").font(.caption)
                checkbox(next)
                if let due = dueText(e, next) {
                    Text(due.0 == "today" ? "due today" : due.0).foregroundStyle(due.1)
                } else if let p = next.priority {
                    Text("priority \(p)").font(.caption)
                }
                Spacer()
                Text(counts(e, long: false)).font(.caption).lineLimit(1).invalidatable()
            }.widgetURL(link)
        // A medium tile a big screen made tall (9 rows or more) lists by due day, as large does.
        case .medium where context.size.height < 9:
            return VStack {
                HStack {
                    Text("Reminders").font(.headline)
                    Spacer()
                    Text(counts(e, long: false)).font(.caption).lineLimit(1).invalidatable()
                }
                if allDone(e) {
                    Text("All done — nothing open in \(e.file)").foregroundStyle(.positive)
                }
                let rows = max(4, context.size.height - 1)
                for item in upcoming.prefix(rows) { row(e, item, priority: false) }
                for item in e.broken.prefix(max(0, rows - upcoming.count)) { brokenRow(item) }
            }.widgetURL(link)
        case .medium, .large, .extraLarge:
            return VStack {
                HStack {
                    Text("Reminders").font(.headline)
                    Spacer()
                    Text(counts(e, long: true)).font(.caption).lineLimit(1).invalidatable()
                }
                if allDone(e) {
                    Text("All done — nothing open in \(e.file)").foregroundStyle(.positive)
                }
                grouped(e, upcoming, rows: max(2, context.size.height - 2))
                if upcoming.isEmpty {
                    for item in e.broken.prefix(max(0, context.size.height - 4)) { brokenRow(item) }
                }
                Spacer()
                HStack {
                    if e.brokenCount > 0 {
                        Text("⚠ \(e.brokenCount) line\(e.brokenCount == 1 ? "" : "s") not understood")
                            .foregroundStyle(.warning)
                    }
                    Spacer()
                    Text("All \(e.openCount + e.brokenCount) ›").foregroundStyle(.accent).link(allLink)
                }
            }.widgetURL(link)
        }
    }

    /// Tasks under their due day's heading, as many as fit in `rows` lines.
    static func grouped(_ e: RemindersEntry, _ items: [TodoItem], rows: Int) -> TileView {
        var out: [TileView] = []
        var used = 0
        var current: String? = nil
        for item in items {
            let g = group(e, item)
            let need = g == current ? 1 : 2
            guard used + need <= rows else { break }
            if g != current {
                out.append(Text(g).font(.caption).bold().foregroundStyle(g == "Overdue" ? .negative : .secondary))
                current = g
            }
            out.append(row(e, item, priority: true))
            used += need
        }
        return .stack(.vertical, alignment: .leading, spacing: 0, out)
    }

    /// The detail pane: every task of the file by due day, what was done, and the lines that
    /// are not understood, as they are.
    static func detail(_ link: DeepLink, _ entry: RemindersEntry?, _ context: TimelineContext) -> TileView {
        guard let e = entry else { return Text("No tasks yet") }
        if e.missingFile == true { return start(e) }
        var groups: [(String, [TodoItem])] = []
        for item in e.upcoming {
            let g = group(e, item)
            if groups.last?.0 == g { groups[groups.count - 1].1.append(item) } else { groups.append((g, [item])) }
        }
        return VStack {
            Text("\(e.file) — \(counts(e, long: true)), \(e.doneTotal) done").font(.headline)
            if e.openCount > e.open.count || e.brokenCount > e.broken.count {
                Text("the first \(e.items.count) lines of \(e.openCount + e.brokenCount) are listed").font(.caption)
            }
            Text(" ")
            for (g, items) in groups {
                Text(g).bold().foregroundStyle(g == "Overdue" ? .negative : .accent)
                for item in items {
                    HStack(spacing: 1) {
                        Text(item.priority.map { "(\($0))" } ?? "   ").font(.caption)
                        Text(item.title).lineLimit(1)
                        Text((item.projects.map { "+" + $0 } + item.contexts.map { "@" + $0 }).joined(separator: " "))
                            .font(.caption).lineLimit(1)
                        Spacer(minLength: 1)
                        Text(item.due.map { LocalDay.label($0) } ?? "").font(.caption)
                    }
                }
            }
            if !e.broken.isEmpty {
                Text("Not understood (left as they are)").bold().foregroundStyle(.warning)
                for item in e.broken {
                    Text("line \(item.line + 1): \(item.problem ?? "") — \(item.raw)").lineLimit(1)
                }
            }
        }
    }
}
