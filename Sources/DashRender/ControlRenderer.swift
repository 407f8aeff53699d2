import Foundation
import DashCore
import DashWidgets

/// Where a tile's button or toggle landed on screen (a click there activates it).
public struct ControlRegion: Hashable, Sendable {
    public var rect: Rect
    public var control: TileControl
    public init(rect: Rect, control: TileControl) {
        self.rect = rect
        self.control = control
    }
}

extension TileRenderer {
    /// The mark a pending control carries after its title.
    static let pendingMark = "⋯"

    /// A control as text in at most `width` columns: `[ Start ]`, `[x] Buy milk`; pending:
    /// `[ Start ⋯ ]`, `[ ] Buy milk ⋯` (a toggle shows the state it is going to). The title is
    /// cut first, so the box and the pending mark stay.
    static func controlLabel(_ c: TileControl, width: Int) -> String {
        let mark = c.isPending ? " " + pendingMark : ""
        switch c.kind {
        case .button:
            let room = max(1, width - 4 - DisplayWidth.of(mark))
            return "[ " + fitted(c.title, room) + mark + " ]"
        case .toggle(let on):
            let box = on ? "[x]" : "[ ]"
            if c.title.isEmpty { return box + mark }
            let room = max(1, width - 4 - DisplayWidth.of(mark))
            return box + " " + fitted(c.title, room) + mark
        }
    }

    /// `s` in `width` columns, cut with `…` when it does not fit.
    static func fitted(_ s: String, _ width: Int) -> String {
        fits(s, width) ? s : DisplayWidth.truncate(s, to: width)
    }

    mutating func drawControl(_ c: TileControl, in rect: Rect, env: RenderEnvironment) {
        let label = DisplayWidth.truncate(Self.controlLabel(c, width: rect.width), to: rect.width)
        let width = DisplayWidth.of(label)
        let r = Rect(x: rect.x, y: rect.y, width: width, height: 1)
        if env.redacted {
            let style = env.cellStyle(env.textStyle).with(foreground: env.theme[.redacted])
            buffer.write(Self.redact(label), x: rect.x, y: rect.y, style: style, clip: rect)
            return
        }
        var style = env.cellStyle(TextStyle(color: .accent).inheriting(env.textStyle))
        if case .button = c.kind { style.attributes.insert(.bold) }
        if c.isPending {
            style.foreground = env.theme[.secondaryText]
            style.attributes.insert(.dim)
        }
        buffer.write(label, x: rect.x, y: rect.y, style: style, clip: rect)
        if case .toggle = c.kind, !c.title.isEmpty, !c.isPending, width > 4 {
            // The title in the text colour (done: secondary), the box in the accent colour.
            var title = env.cellStyle(TextStyle(color: c.isOn == true ? .secondary : nil).inheriting(env.textStyle))
            title.attributes.remove(.bold)
            buffer.restyle(Rect(x: rect.x + 4, y: rect.y, width: width - 4, height: 1)) { _ in title }
        }
        result.controlRegions.append(ControlRegion(rect: r, control: c))
        if env.highlightedControl == c.identity { highlight(r, env) }
    }

    /// Content an action made stale: dimmed in the secondary colour until the tile reloads.
    static func markPending(_ rect: Rect, _ env: RenderEnvironment, _ buffer: inout CellBuffer) {
        let secondary = env.theme[.secondaryText]
        buffer.restyle(rect) { st in
            var st = st
            st.foreground = secondary
            st.attributes.insert(.dim)
            return st
        }
    }
}
