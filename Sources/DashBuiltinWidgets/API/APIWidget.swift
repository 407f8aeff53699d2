import Foundation
import DashWidgets

/// One field as the tile shows it.
public struct APIValue: Codable, Sendable, Hashable {
    public var label: String
    /// The formatted value; nil when the path found nothing or the value does not fit the format.
    public var text: String?
    /// Why there is no text ("no value at data.price", "not a number").
    public var problem: String?
    var level: APIThreshold.Level
    public var number: Double?
    /// The thresholds, written back ("warn>80"), for the detail pane.
    public var limits: [String]
}

/// What the api tile shows: the fields picked from the answer, or why there is none.
public struct APIEntry: TimelineEntry, Hashable {
    public var date: Date
    public var title: String
    public var values: [APIValue]
    /// Labels per family (the template); empty: the first fields that fit.
    public var layout: [String: [String]]
    /// The paths found in the answer with a sample value ("data.price = 42.5"): the Edit form's
    /// preview shows them while no field is set, the detail pane always.
    public var paths: [String]
    public var failure: String?
    /// Shown above the values: rate limited, showing the last good answer.
    public var notice: String?
    public var host: String
    public var isPlaceholder: Bool = false
    /// Drawn in the Edit form: the paths found are listed under the values where there is room.
    public var showsPaths: Bool = false

    public var summary: String {
        if let failure { return "\(title): \(failure)" }
        return "\(title): " + values.map { "\($0.label) \($0.text ?? "—")" }.joined(separator: ", ")
    }

    var worst: APIThreshold.Level { values.map(\.level).max() ?? .normal }

    /// A value over its warning threshold matters (0.7), over its alert threshold more (1).
    public var relevance: Relevance? {
        guard !isPlaceholder, failure == nil, worst != .normal,
            let v = values.first(where: { $0.level == worst })
        else { return nil }
        return Relevance(
            score: worst == .alert ? 1 : 0.7,
            reason: "\(v.label) is \(v.text ?? "?") (\(worst == .alert ? "alert" : "warning"))")
    }

    /// A threshold crossed is news: attention until the user looks.
    public var contentID: String? {
        guard !isPlaceholder, failure == nil, worst != .normal else { return nil }
        return "api:"
            + values.filter { $0.level != .normal }.map { "\($0.label)=\($0.level.rawValue)" }.joined(
                separator: ",")
    }

    /// The values the family's template names, in its order (unknown labels skipped).
    func shown(_ family: WidgetFamily) -> [APIValue] {
        let name = family == .extraLarge ? "large" : family.rawValue
        if let labels = layout[name], !labels.isEmpty {
            return labels.compactMap { l in values.first { $0.label.caseInsensitiveCompare(l) == .orderedSame } }
        }
        return values
    }
}

/// The no-code widget for any JSON over HTTP(S): fields picked by path, formatted, with thresholds.
public enum APIWidget {
    public static let kind = "api"
    public static let secretVariable = "SWIFTDASH_API_SECRET"
    public static let defaultURL = "https://api.github.com/rate_limit"

    static let schema = ConfigurationSchema([
        Parameter(
            key: "url", title: "URL", help: "The JSON endpoint; ${secret} or ${ENV_NAME} may appear in it",
            kind: .string(pattern: "https?://.+"), default: .string(defaultURL)
        ).allowing("an http:// or https:// address"),
        Parameter(
            key: "title", title: "Title", help: "The tile's title; empty shows the host",
            kind: .string(), default: .string("")),
        Parameter(
            key: "method", title: "Method", help: "The HTTP method",
            kind: .enumeration([ParameterOption("GET"), ParameterOption("POST")]), default: .string("GET")),
        Parameter(
            key: "body", title: "Body", help: "The request body for POST (JSON text)", kind: .string(),
            default: .string("")),
        Parameter(
            key: "headers", title: "Headers",
            help: "Name: value items; a value may be ${secret} or ${ENV_NAME} (never shown)",
            kind: .list(itemPattern: "[A-Za-z0-9-]+ *:.*"), default: .list([])
        ).allowing("items such as Accept: application/json"),
        Parameter(
            key: "secret", title: "Secret", help: "A key or token, used as ${secret} in the URL or a header",
            kind: .string(), default: .string(""), isSecret: true, environmentVariable: secretVariable),
        Parameter(
            key: "fields", title: "Fields",
            help: "Label = path | format | warn>N | alert>N; paths: a.b[0].c, items[*].name; formats: "
                + "number:2 percent ratio currency:USD bytes date relative",
            kind: .list(), default: .list(["Core left = resources.core.remaining | number | warn<100 | alert<10"])),
        Parameter(
            key: "small", title: "Small shows", help: "Labels of the fields a small tile shows (empty: the first)",
            kind: .list(), default: .list([])),
        Parameter(
            key: "medium", title: "Medium shows", help: "Labels of the fields a medium tile shows (empty: the first 3)",
            kind: .list(), default: .list([])),
        Parameter(
            key: "large", title: "Large shows", help: "Labels of the fields a large tile shows (empty: all)",
            kind: .list(), default: .list([])),
        Parameter(
            key: "minutes", title: "Reload every", help: "Minutes between reloads", kind: .integer(1...1440),
            default: .int(15)),
    ])

