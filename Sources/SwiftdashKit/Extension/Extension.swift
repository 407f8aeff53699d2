import Foundation
internal import DashWidgets

// The executable side: a `@main` WidgetBundle (or Widget) is a swiftdash extension. It reads one
// request per line on standard input and answers one line on standard output (docs/extensions.md),
// on a thread of its own so that the main queue stays free for completion handlers.

extension WidgetBundle {
    public static func main() {
        let body = Self().body.body
        ExtensionServer(widgets: body._widgets, activities: body._activities).run()
    }
}

extension Widget {
    public static func main() {
        ExtensionServer(widgets: Self().body._widgets, activities: Self().body._activities).run()
    }
}

/// Answers the extension protocol for a bundle's widgets.
public struct ExtensionServer {
    let widgets: [_WidgetDescriptor]
    /// The Live Activities its `ActivityConfiguration`s declare (the `activity` request).
    let activities: [_ActivityDescriptor]

    public init<B: WidgetBundle>(_ bundle: B) {
        widgets = bundle.body.body._widgets
        activities = bundle.body.body._activities
    }
    init(widgets: [_WidgetDescriptor], activities: [_ActivityDescriptor] = []) {
        self.widgets = widgets
        self.activities = activities
    }

    /// Serves standard input until it ends, then exits. A bundle of several widgets, or one with
    /// a Live Activity, is served by one process per kind (`KindSupervisor`): this process, started
    /// by swiftdash, routes the requests, and the same executable started with
    /// `SWIFTDASH_WIDGET_KIND` serves that kind (`activity:KIND` for a Live Activity's views).
    func run() -> Never {
        WidgetState.keepUserDefaults()
        if let kind = ProcessInfo.processInfo.environment[KindProcess.kindVariable] {
            ExtensionServer(
                widgets: widgets.filter { $0.kind == kind },
                activities: activities.filter { KindSupervisor.activityProcess($0.kind) == kind }
            ).serve()
        }
        if widgets.count > 1 || !activities.isEmpty { KindSupervisor(server: self).run() }
        serve()
    }

    /// Answers requests on a thread of its own until standard input ends.
    func serve() -> Never {
        let server = Wait.Unchecked(value: self)
        let thread = Thread {
            while let line = readLine(strippingNewline: true) {
                let answer = server.value.answer(line: line)
                WidgetState.saveUserDefaults()
                FileHandle.standardOutput.write(Data((answer + "\n").utf8))
            }
            exit(0)
        }
        thread.stackSize = 8 << 20
        thread.start()
        dispatchMain()
    }

    /// The answer line to one request line.
    public func answer(line: String) -> String {
        guard let request = try? JSONValue.parse(Data(line.utf8)), let o = request.object else {
            return encode([
                "id": .null, "error": .string("a request is one line of JSON: {\"id\", \"method\", \"params\"}"),
            ])
        }
        var reply: [String: JSONValue] = ["id": o["id"] ?? .null]
        do {
            reply["result"] = try answer(method: o["method"]?.string ?? "", params: o["params"]?.object ?? [:])
        } catch {
            reply["error"] = .string("\(error)")
        }
        return encode(reply)
    }

