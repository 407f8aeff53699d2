import Foundation
import DashWidgets

/// A number over time, kept in the state folder between runs (bounded).
struct ChartHistory: Codable, Sendable, Hashable {
    /// What the points came from (the command or the url and path): another source starts afresh.
    var source: String
    /// Unix seconds.
    var times: [Int]
    var values: [Double]

    static let maxPoints = 1_000

    mutating func append(_ v: Double, at t: Date, keep: Int) {
        times.append(Int(clamping: t.timeIntervalSince1970.rounded()))
        values.append(v)
        let over = times.count - max(2, min(keep, Self.maxPoints))
        if over > 0 {
            times.removeFirst(over)
            values.removeFirst(over)
        }
    }

    /// A history read from disk, made consistent (same lengths, finite values, bounded).
    var checked: ChartHistory {
        let n = min(times.count, values.count)
        var out = ChartHistory(source: source, times: [], values: [])
        for i in 0..<n where values[i].isFinite {
            out.times.append(times[i])
            out.values.append(values[i])
        }
        if out.times.count > Self.maxPoints {
            out.times.removeFirst(out.times.count - Self.maxPoints)
            out.values.removeFirst(out.values.count - Self.maxPoints)
        }
        return out
    }
}

public enum ChartStyle: String, Codable, Sendable, Hashable { case line, bars, gauge }

/// What the chart tile shows.
public struct ChartEntry: TimelineEntry, Hashable {
    public var date: Date
    public var title: String
    public var unit: String
    public var values: [Double]
    public var style: ChartStyle
    /// Fixed limits; nil: from the data.
    public var fixedMin: Double?
    public var fixedMax: Double?
    var thresholds: [APIThreshold]
    /// Why the latest sample could not be taken (the history still shows).
    public var notice: String?
    public var failure: String?
    var bell: Bool
    public var isPlaceholder: Bool = false

    public var latest: Double? { values.last }
    var level: APIThreshold.Level { APIThreshold.level(latest, thresholds) }

    public var summary: String {
        if let failure { return "\(title): \(failure)" }
        return "\(title): \(latest.map { ChartViews.number($0) } ?? "no value yet")\(unit) (\(values.count) points)"
    }

    public var relevance: Relevance? {
        guard !isPlaceholder, failure == nil, level != .normal, let v = latest else { return nil }
        return Relevance(
            score: level == .alert ? 1 : 0.7,
            reason: "\(title) at \(ChartViews.number(v))\(unit) (\(level == .alert ? "alert" : "warning"))")
    }

    public var contentID: String? {
        guard !isPlaceholder, failure == nil, level != .normal else { return nil }
        return "chart:\(level.rawValue)"
    }

    /// Once per crossing: the latest point reached a higher level than the one before it.
    public var ringsBell: Bool {
        guard bell, !isPlaceholder, values.count >= 1 else { return false }
        let before = values.count >= 2 ? APIThreshold.level(values[values.count - 2], thresholds) : .normal
        return level > before
    }

    var range: (lo: Double, hi: Double) {
        var lo = fixedMin ?? values.min() ?? 0
        var hi = fixedMax ?? values.max() ?? 1
        if fixedMin == nil, fixedMax == nil, let l = values.min(), let h = values.max(), l == h {
            lo = l - 1
            hi = h + 1
        }
        // Past 2^53 adding 1 changes nothing: a scale must still have a height.
        if hi <= lo { hi = lo + max(1, abs(lo) * 1e-9) }
        return (lo, hi)
    }
}

/// A number over time from a command (one number per run) or from a JSON API's field.
public enum ChartWidget {
    public static let kind = "chart"