    public static func make(http: HTTPClient = HTTPClient(options: HTTPOptions(maxBytes: 2 * 1024 * 1024))) -> Widget {
        Widget(
            kind: kind, displayName: "API",
            description: "Any JSON over HTTP(S): fields picked by path, formatted, with thresholds",
            supportedFamilies: [.small, .medium, .large],
            schema: schema, cost: .budgeted, timeout: http.options.totalTimeout + 5,
            provider: APIProvider(http: http, memory: ResponseMemory()),
            view: { entry, ctx in APIViews.tile(entry, ctx) },
            detail: { link, entry, ctx in APIViews.detail(link, entry, ctx) }
        )
        .relevance("a field past its warning (0.7) or alert (1) threshold")
    }

    /// `${secret}` and `${ENV_NAME}` in `text`, replaced; the values used are returned as secrets.
    static func expand(_ text: String, secret: String, environment: [String: String]) -> (String, [String]) {
        var out = ""
        var used: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                out += rest[start.lowerBound...]
                return (out, used)
            }
            let name = String(rest[start.upperBound..<end])
            let valid =
                !name.isEmpty && name.count <= 64
                && name.unicodeScalars.allSatisfy {
                    $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_")
                }
            let value = name == "secret" ? secret : valid ? (environment[name] ?? "") : ""
            if !value.isEmpty { used.append(value) }
            out += value
            rest = rest[rest.index(after: end)...]
        }
        out += rest
        return (out, used)
    }
}

struct APIProvider: TimelineProvider {
    let http: HTTPClient
    let memory: ResponseMemory

    func placeholder(in context: TimelineContext) -> APIEntry {
        var e = APISamples.entry(now: context.now)
        e.isPlaceholder = true
        return e
    }

    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> APIEntry {
        // The gallery (the default url) gets the sample at once; the Edit form, where the user has
        // typed a url, runs the real request and lists the paths the answer holds.
        let url = configuration.string("url").trimmingCharacters(in: .whitespaces)
        if context.isPreview, url.isEmpty || url == APIWidget.defaultURL { return APISamples.entry(now: context.now) }
        guard var e = try? await timeline(for: configuration, in: context).entries.first else {
            return APISamples.entry(now: context.now)
        }
        e.showsPaths = context.isPreview
        return e
    }

    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<APIEntry> {
        let minutes = Double(max(1, min(1440, configuration.int("minutes") ?? 15)))
        let (entry, retry) = try await APISource(configuration, context: context).load(http: http, memory: memory)
        APIAnswers.record(entry, context)
        let next = retry ?? context.now.addingTimeInterval(minutes * 60)
        return Timeline(entries: [entry], policy: .after(next))
    }
}

struct APISource {
    let config: WidgetConfig
    let context: TimelineContext

    init(_ config: WidgetConfig, context: TimelineContext) {
        self.config = config
        self.context = context
    }

    var layout: [String: [String]] {
        var l: [String: [String]] = [:]
        for f in ["small", "medium", "large"] { l[f] = config.list(f).map(Fmt.line) }
        return l
    }

    /// Loads and picks; the date to try again when the server asked for a wait.
    func load(http: HTTPClient, memory: ResponseMemory) async throws -> (APIEntry, Date?) {
        let now = context.now
        var entry = APIEntry(
            date: now, title: Fmt.line(config.string("title")), values: [], layout: layout, paths: [], failure: nil,
            notice: nil, host: "")
        func failed(_ why: String) -> APIEntry {
            var e = entry
            e.failure = why
            return e
        }
        let request: APIRequest
        switch APIRequest.make(config, context: context) {
        case .success(let r): request = r
        case .failure(let e): return (failed(e.message), nil)
        }
        let url = request.url
        entry.host = HTTPClient.hostName(url)
        if entry.title.isEmpty { entry.title = entry.host }
        var fields: [APIField] = []
        for spec in config.list("fields") {
            do { fields.append(try APIField.parse(spec)) } catch let e as APIFormat.SyntaxError {
                return (failed("field '\(Fmt.line(spec))': \(e.message)"), nil)
            }
        }
        let method = request.method
        let outcome = try await request.send(http: http, memory: memory, context: context)
        let data: Data
        switch outcome {
        case .body(let d, _): data = d
        case .failed(let f):
            // Rate limited: the last good answer stays on screen, under the message.
            if f.isRateLimit, method == "GET", let last = memory.get("GET " + url.absoluteString),
                let root = APIJSON.parse(last.body)
            {
                var e = Self.pick(fields, from: root, into: entry, now: now, timeZone: context.timeZone)
                e.notice = f.message
                return (e, f.retryAt)
            }
            return (failed(f.message), f.retryAt)
        }
        guard let root = APIJSON.parse(data) else {
            return (failed("\(entry.host) answered with \(JSONProblem.describe(data)): check the url"), nil)
        }
        return (Self.pick(fields, from: root, into: entry, now: now, timeZone: context.timeZone), nil)
    }

