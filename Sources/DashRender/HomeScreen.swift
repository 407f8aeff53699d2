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

/// The page indicator of the status bar: "● ○ ○" (2 columns a page), or "2/3" where that does not fit.
struct PageDots {
    var page: Int
    var count: Int
    var full: [Character] { Array((0..<count).map { $0 == page ? "●" : "○" }.joined(separator: " ")) }
    var compact: String { "\(page + 1)/\(count)" }
}

public enum HomeScreen {
    /// The status bar line: clock, page dots, and a key hint.
    public static func drawStatusBar(
        page: Int, pageCount: Int, message: String?, wholeHint: String? = nil, environment env: RenderEnvironment,
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
        let left = 7
        let hint = "? help  q quit "
        var hintX = buffer.width - DisplayWidth.of(hint)
        // Page dots stay on screen at every width: full dots where they fit, else "2/5"; the
        // key hint gives way before they do.
        let dots = pageCount > 1 ? PageDots(page: page, count: pageCount) : nil
        if let dots, hintX - 1 - (left + 1) < dots.compact.count { hintX = buffer.width }
        var text: String? = nil
        if let message, !message.isEmpty { text = "  " + message }
        // One message in one line (issue 38): the key hint gives way to a message that then
        // fits; a longer one is shortened at a word, what it says to do kept, and `wholeHint`
        // (the key that shows it whole) after it.
        func fitted(_ width: Int) -> String { MessageFit.line(message ?? "", width: width, whole: wholeHint) }
        if let message, !message.isEmpty {
            let dotsWidth = dots.map { $0.compact.count + 1 } ?? 0
            let room = (hintX > left + 12 ? hintX - 1 : buffer.width) - left - 2 - dotsWidth
            if DisplayWidth.of(message) > room {
                hintX = buffer.width
                text = "  " + fitted(buffer.width - left - 2 - dotsWidth)
            }
        }
        let gapEnd = hintX < buffer.width ? hintX - 1 : buffer.width
        if let dots {
            let room = gapEnd - (left + 1)
            // A message stays whole where it can: the dots take their compact form first.
            let said = text.map { DisplayWidth.of($0) } ?? 0
            let full = dots.full.count + (said > 0 ? said + 1 : 0) <= room
            let width = full ? dots.full.count : dots.compact.count
            // Centred on the screen when that is free, else centred in the gap; with a message
            // that would run into them, at the gap's right end, and the message is cut before them.
            var x = (buffer.width - width) / 2
            if x < left + 1 || x + width > gapEnd { x = left + 1 + (room - width) / 2 }
            if let t = text, left + DisplayWidth.of(t) + 1 > x {
                x = gapEnd - width
                if DisplayWidth.of(t) > x - 1 - left { text = "  " + fitted(max(0, x - 1 - left - 2)) }
            }
            if full {
                for i in 0..<dots.count {
                    buffer.write(
                        i == page ? "●" : "○", x: x + i * 2, y: y,
                        style: bar.with(foreground: i == page ? theme[.accent] : theme[.secondaryText]))
                }
            } else {
                buffer.write(dots.compact, x: x, y: y, style: bar.with(foreground: theme[.accent]))
            }
        } else if let t = text {
            // The key hint keeps its place; the message is cut to fit before it.
            let room = (hintX > left + 12 ? hintX - 1 : buffer.width) - left
            if DisplayWidth.of(t) > room { text = "  " + fitted(room - 2) }
        }
        var end = left
        if let t = text, !t.isEmpty {
            end += buffer.write(t, x: left, y: y, style: bar.with(foreground: theme[.warning]))
        }
        if hintX >= end + 1 && hintX < buffer.width { buffer.write(hint, x: hintX, y: y, style: bar) }
        return f.nextWallChange(for: .time(seconds: false), now: env.now)
    }

    /// Draws the home screen: the tiles of `page` and the status bar; or a short
    /// "too small" note when not even one small tile fits. With a `cache`, a tile whose drawing
    /// depends on nothing that changed since the last frame gets its cells back from it.
    public static func draw(
        layout: HomeLayout, page: Int, tiles: [String: HomeTileContent], message: String?,
        wholeHint: String? = nil, environment env: RenderEnvironment, cache: TileCellCache? = nil
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
        let placedTiles = layout.pages.isEmpty ? [] : layout.pages[p]
        let cache = cache.flatMap { TileCellCache.canReuse(placedTiles.map(\.rect), in: buffer.bounds) ? $0 : nil }
        cache?.beginFrame()
        defer { cache?.endFrame(keeping: Set(placedTiles.map(\.id))) }
        for placed in placedTiles {
            guard let content = tiles[placed.id] else { continue }
            var e = env
            e.highlightedLink = content.highlightedLink
            e.highlightedControl = content.highlightedControl
            let r =
                cache?.drawTile(placed.id, content, rect: placed.rect, environment: e, into: &buffer)
                ?? Chrome.drawTile(
                    content.view, rect: placed.rect, decoration: content.decoration, environment: e, into: &buffer)
            frame.tapRegions[placed.id] = r.tapRegions
            if !r.controlRegions.isEmpty { frame.controlRegions[placed.id] = r.controlRegions }
            note(r.nextLiveChange)
        }
        note(
            drawStatusBar(
                page: p, pageCount: layout.pageCount, message: message, wholeHint: wholeHint, environment: env,
                into: &buffer))
        frame.buffer = buffer
        frame.nextLiveChange = next
        return frame
    }
}
