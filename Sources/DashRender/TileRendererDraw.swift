import Foundation
import DashCore
import DashWidgets

// Drawing a measured view tree into the buffer: stacks, text, gauges, sparklines, highlights.
extension TileRenderer {
    // MARK: draw

    func aligned(_ size: Size, in rect: Rect, _ a: TileView.StackAlignment) -> Rect {
        let w = min(size.width, rect.width), h = min(size.height, rect.height)
        let x: Int
        switch a.horizontal {
        case .leading: x = rect.x
        case .center: x = rect.x + (rect.width - w) / 2
        case .trailing: x = rect.maxX - w
        }
        let y: Int
        switch a.vertical {
        case .top: y = rect.y
        case .center: y = rect.y + (rect.height - h) / 2
        case .bottom: y = rect.maxY - h
        }
        return Rect(x: x, y: y, width: w, height: h)
    }

    mutating func draw(_ v: TileView, in rect: Rect, env: RenderEnvironment, axis: Axis) {
        guard !rect.isEmpty else { return }
        switch v {
        case .empty, .spacer: return
        case .text(let s, let ts):
            let style = env.cellStyle(ts.inheriting(env.textStyle))
            let lines = textLines(s, width: rect.width, height: rect.height, lineLimit: env.lineLimit)
            for (i, line) in lines.enumerated() {
                buffer.write(
                    env.redacted ? Self.redact(line) : line, x: rect.x, y: rect.y + i,
                    style: env.redacted ? style.with(foreground: env.theme[.redacted]) : style, clip: rect)
            }
        case .liveDate(let d, let ls, let ts):
            let (s, next) = liveText(d, ls, env)
            if !env.redacted { result.noteChange(next) }
            let style = env.cellStyle(ts.inheriting(env.textStyle))
            let line = DisplayWidth.truncate(s, to: rect.width)
            buffer.write(
                env.redacted ? Self.redact(line) : line, x: rect.x, y: rect.y,
                style: env.redacted ? style.with(foreground: env.theme[.redacted]) : style, clip: rect)
        case .divider:
            let style = Style(foreground: env.theme[.secondaryText], background: env.background, attributes: [.dim])
            if axis == .vertical {
                buffer.write(String(repeating: "─", count: rect.width), x: rect.x, y: rect.y, style: style, clip: rect)
            } else {
                for y in rect.y..<rect.maxY { buffer.write("│", x: rect.x, y: y, style: style, clip: rect) }
            }
        case .padding(let i, let c):
            draw(
                c, in: rect.inset(top: i.top, left: i.leading, bottom: i.bottom, right: i.trailing), env: env,
                axis: axis)
        case .frame(_, _, let a, let c), .expand(_, _, let a, let c):
            let s = measure(c, rect.size, env, axis: axis)
            draw(c, in: aligned(s, in: rect, a), env: env, axis: axis)
        case .gauge(let value, let color):
            drawGauge(value, color, rect, env)
        case .sparkline(let values, let color, _):
            drawSparkline(values, color, rect, env)
        case .styled(_, let c), .lineLimit(_, let c), .redacted(let c):
            draw(c, in: rect, env: childEnv(v, env), axis: axis)
        case .firstFitting(let options):
            draw(fitting(options, rect.size, env, axis), in: rect, env: env, axis: axis)
        case .link(let url, let c):
            let s = measure(c, rect.size, env, axis: axis)
            let r = Rect(x: rect.x, y: rect.y, width: axis == .vertical ? rect.width : s.width, height: s.height)
            draw(c, in: rect, env: env, axis: axis)
            result.tapRegions.append(TapRegion(rect: r, url: url))
            if env.highlightedLink == url { highlight(r, env) }
        case .widgetURL(let url, let c):
            if result.widgetURL == nil { result.widgetURL = url }
            draw(c, in: rect, env: env, axis: axis)
        case .control(let c):
            drawControl(c, in: rect, env: env)
        case .invalidatable(let pending, let c):
            draw(c, in: rect, env: env, axis: axis)
            if pending && !env.redacted { Self.markPending(rect, env, &buffer) }
        case .stack(let ax, let a, let spacing, let children):
            let sizes = stackSizes(ax, spacing, children, rect.size, env)
            if ax == .vertical {
                var y = rect.y
                for (i, c) in children.enumerated() {
                    let s = sizes[i]
                    if y >= rect.maxY { break }
                    let slot = Rect(x: rect.x, y: y, width: rect.width, height: min(s.height, rect.maxY - y))
                    // Links take the whole row, so the highlight and the click target span the tile.
                    let fullWidth: Bool = {
                        switch c {
                        case .divider, .link: return true
                        default: return isFlexible(c, along: .horizontal)
                        }
                    }()
                    let placed =
                        fullWidth
                        ? slot : aligned(Size(width: s.width, height: slot.height), in: slot, .init(a.horizontal, .top))
                    draw(c, in: placed, env: env, axis: .vertical)
                    y += s.height + (s.height > 0 || isSpacer(c) ? spacing : 0)
                }
            } else {
                var x = rect.x
                for (i, c) in children.enumerated() {
                    let s = sizes[i]
                    if x >= rect.maxX { break }
                    let slot = Rect(x: x, y: rect.y, width: min(s.width, rect.maxX - x), height: rect.height)
                    let placed: Rect
                    if case .divider = c {
                        placed = slot
                    } else {
                        placed = aligned(
                            Size(width: slot.width, height: s.height), in: slot, .init(.leading, a.vertical))
                    }
                    draw(c, in: placed, env: env, axis: .horizontal)
                    x += s.width + spacing
                }
            }
        }
    }