    static func pick(
        _ fields: [APIField], from root: APIJSON, into base: APIEntry, now: Date, timeZone: TimeZone
    ) -> APIEntry {
        var e = base
        e.paths = JSONPath.discover(root).map { "\($0.path) = \(String($0.sample.prefix(60)))" }
        e.values = fields.map { f in
            let (found, cut) = f.path.lookup(in: root)
            let limits = f.thresholds.map(\.text)
            guard !found.isEmpty else {
                return APIValue(
                    label: f.label, text: nil, problem: cut?.message ?? "no value at \(f.path)", level: .normal,
                    number: nil,
                    limits: limits)
            }
            let written = found.prefix(20).map { f.format.write($0, now: now, timeZone: timeZone) }
            guard written.allSatisfy({ $0 != nil }) else {
                let kind: String
                switch f.format {
                case .date, .relative: kind = "a date"
                case .text: kind = "a value"
                default: kind = "a number"
                }
                return APIValue(
                    label: f.label, text: nil, problem: "\(f.path) is not \(kind)", level: .normal, number: nil,
                    limits: limits)
            }
            var text = written.compactMap { $0 }.joined(separator: ", ")
            if found.count > 20 { text += " … (\(found.count))" }
            let number = found.count == 1 ? found[0].number : nil
            // Through `*`, the worst item decides.
            let level = found.map { APIThreshold.level(f.format.shown($0.number), f.thresholds) }.max() ?? .normal
            return APIValue(
                label: f.label, text: Fmt.line(text), problem: nil, level: level, number: number, limits: limits)
        }
        return e
    }
}

/// The request of an api widget (and of a chart fed by an API): the URL, method, body and
/// headers, with `${secret}` and `${ENV_NAME}` filled in and the values used kept as secrets.
struct APIRequest {
    struct Problem: Error { var message: String }
    var url: URL
    var method: String
    var body: String?
    var headers: [String: String]
    var secrets: [String]

    static func make(_ config: WidgetConfig, context: TimelineContext) -> Result<APIRequest, Problem> {
        let secret = config.string("secret").trimmingCharacters(in: .whitespaces)
        let (urlText, urlSecrets) = APIWidget.expand(
            config.string("url").trimmingCharacters(in: .whitespaces), secret: secret,
            environment: context.environment)
        guard let url = URL(string: urlText), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            url.host != nil
        else {
            return .failure(Problem(message: "the url is not an http(s) address: set url: https://host/path"))
        }
        var headers: [String: String] = ["Accept": "application/json"]
        var secrets = urlSecrets + (secret.isEmpty ? [] : [secret])
        for item in config.list("headers") {
            guard let colon = item.firstIndex(of: ":") else {
                return .failure(Problem(message: "header '\(Fmt.line(item))' has no ':': write Name: value"))
            }
            let name = item[..<colon].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty,
                name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") })
            else { return .failure(Problem(message: "header name '\(Fmt.line(name))' is not valid")) }
            let (value, used) = APIWidget.expand(
                item[item.index(after: colon)...].trimmingCharacters(in: .whitespaces), secret: secret,
                environment: context.environment)
            guard !value.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                return .failure(Problem(message: "header \(name) holds a line break: refused"))
            }
            headers[name] = value
            secrets += used
        }
        let method = config.string("method").uppercased() == "POST" ? "POST" : "GET"
        let body = method == "POST" ? config.string("body") : ""
        if !body.isEmpty, headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        return .success(
            APIRequest(url: url, method: method, body: body.isEmpty ? nil : body, headers: headers, secrets: secrets))
    }

    func send(http: HTTPClient, memory: ResponseMemory, context: TimelineContext) async throws -> HTTPOutcome {
        try await http.exchange(
            url, method: method, headers: headers, body: body, secrets: secrets, memory: memory, now: context.now,
            timeZone: context.timeZone,
            authHint: "put the key in secret (or $\(APIWidget.secretVariable)) and use it in headers: "
                + "Authorization: Bearer ${secret}",
            notFoundHint: "check the url")
    }
}

enum APISamples {
    static func entry(now: Date) -> APIEntry {
        APIEntry(
            date: now, title: "api.example.com",
            values: [
                APIValue(label: "Requests", text: "12,408", problem: nil, level: .normal, number: 12408, limits: []),
                APIValue(
                    label: "Errors", text: "3.2 %", problem: nil, level: .warning, number: 3.2, limits: ["warn>2"]),
                APIValue(label: "Latency", text: "184 ms", problem: nil, level: .normal, number: 184, limits: []),
            ],
            layout: [:], paths: ["requests = 12408", "errors = 3.2", "latency = 184"], failure: nil, notice: nil,
            host: "api.example.com")
    }
}
