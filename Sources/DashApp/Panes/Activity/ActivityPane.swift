import Foundation
import DashCore
import DashWidgets
import DashRender
import DashHome
import DashActivities

/// A Live Activity's detail pane, its Lock Screen presentation (issue 39.2): Enter on the focused
/// strip opens it. It reads the activity from the book at each frame, so it follows the updates;
/// an activity that ended says how, and one dismissed while the pane shows says so instead of
/// showing what it last was. Its deep link (`url` in the attributes): Tab highlights it, Enter
/// follows it (a widget's detail pane, or the link pane for a web page), o opens a web link in the
/// browser; Esc closes.
public struct ActivityPane: Sendable, Equatable {
    /// The activity's id in the book.
    public var id: String
    /// Tab highlighted the deep link.
    public var linkHighlighted = false

    public init(id: String, linkHighlighted: Bool = false) {
        self.id = id
        self.linkHighlighted = linkHighlighted
    }
}

extension AppState {
    /// The shown activity pane's detail now; nil when none shows or its activity was dismissed.
    public var activityDetail: ActivityDetailModel? {
        guard case .activity(let a) = pane else { return nil }
        return activities.detail(at: now, id: a.id)
    }
}

// MARK: - Keys and update

extension ActivityPane: PaneComponent {
    public enum Action: Sendable, Equatable { case walkLinks, follow, openInBrowser, help, close }

    static let keys = [PaneKeys(.activity, [.walkLinks, .activate, .openInBrowser, .close, .toggleHelp])]

    static func action(for command: Command, in layer: Layer) -> Action? {
        switch command {
        case .walkLinks: return .walkLinks
        case .activate: return .follow
        case .openInBrowser: return .openInBrowser
        case .toggleHelp: return .help
        case .close: return .close
        default: return nil
        }
    }

    static func reduce(into a: inout ActivityPane, _ action: Action, _ context: PaneContext) -> [Output] {
        let s = context.app
        let url = s.activities.detail(at: s.now, id: a.id)?.face.url
        switch action {
        case .walkLinks:
            // One link at most: Tab highlights it, again drops the highlight.
            guard url != nil else { return [.say("no link in this activity")] }
            a.linkHighlighted.toggle()
        case .follow:
            guard let url else { return [.say("no link in this activity")] }
            return [.open(url: url, fromTile: s.focusedTile ?? "")]
        case .openInBrowser:
            guard let url, DeepLink(url)?.isExternal == true else { return [.say("no web link here")] }
            return [.say("opening \(url)"), .effect(.openURL(url))]
        case .help:
            return [.push(.help(HelpPane()))]
        case .close:
            return [.close]
        }
        return []
    }
}

// MARK: - View

extension AppView {
    /// The activity pane over the home screen: the detail view inside the pane's frame, or a note
    /// that the activity was dismissed.
    static func drawActivity(_ s: AppState, _ a: ActivityPane, into buffer: inout CellBuffer) {
        let rect = paneRect(s.screen)
        let model = s.activities.detail(at: s.now, id: a.id)
        let url = model?.face.url
        let web = url.flatMap(DeepLink.init)?.isExternal == true
        let footer =
            (url == nil ? "" : "Tab link · Enter open" + (web ? " · o browser" : "") + " · ") + "Esc close"
        let title = model.map { "Activity · \($0.face.title)" } ?? "Activity"
        Chrome.drawPane(rect, title: ActivityStripView.cut(title, rect.width - 6), footer: footer, theme: s.theme, into: &buffer)
        let inside = rect.inset(top: 1, left: 1, bottom: 1, right: 1)
        guard let model else {
            let text = Style(foreground: s.theme[.secondaryText], background: s.theme[.surface])
            let inner = inside.inset(top: 1, left: 2, bottom: 0, right: 2)
            _ = buffer.write(
                ActivityStripView.cut("This activity ended and was dismissed.", inner.width), x: inner.x, y: inner.y,
                style: text, clip: inner)
            _ = buffer.write("Esc closes this pane.", x: inner.x, y: inner.y + 2, style: text, clip: inner)
            return
        }
        ActivityDetailView.draw(model, into: &buffer, rect: inside, theme: s.theme)
        if a.linkHighlighted, let url { highlightLink(url, in: inside, into: &buffer) }
    }

    /// Tab's highlight on the detail view's link line (`link: URL`), which the view drew.
    static func highlightLink(_ url: String, in rect: Rect, into buffer: inout CellBuffer) {
        let x = rect.x + 2
        let prefix = Array("link: ")
        for y in rect.y..<(rect.y + rect.height) where x + prefix.count < rect.x + rect.width {
            guard (0..<prefix.count).allSatisfy({ buffer[x + $0, y].text == String(prefix[$0]) }) else { continue }
            let width = min(DisplayWidth.of(url), rect.x + rect.width - 2 - x - prefix.count)
            buffer.restyle(Rect(x: x + prefix.count, y: y, width: max(0, width), height: 1)) { st in
                var st = st
                st.attributes.insert(.reverse)
                st.hyperlink = url
                return st
            }
            return
        }
    }
}

extension ActivityPane: StackedPane {
    var pane: Pane { .activity(self) }
    func layers(_ s: AppState) -> [Layer] { [.activity, .global] }
    func draw(_ s: AppState, _ env: RenderEnvironment, into frame: inout HomeFrame) {
        AppView.drawActivity(s, self, into: &frame.buffer)
    }
}
