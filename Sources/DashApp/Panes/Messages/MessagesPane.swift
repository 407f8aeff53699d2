import Foundation
import DashCore
import DashWidgets
import DashRender

/// Every message, whole (Ctrl-G): the status line, arrange mode's bar and the form show one
/// message in one line, shortened at a word when it must be; this lists what stands now and
/// what was said lately, newest first. An overlay over whatever is shown (the form, arrange
/// mode keep their state under it); Esc or Ctrl-G closes it.
public struct MessagesPane: Sendable, Equatable {
    public var shown = false
    /// What was said lately, oldest first.
    public private(set) var recent: [StatusNote] = []
    /// How many said messages are kept.
    public static let kept = 30

    public init() {}

    mutating func log(_ note: StatusNote) {
        recent.append(note)
        if recent.count > Self.kept { recent.removeFirst(recent.count - Self.kept) }
    }
}

// MARK: - Keys and update

/// An overlay rather than a pane on the stack: what it lists is kept while it is closed, and
/// the pane under it keeps the keys it does not bind.
extension MessagesPane: PaneComponent {
    public enum Action: Sendable, Equatable { case toggle, close }

    static let keys = [PaneKeys(.messages, [.close])]

    static func action(for command: Command, in layer: Layer) -> Action? {
        switch command {
        case .toggleMessages: return .toggle
        case .close: return .close
        default: return nil
        }
    }

    /// Ctrl-G opens the messages, or closes them when they are shown; Esc closes them.
    static func reduce(into m: inout MessagesPane, _ action: Action, _ context: PaneContext) -> [Output] {
        switch action {
        case .toggle: m.shown.toggle()
        case .close: m.shown = false
        }
        return []
    }
}

extension App {
    /// The key that shows every message whole, as the key table names it, and what a message
    /// shortened to fit says after it.
    static var wholeMessageHint: String { messagesKey + " whole" }

    static var messagesKey: String {
        KeyTable.bindings.first { b in b.keys.contains { $0.1 == .toggleMessages } }?.label ?? "Ctrl-G"
    }
}

// MARK: - View

extension AppView {
    /// The messages, newest first, each whole: what stands now (a broken home.yaml, the
    /// focused tile's problem), then what was said, with the time it was said.
    static func messageRows(_ s: AppState, width: Int) -> [(text: String, problem: Bool)] {
        var out: [(String, Bool)] = []
        let f = LiveDateFormatter(timeZone: s.timeZone)
        func add(_ label: String, _ text: String, _ problem: Bool) {
            let lines = DisplayWidth.wrap(TextSanitizer.singleLine(text), width: max(8, width - 7))
            for (i, l) in lines.enumerated() { out.append(((i == 0 ? label : "").padding(7) + l, problem)) }
        }
        if let standing = s.standingText { add("now", standing, standing.hasPrefix("⚠")) }
        // The form's own messages, each shortened to its row there.
        if s.form != nil, let (model, _) = EditView.formModel(s) {
            if let problem = model.problem { add("now", problem, true) }
            for row in model.rows {
                if let e = row.error { add("now", "✗ \(row.title): \(e)", true) }
                if let w = row.warning { add("now", "⚠ \(row.title): \(w)", true) }
            }
        }
        for n in s.messages.recent.reversed() {
            add(f.format(n.said, .time(seconds: false), now: s.now).text, n.text, n.importance == .warning)
        }
        if out.isEmpty { out.append(("No messages.", false)) }
        return out
    }

    static func drawMessages(_ s: AppState, _ env: RenderEnvironment, _ buffer: inout CellBuffer) {
        var r = paneRect(s.screen)
        let rows = messageRows(s, width: r.width - 4)
        r.height = min(r.height, max(4, rows.count + 2))  // as tall as what it lists
        let inner = r.inset(top: 1, left: 2, bottom: 1, right: 2)
        Chrome.drawPane(r, title: "Messages", footer: "Esc or \(App.messagesKey) closes", theme: s.theme, into: &buffer)
        let theme = s.theme
        for (i, row) in rows.prefix(inner.height).enumerated() {
            let style = Style(foreground: row.problem ? theme[.warning] : theme[.text], background: theme[.surface])
            buffer.write(DisplayWidth.truncate(row.text, to: inner.width), x: inner.x, y: inner.y + i, style: style)
        }
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        let w = DisplayWidth.of(self)
        return w >= width ? self + " " : self + String(repeating: " ", count: width - w)
    }
}
