import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

extension EditView {
    // MARK: - Arrange mode

    static func drawArrange(_ s: AppState, into buffer: inout CellBuffer) {
        guard let a = s.arrange else { return }
        let theme = s.theme
        if let f = s.focusedTile, let placed = s.layout.tile(f), placed.page == s.page {
            ArrangeView.mark(
                placed.rect, a.lifted ? .lifted : .cursor, label: a.lifted ? "⇅ moving" : nil,
                theme: theme, into: &buffer)
        }
        if let h = a.hover, let placed = s.layout.tile(h), placed.page == s.page {
            ArrangeView.mark(placed.rect, .target, label: "⊕ stack here", theme: theme, into: &buffer)
        }
        var hints: [String]
        if let h = a.hover, let t = s.tile(h) {
            hints = ["Enter: stack onto \(Editing.name(s, tile: t))", "←→ move on", "Esc done"]
        } else if a.lifted {
            // In the order they give way from the end (the first and Esc always stay).
            hints = ["←↓↑→ move", "Enter drop", "f size", "d remove", "u undo", "PgUp/PgDn page", "Esc done"]
        } else {
            hints = ["←↓↑→ focus", "Enter lift", "f size", "d remove", "u undo", "Ctrl-R redo", "Esc done"]
        }
        if s.layout.pageCount > 1 { hints.insert("page \(s.page + 1)/\(s.layout.pageCount)", at: 0) }
        let note = s.note.flatMap { s.now < $0.expires ? $0.text : nil }
        ArrangeView.statusBar(note: note, hints: hints, whole: App.wholeMessageHint, theme: theme, into: &buffer)
    }
}

extension ArrangeState: StackedPane {
    static func action(for input: PaneInput) -> Action? {
        switch input {
        case .command(let c, let layer): return action(for: c, in: layer)
        case .pointer(let p): return .pointer(p)
        case .preview, .listing: return nil
        }
    }

    var pane: Pane { .arrange(self) }
    func layers(_ s: AppState) -> [Layer] { s.layout.isTooSmall ? [.global] : [.arrange, .global] }
    func draw(_ s: AppState, _ env: RenderEnvironment, into frame: inout HomeFrame) {
        EditView.drawArrange(s, into: &frame.buffer)
    }
}