    func encode(_ o: [String: JSONValue]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(JSONValue.object(o))).map { String(decoding: $0, as: UTF8.self) }
            ?? #"{"error":"the answer could not be encoded"}"#
    }

    func widget(_ params: [String: JSONValue]) throws -> _WidgetDescriptor {
        let kind = params["kind"]?.string ?? ""
        guard let w = widgets.first(where: { $0.kind == kind }) else {
            throw IntentError("no widget `\(kind)` here (there are: \(widgets.map(\.kind).joined(separator: ", ")))")
        }
        return w
    }

    /// The provider's context and the views' environment for a request.
    func context(_ w: _WidgetDescriptor, _ params: [String: JSONValue]) -> (TimelineProviderContext, EnvironmentValues)
    {
        let c = params["context"]?.object ?? [:]
        let familyName = c["family"]?.string ?? params["family"]?.string
        let family = WidgetFamily.from(familyName, supported: w.families)
        let (dw, dh) = Render.cells(family.dash)
        let width = c["width"]?.number ?? Double(dw), height = c["height"]?.number ?? Double(dh)
        let size = CGSize(width: width * 8, height: height * 16)
        var env = EnvironmentValues()
        env.kind = w.kind
        env.families = w.families
        env.widgetFamily = family
        env.displaySize = size
        env.colorScheme = c["colorScheme"]?.string == "light" ? .light : .dark
        if let tz = c["timeZone"]?.string.flatMap(TimeZone.init(identifier:)) { env.timeZone = tz }
        return (
            TimelineProviderContext(family: family, displaySize: size, isPreview: c["isPreview"]?.bool ?? false), env
        )
    }

    func answer(method: String, params: [String: JSONValue]) throws -> JSONValue {
        switch method {
        case "describe":
            return .object([
                "protocol": .number(Double(ExtensionProtocol.version)), "widgets": .array(widgets.map { describe($0) }),
                "activities": .array(activities.map { .object(["kind": .string($0.kind)]) }),
            ])
        case "activity":
            return try presentActivity(params)
        case "placeholder":
            let w = try widget(params)
            return try located(w) {
                var (ctx, env) = context(w, params)
                env.redactionReasons = .placeholder
                return try w.placeholder(ctx, env)
            }
        case "snapshot":
            let w = try widget(params)
            return try located(w) {
                let (ctx, env) = context(w, params)
                // `swiftdash preview` draws the widget's own `#Preview` where it has one.
                let now = (params["context"]?.object?["now"]?.number).map(Date.init(timeIntervalSince1970:))
                if ctx.isPreview, let own = try previewSnapshot(w, env, now: now) { return own }
                return try w.snapshot(params["config"]?.object ?? [:], ctx, env)
            }
        case "preview":
            let w = try widget(params)
            return try located(w) { try previewTimelines(w, context(w, params).1) }
        case "timeline":
            let w = try widget(params)
            return try located(w) {
                let (ctx, env) = context(w, params)
                return try w.timeline(params["config"]?.object ?? [:], ctx, env)
            }
        case "options":
            let w = try widget(params)
            return try located(w) {
                .object([
                    "options": .array(try w.options(params["parameter"]?.string ?? "", params["config"]?.object ?? [:]))
                ])
            }
        case "perform":
            let w = try widget(params)
            return try located(w) { try perform(w, params) }
        default:
            throw IntentError("unknown method `\(method.prefix(40))`")
        }
    }

    /// Runs a widget's request; its error names the file and line that configure the widget (the
    /// place to look), then the reason.
    func located(_ w: _WidgetDescriptor, _ body: () throws -> JSONValue) throws -> JSONValue {
        do {
            return try body()
        } catch {
            throw IntentError(w.source.isEmpty ? "\(error)" : "\(w.source): \(error)")
        }
    }

    /// Runs the intent a control's action names; an empty answer, so that swiftdash reloads the
    /// timeline, as WidgetKit does after an intent.
    func perform(_ w: _WidgetDescriptor, _ params: [String: JSONValue]) throws -> JSONValue {
        let action = params["action"]?.string ?? ""
        let ran = try Wait.async { try await IntentRegistry.perform(action) }
        if !ran {
            // Started again since the control was drawn: draw the timeline to learn its intents.
            let (ctx, env) = context(w, params)
            _ = try w.timeline(params["config"]?.object ?? [:], ctx, env)
            guard try Wait.async({ try await IntentRegistry.perform(action) }) else {
                throw IntentError("no intent for the action `\(action.prefix(60))` in this widget's views")
            }
        }
        return .object([:])
    }

    /// A widget's description; without `parameters`, its names and families alone (no intent is
    /// made, so no parameter's default runs).
    func describe(_ w: _WidgetDescriptor, parameters: Bool = true) -> JSONValue {
        var families: [String] = []
        for f in w.families where !families.contains(f.dash.rawValue) { families.append(f.dash.rawValue) }
        return .object([
            "kind": .string(w.kind), "displayName": .string(String(w.displayName.prefix(60))),
            "description": .string(w.description), "families": .array(families.map { .string($0) }),
            "parameters": .array(parameters ? w.parameters() : []),
            // Answers `preview` (every entry of the widget's own `#Preview`s).
            "previews": .bool(true),
        ])
    }
}
