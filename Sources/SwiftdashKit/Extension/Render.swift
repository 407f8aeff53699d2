import Foundation
internal import DashWidgets

/// Entries and timelines as the extension protocol's JSON (docs/extensions.md, TIMELINE and ENTRY):
/// each entry carries a view per family the widget supports, drawn with that family in the
/// environment (`@Environment(\.widgetFamily)`).
enum Render {
    /// A tile's size in cells when the request does not say (the grid's unit is about 11 by 4).
    static func cells(_ family: DashWidgets.WidgetFamily) -> (Int, Int) {
        switch family {
        case .small: return (22, 8)
        case .medium: return (46, 8)
        case .large: return (46, 18)
        case .extraLarge: return (94, 18)
        }
    }

    static func descriptor<Intent: WidgetConfigurationIntent, Entry: TimelineEntry, Content: View>(
        kind: String, intent: Intent.Type,
        placeholder: @escaping (TimelineProviderContext, EnvironmentValues) throws -> JSONValue,
        snapshot: @escaping (Intent, TimelineProviderContext) throws -> Entry,
        timeline: @escaping (Intent, TimelineProviderContext) throws -> Timeline<Entry>,
        content: @escaping (Entry) -> Content
    ) -> _WidgetDescriptor {
        _WidgetDescriptor(
            kind: dashKind(kind), displayName: kind,
            parameters: { Parameters.describe(Intent.self) },
            placeholder: placeholder,
            snapshot: { config, ctx, env in
                let intent = try Wait.async { try await Parameters.decode(Intent.self, config) }
                return entry(try snapshot(intent, ctx), content, env)
            },
            timeline: { config, ctx, env in
                let intent = try Wait.async { try await Parameters.decode(Intent.self, config) }
                let t = try timeline(intent, ctx)
                return .object([
                    "entries": .array(t.entries.prefix(ExtensionProtocol.maxEntries).map { entry($0, content, env) }),
                    "policy": t.policy.json,
                ])
            },
            options: { key, _ in
                let intent = Intent()
                guard let p = Parameters.all(intent).first(where: { $0.key == key })?.parameter else {
                    throw IntentError("no parameter `\(key)`")
                }
                return try Wait.async { try await p.suggested() }
            },
            drawEntry: { any, env in (any as? Entry).map { entry($0, content, env) } })
    }

    /// One entry: its date, relevance, a one-line summary and a view per family.
    static func entry<Entry: TimelineEntry, Content: View>(
        _ entry: Entry, _ content: (Entry) -> Content, _ env: EnvironmentValues
    ) -> JSONValue {
        var o = views(entry.date, env) { content(entry) }
        if let r = entry.relevance {
            var rel: [String: JSONValue] = ["score": .number(Double(r.score))]
            if r.duration > 0 { rel["duration"] = .number(r.duration) }
            o["relevance"] = .object(rel)
        }
        return .object(o)
    }

    static func view<V: View>(_ view: V, date: Date, _ env: EnvironmentValues) -> JSONValue {
        .object(views(date, env) { view })
    }

    static func views<V: View>(_ date: Date, _ env: EnvironmentValues, _ make: () -> V) -> [String: JSONValue] {
        var views: [String: JSONValue] = [:]
        var summary = ""
        for family in drawn(env.families) {
            var e = env
            e.widgetFamily = family
            if family.dash != env.widgetFamily.dash {
                let (w, h) = cells(family.dash)
                e.displaySize = CGSize(width: w * 8, height: h * 16)
            }
            let nodes = EnvironmentValues.$current.withValue(e) { render(make(), e) }
            views[family.dash.rawValue] = Overflow.fit(single(nodes), in: e.displaySize)
            if summary.isEmpty || family.dash == env.widgetFamily.dash { summary = plainText(nodes) }
        }
        // The one-line summary (`swiftdash snapshot --line`, the tmux status line) is the widget's
        // accessoryInline view when it has one: WidgetKit's own one-line form of the widget.
        if env.families.contains(.accessoryInline) {
            var e = env
            e.widgetFamily = .accessoryInline
            e.displaySize = CGSize(width: 40 * 8, height: 16)
            let inline = plainText(EnvironmentValues.$current.withValue(e) { render(make(), e) })
            if !inline.isEmpty { summary = inline }
        }
        return [
            "date": .number(date.timeIntervalSince1970), "views": .object(views),
            "summary": .string(String(summary.prefix(300))),
        ]
    }

    /// The family drawn for each of swiftdash's sizes, as WidgetKit picks: a tile shows its own
    /// system family; an accessory family (lock screen, watch) is drawn in the small tile only when
    /// the widget supports no system family of that size.
    static func drawn(_ families: [WidgetFamily]) -> [WidgetFamily] {
        var out: [WidgetFamily] = []
        for family in families where !out.contains(where: { $0.dash == family.dash }) {
            out.append(families.first { $0.dash == family.dash && $0.isSystem } ?? family)
        }
        return out
    }
}

/// Waits on the protocol's thread for a completion handler or an async function: the main
/// queue stays free for code that calls its completion there (`DispatchQueue.main.async`).
enum Wait {
    final class Box<T>: @unchecked Sendable {
        var value: T?
        var error: Error?
        let done = DispatchSemaphore(value: 0)
        let lock = NSLock()
        var set = false
        func put(_ v: T?, _ e: Error?) {
            let first = lock.withLock {
                defer { set = true }
                return !set
            }
            guard first else { return }
            (value, error) = (v, e)
            done.signal()
        }
    }
    struct Unchecked<T>: @unchecked Sendable { let value: T }

    /// The value a completion handler is called with (its first call).
    static func value<T>(_ body: (@escaping (T) -> Void) -> Void) throws -> T {
        let box = Box<T>()
        body { box.put($0, nil) }
        if let missing = Missing.take() { throw Missing.Method(name: missing) }
        box.done.wait()
        return box.value!
    }

    static func async<T>(_ body: @escaping () async throws -> T) throws -> T {
        let box = Box<T>()
        let work = Unchecked(value: body)
        Task.detached {
            do { box.put(try await work.value(), nil) } catch { box.put(nil, error) }
        }
        box.done.wait()
        if let e = box.error { throw e }
        return box.value!
    }
}