    static let schema = ConfigurationSchema([
        Parameter(
            key: "title", title: "Title", help: "The tile's title", kind: .string(), default: .string("Load")),
        Parameter(
            key: "source", title: "Source", help: "Where each point comes from",
            kind: .enumeration([
                ParameterOption("command", title: "A command printing one number"),
                ParameterOption("api", title: "A JSON API field"),
            ]), default: .string("command")),
        Parameter(
            key: "command", title: "Command", help: "Run without a shell; its first number is the point",
            kind: .string(), default: .string("cut -d ' ' -f 1 /proc/loadavg")),
        Parameter(
            key: "api", title: "API widget", help: "The id of an api widget whose field this charts (source api)",
            kind: .string(), default: .string("")),
        Parameter(
            key: "field", title: "Field", help: "That api widget's field, by its label (empty: its first)",
            kind: .string(), default: .string("")),
        Parameter(
            key: "url", title: "URL", help: "The JSON endpoint (source api)", kind: .string(), default: .string("")),
        Parameter(
            key: "path", title: "Path", help: "The field's path in the JSON (a.b[0].c)", kind: .string(),
            default: .string("")),
        Parameter(
            key: "headers", title: "Headers", help: "Name: value items; ${secret} or ${ENV_NAME} allowed",
            kind: .list(itemPattern: "[A-Za-z0-9-]+ *:.*"), default: .list([])
        ).allowing("items such as Accept: application/json"),
        Parameter(
            key: "secret", title: "Secret", help: "A key or token, used as ${secret}", kind: .string(),
            default: .string(""), isSecret: true, environmentVariable: APIWidget.secretVariable),
        Parameter(
            key: "style", title: "Style", help: "How the series is drawn",
            kind: .enumeration([ParameterOption("line"), ParameterOption("bars"), ParameterOption("gauge")]),
            default: .string("line")),
        Parameter(
            key: "min", title: "Minimum", help: "The bottom of the scale; empty: from the data",
            kind: .string(pattern: "(-?[0-9]+(\\.[0-9]+)?)?"), default: .string("")
        ).allowing("a number, or nothing for auto"),
        Parameter(
            key: "max", title: "Maximum", help: "The top of the scale; empty: from the data",
            kind: .string(pattern: "(-?[0-9]+(\\.[0-9]+)?)?"), default: .string("")
        ).allowing("a number, or nothing for auto"),
        Parameter(
            key: "thresholds", title: "Thresholds", help: "warn>N, alert>N (or <N): colour, attention, bell",
            kind: .list(itemPattern: "(warn|warning|alert) *[<>]=? *-?[0-9.]+"), default: .list([])
        ).allowing("items such as warn>2 or alert<10"),
        Parameter(
            key: "bell", title: "Bell", help: "Ring the bell once when a threshold is crossed", kind: .bool,
            default: .bool(false)),
        Parameter(key: "unit", title: "Unit", help: "Written after the value", kind: .string(), default: .string("")),
        Parameter(
            key: "points", title: "Points kept", help: "History kept across restarts", kind: .integer(10...1000),
            default: .int(1000)),
        Parameter(
            key: "minutes", title: "Sample every", help: "Minutes between points (an API: at least 5)",
            kind: .integer(1...1440), default: .int(1)),
    ])

    public static func make(http: HTTPClient = HTTPClient(options: HTTPOptions(maxBytes: 2 * 1024 * 1024))) -> Widget {
        Widget(
            kind: kind, displayName: "Chart",
            description: "A number over time from a command or an API: line, bars or gauge, with thresholds",
            supportedFamilies: [.small, .medium, .large],
            schema: schema, cost: .local, timeout: max(http.options.totalTimeout, 10) + 5,
            provider: ChartProvider(http: http, memory: ResponseMemory(), histories: ChartMemory()),
            view: { entry, ctx in ChartViews.tile(entry, ctx) },
            detail: { link, entry, ctx in ChartViews.detail(link, entry, ctx) }
        )
        .relevance("the latest point past a warning (0.7) or alert (1) threshold")
        .borrowing(ChartSource.borrowing)
    }
}

extension Widget {
    func borrowing(
        _ f: @escaping @Sendable (WidgetConfig, (String) -> (kind: String, config: WidgetConfig)?) -> WidgetConfig
    ) -> Widget {
        var w = self
        w.borrows = f
        return w
    }
}

