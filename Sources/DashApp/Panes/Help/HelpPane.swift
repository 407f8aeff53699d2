import DashCore
import DashWidgets
import DashRender

/// The help overlay: every key from the key table (`KeyTable`, the one `update` dispatches
/// from), grouped; how far it is scrolled when it is longer than the screen.
public struct HelpPane: Sendable, Equatable {
    public var scroll = 0
    public init(scroll: Int = 0) { self.scroll = scroll }
}

// MARK: - Keys and update

extension HelpPane: PaneComponent {
    public enum Action: Sendable, Equatable {
        case scroll(Int), close
        /// A mouse press anywhere closes the help (and what it was opened over).
        case pointer(Pointer)
    }

    static let keys = [
        PaneKeys(
            .help,
            [
                .close, .toggleHelp,
                KeyRow(
                    "↑↓ j k PgUp PgDn", "scroll this help", group: "View", rank: 160,
                    [
                        (.up, .scrollHelp(-1)), (.char("k"), .scrollHelp(-1)), (.down, .scrollHelp(1)),
                        (.char("j"), .scrollHelp(1)), (.pageUp, .scrollHelp(-10)), (.pageDown, .scrollHelp(10)),
                    ]),
            ])
    ]

    static func action(for command: Command, in layer: Layer) -> Action? {
        switch command {
        case .scrollHelp(let d): return .scroll(d)
        case .close, .toggleHelp: return .close
        default: return nil
        }
    }

    static func reduce(into h: inout HelpPane, _ action: Action, _ context: PaneContext) -> [Output] {
        switch action {
        case .scroll(let delta):
            h.scroll = max(0, min(h.scroll + delta, AppView.helpScrollLimit(context.screen)))
            return []
        case .close:
            return [.close]
        case .pointer(.mouse(let m)) where m.kind == .press:
            return [.closeAll]
        case .pointer:
            return []
        }
    }
}

// MARK: - View

extension AppView {
    /// Every key, grouped, from `KeyTable` (the same table `update` dispatches from).
    public static var keyHelp: [(String, [(String, String)])] {
        KeyTable.groups.map { g in
            (
                g,
                KeyTable.bindings.filter { $0.group == g }.map { b in
                    let only = b.layers.subtracting([.global])
                    let scope =
                        b.layers.isSubset(of: [.link, .detail, .problems]) && !only.isEmpty ? " (in a pane)" : ""
                    return (b.label, b.help + scope)
                }
            )
        } + [("Mouse", KeyTable.mouse)]
    }

    /// The help as lines: a group title, then its rows.
    static func helpLines() -> [(group: String?, key: String, text: String)] {
        keyHelp.flatMap { group, keys in [(group, "", "")] + keys.map { (nil, $0.0, $0.1) } }
    }

    /// The help's lines with each explanation wrapped to `textWidth` (continuation lines have no
    /// key): a line that says what a key does is never cut.
    static func helpLines(textWidth: Int) -> [(group: String?, key: String, text: String)] {
        helpLines().flatMap { line -> [(group: String?, key: String, text: String)] in
            guard line.group == nil, DisplayWidth.of(line.text) > textWidth else { return [line] }
            return DisplayWidth.wrap(line.text, width: max(1, textWidth)).enumerated().map { i, part in
                (nil, i == 0 ? line.key : "", part)
            }
        }
    }

    /// The key column of the help, and the gap after it.
    static let helpKeyWidth = 24

    /// Where the help is drawn on `screen`, how many columns it uses, the rows that show, and
    /// the width its explanations wrap at.
    static func helpGeometry(_ screen: Size) -> (
        rect: Rect, columns: Int, visibleRows: Int, totalRows: Int, textWidth: Int
    ) {
        let columnWidth = 78
        let maxHeight = max(3, screen.height - 1)
        let unwrapped = helpLines().count
        let columns = unwrapped + 2 > maxHeight && screen.width >= 2 * columnWidth + 6 ? 2 : 1
        let w = overlayWidth(min(screen.width - 2, columns * columnWidth + 2), on: screen)
        let inner = max(0, w - 4)
        let colWidth = columns > 1 ? (inner - 2) / 2 : inner
        let textWidth = max(8, colWidth - helpKeyWidth - 2)
        let total = helpLines(textWidth: textWidth).count
        let perColumn = (total + columns - 1) / columns
        let h = min(maxHeight, perColumn + 2)
        let r = Rect(x: max(0, (screen.width - w) / 2), y: max(0, (screen.height - 1 - h) / 2), width: w, height: h)
        return (r, columns, max(1, h - 2), total, textWidth)
    }

    /// How far the help can scroll on `screen` (0 when it fits).
    public static func helpScrollLimit(_ screen: Size) -> Int {
        let g = helpGeometry(screen)
        return g.columns > 1 ? 0 : max(0, g.totalRows - g.visibleRows)
    }

    static func drawHelp(_ s: AppState, _ h: HelpPane, _ env: RenderEnvironment, _ buffer: inout CellBuffer) {
        let g = helpGeometry(s.screen)
        let lines = helpLines(textWidth: g.textWidth)
        let scroll = min(h.scroll, helpScrollLimit(s.screen))
        let more = g.columns == 1 && g.totalRows > g.visibleRows
        let footer = more ? "↑↓ scroll (\(scroll + g.visibleRows)/\(g.totalRows)) · Esc or ? closes" : "Esc or ? closes"
        Chrome.drawPane(g.rect, title: "swiftdash keys", footer: footer, theme: s.theme, into: &buffer)
        let inner = g.rect.inset(top: 1, left: 2, bottom: 1, right: 2)
        let perColumn = g.columns > 1 ? (g.totalRows + 1) / 2 : g.totalRows
        for c in 0..<g.columns {
            let start = c * perColumn + (g.columns == 1 ? scroll : 0)
            let shown = Array(lines.dropFirst(start).prefix(min(g.visibleRows, perColumn)))
            let view = VStack {
                for line in shown {
                    if let group = line.group {
                        Text(group).font(.headline).foregroundStyle(.accent)
                    } else {
                        HStack(spacing: 2) {
                            Text(line.key).bold().frame(width: helpKeyWidth)
                            Text(line.text).foregroundStyle(.secondary).lineLimit(1)
                        }
                    }
                }
            }
            let colWidth = g.columns > 1 ? (inner.width - 2) / 2 : inner.width
            let rect = Rect(x: inner.x + c * (colWidth + 2), y: inner.y, width: colWidth, height: inner.height)
            _ = TileRenderer.render(view, in: rect, buffer: &buffer, environment: env)
        }
    }
}

extension HelpPane: StackedPane {
    static func action(for input: PaneInput) -> Action? {
        switch input {
        case .command(let c, let layer): return action(for: c, in: layer)
        case .pointer(let p): return .pointer(p)
        case .preview, .listing: return nil
        }
    }

    var pane: Pane { .help(self) }
    func layers(_ s: AppState) -> [Layer] { [.help, .global] }
    func draw(_ s: AppState, _ env: RenderEnvironment, into frame: inout HomeFrame) {
        AppView.drawHelp(s, self, env, &frame.buffer)
    }
}
