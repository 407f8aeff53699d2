import Foundation
import DashWidgets
import DashApp
import DashHome
import DashActivities
#if canImport(Glibc)
    import Glibc
#endif

/// Finding external widgets and turning them into `Widget` values, so they work wherever
/// built-in ones do (the bundle, `widgets`, `preview`, `timeline`, stacks, the budget).
public enum Extensions {
    /// What discovery found: the widgets, and a line for each extension that could not be used.
    public struct Discovery: Sendable {
        public var widgets: [Widget] = []
        public var problems: [String] = []
        public var processes: [ExtensionProcess] = []
        /// The Live Activity kinds the extensions draw with their own views.
        public var activities: [ActivityPresenter] = []
    }

    /// `$XDG_CONFIG_HOME/swiftdash/widgets/`.
    public static func directory(_ paths: AppPaths) -> URL { paths.config.appendingPathComponent("widgets") }

    /// The executables to describe: every executable regular file in the widgets folder (sorted),
    /// then the paths home.yaml's `extensions:` lists (a `~/` is the home folder), each once.
    public static func candidates(paths: AppPaths, listed: [String], environment: [String: String]) -> [String] {
        var out: [String] = []
        let dir = directory(paths).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        for n in names.sorted() where !n.hasPrefix(".") {
            let p = dir + "/" + n
            var st = stat()
            if stat(p, &st) == 0, st.st_mode & S_IFMT == S_IFREG, access(p, X_OK) == 0 { out.append(p) }
        }
        for l in listed {
            var p = l
            if p.hasPrefix("~/"), let home = environment["HOME"] { p = home + p.dropFirst(1) }
            if !p.hasPrefix("/") { p = paths.config.appendingPathComponent(p).path }
            if !out.contains(p) { out.append(p) }
        }
        return out
    }

    /// Describes every extension in parallel (each on a thread of its own, with the describe
    /// timeout) and builds its widgets. Kinds already in `builtin` and repeated kinds are refused.
    public static func discover(
        _ executables: [String], builtin: Set<String>, environment: [String: String],
        limits: ExtensionLimits = ExtensionLimits(),
        log: @escaping @Sendable (String) -> Void
    ) -> Discovery {
        guard !executables.isEmpty else { return Discovery() }
        var out = Discovery()
        var taken = builtin
        var takenActivities = Set(ActivityKinds.builtin)
        let described = describeAll(executables, environment: environment, limits: limits, log: log)
        for (i, r) in described.enumerated() {
            switch r {
            case .success(let (process, widgets)):
                out.processes.append(process)
                out.activities += presenters(process, taken: &takenActivities)
                let (kept, refused) = claim(widgets, taken: &taken)
                out.widgets += kept
                out.problems += refused.map { "\(executables[i]): \(kindTaken($0)); skipped" }
            case .failure(let e):
                out.problems.append("\(executables[i]): \(e)")
            }
        }
        for p in out.problems { log("extension: \(p)") }
        return out
    }

    /// The widgets whose kinds no widget before took (they are taken now), and the kinds refused.
    static func claim(_ widgets: [Widget], taken: inout Set<String>) -> (kept: [Widget], refused: [String]) {
        var kept: [Widget] = []
        var refused: [String] = []
        for w in widgets {
            if taken.insert(w.kind).inserted { kept.append(w) } else { refused.append(w.kind) }
        }
        return (kept, refused)
    }

    /// The Live Activity kinds `process` declared that no extension before took (they are taken
    /// now; the built-in kinds are never taken), each drawn by an `activity` request to it.
    static func presenters(_ process: ExtensionProcess, taken: inout Set<String>) -> [ActivityPresenter] {
        process.activityKinds.filter { taken.insert($0).inserted }.map { kind in
            ActivityPresenter(kind: kind, source: process.name) { params in
                try process.request("activity", params: params, timeout: activityTimeout)
            }
        }
    }

    /// How long an `activity` request may take: the views of one activity, no provider.
    static let activityTimeout: TimeInterval = 5

    /// Why a widget is left out.
    static func kindTaken(_ kind: String) -> String { "widget kind `\(kind)` is already taken" }

