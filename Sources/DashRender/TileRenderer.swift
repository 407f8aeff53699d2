import Foundation
import DashCore
import DashWidgets

/// Where a tile's links landed on screen.
public struct TapRegion: Hashable, Sendable {
    public var rect: Rect
    public var url: String
    public init(rect: Rect, url: String) {
        self.rect = rect
        self.url = url
    }
}

/// What drawing a view tree produced besides cells.
public struct RenderResult: Sendable {
    /// Link targets in reading order.
    public var tapRegions: [TapRegion] = []
    public var widgetURL: String?
    /// Buttons and toggles in reading order, where they landed.
    public var controlRegions: [ControlRegion] = []
    /// The first moment live text drawn here will read differently; nil if none will.
    public var nextLiveChange: Date?
    public init() {}

    mutating func noteChange(_ d: Date?) {
        guard let d else { return }
        if nextLiveChange == nil || d < nextLiveChange! { nextLiveChange = d }
    }
}

/// Everything a view needs from outside at draw time: theme, clock, time zone.
public struct RenderEnvironment: Sendable {
    public var theme: Theme
    public var now: Date
    public var timeZone: TimeZone
    /// The surface colour the tile is drawn on.
    public var background: Color
    /// The link highlighted by Tab inside the focused tile.
    public var highlightedLink: String?
    /// The control highlighted by Tab inside the focused tile (its `TileControl.identity`).
    public var highlightedControl: String?

    var textStyle = TextStyle()
    var redacted = false
    var lineLimit: Int?

    public init(
        theme: Theme, now: Date, timeZone: TimeZone = .current, background: Color? = nil, highlightedLink: String? = nil
    ) {
        self.theme = theme
        self.now = now
        self.timeZone = timeZone
        self.background = background ?? theme[.surface]
        self.highlightedLink = highlightedLink
    }

    func color(_ c: SemanticColor) -> Color {
        switch c {
        case .primary: return theme[.text]
        case .secondary: return theme[.secondaryText]
        case .accent: return theme[.accent]
        case .positive: return theme[.positive]
        case .negative: return theme[.negative]
        case .warning: return theme[.warning]
        }
    }

    /// The cell style for text of `style` (already merged with the environment's).
    func cellStyle(_ style: TextStyle) -> Style {
        var attrs: TextAttributes = []
        var color = style.color
        switch style.font ?? .body {
        case .largeTitle, .title:
            attrs.insert(.bold)
            if color == nil { color = .primary }
        case .headline: attrs.insert(.bold)
        case .caption: if color == nil { color = .secondary }
        case .body, .monospacedDigit: break
        }
        if style.bold == true { attrs.insert(.bold) }
        if style.bold == false { attrs.remove(.bold) }
        return Style(foreground: self.color(color ?? .primary), background: background, attributes: attrs)
    }
}

/// Lays a `TileView` out into a rectangle of a `CellBuffer`: propose a size, measure, place.
public struct TileRenderer {
    public static func render(_ view: TileView, in rect: Rect, buffer: inout CellBuffer, environment: RenderEnvironment)
        -> RenderResult
    {
        var r = TileRenderer(buffer: buffer, result: RenderResult())
        r.draw(view, in: rect.intersection(buffer.bounds), env: environment, axis: .vertical)
        buffer = r.buffer
        return r.result
    }

    /// The size a view would take if offered `proposal`.
    public static func measure(_ view: TileView, proposal: Size, environment: RenderEnvironment) -> Size {
        TileRenderer(buffer: CellBuffer(width: 0, height: 0), result: RenderResult())
            .measure(view, proposal, environment, axis: .vertical)
    }

    /// The height a view needs at `width` when it may be as tall as it likes: spacers and
    /// stretching views take no room beyond their minimum (a long detail pane scrolls).
    public static func idealHeight(_ view: TileView, width: Int, environment: RenderEnvironment) -> Int {
        var r = TileRenderer(buffer: CellBuffer(width: 0, height: 0), result: RenderResult())
        r.ideal = true
        return r.measure(view, Size(width: width, height: 100_000), environment, axis: .vertical).height
    }