/// Histories in memory: where there is no state folder (previews, tests), and as the copy in use.
final class ChartMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String: ChartHistory] = [:]
    func get(_ k: String) -> ChartHistory? { lock.withLock { items[k] } }
    func put(_ k: String, _ h: ChartHistory) { lock.withLock { items[k] = h } }
}

struct ChartProvider: TimelineProvider {
    let http: HTTPClient
    let memory: ResponseMemory
    let histories: ChartMemory

    func placeholder(in context: TimelineContext) -> ChartEntry {
        var e = ChartSamples.entry(now: context.now)
        e.isPlaceholder = true
        return e
    }

    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> ChartEntry {
        var e = ChartSamples.entry(now: context.now)
        // The gallery and the form's preview never run the command: a sample with the settings drawn.
        ChartSource(configuration).dress(&e)
        return e
    }

    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<ChartEntry> {
        let source = ChartSource(configuration)
        var entry = ChartSamples.entry(now: context.now)
        entry.values = []
        source.dress(&entry)
        if let problem = source.problem {
            entry.failure = problem
            return Timeline(entries: [entry], policy: .never)
        }
        let key = context.instanceID ?? source.identity
        var history =
            histories.get(key) ?? WidgetStateStore.load(ChartHistory.self, kind: ChartWidget.kind, context)?.checked
            ?? ChartHistory(source: source.identity, times: [], values: [])
        if history.source != source.identity { history = ChartHistory(source: source.identity, times: [], values: []) }
        var next = context.now.addingTimeInterval(source.interval)
        let sampled: Result<(value: Double, at: Date), TileFailure>
        if let bound = source.boundAPI {
            sampled = source.read(bound, context: context)
            if case .success(let s) = sampled, let last = history.times.last, last >= Int(s.at.timeIntervalSince1970) {
                // The api widget has not answered since the last point: nothing new to draw.
                histories.put(key, history)
                entry.values = history.values
                return Timeline(entries: [entry], policy: .after(next))
            }
        } else {
            sampled = try await source.sample(http: http, memory: memory, context: context).map { ($0, context.now) }
        }
        switch sampled {
        case .success(let (v, at)):
            history.append(v, at: at, keep: source.keep)
            histories.put(key, history)
            // Kept across restarts; a state folder that cannot be written only costs the history.
            if (try? WidgetStateStore.save(history, kind: ChartWidget.kind, context)) == nil,
                context.stateDirectory != nil
            {
                entry.notice = "the history could not be saved in the state folder"
            }
        case .failure(let f):
            histories.put(key, history)
            entry.notice = f.message
            // Waiting for a bound api tile's first answer is asked again within a minute.
            next = source.boundAPI == nil ? max(next, f.retryAt) : f.retryAt
        }
        entry.values = history.values
        if entry.values.isEmpty, let n = entry.notice {
            entry.failure = n
            entry.notice = nil
        }
        return Timeline(entries: [entry], policy: .after(next))
    }
}

struct ChartSource {
    let config: WidgetConfig
    var isAPI: Bool { config.string("source") == "api" }

    init(_ config: WidgetConfig) { self.config = config }

    var interval: TimeInterval {
        let m = max(1, min(1440, config.int("minutes") ?? 1))
        return Double(isAPI ? max(5, m) : m) * 60
    }
    var keep: Int { max(10, min(ChartHistory.maxPoints, config.int("points") ?? ChartHistory.maxPoints)) }

    var identity: String {
        isAPI ? "api " + config.string("url") + " " + config.string("path") : "command " + config.string("command")
    }

    static func number(_ s: String) -> Double? {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, let d = Double(t), d.isFinite, abs(d) < 1e15 else { return nil }
        return d
    }

    var thresholds: [APIThreshold] { config.list("thresholds").compactMap { try? APIThreshold($0) } }

