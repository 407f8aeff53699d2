import Foundation
import DashWidgets

enum RecipeViews {
    static let link = DeepLink.make(kind: "recipe")

    static func totalMinutes(_ e: RecipeEntry) -> Int { e.steps.reduce(0) { $0 + $1.minutes } }

    /// "12:30" for a paused step's seconds left.
    static func clock(_ seconds: TimeInterval) -> String {
        let s = Int(clamping: seconds.rounded(.up), to: 0...Int.max)
        let mmss = FixedFormat.zeroPadded((s % 3600) / 60) + ":" + FixedFormat.zeroPadded(s % 60)
        return s >= 3600 ? "\(s / 3600):" + mmss : "\((s % 3600) / 60):" + FixedFormat.zeroPadded(s % 60)
    }

    /// The step's time left: live while running, fixed while paused.
    static func countdown(_ e: RecipeEntry) -> TileView {
        switch e.phase {
        case .running: return e.stepEnds.map { Text($0, style: .timer) } ?? Text("")
        case .paused: return Text(clock(e.remaining ?? 0))
        case .idle: return Text("\(totalMinutes(e)) min")
        case .done: return Text("Done")
        }
    }

    /// The buttons for the phase; `compact`: the one that matters most.
    static func buttons(_ e: RecipeEntry, compact: Bool) -> [TileView] {
        switch e.phase {
        case .idle: return [Button("Start", action: RecipeAction.start)]
        case .running:
            let all = [
                Button("Pause", action: RecipeAction.pause), Button("Skip", action: RecipeAction.skip),
                Button("Reset", action: RecipeAction.reset),
            ]
            return compact ? [all[0]] : all
        case .paused:
            let all = [
                Button("Resume", action: RecipeAction.resume), Button("Skip", action: RecipeAction.skip),
                Button("Reset", action: RecipeAction.reset),
            ]
            return compact ? [all[0]] : all
        case .done:
            let all = [Button("Reset", action: RecipeAction.reset), Button("Again", action: RecipeAction.start)]
            return compact ? [all[0]] : all
        }
    }

    static func heading(_ e: RecipeEntry) -> String {
        switch e.phase {
        case .idle: return e.title
        case .running, .paused: return e.current?.name ?? e.title
        case .done: return "\(e.title) done"
        }
    }

    static func stepLine(_ e: RecipeEntry) -> String {
        switch e.phase {
        case .idle: return "\(e.steps.count) steps"
        case .running: return "step \(min(e.step, e.steps.count) + 1) of \(e.steps.count)"
        case .paused: return "paused · \(min(e.step, e.steps.count) + 1)/\(e.steps.count)"
        case .done: return "\(e.steps.count) steps"
        }
    }

    /// The steps with a mark for the one under way (✓ behind, ▶ now).
    static func stepList(_ e: RecipeEntry, times: Bool, _ zone: TimeZone) -> TileView {
        VStack {
            for (i, step) in e.steps.enumerated() {
                let mark =
                    e.phase == .done || ((e.phase == .running || e.phase == .paused) && i < e.step)
                    ? "✓"
                    : (e.phase == .running || e.phase == .paused) && i == e.step ? "▶" : " "
                let current = mark == "▶"
                HStack(spacing: 1) {
                    Text(mark).foregroundStyle(current ? .accent : .positive)
                    if times, e.starts.indices.contains(i) {
                        Text(LocalDay.time(e.starts[i], zone)).font(.caption)
                    }
                    let name = Text(step.name).lineLimit(1)
                    current ? name.bold() : name
                    Spacer(minLength: 1)
                    Text("\(step.minutes) min").font(.caption)
                }
            }
        }
    }

    static func view(_ e: RecipeEntry, _ context: TimelineContext) -> TileView {
        let zone = context.timeZone
        let next: String
        switch e.phase {
        case .running, .paused:
            next = e.step < e.steps.count - 1 && e.step >= -1 ? "then \(e.steps[e.step + 1].name)" : "last step"
        case .idle: next = e.steps.first.map { "\($0.name) first" } ?? ""
        case .done: next = "enjoy"
        }
        switch context.family {
        case .small:
            return VStack {
                HStack(spacing: 1) {
                    Text(heading(e)).font(.headline).lineLimit(1)
                }
                countdown(e).font(.largeTitle).foregroundStyle(e.phase == .paused ? .warning : .accent)
                Text(e.phase == .running || e.phase == .paused ? stepLine(e) : next).font(.caption)
                    .invalidatable()
                Spacer()
                for b in buttons(e, compact: true) { b }
            }.widgetURL(link)
        case .medium:
            return VStack {
                HStack(spacing: 3) {
                    VStack {
                        Text(heading(e)).font(.headline).lineLimit(1)
                        countdown(e).font(.largeTitle).foregroundStyle(e.phase == .paused ? .warning : .accent)
                        Text(stepLine(e)).font(.caption)
                    }.invalidatable()
                    stepList(e, times: false, zone).invalidatable()
                }
                Spacer()
                HStack(spacing: 1) { for b in buttons(e, compact: false) { b } }
            }.widgetURL(link)
        case .large, .extraLarge:
            return VStack {
                HStack {
                    Text(heading(e)).font(.title)
                    Spacer()
                    countdown(e).font(.largeTitle).foregroundStyle(e.phase == .paused ? .warning : .accent)
                }
                Text(stepLine(e) + " · " + next).font(.caption).invalidatable()
                Divider()
                stepList(e, times: e.phase == .running || e.phase == .done, zone).invalidatable()
                Divider()
                if let f = e.finishes, e.phase == .running {
                    Text("Ready at \(LocalDay.time(f, zone)) · \(totalMinutes(e)) min in all").font(.caption)
                } else {
                    Text("\(totalMinutes(e)) min in all").font(.caption)
                }
                Spacer()
                HStack(spacing: 1) { for b in buttons(e, compact: false) { b } }
            }.widgetURL(link)
        }
    }

    static func detail(_ entry: RecipeEntry?, _ context: TimelineContext) -> TileView {
        guard let e = entry else { return Text("No recipe yet") }
        return VStack(spacing: 1) {
            HStack {
                Text(heading(e)).font(.title)
                Spacer()
                countdown(e).font(.largeTitle).foregroundStyle(.accent)
            }
            stepList(e, times: true, context.timeZone)
            Text("Buttons in the tile: Start, Pause / Resume, Skip, Reset; u undoes the last one.").font(.caption)
            Text("Steps are set in the widget's configuration (steps: Preheat:15, Cook:30, Rest:10).").font(.caption)
        }
    }
}
