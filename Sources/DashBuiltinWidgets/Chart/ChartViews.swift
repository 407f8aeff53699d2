import Foundation
import DashWidgets

enum ChartViews {
    static func number(_ v: Double) -> String {
        let a = abs(v)
        if v == v.rounded(), a < 1e6 { return String(Int(clamping: v)) }
        if a >= 1000 { return APIFormat.grouped(v, digits: 0) }
        if a >= 100 { return FixedFormat.decimal(v, places: 0) }
        if a >= 10 { return FixedFormat.decimal(v, places: 1) }
        return FixedFormat.decimal(v, places: 2)
    }

    static func color(_ e: ChartEntry) -> SemanticColor { APIViews.color(e.level) }

    /// The series as rows of text, top row first, on a fixed scale: `bars` fills each column
    /// up to its value, `line` marks only the cell the value falls in; a threshold inside the
    /// scale is a dotted row (`┄`) where the data leaves room.
    static func rows(_ e: ChartEntry, width: Int, height: Int) -> [String] {
        let w = max(1, width), h = max(1, height)
        let series = Array(e.values.suffix(w))
        let (lo, hi) = e.range
        let eighths = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        var grid = Array(repeating: Array(repeating: " ", count: series.count), count: h)
        for t in e.thresholds where t.limit > lo && t.limit < hi {
            let row = h - 1 - Int(clamping: ((t.limit - lo) / (hi - lo) * Double(h)).rounded(.down), to: 0...h - 1)
            for c in 0..<series.count { grid[row][c] = "┄" }
        }
        for (c, v) in series.enumerated() {
            let clamped = min(hi, max(lo, v))
            // 1 ... h*8 eighths, so the lowest value still shows.
            let eighth = ((clamped - lo) / (hi - lo) * Double(h * 8 - 1)).rounded()
            let filled = 1 + Int(clamping: eighth, to: 0...h * 8 - 1)
            for r in 0..<h {
                let inRow = min(8, max(0, filled - r * 8))
                let top = filled - r * 8 <= 8
                guard inRow > 0, e.style == .bars || top else { continue }
                grid[h - 1 - r][c] = eighths[inRow - 1]
            }
        }
        return grid.map { $0.joined() }
    }

    static func chart(_ e: ChartEntry, width: Int, height: Int) -> TileView {
        if e.style == .gauge {
            let (lo, hi) = e.range
            let f = e.latest.map { (min(hi, max(lo, $0)) - lo) / (hi - lo) } ?? 0
            return VStack {
                Gauge(value: f, color: color(e))
                HStack {
                    Text(number(lo)).font(.caption)
                    Spacer()
                    Text(number(hi)).font(.caption)
                }
            }
        }
        return VStack(spacing: 0) {
            for r in rows(e, width: width, height: height) { Text(r).foregroundStyle(color(e)) }
        }
    }

    static func latest(_ e: ChartEntry) -> TileView {
        Text(e.latest.map { number($0) + e.unit } ?? "—").font(.headline).foregroundStyle(color(e))
    }

    static func tile(_ entry: ChartEntry, _ ctx: TimelineContext) -> TileView {
        let link = DeepLink.make(kind: ChartWidget.kind, "history")
        let w = max(1, ctx.size.width), h = max(3, ctx.size.height)
        let view: TileView
        if let failure = entry.failure {
            view = tileFailureView(entry.title, failure, ctx).widgetURL(link)
        } else {
            switch ctx.family {
            case .small:
                view = VStack {
                    HStack {
                        Text(entry.title).font(.caption).lineLimit(1)
                        Spacer()
                        latest(entry)
                    }
                    chart(entry, width: w, height: max(1, h - (entry.notice == nil ? 1 : 2)))
                    if let n = entry.notice { Text(n).font(.caption).foregroundStyle(.warning).lineLimit(1) }
                }.widgetURL(link)
            case .medium, .large, .extraLarge:
                let (lo, hi) = entry.range
                let extra = entry.notice == nil ? 0 : 1
                view = VStack {
                    HStack {
                        Text(entry.title).font(.headline).foregroundStyle(.accent).lineLimit(1)
                        Spacer()
                        latest(entry)
                    }
                    chart(entry, width: w, height: max(1, h - (entry.style == .gauge ? 1 : 2) - extra))
                    if entry.style != .gauge {
                        HStack {
                            Text("\(number(lo))–\(number(hi))\(entry.unit)").font(.caption)
                            Spacer()
                            Text(entry.thresholds.map(\.text).joined(separator: " ")).font(.caption)
                        }.lineLimit(1)
                    }
                    if let n = entry.notice { Text(n).font(.caption).foregroundStyle(.warning).lineLimit(1) }
                }.widgetURL(link)
            }
        }
        return entry.isPlaceholder ? view.redacted() : view
    }

    static func detail(_ link: DeepLink, _ entry: ChartEntry?, _ ctx: TimelineContext) -> TileView {
        guard let e = entry else {
            return notLoadedView("Chart")
        }
        if let f = e.failure { return tileFailureView(e.title, f, ctx) }
        let w = max(10, ctx.size.width)
        let vs = e.values
        let mean = vs.isEmpty ? 0 : vs.reduce(0, +) / Double(vs.count)
        return VStack {
            HStack {
                Text(e.title).font(.title)
                Spacer()
                latest(e)
            }
            if let n = e.notice { Text(n).foregroundStyle(.warning) }
            chart(e, width: w, height: max(4, min(12, ctx.size.height / 2)))
            Divider()
            Text(
                "\(vs.count) points · low \(vs.min().map(number) ?? "—") · mean \(number(mean)) · "
                    + "high \(vs.max().map(number) ?? "—")\(e.unit)")
            Text(
                "scale \(e.fixedMin.map(number) ?? "auto") to \(e.fixedMax.map(number) ?? "auto")"
                    + (e.thresholds.isEmpty ? "" : " · thresholds " + e.thresholds.map(\.text).joined(separator: ", "))
                    + (e.bell ? " · bell on crossing" : "")
            ).font(.caption)
        }
    }
}
