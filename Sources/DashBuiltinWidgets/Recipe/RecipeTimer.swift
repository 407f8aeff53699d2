import Foundation
import DashWidgets

/// One step of a recipe: "Preheat" for 15 minutes.
public struct RecipeStep: Codable, Hashable, Sendable {
    public var name: String
    public var minutes: Int
    public var seconds: TimeInterval { Double(minutes) * 60 }
}

/// What the timer is doing, kept per instance in the state directory (so it survives a
/// restart) and written only by the timer's buttons.
public struct RecipeState: Codable, Hashable, Sendable {
    public enum Phase: String, Codable, Sendable { case idle, running, paused }
    public var phase: Phase = .idle
    /// The step under way (running) or stopped in (paused); `steps.count` means done.
    public var step = 0
    /// Running: when `step` began (moved on by a resume so that what ran before counts).
    public var stepStarted: Date?
    /// Paused: seconds left of `step`.
    public var remaining: TimeInterval?
    /// The steps the state was made for: another recipe starts idle.
    public var recipe = ""

    public init() {}
}

/// One moment of the recipe timer: a step under way (its end counts down as live text), a
/// pause, done, or ready to start.
public struct RecipeEntry: TimelineEntry, Hashable {
    public enum Phase: String, Codable, Sendable { case idle, running, paused, done }
    public var date: Date
    public var title: String
    public var steps: [RecipeStep]
    public var phase: Phase
    /// The current step (running or paused).
    public var step: Int
    /// Running: when the current step ends (the countdown's target).
    public var stepEnds: Date?
    /// Running: when each step starts, and when the last one ends.
    public var starts: [Date]
    public var finishes: Date?
    /// Paused: seconds left of the step.
    public var remaining: TimeInterval?
    /// Ring the bell when this entry comes (a step change, with `bell` configured).
    public var bell: Bool
    public var ringsBell: Bool { bell }

    public var relevance: Relevance? {
        switch phase {
        case .running:
            // High for the whole step: every step change is a new, relevant entry.
            return Relevance(score: 1.0, duration: current?.seconds)
        case .done: return Relevance(score: 0.8, duration: 600)
        case .paused: return Relevance(score: 0.4)
        case .idle: return nil
        }
    }

    /// The step under way; nil past the recipe (an entry decoded from a cache is not trusted).
    public var current: RecipeStep? { steps.indices.contains(step) ? steps[step] : nil }

    public var summary: String {
        switch phase {
        case .idle: return "ready: " + steps.map { "\($0.name) \($0.minutes) min" }.joined(separator: ", ")
        case .running:
            guard let current else { return "done" }
            return "\(current.name) (step \(min(step, steps.count) + 1) of \(steps.count), \(current.minutes) min)"
                + (bell ? " · bell" : "")
        case .paused:
            guard let current else { return "done" }
            return "paused in \(current.name), \(Int(clamping: ((remaining ?? 0) / 60).rounded(.up))) min left"
        case .done: return "done" + (bell ? " · bell" : "")
        }
    }
}

/// What the timer's buttons do.
public enum RecipeAction: Codable, Sendable, Hashable {
    case start, pause, resume, skip, reset
    /// Puts a saved state back (the undo of any of the others).
    case restore(RecipeState)
}

public struct RecipeTimerProvider: TimelineProvider {
    public init() {}

    static let kind = "recipe"
    public static let defaultSteps = ["Preheat:15", "Cook:30", "Rest:10"]

    /// The configured steps ("Preheat:15"); items that do not read are skipped.
    static func steps(_ config: WidgetConfig) -> [RecipeStep] {
        func parse(_ items: [String]) -> [RecipeStep] {
            items.compactMap { item -> RecipeStep? in
                guard let colon = item.lastIndex(of: ":"),
                    let m = Int(
                        item[item.index(after: colon)...]
                            .trimmingCharacters(in: .whitespaces)), m > 0, m <= 24 * 60
                else { return nil }
                let name = TextSanitizer.singleLine(String(item[..<colon]).trimmingCharacters(in: .whitespaces))
                return RecipeStep(name: name.isEmpty ? "Step" : name, minutes: m)
            }
        }
        let parsed = parse(config.list("steps"))
        return parsed.isEmpty ? parse(defaultSteps) : parsed
    }