    var buffer: CellBuffer
    var result: RenderResult
    /// Measuring for `idealHeight`: flexible views take only what their content needs.
    var ideal = false

    // MARK: text

    func liveText(_ date: Date, _ style: LiveDateStyle, _ env: RenderEnvironment) -> (String, Date?) {
        let f = LiveDateFormatter(timeZone: env.timeZone)
        let (text, next) = f.format(date, style, now: env.now)
        return (text, next ?? f.nextWallChange(for: style, now: env.now))
    }

    /// The lines `s` takes in `width` x `height` (and the line limit): one line if it fits,
    /// else wrapped at spaces, the last line kept ending in `…`. Linear in the part of the
    /// text that can show: nothing here measures the whole text more than once, and the
    /// wrap stops after the last line that fits.
    func textLines(_ s: String, width: Int, height: Int, lineLimit: Int?) -> [String] {
        guard width > 0, height > 0 else { return [] }
        let maxLines = min(height, lineLimit ?? Int.max)
        // Each test reads only as far as it must: `fits` stops at the first column too many,
        // the search for a break stops at the first space or newline.
        if Self.fits(s, width) && !s.utf8.contains(0x0A) { return [s] }
        if maxLines == 1 || !s.utf8.contains(where: { $0 == 0x20 || $0 == 0x0A }) {
            // One line; newlines read as spaces. Only the part up to the first column too
            // many matters to the cut.
            var line = "", used = 0
            for ch in s {
                let c: Character = ch == "\n" ? " " : ch
                line.append(c)
                used += DisplayWidth.of(c)
                if used > width { break }
            }
            return [DisplayWidth.truncate(line, to: width)]
        }
        var (lines, truncated) = DisplayWidth.wrap(s, width: width, maxLines: maxLines)
        if truncated, let last = lines.last {
            lines[lines.count - 1] =
                Self.fits(last, width - 1)
                ? last + "…" : DisplayWidth.truncate(last + "…", to: width)
        }
        return lines
    }

    /// Whether `s` fits in `width` columns; stops reading as soon as it does not.
    static func fits(_ s: String, _ width: Int) -> Bool {
        var used = 0
        for ch in s {
            used += DisplayWidth.of(ch)
            if used > width { return false }
        }
        return true
    }

    static func redact(_ s: String) -> String {
        String(
            s.map { ch -> String in
                ch == " " ? " " : String(repeating: "▆", count: max(1, DisplayWidth.of(ch)))
            }.joined())
    }

    // MARK: flexibility

    /// Whether a view takes whatever room it is offered along `axis`.
    func isFlexible(_ v: TileView, along axis: Axis) -> Bool {
        switch v {
        case .spacer: return true
        case .gauge, .sparkline: return axis == .horizontal
        case .divider: return false
        case .expand(let h, let vert, _, _): return axis == .horizontal ? h : vert
        case .frame(let w, let h, _, let c):
            if axis == .horizontal, w != nil { return false }
            if axis == .vertical, h != nil { return false }
            return isFlexible(c, along: axis)
        case .padding(_, let c), .lineLimit(_, let c), .styled(_, let c), .link(_, let c), .widgetURL(_, let c),
            .redacted(let c):
            return isFlexible(c, along: axis)
        case .invalidatable(_, let c):
            return isFlexible(c, along: axis)
        case .stack(let ax, _, _, let children):
            // A spacer makes its own stack stretch along the stack's axis (as in SwiftUI).
            return children.contains { isFlexible($0, along: axis) && (ax == axis || !isSpacer($0)) }
        default: return false
        }
    }

    func isSpacer(_ v: TileView) -> Bool {
        if case .spacer = v { return true }
        return false
    }

    func childEnv(_ v: TileView, _ env: RenderEnvironment) -> RenderEnvironment {
        var e = env
        switch v {
        case .styled(let s, _): e.textStyle = s.inheriting(env.textStyle)
        case .lineLimit(let n, _): e.lineLimit = n
        case .redacted: e.redacted = true
        default: break
        }
        return e
    }