    /// Draws the Tab highlight (a link or a control) over `r`: the theme's focus colour, or
    /// reverse video where there is none.
    mutating func highlight(_ r: Rect, _ env: RenderEnvironment) {
        let focus = env.theme[.focus]
        buffer.restyle(r) { st in
            var st = st
            if focus == .default {
                st.attributes.insert(.reverse)
            } else {
                st.background = focus
                st.foreground = env.background == .default ? .default : env.background
            }
            return st
        }
    }

    mutating func drawGauge(_ value: Double, _ color: SemanticColor, _ rect: Rect, _ env: RenderEnvironment) {
        let v = value.isFinite ? min(1, max(0, value)) : 0
        let eighths = Int(clamping: (v * Double(rect.width * 8)).rounded(), to: 0...max(0, rect.width * 8))
        let full = eighths / 8, part = eighths % 8
        let partials = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var bar = String(repeating: "█", count: full)
        if part > 0 && full < rect.width { bar += partials[part] }
        let fg = env.redacted ? env.theme[.redacted] : env.color(color)
        buffer.write(bar, x: rect.x, y: rect.y, style: Style(foreground: fg, background: env.background), clip: rect)
        let used = DisplayWidth.of(bar)
        buffer.write(
            String(repeating: "░", count: max(0, rect.width - used)), x: rect.x + used, y: rect.y,
            style: Style(foreground: env.theme[.redacted], background: env.background), clip: rect)
    }

    mutating func drawSparkline(_ values: [Double], _ color: SemanticColor, _ rect: Rect, _ env: RenderEnvironment) {
        // Data comes from outside: drop non-finite points and scale down so that the range
        // itself cannot overflow (1.7e308 - -1.7e308 is infinite).
        let finite = values.filter(\.isFinite).map { $0 / 4 }
        let series = Self.resample(finite, to: rect.width)
        guard let lo = series.min(), let hi = series.max(), (hi - lo).isFinite else { return }
        let blocks = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let levels = rect.height * 8
        let style = Style(
            foreground: env.redacted ? env.theme[.redacted] : env.color(color), background: env.background)
        for (i, v) in series.enumerated() {
            // 1...levels eighths filled: the lowest point still shows a sliver.
            let filled =
                hi > lo
                ? 1 + Int(clamping: ((v - lo) / (hi - lo) * Double(levels - 1)).rounded(), to: 0...max(0, levels - 1))
                : levels / 2
            for row in 0..<rect.height {
                let fromBottom = row * 8
                let inRow = min(8, max(0, filled - fromBottom))
                guard inRow > 0 else { continue }
                buffer.write(blocks[inRow - 1], x: rect.x + i, y: rect.maxY - 1 - row, style: style, clip: rect)
            }
        }
    }

    /// Averages (or repeats) a series to exactly `n` points.
    static func resample(_ values: [Double], to n: Int) -> [Double] {
        guard n > 0, !values.isEmpty else { return [] }
        if values.count <= n { return values }
        return (0..<n).map { i in
            let a = i * values.count / n, b = max(a + 1, (i + 1) * values.count / n)
            let slice = values[a..<b]
            return slice.reduce(0, +) / Double(slice.count)
        }
    }
}
