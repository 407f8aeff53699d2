import Foundation
import DashWidgets

enum WaterViews {
    static let link = DeepLink.make(kind: "water")

    static var drank: TileView { Button("Drank", action: WaterAction.drank) }

    /// `▮▮▮▯▯▯▯▯`: glasses against the goal, at most `width` marks.
    static func glasses(_ e: WaterEntry, width: Int) -> String {
        let n = min(e.goal, width), full = min(n, e.glasses * n / max(1, e.goal))
        return String(repeating: "▮", count: full) + String(repeating: "▯", count: n - full)
    }

    static func every(_ e: WaterEntry) -> String {
        e.interval % 60 == 0 ? "every \(e.interval / 60) h" : "every \(e.interval) min"
    }

    /// What to do now, in a few words, and its colour.
    static func status(_ e: WaterEntry, _ zone: TimeZone) -> (String, SemanticColor) {
        switch e.mode {
        case .due: return ("Drink a glass", .warning)
        case .waiting: return ("Next at \(e.nextDue.map { LocalDay.time($0, zone) } ?? "—")", .secondary)
        case .night: return ("Quiet till \(e.quietUntil.map { LocalDay.time($0, zone) } ?? e.wake)", .secondary)
        }
    }

    /// "in 1 h", "since 10:00": live where it counts.
    static func when(_ e: WaterEntry, _ zone: TimeZone) -> TileView {
        switch e.mode {
        case .due: return Text("due since \(e.dueSince.map { LocalDay.time($0, zone) } ?? "now")").font(.caption)
        case .waiting: return e.nextDue.map { Text($0, style: .relative).font(.caption) } ?? Text("")
        case .night: return Text("\(e.wake)–\(e.sleep) \(every(e))").font(.caption)
        }
    }

    /// The medium and large top rows: glasses of the goal, then the status and when.
    static func summary(_ e: WaterEntry, _ zone: TimeZone, font: Font) -> TileView {
        let (status, color) = status(e, zone)
        return VStack {
            HStack(spacing: 1) {
                Text("\(e.glasses) of \(e.goal) glasses").font(font)
                Spacer()
                Text(glasses(e, width: 12)).foregroundStyle(.accent)
            }.invalidatable()
            HStack(spacing: 1) {
                Text(status).foregroundStyle(color)
                when(e, zone)
            }
        }
    }

    static func view(_ e: WaterEntry, _ context: TimelineContext) -> TileView {
        let zone = context.timeZone
        let (status, color) = status(e, zone)
        switch context.family {
        case .small:
            return VStack {
                HStack(spacing: 1) {
                    Text("\(e.glasses)").font(.largeTitle).foregroundStyle(.accent)
                    Text("of \(e.goal)").font(.caption)
                }.invalidatable()
                // "Quiet till 08:00" is a column wider than the small tile: said shorter, whole.
                ViewThatFits {
                    Text(status).foregroundStyle(color).lineLimit(1)
                    Text(status.replacingOccurrences(of: "Quiet till ", with: "Quiet → ")).foregroundStyle(color)
                        .lineLimit(1)
                }
                when(e, zone)
                Spacer()
                drank
            }.widgetURL(link)
        case .medium:
            return VStack {
                summary(e, zone, font: .headline)
                Text(upcoming(e, zone, count: 4)).font(.caption).lineLimit(1).invalidatable()
                Spacer()
                drank
            }.widgetURL(link)
        case .large, .extraLarge:
            return VStack {
                summary(e, zone, font: .title)
                Text(e.lastDrink.map { "last glass \(LocalDay.time($0, zone))" } ?? "no glass yet today").font(.caption)
                    .invalidatable()
                Divider()
                Text("Today's reminders").font(.caption).bold()
                schedule(e, zone).invalidatable()
                Spacer()
                HStack {
                    drank
                    Spacer()
                    Text("\(e.wake)–\(e.sleep) \(every(e))").font(.caption)
                }
            }.widgetURL(link)
        }
    }

    /// The next few reminder times: "then 12:00 14:00 16:00".
    static func upcoming(_ e: WaterEntry, _ zone: TimeZone, count: Int) -> String {
        let after = e.nextDue ?? e.date
        let later = e.reminders.filter { $0 > after }.prefix(count).map { LocalDay.time($0, zone) }
        if later.isEmpty { return e.mode == .night ? "\(e.wake)–\(e.sleep) \(every(e))" : "no more today" }
        return "then " + later.joined(separator: " ")
    }

    /// The day's reminder times in rows, past ones ticked.
    static func schedule(_ e: WaterEntry, _ zone: TimeZone) -> TileView {
        let cells = e.reminders.map { (e.date >= $0 ? "✓ " : "· ") + LocalDay.time($0, zone) }
        let rows = stride(from: 0, to: cells.count, by: 4).map { Array(cells[$0..<min(cells.count, $0 + 4)]) }
        return VStack {
            if cells.isEmpty { Text("none").font(.caption) }
            for row in rows { Text(row.joined(separator: "  ")) }
        }
    }

    static func detail(_ entry: WaterEntry?, _ context: TimelineContext) -> TileView {
        guard let e = entry else { return Text("No reminders yet") }
        let zone = context.timeZone
        return VStack(spacing: 1) {
            Text("\(e.glasses) of \(e.goal) glasses today").font(.title)
            Text(glasses(e, width: 30)).foregroundStyle(.accent)
            schedule(e, zone)
            Text(
                "A reminder \(every(e)) from \(e.wake) to \(e.sleep); none at night, and no reloads either: "
                    + "the day's reminders are one timeline, loaded once at \(e.wake)."
            ).font(.caption)
            Text("Drank (in the tile) counts a glass and starts the interval again; u undoes it.").font(.caption)
        }
    }
}