    static func recipeKey(_ steps: [RecipeStep]) -> String {
        steps.map { "\($0.name):\($0.minutes)" }.joined(separator: ",")
    }

    static func title(_ config: WidgetConfig) -> String {
        let l = TextSanitizer.singleLine(config.string("label"))
        return l.isEmpty ? "Recipe" : l
    }

    /// The saved state, if it was made for these steps.
    static func state(_ config: WidgetConfig, _ context: TimelineContext) -> RecipeState {
        var s = WidgetStateStore.load(RecipeState.self, kind: kind, context) ?? RecipeState()
        let steps = steps(config)
        // The file is the user's to edit: a step past the recipe (or before it) is no index.
        s.step = min(max(0, s.step), steps.count)
        return s.recipe == recipeKey(steps) ? s : RecipeState()
    }

    public func placeholder(in context: TimelineContext) -> RecipeEntry {
        Self.entries(RecipeState(), WidgetConfig(), now: context.now)[0]
    }

    public func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> RecipeEntry {
        guard context.isPreview else {
            return Self.entries(Self.state(configuration, context), configuration, now: context.now)
                .last { $0.date <= context.now } ?? placeholder(in: context)
        }
        // Sample: ten minutes into the second step.
        let steps = Self.steps(configuration)
        var s = RecipeState()
        s.phase = .running
        s.step = min(1, steps.count - 1)
        s.stepStarted = context.now.addingTimeInterval(-600)
        s.recipe = Self.recipeKey(steps)
        return Self.entries(s, configuration, now: context.now).last { $0.date <= context.now }
            ?? placeholder(in: context)
    }

    public func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws
        -> Timeline<RecipeEntry>
    {
        // Every step change is an entry, so the scheduler shows each step exactly when it
        // begins; the countdown is live text. Nothing to reload: only a button changes the plan.
        Timeline(
            entries: Self.entries(Self.state(configuration, context), configuration, now: context.now),
            policy: .never)
    }

    /// The running state moved on to the step under way at `now` (past the end: done).
    static func advanced(_ s: RecipeState, _ steps: [RecipeStep], now: Date) -> RecipeState {
        guard s.phase == .running, var start = s.stepStarted else { return s }
        var out = s
        var i = s.step
        while i < steps.count, start.addingTimeInterval(steps[i].seconds) <= now {
            start = start.addingTimeInterval(steps[i].seconds)
            i += 1
        }
        out.step = i
        out.stepStarted = start
        return out
    }

    /// The entries from `now` on: the step under way (dated when it began), one at each later
    /// step change, and one when the last step ends.
    static func entries(_ state: RecipeState, _ config: WidgetConfig, now: Date) -> [RecipeEntry] {
        let steps = steps(config)
        let title = title(config)
        let bell = config.bool("bell")
        func entry(_ date: Date, _ phase: RecipeEntry.Phase, step: Int = 0) -> RecipeEntry {
            RecipeEntry(
                date: date, title: title, steps: steps, phase: phase, step: step, stepEnds: nil, starts: [],
                finishes: nil, remaining: nil, bell: false)
        }
        switch state.phase {
        case .idle:
            return [entry(now, .idle)]
        case .paused:
            var e = entry(now, .paused, step: min(state.step, steps.count - 1))
            e.remaining = state.remaining
            return state.step >= steps.count ? [entry(now, .done)] : [e]
        case .running:
            let s = advanced(state, steps, now: now)
            guard let start = s.stepStarted else { return [entry(now, .idle)] }
            var starts: [Date] = []
            var t = start
            for i in s.step..<max(s.step, steps.count) {
                starts.append(t)
                t = t.addingTimeInterval(steps[i].seconds)
            }
            let finish = t
            // Start times of the steps already behind, for the large view's list.
            var before: [Date] = []
            var b = start
            for i in stride(from: s.step - 1, through: 0, by: -1) where i < steps.count {
                b = b.addingTimeInterval(-steps[i].seconds)
                before.insert(b, at: 0)
            }
            let allStarts = before + starts
            var out: [RecipeEntry] = []
            for (k, date) in starts.enumerated() {
                let i = s.step + k
                var e = entry(date, .running, step: i)
                e.stepEnds = date.addingTimeInterval(steps[i].seconds)
                e.starts = allStarts
                e.finishes = finish
                e.bell = bell && k > 0
                out.append(e)
            }
            var done = entry(finish, .done, step: steps.count - 1)
            done.starts = allStarts
            done.finishes = finish
            done.bell = bell && !starts.isEmpty
            out.append(done)
            return out
        }
    }