    // MARK: measure

    func measure(_ v: TileView, _ p: Size, _ env: RenderEnvironment, axis: Axis) -> Size {
        guard p.width > 0, p.height > 0 else { return .zero }
        switch v {
        case .empty: return .zero
        case .text(let s, _):
            let lines = textLines(s, width: p.width, height: p.height, lineLimit: env.lineLimit)
            return Size(width: lines.map { DisplayWidth.of($0) }.max() ?? 0, height: lines.count)
        case .liveDate(let d, let style, _):
            let (s, _) = liveText(d, style, env)
            return Size(width: min(DisplayWidth.of(s), p.width), height: 1)
        case .spacer(let minLength):
            return axis == .vertical
                ? Size(width: 0, height: min(minLength, p.height)) : Size(width: min(minLength, p.width), height: 0)
        case .divider:
            return axis == .vertical ? Size(width: p.width, height: 1) : Size(width: 1, height: p.height)
        case .padding(let i, let c):
            let inner = Size(width: p.width - i.leading - i.trailing, height: p.height - i.top - i.bottom)
            let s = measure(c, inner, env, axis: axis)
            return Size(
                width: min(p.width, s.width + i.leading + i.trailing),
                height: min(p.height, s.height + i.top + i.bottom))
        case .frame(let w, let h, _, let c):
            let s = measure(
                c, Size(width: min(w ?? p.width, p.width), height: min(h ?? p.height, p.height)), env, axis: axis)
            return Size(width: min(w ?? s.width, p.width), height: min(h ?? s.height, p.height))
        case .expand(let hz, let vt, _, let c):
            let s = measure(c, p, env, axis: axis)
            return Size(width: hz ? p.width : s.width, height: vt && !ideal ? p.height : s.height)
        case .gauge: return Size(width: p.width, height: 1)
        case .sparkline(_, _, let h): return Size(width: p.width, height: min(h, p.height))
        case .styled(_, let c), .lineLimit(_, let c), .link(_, let c), .widgetURL(_, let c), .redacted(let c):
            return measure(c, p, childEnv(v, env), axis: axis)
        case .firstFitting(let options):
            return measure(fitting(options, p, env, axis), p, env, axis: axis)
        case .invalidatable(_, let c):
            return measure(c, p, env, axis: axis)
        case .control(let c):
            return Size(width: min(DisplayWidth.of(Self.controlLabel(c, width: p.width)), p.width), height: 1)
        case .stack(let ax, _, let spacing, let children):
            let sizes = stackSizes(ax, spacing, children, p, env)
            let gaps = max(0, children.count - 1) * spacing
            if ax == .vertical {
                let h = sizes.reduce(0) { $0 + $1.height } + gaps
                return Size(width: sizes.map(\.width).max() ?? 0, height: min(h, p.height))
            } else {
                let w = sizes.reduce(0) { $0 + $1.width } + gaps
                return Size(width: min(w, p.width), height: sizes.map(\.height).max() ?? 0)
            }
        }
    }