    /// `api: w3` (and `field: Label`): the url, method, body, headers and secret of that api
    /// widget, and the path of its field, as if written here; what cannot be found is said
    /// (`apiProblem`, read by `problem`).
    static func borrowing(_ c: WidgetConfig, _ lookup: (String) -> (kind: String, config: WidgetConfig)?)
        -> WidgetConfig
    {
        let id = c.string("api").trimmingCharacters(in: .whitespaces)
        guard c.string("source") == "api", !id.isEmpty else { return c }
        var out = c
        guard let (kind, api) = lookup(id), kind == APIWidget.kind else {
            out["apiProblem"] = .string("api: no api widget with id \(Fmt.line(id)) on the home screen")
            return out
        }
        for key in ["url", "method", "body", "headers", "secret"] { out[key] = api[key] }
        let label = c.string("field").trimmingCharacters(in: .whitespaces)
        let fields = api.list("fields").compactMap { try? APIField.parse($0) }
        let field =
            label.isEmpty
            ? fields.first : fields.first { $0.label.caseInsensitiveCompare(label) == .orderedSame }
        guard let field else {
            let known = fields.map(\.label).joined(separator: ", ")
            out["apiProblem"] = .string(
                "field: api widget \(Fmt.line(id)) has no field \(Fmt.line(label)); its fields: \(Fmt.line(known))")
            return out
        }
        out["path"] = .string(field.path.description)
        return out
    }

    /// The api widget (its id) and field (its label; empty: the first) whose answer this chart
    /// reads, when it is bound to one (`api: w3`; its request and path are borrowed only to
    /// tell one series from another).
    var boundAPI: (id: String, field: String)? {
        let id = config.string("api").trimmingCharacters(in: .whitespaces)
        guard isAPI, !id.isEmpty else { return nil }
        return (id, config.string("field").trimmingCharacters(in: .whitespaces))
    }

    /// The bound api widget's latest answer for the field: the number its tile shows, never a
    /// request of the chart's own; before its first answer, that the chart waits for it.
    func read(_ bound: (id: String, field: String), context: TimelineContext)
        -> Result<(value: Double, at: Date), TileFailure>
    {
        let id = Fmt.line(bound.id)
        guard let answer = APIAnswers.latest(of: bound.id, context) else {
            return .failure(
                TileFailure(
                    message: "waiting for the api tile \(id) to answer", retryAt: context.now.addingTimeInterval(60),
                    status: nil, isRateLimit: false))
        }
        let value =
            bound.field.isEmpty
            ? answer.values.first
            : answer.values.first { $0.label.caseInsensitiveCompare(bound.field) == .orderedSame }
        guard let n = value?.number else {
            return .failure(
                TileFailure(
                    message: "\(Fmt.line(value?.label ?? bound.field)) in the api tile \(id)'s answer is not a number",
                    retryAt: context.now.addingTimeInterval(interval), status: nil, isRateLimit: false))
        }
        return .success((n, Date(timeIntervalSince1970: TimeInterval(answer.time))))
    }

    /// A setting that cannot work, in words.
    var problem: String? {
        let borrowed = config.string("apiProblem")
        if !borrowed.isEmpty { return borrowed }
        for t in config.list("thresholds") where (try? APIThreshold(t)) == nil {
            return "threshold '\(Fmt.line(t))' is not valid: write warn>80 or alert<10"
        }
        if isAPI {
            if config.string("path").trimmingCharacters(in: .whitespaces).isEmpty {
                return "source api needs a path: set path: data.value"
            }
            if (try? JSONPath(config.string("path"))) == nil {
                return "path '\(Fmt.line(config.string("path")))' is not valid: keys.with.dots, [0], [*]"
            }
        } else if ((try? ShellWords.split(config.string("command"))) ?? []).isEmpty {
            return "source command needs a command: set command: my-probe --value"
        }
        return nil
    }

    func dress(_ e: inout ChartEntry) {
        e.title = Fmt.line(config.string("title"))
        if e.title.isEmpty { e.title = "Chart" }
        // "ms" is written "184 ms", "%" is written "42%".
        let unit = String(Fmt.line(config.string("unit")).prefix(12))
        e.unit = unit.first.map { $0.isLetter ? " " + unit : unit } ?? ""
        e.style = ChartStyle(rawValue: config.string("style")) ?? .line
        e.fixedMin = Self.number(config.string("min"))
        e.fixedMax = Self.number(config.string("max"))
        e.thresholds = thresholds
        e.bell = config.bool("bell")
    }