    /// Runs a button: the new state is saved (atomically, in the state directory) and the
    /// action returned puts the old one back.
    static func perform(_ action: RecipeAction, _ config: WidgetConfig, _ context: TimelineContext) throws
        -> RecipeAction?
    {
        let steps = steps(config)
        let old = state(config, context)
        let now = context.now
        var s = advanced(old, steps, now: now)
        let finished = s.phase == .running && s.step >= steps.count
        switch action {
        case .start:
            s = RecipeState()
            s.phase = .running
            s.stepStarted = now
        case .pause:
            guard s.phase == .running, !finished, let start = s.stepStarted else {
                throw ActionError(finished ? "the recipe is done" : "the timer is not running")
            }
            s.phase = .paused
            s.remaining = max(0, start.addingTimeInterval(steps[s.step].seconds).timeIntervalSince(now))
            s.stepStarted = nil
        case .resume:
            guard s.phase == .paused, s.step < steps.count else { throw ActionError("the timer is not paused") }
            let left = s.remaining ?? steps[s.step].seconds
            s.phase = .running
            s.stepStarted = now.addingTimeInterval(left - steps[s.step].seconds)
            s.remaining = nil
        case .skip:
            guard s.phase != .idle, !finished else { throw ActionError("no step to skip") }
            s.step += 1
            if s.phase == .running {
                s.stepStarted = now
            } else {
                s.remaining = s.step < steps.count ? steps[s.step].seconds : nil
                if s.step >= steps.count {
                    s.phase = .running
                    s.stepStarted = now
                }
            }
        case .reset:
            s = RecipeState()
        case .restore(let saved):
            s = saved
        }
        s.recipe = recipeKey(steps)
        try WidgetStateStore.save(s, kind: kind, context)
        return .restore(old)
    }
}

public enum RecipeTimerWidget {
    public static let schema = ConfigurationSchema([
        Parameter(
            key: "steps", title: "Steps",
            help: "The steps as name:minutes, in order (the book's example: Preheat:15, Cook:30, Rest:10).",
            kind: .list(itemPattern: #"[^:,]{1,40}:[0-9]{1,4}"#),
            default: .list(RecipeTimerProvider.defaultSteps)
        ).allowing("a step as name:minutes, such as Cook:30"),
        Parameter(
            key: "label", title: "Recipe", help: "The recipe's name, shown as the tile's title.",
            kind: .string(pattern: nil), default: .string("")),
        Parameter(
            key: "bell", title: "Bell", help: "Ring the terminal bell when a step begins.",
            kind: .bool, default: .bool(false)),
    ])

    public static let widget = Widget(
        kind: "recipe", displayName: "Recipe timer",
        description: "Times a recipe's steps (preheat 15 min, cook 30, rest 10); start, pause, skip in the tile.",
        supportedFamilies: [.small, .medium, .large],
        schema: schema, cost: .local, timeout: 5,
        provider: RecipeTimerProvider(),
        view: { entry, context in RecipeViews.view(entry, context) },
        detail: { _, entry, context in RecipeViews.detail(entry, context) }
    )
    .actions(RecipeAction.self, timeout: 5) { action, config, context in
        try RecipeTimerProvider.perform(action, config, context)
    }
}
