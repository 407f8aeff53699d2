import DashCore
import DashWidgets
import DashRender
import DashHome

/// A web link a tile opened: shown before the browser is asked (`o` opens it, Esc closes).
public struct LinkPane: Sendable, Equatable {
    public var tileID: String
    public var link: DeepLink

    public init(tileID: String, link: DeepLink) {
        self.tileID = tileID
        self.link = link
    }
}

// MARK: - Keys and update

extension LinkPane: PaneComponent {
    public enum Action: Sendable, Equatable { case openInBrowser, close }

    static let keys = [PaneKeys(.link, [.openInBrowser, .close])]

    static func action(for command: Command, in layer: Layer) -> Action? {
        switch command {
        case .openInBrowser: return .openInBrowser
        case .close: return .close
        default: return nil
        }
    }

    static func reduce(into l: inout LinkPane, _ action: Action, _ context: PaneContext) -> [Output] {
        switch action {
        case .openInBrowser: return [.say("opening \(l.link.url)"), .effect(.openURL(l.link.url))]
        case .close: return [.close]
        }
    }
}

// MARK: - View

extension AppView {
    static func drawLink(_ s: AppState, _ l: LinkPane, _ env: RenderEnvironment, into buffer: inout CellBuffer) {
        let link = l.link
        let rect = paneRect(Size(width: s.screen.width, height: min(s.screen.height, 12)))
        let r = Rect(x: rect.x, y: max(0, (s.screen.height - rect.height) / 2), width: rect.width, height: rect.height)
        Chrome.drawPane(r, title: "Open link", footer: "o open in browser · Esc close", theme: s.theme, into: &buffer)
        let view = VStack(spacing: 1) {
            Text("This tile links to a web page:").foregroundStyle(.secondary)
            Text(link.url).foregroundStyle(.accent).lineLimit(1)
            Text("Press o to open it with $BROWSER or xdg-open.").font(.caption)
        }
        _ = TileRenderer.render(
            view, in: r.inset(top: 2, left: 3, bottom: 1, right: 3), buffer: &buffer, environment: env)
        // Make the URL a real OSC 8 hyperlink for terminals that support it.
        let urlWidth = min(DisplayWidth.of(link.url), r.width - 6)
        buffer.restyle(Rect(x: r.x + 3, y: r.y + 4, width: urlWidth, height: 1)) { st in
            var st = st
            st.hyperlink = link.url
            st.attributes.insert(.underline)
            return st
        }
    }
}

extension LinkPane: StackedPane {
    var pane: Pane { .external(self) }
    func layers(_ s: AppState) -> [Layer] { [.link, .global] }
    /// It closes with the tile it was opened from.
    func survives(in home: HomeConfig, instances: Set<String>) -> Bool { home.tile(tileID) != nil }
    func draw(_ s: AppState, _ env: RenderEnvironment, into frame: inout HomeFrame) {
        AppView.drawLink(s, self, env, into: &frame.buffer)
    }
}
