import Foundation
import DashCore
import DashWidgets
import DashRender
import DashHome

/// The problems of a broken home.yaml, every one (`!`): the status line has room for the first
/// only. The list is `AppState.homeProblems`, found in the text the file-changed message carried
/// (`App.homeFileChanged`); the pane keeps how far it is scrolled.
public struct ProblemsPane: Sendable, Equatable {
    public var scroll = 0
    public init(scroll: Int = 0) { self.scroll = scroll }
}

// MARK: - Keys and update

extension ProblemsPane: PaneComponent {
    public enum Action: Sendable, Equatable { case scroll(Int), close }

    static let keys = [PaneKeys(.problems, [.close, .listProblems, .scrollPane])]

    static func action(for command: Command, in layer: Layer) -> Action? {
        switch command {
        case .scrollPane(let d): return .scroll(d)
        case .close, .listProblems: return .close
        default: return nil
        }
    }

    static func reduce(into p: inout ProblemsPane, _ action: Action, _ context: PaneContext) -> [Output] {
        switch action {
        case .scroll(let delta):
            let s = context.app
            let limit = max(0, AppView.problemRows(s).count - AppView.problemsGeometry(s.screen).visibleRows)
            p.scroll = max(0, min(p.scroll + delta, limit))
            return []
        case .close:
            return [.close]
        }
    }
}

extension App {
    /// `!` on the home screen: opens the list; with nothing broken, says so.
    static func openProblems(_ s: AppState) -> [Output] {
        guard s.homeFile?.problem != nil else { return [.say("home.yaml has no problems")] }
        return [.push(.problems(ProblemsPane()))]
    }
}

// MARK: - View

extension AppView {
    /// One line a problem: `line: message` (the file is in the title), cleaned for the terminal.
    static func problemLines(_ s: AppState) -> [String] {
        guard s.homeFile?.problem != nil, let all = s.homeProblems?.all, !all.isEmpty else {
            return ["No problems: home.yaml is fixed."]
        }
        return all.map { p in
            TextSanitizer.singleLine(p.line.map { "\($0): \(p.message)" } ?? p.message)
        }
    }

    /// The lines wrapped to the pane's width: what a problem says is never cut.
    static func problemRows(_ s: AppState) -> [String] {
        let width = max(8, problemsGeometry(s.screen).rect.width - 4)
        return problemLines(s).flatMap { DisplayWidth.wrap($0, width: width) }
    }

    /// Where the list is drawn on `screen` and how many of its rows show.
    static func problemsGeometry(_ screen: Size) -> (rect: Rect, visibleRows: Int) {
        let r = paneRect(screen)
        return (r, max(1, r.height - 2))
    }

    static func drawProblems(_ s: AppState, _ p: ProblemsPane, _ env: RenderEnvironment, _ buffer: inout CellBuffer) {
        let g = problemsGeometry(s.screen)
        let inner = g.rect.inset(top: 1, left: 2, bottom: 1, right: 2)
        let rows = problemRows(s)
        let scroll = max(0, min(p.scroll, rows.count - g.visibleRows))
        let count = s.homeProblems?.all.count ?? 0
        let name = (s.homeFile?.path).map { URL(fileURLWithPath: $0).lastPathComponent } ?? "home.yaml"
        let title = "\(name): \(count) problem\(count == 1 ? "" : "s")"
        let more = rows.count > g.visibleRows
        let footer =
            more
            ? "↑↓ scroll (\(min(rows.count, scroll + g.visibleRows))/\(rows.count)) · Esc or ! closes"
            : "Esc or ! closes"
        Chrome.drawPane(g.rect, title: title, footer: footer, theme: s.theme, into: &buffer)
        let view = VStack {
            for row in rows.dropFirst(scroll).prefix(g.visibleRows) { Text(row).lineLimit(1) }
        }
        _ = TileRenderer.render(view, in: inner, buffer: &buffer, environment: env)
    }
}

extension ProblemsPane: StackedPane {
    var pane: Pane { .problems(self) }
    func layers(_ s: AppState) -> [Layer] { [.problems, .global] }
    func draw(_ s: AppState, _ env: RenderEnvironment, into frame: inout HomeFrame) {
        AppView.drawProblems(s, self, env, &frame.buffer)
    }
}
