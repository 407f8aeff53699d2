import Foundation
import DashCore
import DashWidgets

/// What one tile on the home screen shows this frame.
public struct HomeTileContent: Sendable {
    public var view: TileView
    public var decoration: TileDecoration
    public var highlightedLink: String?
    /// The highlighted button or toggle (`TileControl.identity`).
    public var highlightedControl: String?
    public init(
        view: TileView, decoration: TileDecoration, highlightedLink: String? = nil,
        highlightedControl: String? = nil
    ) {
        self.view = view
        self.decoration = decoration
        self.highlightedLink = highlightedLink
        self.highlightedControl = highlightedControl
    }
}

/// One drawn home screen and what the runtime needs to know about it.
public struct HomeFrame: Sendable {
    public var buffer: CellBuffer
    /// Link targets per tile id, in reading order.
    public var tapRegions: [String: [TapRegion]] = [:]
    /// Buttons and toggles per tile id, in reading order.
    public var controlRegions: [String: [ControlRegion]] = [:]
    /// The first moment any live text on screen reads differently.
    public var nextLiveChange: Date?
}

public enum HomeScreen {
    /// The status bar line: clock, page dots, and a key hint.
    public static func drawStatusBar(
        page: Int, pageCount: Int, message: String?, environment env: RenderEnvironment,
        into buffer: inout CellBuffer
    ) -> Date? {
        let y = buffer.height - 1
        guard y >= 0 else { return nil }
        let theme = env.theme
        let bar = Style(foreground: theme[.secondaryText], background: theme[.background])
        buffer.fill(Rect(x: 0, y: y, width: buffer.width, height: 1), with: Cell(" ", style: bar))
        let f = LiveDateFormatter(timeZone: env.timeZone)
        let time = f.format(env.now, .time(seconds: false), now: env.now).text
        buffer.write(" " + time, x: 0, y: y, style: bar.with(foreground: theme[.text], adding: [.bold]))
        var left = 7
        let hint = "? help  q quit "
        let hintX = buffer.width - DisplayWidth.of(hint)
        if let message, !message.isEmpty {
            // The key hint keeps its place; the message is cut to fit before it.
            let room = (hintX > left + 12 ? hintX - 1 : buffer.width) - left - 2
            let text = DisplayWidth.truncate(message, to: room)
            left += buffer.write("  " + text, x: left, y: y, style: bar.with(foreground: theme[.warning]))
        }
        if pageCount > 1 {
            let dots = (0..<pageCount).map { $0 == page ? "●" : "○" }.joined(separator: " ")
            let dx = (buffer.width - DisplayWidth.of(dots)) / 2
            if dx > left + 1 && dx + DisplayWidth.of(dots) < hintX - 1 {
                for (i, d) in dots.split(separator: " ").enumerated() {
                    buffer.write(
                        String(d), x: dx + i * 2, y: y,
                        style: bar.with(foreground: i == page ? theme[.accent] : theme[.secondaryText]))
                }
            }
        }
        if hintX >= left + 1 { buffer.write(hint, x: hintX, y: y, style: bar) }
        return f.nextWallChange(for: .time(seconds: false), now: env.now)
    }

    /// Draws the home screen: the tiles of `page` and the status bar; or a short
    /// "too small" note when not even one small tile fits.
    public static func draw(
        layout: HomeLayout, page: Int, tiles: [String: HomeTileContent], message: String?,
        environment env: RenderEnvironment
    ) -> HomeFrame {
        var buffer = CellBuffer(
            size: layout.screen,
            fill: Cell(" ", style: Style(foreground: env.theme[.text], background: env.theme[.background])))
        var frame = HomeFrame(buffer: buffer)
        if layout.isTooSmall {
            let need = GridMetrics.minimumScreen
            let lines = ["Too small", "need \(need.width)x\(need.height)", "q quits"]
            for (i, l) in lines.enumerated() {
                let t = DisplayWidth.truncate(l, to: layout.screen.width)
                buffer.write(
                    t, x: max(0, (layout.screen.width - DisplayWidth.of(t)) / 2),
                    y: max(0, layout.screen.height / 2 - 1) + i,
                    style: Style(foreground: env.theme[.warning], background: env.theme[.background]))
            }
            frame.buffer = buffer
            return frame
        }
        let p = min(max(0, page), layout.pageCount - 1)
        var next: Date? = nil
        func note(_ d: Date?) { if let d, next == nil || d < next! { next = d } }
        for placed in layout.pages.isEmpty ? [] : layout.pages[p] {
            guard let content = tiles[placed.id] else { continue }
            var e = env
            e.highlightedLink = content.highlightedLink
            e.highlightedControl = content.highlightedControl
            let r = Chrome.drawTile(
                content.view, rect: placed.rect, decoration: content.decoration, environment: e, into: &buffer)
            frame.tapRegions[placed.id] = r.tapRegions
            if !r.controlRegions.isEmpty { frame.controlRegions[placed.id] = r.controlRegions }
            note(r.nextLiveChange)
        }
        note(drawStatusBar(page: p, pageCount: layout.pageCount, message: message, environment: env, into: &buffer))
        frame.buffer = buffer
        frame.nextLiveChange = next
        return frame
    }
}
