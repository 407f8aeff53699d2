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

    /// Where a view's links and controls land in `rect`, by the same pass `render` draws with,
    /// without drawing a cell (what `update` asks of the layout: no off-screen drawing).
    public static func layout(_ view: TileView, in rect: Rect, environment: RenderEnvironment) -> RenderResult {
        var r = TileRenderer(buffer: CellBuffer(width: 0, height: 0), result: RenderResult())
        r.draw(view, in: rect, env: environment, axis: .vertical)
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
}
