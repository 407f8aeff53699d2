import Foundation
import DashWidgets

/// "Failed to load" with the whole reason (these messages say what to do, so they get the
/// tile's rows), wrapped.
func tileFailureView(_ title: String, _ reason: String, _ ctx: TimelineContext) -> TileView {
    VStack {
        titleRow(title)
        Text("Failed to load").font(.headline).foregroundStyle(.negative)
        Text(reason).font(.caption).lineLimit(max(1, ctx.size.height - 2))
    }
}

/// A detail pane before the first load.
func notLoadedView(_ title: String) -> TileView {
    VStack {
        Text(title).font(.title)
        Text("No data loaded yet").font(.caption)
    }
}

enum APIViews {
    static func color(_ level: APIThreshold.Level) -> SemanticColor {
        switch level {
        case .normal: return .primary
        case .warning: return .warning
        case .alert: return .negative
        }
    }

    static func value(_ v: APIValue) -> TileView {
        if let t = v.text { return Text(t).font(.monospacedDigit).foregroundStyle(color(v.level)) }
        return Text(v.problem ?? "—").font(.caption).foregroundStyle(.warning)
    }

    static func row(_ v: APIValue) -> TileView {
        HStack {
            Text(v.label).lineLimit(1)
            Spacer()
            value(v).lineLimit(1)
        }
    }

    static func tile(_ entry: APIEntry, _ ctx: TimelineContext) -> TileView {
        let link = DeepLink.make(kind: APIWidget.kind, "fields")
        let view: TileView
        if let failure = entry.failure {
            view = tileFailureView(entry.title, failure, ctx).widgetURL(link)
        } else if entry.values.isEmpty {
            // No field yet: what the answer holds, so the Edit form's preview helps pick paths.
            view = VStack {
                titleRow(entry.title)
                Text("No fields set; paths found:").font(.caption)
                for p in entry.paths.prefix(max(1, ctx.size.height - 2)) { Text(p).lineLimit(1) }
            }.widgetURL(link)
        } else {
            let shown = entry.shown(ctx.family)
            switch ctx.family {
            case .small:
                let v = shown.first ?? entry.values[0]
                view = VStack {
                    Text(entry.title).font(.caption).lineLimit(1)
                    Spacer()
                    Text(v.label).font(.headline).lineLimit(1)
                    value(v).lineLimit(2)
                    if let n = entry.notice { Text(n).font(.caption).foregroundStyle(.warning).lineLimit(1) }
                }.widgetURL(link)
            case .medium:
                view = VStack {
                    titleRow(entry.title, entry.notice == nil ? "" : "rate limited", color: .accent)
                    for v in shown.prefix(entry.layout["medium"]?.isEmpty == false ? 4 : 3) { row(v) }
                }.widgetURL(link)
            case .large, .extraLarge:
                view = VStack {
                    titleRow(entry.title)
                    if let n = entry.notice { Text(n).font(.caption).foregroundStyle(.warning).lineLimit(2) }
                    Divider()
                    for v in shown.prefix(max(1, ctx.size.height - 3)) { row(v) }
                    if entry.showsPaths, ctx.size.height - 4 - shown.count > 0 {
                        Text("Paths found:").font(.caption)
                        for p in entry.paths.prefix(ctx.size.height - 4 - shown.count) { Text(p).lineLimit(1) }
                    }
                }.widgetURL(link)
            }
        }
        return entry.isPlaceholder ? view.redacted() : view
    }

    static func detail(_ link: DeepLink, _ entry: APIEntry?, _ ctx: TimelineContext) -> TileView {
        guard let entry else {
            return notLoadedView("API")
        }
        return VStack {
            Text(entry.title).font(.title)
            if let f = entry.failure {
                Text("Failed to load").font(.headline).foregroundStyle(.negative)
                Text(f)
            }
            if let n = entry.notice { Text(n).foregroundStyle(.warning) }
            if !entry.values.isEmpty {
                Divider()
                for v in entry.values {
                    HStack {
                        Text(v.label).font(.headline)
                        Spacer()
                        value(v)
                    }
                    if !v.limits.isEmpty { Text("thresholds: " + v.limits.joined(separator: ", ")).font(.caption) }
                }
            }
            if !entry.paths.isEmpty {
                Divider()
                Text("Paths in the answer (for fields: Label = path | format)").font(.headline)
                for p in entry.paths { Text(p).lineLimit(1) }
            }
        }
    }
}
