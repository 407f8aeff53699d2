import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

/// A preview in the gallery.
enum GalleryPreview: Sendable {
    case loading
    case ready(AnyEntry)
    case failed(String)
}

/// The widget gallery: every widget of the bundle, filtered by what is typed, each with its
/// preview (the snapshot with sample data) in every family it supports.
public struct GalleryState: Sendable {
    public var filter = ""
    /// The widget chosen, an index into the filtered list.
    public var selected = 0
    /// The size Enter adds; nil: the widget's first.
    public var family: WidgetFamily?
    /// The tile the new one goes after.
    public var afterTile: String?
    var previews: [String: GalleryPreview] = [:]
    var tokens: [UInt64: String] = [:]
}

// MARK: - What it lists

extension GalleryState {
    /// Whether any of `fields` holds the filter, whatever the case (all do when it is empty).
    func matches(_ fields: String...) -> Bool {
        let f = filter.lowercased().trimmingCharacters(in: .whitespaces)
        return f.isEmpty || fields.contains { $0.lowercased().contains(f) }
    }

    /// The widgets the filter leaves, in the bundle's order.
    func widgets(_ s: AppState) -> [Widget] {
        s.bundle.widgets.filter { matches($0.displayName, $0.kind, $0.description) }
    }

    /// Executables in the widgets folder that offer no widget, filtered like widgets: the
    /// gallery lists them after the widgets, each with why it cannot be used.
    func problems(_ s: AppState) -> [ExtensionCatalog.Problem] {
        s.extensions.problems.filter { matches($0.name, $0.reason) }
    }

    /// The gallery's lines: its widgets, then the broken extensions.
    func count(_ s: AppState) -> Int { widgets(s).count + problems(s).count }

    /// The broken extension chosen (the selection is past the widgets), if any.
    func problem(_ s: AppState) -> ExtensionCatalog.Problem? {
        let i = selected - widgets(s).count
        let problems = problems(s)
        return problems.indices.contains(i) ? problems[i] : nil
    }

    /// The widget chosen and the size Enter adds it in.
    func choice(_ s: AppState) -> (Widget, WidgetFamily)? {
        let list = widgets(s)
        guard list.indices.contains(selected) else { return nil }
        let w = list[selected]
        let family = self.family.flatMap { w.supports($0) ? $0 : nil } ?? w.supportedFamilies.first ?? .small
        return (w, family)
    }
}

// MARK: - Keys and update

extension GalleryState: PaneComponent {
    public enum Action: Sendable {
        case choose(Int), type(String), backspace, family(Int), add, close
        /// A preview asked for arrived.
        case previewLoaded(token: UInt64, result: Result<AnyEntry, any Error>)
        /// The widgets folder's extensions changed: these kinds' previews are out of date.
        case extensionsChanged(Set<String>)
        /// Ask for the chosen widget's previews it does not have.
        case askPreviews
    }

    static func action(for command: Command, in layer: Layer) -> Action? {
        switch command {
        case .edit(.choose(let d)): return .choose(d)
        case .edit(.type(let t)): return .type(t)
        case .edit(.line(.backspace)): return .backspace
        case .edit(.family(let d)): return .family(d)
        case .edit(.activate): return .add
        case .edit(.cancel): return .close
        default: return nil
        }
    }

    /// `a` on the home screen: the gallery opens with the first widget's previews on their way.
    static func open(_ context: PaneContext, afterTile: String?) -> [Output] {
        var g = GalleryState(afterTile: afterTile)
        let asked = g.requestPreviews(context)
        return [.push(.gallery(g))] + asked
    }

    static func reduce(into g: inout GalleryState, _ action: Action, _ context: PaneContext) -> [Output] {
        let s = context.app
        switch action {
        case .choose(let delta):
            g.selected = min(max(0, g.selected + delta), max(0, g.count(s) - 1))
            g.family = nil
        case .type(let t):
            g.filter += Editing.fieldText(t)
            g.selected = 0
            g.family = nil
        case .backspace:
            if !g.filter.isEmpty { g.filter.removeLast() }
            g.selected = 0
            g.family = nil
        case .family(let delta):
            guard let (widget, family) = g.choice(s) else { return [] }
            let fams = widget.supportedFamilies
            let i = fams.firstIndex(of: family) ?? 0
            g.family = fams[((i + delta) % fams.count + fams.count) % fams.count]
        case .add:
            if let p = g.problem(s) {
                return [.say("\(p.name) cannot be added: \(p.reason)"), .effect(.redraw(full: false))]
            }
            return g.add(context)
        case .close:
            return [.close]
        case .previewLoaded(let token, let result):
            guard let key = g.tokens.removeValue(forKey: token) else { return [] }
            switch result {
            case .success(let e): g.previews[key] = .ready(e)
            case .failure(let e): g.previews[key] = .failed(Editing.message(e))
            }
            return [.effect(.redraw(full: false))]
        case .extensionsChanged(let changed):
            g.previews = g.previews.filter { key, _ in !changed.contains(String(key.prefix { $0 != "/" })) }
            g.selected = min(g.selected, max(0, g.count(s) - 1))
            return []
        case .askPreviews:
            break
        }
        return g.requestPreviews(context)
    }

    /// Asks for the chosen widget's previews in each of its families (kept while the gallery is
    /// open), each named by a token of the context's.
    mutating func requestPreviews(_ context: PaneContext) -> [Output] {
        guard let (widget, _) = choice(context.app) else { return [] }
        var out: [Output] = []
        var taken = 0
        for family in widget.supportedFamilies {
            let key = widget.kind + "/" + family.rawValue
            guard previews[key] == nil else { continue }
            let token = context.token(taken)
            taken += 1
            previews[key] = .loading
            tokens[token] = key
            let request = PreviewRequest(
                token: token, widget: widget, configuration: WidgetConfig(),
                context: context.app.context(for: family, isPreview: true), live: false)
            out.append(.effect(.edit(.loadPreview(request))))
        }
        return taken > 0 ? [.tookTokens(taken)] + out : out
    }

    /// Enter: the chosen widget goes after the focused tile in the chosen size, gets the
    /// focus, and opens in the form when it has something worth setting.
    func add(_ context: PaneContext) -> [Output] {
        guard let (widget, family) = choice(context.app) else { return [] }
        let n = Editing.highestID(context.app)
        let tileID = "t\(n + 1)"
        let inst = WidgetInstance(id: "w\(n + 2)", kind: widget.kind)
        let tile = TileInstance(id: tileID, family: family, items: [inst])
        var home = context.home
        let at = afterTile.flatMap { id in home.tiles.firstIndex { $0.id == id } }.map { $0 + 1 } ?? home.tiles.count
        home.tiles.insert(tile, at: at)
        var out: [Output] = [
            .close, .change(home, reason: "add \(widget.displayName)", focus: tileID),
            .say("added \(widget.displayName): u undoes"),
        ]
        // Worth setting: anything but secrets (those usually come from the environment).
        if widget.schema.parameters.contains(where: { !$0.isSecret }) {
            out.append(.edit(tile: tileID, instance: inst.id, inStack: false))
        }
        return out
    }
}