    /// Sizes of a stack's children in proposal `p`. Rigid children are measured first, in
    /// order (later ones get what is left); in a horizontal stack that overflows, the widest
    /// children are cut first (water-filling), so short labels survive. What is left is
    /// shared by the flexible children and spacers.
    func stackSizes(_ ax: Axis, _ spacing: Int, _ children: [TileView], _ p: Size, _ env: RenderEnvironment) -> [Size] {
        let n = children.count
        guard n > 0 else { return [] }
        var sizes = Array(repeating: Size.zero, count: n)
        let gaps = (n - 1) * spacing
        let flexible = children.map { isFlexible($0, along: ax) }
        let minLengths = children.map { v -> Int in
            if case .spacer(let m) = v { return m }
            return 0
        }
        if ax == .vertical {
            var remaining = p.height - gaps - minLengths.reduce(0, +)
            for i in 0..<n where !flexible[i] {
                let s = measure(children[i], Size(width: p.width, height: max(0, remaining)), env, axis: .vertical)
                sizes[i] = s
                remaining -= s.height
            }
            let flexIdx = (0..<n).filter { flexible[$0] }
            if ideal {
                for i in flexIdx {
                    let s =
                        isSpacer(children[i])
                        ? Size(width: 0, height: minLengths[i])
                        : measure(children[i], Size(width: p.width, height: max(0, remaining)), env, axis: .vertical)
                    sizes[i] = s
                    if !isSpacer(children[i]) { remaining -= s.height }
                }
                return sizes
            }
            var extra = max(0, remaining)
            for (k, i) in flexIdx.enumerated() {
                let share = extra / (flexIdx.count - k)
                extra -= share
                let h = share + minLengths[i]
                let s =
                    isSpacer(children[i])
                    ? Size(width: 0, height: h)
                    : measure(children[i], Size(width: p.width, height: h), env, axis: .vertical)
                sizes[i] = Size(width: s.width, height: h)
            }
        } else {
            let avail = max(0, p.width - gaps - minLengths.reduce(0, +))
            var ideal = Array(repeating: 0, count: n)
            for i in 0..<n where !flexible[i] {
                ideal[i] = measure(children[i], Size(width: avail, height: p.height), env, axis: .horizontal).width
            }
            let total = ideal.reduce(0, +)
            var widths = ideal
            if total > avail {
                // Water-fill: find the cap L with sum(min(ideal, L)) <= avail.
                var lo = 0, hi = ideal.max() ?? 0
                while lo < hi {
                    let mid = (lo + hi + 1) / 2
                    if ideal.reduce(0, { $0 + min($1, mid) }) <= avail { lo = mid } else { hi = mid - 1 }
                }
                widths = ideal.map { min($0, lo) }
                var spare = avail - widths.reduce(0, +)
                for i in 0..<n where spare > 0 && ideal[i] > widths[i] {
                    widths[i] += 1
                    spare -= 1
                }
            }
            var extra = max(0, avail - widths.reduce(0, +))
            let flexIdx = (0..<n).filter { flexible[$0] }
            for (k, i) in flexIdx.enumerated() {
                let share = extra / (flexIdx.count - k)
                extra -= share
                widths[i] = share + minLengths[i]
            }
            for i in 0..<n {
                if isSpacer(children[i]) {
                    sizes[i] = Size(width: widths[i], height: 0)
                    continue
                }
                let s = measure(children[i], Size(width: widths[i], height: p.height), env, axis: .horizontal)
                sizes[i] = Size(width: flexible[i] ? widths[i] : min(s.width, widths[i]), height: s.height)
            }
        }
        return sizes
    }

    /// The first option whose natural size fits `p`, else the last.
    func fitting(_ options: [TileView], _ p: Size, _ env: RenderEnvironment, _ axis: Axis) -> TileView {
        for o in options {
            let ideal = measure(o, Size(width: 10_000, height: max(1, p.height)), env, axis: axis)
            if ideal.width <= p.width && ideal.height <= p.height { return o }
        }
        return options.last ?? .empty
    }

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
        let eighths = Self.clampedInt((v * Double(rect.width * 8)).rounded(), 0...(rect.width * 8))
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
                ? 1 + Self.clampedInt(((v - lo) / (hi - lo) * Double(levels - 1)).rounded(), 0...(levels - 1))
                : levels / 2
            for row in 0..<rect.height {
                let fromBottom = row * 8
                let inRow = min(8, max(0, filled - fromBottom))
                guard inRow > 0 else { continue }
                buffer.write(blocks[inRow - 1], x: rect.x + i, y: rect.maxY - 1 - row, style: style, clip: rect)
            }
        }
    }

    /// A Double as an Int within `range`; NaN and infinities never trap.
    static func clampedInt(_ x: Double, _ range: ClosedRange<Int>) -> Int {
        guard x.isFinite else { return range.lowerBound }
        return Int(min(Double(range.upperBound), max(Double(range.lowerBound), x)))
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