    /// Starts and describes each executable, in parallel (each on a thread of its own, with the
    /// describe timeout); the results in the order given.
    static func describeAll(
        _ executables: [String], environment: [String: String], limits: ExtensionLimits,
        log: @escaping @Sendable (String) -> Void
    ) -> [Result<(ExtensionProcess, [Widget]), ExtensionError>] {
        guard !executables.isEmpty else { return [] }
        let results = Results(count: executables.count)
        for (i, path) in executables.enumerated() {
            let thread = Thread {
                let process = ExtensionProcess(path: path, environment: environment, limits: limits, log: log)
                results.set(i, describe(process))
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        return results.wait()
    }

    /// Collects one result per thread and waits for all of them.
    final class Results: @unchecked Sendable {
        let condition = NSCondition()
        var items: [Result<(ExtensionProcess, [Widget]), ExtensionError>?]
        init(count: Int) { items = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ r: Result<(ExtensionProcess, [Widget]), ExtensionError>) {
            condition.lock()
            items[i] = r
            condition.broadcast()
            condition.unlock()
        }
        func wait() -> [Result<(ExtensionProcess, [Widget]), ExtensionError>] {
            condition.lock()
            while items.contains(where: { $0 == nil }) { condition.wait() }
            defer { condition.unlock() }
            return items.map { $0! }
        }
    }

    /// Asks one extension what it offers, and each widget's placeholder.
    static func describe(_ process: ExtensionProcess) -> Result<(ExtensionProcess, [Widget]), ExtensionError> {
        do {
            let answer = try process.request("describe", timeout: process.limits.describeTimeout)
            let descriptions: [ExtensionWidgetDescription]
            do {
                descriptions = try ExtensionWidgetDescription.parse(answer)
                process.activityKinds = try ExtensionWidgetDescription.activityKinds(answer)
            } catch {
                process.stop()
                return .failure(ExtensionError("\(process.name): \(error)"))
            }
            var widgets: [Widget] = []
            for d in descriptions {
                var placeholder: ExternalEntry? = nil
                if let p = try? process.request(
                    "placeholder", params: ["kind": .string(d.kind)],
                    timeout: process.limits.describeTimeout)
                {
                    placeholder = try? ExtensionProtocol.entry(p, kind: d.kind)
                }
                widgets.append(widget(d, process: process, placeholder: placeholder))
            }
            return .success((process, widgets))
        } catch let e as ExtensionError {
            process.stop()
            return .failure(e)
        } catch {
            process.stop()
            return .failure(ExtensionError("\(process.name): \(error)"))
        }
    }

    /// The `Widget` for one described kind; its provider talks to `process`.
    public static func widget(
        _ d: ExtensionWidgetDescription, process: ExtensionProcess,
        placeholder: ExternalEntry?
    ) -> Widget {
        var params = d.parameters
        for i in params.indices where d.dynamicKeys.contains(params[i].key) {
            let key = params[i].key
            let kind = d.kind
            let timeout = d.timeout
            params[i].dynamicOptions = { config in
                let answer = try process.request(
                    "options",
                    params: [
                        "kind": .string(kind), "parameter": .string(key), "config": configJSON(config),
                    ], timeout: timeout)
                guard let list = answer["options"]?.array ?? answer.array, list.count <= 1_000 else {
                    throw ExtensionError("\(process.name): options: expected a list of at most 1,000")
                }
                return list.compactMap { v in
                    if let s = v.string { return ParameterOption(TextSanitizer.singleLine(s)) }
                    guard let value = v["value"]?.string else { return nil }
                    return ParameterOption(
                        TextSanitizer.singleLine(value),
                        title: v["title"]?.string.map { TextSanitizer.singleLine($0) })
                }
            }
        }
        let carried = CarriedTimelines()
        let provider = ExtensionProvider(
            kind: d.kind, displayName: d.displayName, process: process,
            timeout: d.timeout, placeholderEntry: placeholder, carried: carried)
        let kind = d.kind
        var w = Widget(
            kind: d.kind, displayName: d.displayName,
            description: d.description.isEmpty ? "External widget (\(process.name))" : d.description,
            supportedFamilies: d.families, schema: ConfigurationSchema(params),
            cost: d.network ? .budgeted : .local,
            // The process reports its own timeout first, with the reason; this is the backstop.
            timeout: d.timeout + 2,
            provider: provider,
            view: { entry, ctx in entry.view(for: ctx.family) },
            detail: { link, entry, _ in
                if let e = entry, let v = e.detail(for: link) { return v }
                return VStack {
                    Text(d.displayName).font(.title)
                    Text(link.url).foregroundStyle(.secondary)
                }
            })
        if d.push {
            w = w.acceptingPush { json in try ExtensionProtocol.timeline(json, kind: kind) }
        }
        // `swiftdash preview`: the widget's own `#Preview`s, when the extension answers `preview`.
        if d.previews {
            w.previews = { config, context in
                let answer = try process.request(
                    "preview", params: provider.params(config, context), timeout: provider.timeout)
                do { return try ExtensionProtocol.previews(answer, kind: kind) } catch {
                    throw ExtensionError("\(process.name): \(error)")
                }
            }
        }
        // Any view may carry a button or a toggle: activating one sends `perform`; the reload
        // that follows a success takes the timeline the answer carried, if any.
        let timeout = d.timeout
        @Sendable func perform(_ action: String, _ config: WidgetConfig, _ context: TimelineContext) throws -> String? {
            let answer = try performRequest(process, kind: kind, action: action, config: config, timeout: timeout)
            if let id = context.instanceID, let timeline = answer.timeline { carried.put(id, timeline) }
            return answer.undo
        }
        w = w.actions(String.self, timeout: timeout + 2) { action, config, context in
            try perform(action, config, context)
        }
        // The same requests from a plain thread, so loads and actions run no Swift task in the
        // home screen (decision 37).
        let schema = w.schema
        return w.running(
            RemoteProvider(
                timeline: { config, context in
                    let resolved = schema.resolve(config, environment: context.environment)
                    let t = try provider.blockingTimeline(for: resolved, in: context)
                    return AnyTimeline(entries: t.entries.map(AnyEntry.init), policy: t.policy)
                },
                perform: { payload, config, context in
                    let resolved = schema.resolve(config, environment: context.environment)
                    return try perform(payload.decode(String.self), resolved, context).map { ActionPayload($0) }
                }))
    }

    static func configJSON(_ c: WidgetConfig) -> JSONValue {
        .object(c.values.mapValues(\.json))
    }
}

/// The provider of an external widget: each call is one request to the extension's process.
struct ExtensionProvider: TimelineProvider {
    let kind: String
    let displayName: String
    let process: ExtensionProcess
    let timeout: TimeInterval
    let placeholderEntry: ExternalEntry?
    var carried = CarriedTimelines()

    func placeholder(in context: TimelineContext) -> ExternalEntry {
        placeholderEntry ?? ExternalEntry(date: context.now, title: displayName, text: "…", kind: kind)
    }

    func params(_ config: WidgetConfig?, _ context: TimelineContext) -> [String: JSONValue] {
        var p: [String: JSONValue] = [
            "kind": .string(kind), "family": .string(context.family.rawValue),
            "context": context.json,
        ]
        if let config { p["config"] = Extensions.configJSON(config) }
        return p
    }

    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> ExternalEntry {
        do {
            let answer = try process.request("snapshot", params: params(configuration, context), timeout: timeout)
            return try ExtensionProtocol.entry(answer, kind: kind)
        } catch {
            return ExternalEntry(date: context.now, title: displayName, text: "⚠ \(error)", kind: kind)
        }
    }

    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<ExternalEntry>
    {
        try blockingTimeline(for: configuration, in: context)
    }

    /// One `timeline` request (or the timeline a `perform` answer carried), blocking the caller.
    func blockingTimeline(for configuration: WidgetConfig, in context: TimelineContext) throws -> Timeline<
        ExternalEntry
    > {
        let t: AnyTimeline
        if let id = context.instanceID, let answer = carried.take(id) {
            // The reload after an action: the `perform` answer carried the new timeline.
            do { t = try ExtensionProtocol.timeline(answer, kind: kind) } catch {
                throw ExtensionError("\(process.name): perform: \(error)")
            }
        } else {
            let answer = try process.request("timeline", params: params(configuration, context), timeout: timeout)
            OffLoopThread.yieldAfterTheAnswer()
            do { t = try ExtensionProtocol.timeline(answer, kind: kind) } catch {
                throw ExtensionError("\(process.name): \(error)")
            }
        }
        return Timeline(entries: t.entries.compactMap { $0.base as? ExternalEntry }, policy: t.policy)
    }
}

/// What a `perform` answer carried (docs/extensions.md, "Buttons and toggles").
public struct PerformAnswer: Sendable {
    /// The new timeline, shown by the reload that follows the action instead of asking again.
    public var timeline: JSONValue?
    /// The action that undoes this one (`u`).
    public var undo: String?
}

/// Timelines carried by `perform` answers, per instance, until the reload after the action takes them.
final class CarriedTimelines: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String: JSONValue] = [:]

    func put(_ instanceID: String, _ timeline: JSONValue) { lock.withLock { items[instanceID] = timeline } }

    func take(_ instanceID: String) -> JSONValue? { lock.withLock { items.removeValue(forKey: instanceID) } }
}

extension Extensions {
    /// Sends `perform` for an interactive widget's action. An `error` answer throws (the control
    /// goes back, the status bar says why); a result may carry `timeline` and `undo`.
    public static func performRequest(
        _ process: ExtensionProcess, kind: String, action: String, config: WidgetConfig,
        timeout: TimeInterval
    ) throws -> PerformAnswer {
        let answer = try process.request(
            "perform",
            params: [
                "kind": .string(kind), "action": .string(action), "config": configJSON(config),
            ], timeout: timeout)
        var out = PerformAnswer()
        if let t = answer["timeline"], t != .null { out.timeline = t }
        if let u = answer["undo"], u != .null {
            guard let undo = u.string, ViewJSON.isValidAction(undo) else {
                throw ExtensionError("\(process.name): perform: `undo` must be an action (a short string)")
            }
            out.undo = undo
        }
        return out
    }
}
