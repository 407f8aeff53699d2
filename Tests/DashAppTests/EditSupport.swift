import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// An entry that says what configuration it was made with.
struct ProbeEntry: TimelineEntry {
    var date: Date
    var lines: [String]
    var summary: String { lines.joined(separator: " | ") }
}

/// A provider that draws its configuration: the tile and the preview show what was saved.
struct ProbeProvider: TimelineProvider {
    var label: String
    func describe(_ c: WidgetConfig) -> [String] {
        [
            "\(label) \(c.string("source")) \(c.string("symbol")) \(c.string("name"))",
            "n=\(c.string("count")) compact=\(c.string("compact"))",
            "tags=\(c.list("tags").joined(separator: "+")) note=\(c.string("label"))",
        ]
    }
    func placeholder(in context: TimelineContext) -> ProbeEntry {
        ProbeEntry(date: context.now, lines: ["placeholder"])
    }
    func snapshot(for c: WidgetConfig, in context: TimelineContext) async -> ProbeEntry {
        ProbeEntry(date: context.now, lines: ["sample"] + describe(c))
    }
    func timeline(for c: WidgetConfig, in context: TimelineContext) async throws -> Timeline<ProbeEntry> {
        Timeline(entries: [ProbeEntry(date: context.now, lines: describe(c))], policy: .never)
    }
}

/// Every parameter kind the schema has.
let probeSchema = ConfigurationSchema([
    Parameter(
        key: "source", title: "Source", help: "Where it comes from",
        kind: .enumeration([
            ParameterOption("alpha", title: "Alpha"), ParameterOption("beta", title: "Beta"),
            ParameterOption("gamma", title: "Gamma"),
        ]), default: .string("alpha")),
    Parameter(
        key: "symbol", title: "Symbol", help: "A ticker symbol",
        kind: .dynamicEnumeration(
            fixed: [
                ParameterOption("BTC", title: "Bitcoin"),
                ParameterOption("ETH", title: "Ether"),
            ],
            pattern: "[A-Z]{2,5}"),
        default: .string("BTC"), dynamicOptions: { _ in [ParameterOption("LTC", title: "Litecoin")] }),
    Parameter(
        key: "name", title: "Name", help: "Lower-case letters", kind: .string(pattern: "[a-z]+"),
        default: .string("home")
    ).allowing("lower-case letters such as home"),
    Parameter(key: "count", title: "Count", help: "How many", kind: .integer(1...9), default: .int(3)),
    Parameter(key: "compact", title: "Compact", help: "Fewer lines", kind: .bool, default: .bool(false)),
    Parameter(
        key: "since", title: "Since", help: "The first day", kind: .date,
        default: .date(Date(timeIntervalSince1970: 1_793_491_200))),  // 2026-11-01
    Parameter(key: "path", title: "Folder", help: "A folder to watch", kind: .filePath, default: .string("")),
    Parameter(
        key: "tags", title: "Tags", help: "Words to match", kind: .list(itemPattern: "[a-z]+"),
        default: .list([])
    ).allowing("a lower-case word"),
    Parameter(key: "label", title: "Label", help: "Any text", kind: .string(pattern: nil), default: .string("")),
    Parameter(
        key: "token", title: "Token", help: "An API token", kind: .string(), default: .string(""), isSecret: true,
        environmentVariable: "PROBE_TOKEN"),
])

func probeView(_ e: ProbeEntry, _ ctx: TimelineContext) -> TileView {
    VStack { for l in e.lines { Text(l) } }
}

/// A local widget (its preview runs the real timeline).
let probeWidget = Widget(
    kind: "probe", displayName: "Probe", description: "Shows its settings",
    supportedFamilies: [.small, .medium, .large], schema: probeSchema, cost: .local,
    provider: ProbeProvider(label: "probe"), view: probeView)

/// A network widget (its preview is the snapshot with sample data).
let remoteWidget = Widget(
    kind: "remote", displayName: "Remote", description: "From the network",
    supportedFamilies: [.medium, .large],
    schema: ConfigurationSchema([
        Parameter(
            key: "name", title: "Name", help: "Lower-case letters",
            kind: .string(pattern: "[a-z]+"), default: .string("home"))
    ]),
    cost: .budgeted, provider: ProbeProvider(label: "remote"), view: probeView)

/// A widget with nothing to set, small only.
let dotWidget = Widget(
    kind: "dot", displayName: "Dot", description: "A dot", supportedFamilies: [.small], cost: .local,
    provider: ProbeProvider(label: "dot"), view: { _, _ in Text("●") })

let editWidgets = [probeWidget, remoteWidget, dotWidget, storyWidget]

/// A harness over tiles of `kinds` (each its own tile, ids t1… and w1…), every load answered.
func editHarness(
    _ tiles: [(String, WidgetFamily)] = [("probe", .medium), ("stories", .medium)],
    size: Size = Size(width: 80, height: 24), environment: [String: String] = [:],
    theme: Theme = .dark
) -> AppHarness {
    let home = HomeConfig(
        tiles: tiles.enumerated().map { i, t in
            TileInstance(id: "t\(i + 1)", family: t.1, items: [WidgetInstance(id: "w\(i + 1)", kind: t.0)])
        })
    let h = AppHarness(widgets: editWidgets, home: home, size: size, now: start, theme: theme, environment: environment)
    answerAll(h)
    return h
}

/// Answers every open timeline load with what the provider would say.
func answerAll(_ h: AppHarness) {
    while let job = h.loads.first {
        let c = job.request.widget.schema.resolve(job.request.configuration)
        if job.request.widget.kind == "stories" {
            h.finish(job.id, entries: [StoryEntry(date: start, stories: ["Story of \(job.id)", "b"])])
        } else {
            let lines = ProbeProvider(label: job.request.widget.kind).describe(c)
            h.finish(job.id, entries: [ProbeEntry(date: h.clock.now, lines: lines)])
        }
    }
}