    /// One point, or why there is none this time.
    func sample(http: HTTPClient, memory: ResponseMemory, context: TimelineContext) async throws
        -> Result<Double, TileFailure>
    {
        let later = context.now.addingTimeInterval(interval)
        func fail(_ m: String) -> Result<Double, TileFailure> {
            .failure(TileFailure(message: m, retryAt: later, status: nil, isRateLimit: false))
        }
        if isAPI {
            let request: APIRequest
            switch APIRequest.make(config, context: context) {
            case .success(let r): request = r
            case .failure(let p): return fail(p.message)
            }
            let path = (try? JSONPath(config.string("path"))) ?? JSONPath(steps: [])
            switch try await request.send(http: http, memory: memory, context: context) {
            case .failed(let f): return .failure(f)
            case .body(let data, _):
                guard let root = APIJSON.parse(data) else {
                    let why = JSONProblem.describe(data)
                    return fail("\(HTTPClient.hostName(request.url)) answered with \(why): check the url")
                }
                let (found, cut) = path.lookup(in: root)
                guard let v = found.first else { return fail(cut?.message ?? "no value at \(path) in the answer") }
                guard let n = v.number else { return fail("\(path) is \(v.text ?? "null"), not a number") }
                return .success(n)
            }
        }
        let argv = try ShellWords.split(config.string("command"))
        let result = try await CommandRunner.run(
            argv, directory: nil, environment: ProcessInfo.processInfo.environment, timeout: 10, outputCap: 4096)
        if result.timedOut, result.backgroundHeldOutput {
            return fail(CommandResult.heldOutputMessage(Fmt.line(argv[0]), seconds: 10))
        }
        if result.timedOut { return fail("\(Fmt.line(argv[0])) did not finish within 10 s: killed") }
        let text = TextSanitizer.singleLine(String(decoding: result.output, as: UTF8.self))
        if case .exited(let s) = result.ending, s != 0 {
            return fail("\(Fmt.line(argv[0])) exited with status \(s): \(String(text.prefix(80)))")
        }
        guard let n = Self.firstNumber(text) else {
            return fail("\(Fmt.line(argv[0])) printed no number: '\(String(text.prefix(40)))'")
        }
        return .success(n)
    }

    /// The first decimal number in `text` ("42%", "load 0.52", "-3.5e2"), finite.
    static func firstNumber(_ text: String) -> Double? {
        let chars = Array(text.prefix(4096))
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let startsNumber =
                c.isASCII && c.isNumber
                || ((c == "-" || c == "+" || c == ".") && i + 1 < chars.count && chars[i + 1].isASCII
                    && chars[i + 1].isNumber)
            if startsNumber {
                var j = i + 1
                while j < chars.count, chars[j].isASCII,
                    chars[j].isNumber || chars[j] == "." || chars[j] == "e"
                        || chars[j] == "E" || ((chars[j] == "-" || chars[j] == "+") && "eE".contains(chars[j - 1]))
                {
                    j += 1
                }
                var s = String(chars[i..<j])
                while let last = s.last, !last.isNumber { s.removeLast() }
                if let d = Double(s), d.isFinite, abs(d) < 1e15 { return d }
                return nil
            }
            i += 1
        }
        return nil
    }
}

enum ChartSamples {
    static func entry(now: Date) -> ChartEntry {
        ChartEntry(
            date: now, title: "Load", unit: "",
            values: [0.4, 0.5, 0.45, 0.8, 1.2, 0.9, 0.7, 1.6, 2.1, 1.8, 1.1, 0.9, 0.6, 0.7, 0.5, 0.4],
            style: .line, fixedMin: 0, fixedMax: nil,
            thresholds: [APIThreshold(level: .warning, above: true, limit: 2)],
            notice: nil, failure: nil, bell: false)
    }
}
