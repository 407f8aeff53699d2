import Foundation
import ArgumentParser
import DashCore
import DashWidgets
import DashRender
import DashApp
import DashHome
import DashHomeFiles
import DashRuntime
import DashBuiltinWidgets
import DashScheduler
import DashCurses
struct Preview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a widget in every size side by side, like Xcode's preview canvas.",
        usage: "swiftdash preview <kind> [<options>]",
        discussion: """
            Draws the widget's snapshot (sample data, no network) in each family it supports, with a \
            caption under each. A widget written with SwiftdashKit that has its own #Preview draws \
            that instead, as Xcode's canvas does: every entry its author wrote, in order, each \
            captioned with the preview's name, "entry 2 of 3" and the entry's date (--entry picks \
            one, --at the one current then). --placeholder draws the redacted placeholder instead; \
            --live runs the real timeline (network widgets fetch) and draws its current entry.

            Examples:
              swiftdash preview clock
              swiftdash preview shopping-widget --entry 2
              swiftdash preview crypto --family small --set coin=ETH
              swiftdash preview news --live --set feed=https://example.org/rss.xml
            """)

    @Argument(help: "The widget kind (see `swiftdash widgets`).", completion: ShellCompletion.kinds)
    var kind: String

    @Option(
        help: "small, medium, large, extraLarge or all.",
        completion: .list(["small", "medium", "large", "extraLarge", "all"]))
    var family: String = "all"

    @Flag(help: "Draw the placeholder (redacted) instead of the snapshot.")
    var placeholder = false

    @Flag(help: "Run the real timeline instead of the snapshot.")
    var live = false

    @Option(
        name: .customLong("set"), parsing: .singleValue, help: ArgumentHelp(setHelp, valueName: "key=value"))
    var settings: [String] = []

    @Option(help: "Draw as of this time (ISO 8601).")
    var at: String?

    @Option(help: ArgumentHelp("Draw only entry N (from 1) of the widget's own #Preview.", valueName: "N"))
    var entry: Int?

    @Option(help: ArgumentHelp(themeHelp))
    var theme: String?

    @Flag(help: "Colour output with ANSI escape sequences.")
    var ansi = false

    func run() async throws {
        guard let widget = bundle[kind] else {
            throw unknownWidget(kind)
        }
        let families: [WidgetFamily]
        if family == "all" {
            families = widget.supportedFamilies
        } else if let f = WidgetFamily(rawValue: family) {
            guard widget.supports(f) else {
                throw usageFailure(
                    "\(kind) has no \(f.rawValue) size; it supports \(widget.supportedFamilies.map(\.rawValue).joined(separator: ", "))"
                )
            }
            families = [f]
        } else {
            throw usageFailure("unknown family '\(family)'; use small, medium, large, extraLarge or all")
        }
        var config = WidgetConfig()
        for s in settings {
            guard let eq = s.firstIndex(of: "=") else {
                throw usageFailure(
                    "--set '\(s)' is not key=value; parameters of \(kind): \(widget.schema.parameters.map(\.key).joined(separator: ", "))"
                )
            }
            let key = String(s[..<eq]), value = String(s[s.index(after: eq)...])
            do { config[key] = try widget.schema.parse(key: key, text: value) } catch {
                throw usageFailure(error.description)
            }
        }
        let now = try parseInstant(at)
        if entry != nil, live || placeholder {
            throw usageFailure(
                "--entry picks an entry of the widget's own #Preview; it does not go with --live or --placeholder")
        }
        if let entry, entry < 1 { throw usageFailure("--entry \(entry): entries count from 1") }
        let (th, _) = try loadTheme(theme)
        var items: [PreviewCanvas.Item] = []
        var ownShown = false
        // Live data comes from the provider host, as on the home screen.
        let host = live ? ProviderHosting.start { _ in } : nil
        defer { host?.stop() }
        let loader = ProviderHosting.hosted(appEnvironment, by: host).bundle[kind] ?? widget
        for f in families {
            var ctx = Loads.context(
                family: f, now: now, environment: appEnvironment,
                colorScheme: th.isDark ? .dark : .light, isPreview: !live)
            let view: TileView
            var caption = "\(f.displayName) \(GridMetrics.tileSize(f))" + (live || placeholder ? "" : " · sample")
            if placeholder {
                view = widget.view(for: widget.placeholder(in: ctx), in: ctx).redacted()
                caption = "\(f.displayName) placeholder"
            } else if live {
                ctx.isPreview = false
                do {
                    let t = try await Loads.run(loader, configuration: config, in: ctx).get()
                    if let e = t.entry(at: now) ?? t.entries.first {
                        view = widget.view(for: e, in: ctx)
                        caption = "\(f.displayName) · \(t.entries.count) \(t.entries.count == 1 ? "entry" : "entries")"
                    } else {
                        view = Text("empty timeline").foregroundStyle(.warning)
                    }
                } catch {
                    view = VStack {
                        Text("Failed to load").font(.headline).foregroundStyle(.negative)
                        Text(TextSanitizer.singleLine("\(error)")).font(.caption)
                    }
                }
            } else if let own = try ownPreview(widget, config, ctx), !own.isEmpty {
                items += own
                ownShown = true
                continue
            } else {
                view = widget.view(for: await widget.snapshot(for: config, in: ctx), in: ctx)
            }
            items.append(PreviewCanvas.Item(family: f, view: view, caption: caption))
        }
        if let entry, !ownShown {
            throw usageFailure("--entry \(entry): \(kind) has no #Preview of its own; its preview is a sample snapshot")
        }
        let title = "\(widget.displayName) (\(widget.kind)) — \(widget.description)"
        let buffer = PreviewCanvas.draw(
            title: title, items: items,
            environment: RenderEnvironment(theme: th, now: now, timeZone: appEnvironment.timeZone))
        emit(buffer, ansi: ansi)
    }

    /// The widget's own `#Preview`s in family `ctx.family` (an extension that answers `preview`),
    /// one item per entry shown: every entry in the order written, or `--entry N`, or the entry
    /// current at `--at`. nil: the widget has no previews of its own (the sample snapshot is drawn).
    func ownPreview(_ widget: Widget, _ config: WidgetConfig, _ ctx: TimelineContext) throws -> [PreviewCanvas.Item]? {
        guard let ask = widget.previews else { return nil }
        let f = ctx.family
        let previews: [PreviewTimeline]
        do { previews = try ask(config, ctx) } catch {
            let view = VStack {
                Text("Failed to load").font(.headline).foregroundStyle(.negative)
                Text(TextSanitizer.singleLine("\(error)")).font(.caption)
            }
            return [PreviewCanvas.Item(family: f, view: view, caption: "#Preview")]
        }
        var items: [PreviewCanvas.Item] = []
        for p in previews {
            let name =
                "#Preview" + (p.name.map { " \"\($0)\"" } ?? "")
                + (p.family.map { $0 == f ? "" : " (\($0.rawValue))" } ?? "")
            guard !p.entries.isEmpty else {
                let view = Text("empty timeline").foregroundStyle(.warning)
                items.append(PreviewCanvas.Item(family: f, view: view, caption: name))
                continue
            }
            let shown: [Int]
            if let entry {
                guard entry <= p.entries.count else {
                    throw usageFailure(
                        "--entry \(entry): the \(name) for \(f.rawValue) has \(p.entries.count) "
                            + (p.entries.count == 1 ? "entry" : "entries"))
                }
                shown = [entry - 1]
            } else if at != nil {
                // As a timeline's: the last entry dated at or before --at, else the first.
                shown = [p.entries.lastIndex { $0.date <= ctx.now } ?? 0]
            } else {
                shown = Array(p.entries.indices)
            }
            for i in shown {
                let e = p.entries[i]
                let caption = [name, "entry \(i + 1) of \(p.entries.count)", Self.date(e.date)]
                items.append(
                    PreviewCanvas.Item(
                        family: f, view: widget.view(for: e, in: ctx), caption: caption.joined(separator: "\n")))
            }
        }
        return items
    }

    /// An entry's date in the caption, in the user's time zone.
    static func date(_ d: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = appEnvironment.timeZone
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: d)
    }
}
