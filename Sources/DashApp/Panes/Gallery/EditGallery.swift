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

extension Editing {
    /// Whether any of `fields` holds the gallery's filter, whatever the case (all do when the
    /// filter is empty).
    static func galleryMatch(_ s: AppState) -> (_ fields: String...) -> Bool {
        let f = (s.gallery?.filter ?? "").lowercased().trimmingCharacters(in: .whitespaces)
        return { fields in f.isEmpty || fields.contains { $0.lowercased().contains(f) } }
    }

    /// The widgets the filter leaves, in the bundle's order.
    static func galleryWidgets(_ s: AppState) -> [Widget] {
        let matches = galleryMatch(s)
        return s.bundle.widgets.filter { matches($0.displayName, $0.kind, $0.description) }
    }

    /// Executables in the widgets folder that offer no widget, filtered like widgets: the
    /// gallery lists them after the widgets, each with why it cannot be used.
    static func galleryProblems(_ s: AppState) -> [ExtensionCatalog.Problem] {
        let matches = galleryMatch(s)
        return s.extensions.problems.filter { matches($0.name, $0.reason) }
    }

    /// The gallery's lines: its widgets, then the broken extensions.
    static func galleryCount(_ s: AppState) -> Int { galleryWidgets(s).count + galleryProblems(s).count }

    /// The broken extension chosen (the selection is past the widgets), if any.
    static func galleryProblem(_ s: AppState) -> ExtensionCatalog.Problem? {
        guard let g = s.gallery else { return nil }
        let i = g.selected - galleryWidgets(s).count
        let problems = galleryProblems(s)
        return problems.indices.contains(i) ? problems[i] : nil
    }

    static func galleryChoice(_ s: AppState) -> (Widget, WidgetFamily)? {
        guard let g = s.gallery else { return nil }
        let list = galleryWidgets(s)
        guard list.indices.contains(g.selected) else { return nil }
        let w = list[g.selected]
        let family = g.family.flatMap { w.supports($0) ? $0 : nil } ?? w.supportedFamilies.first ?? .small
        return (w, family)
    }

    static func openGallery(_ s: inout AppState) -> [Effect] {
        s.push(.gallery(GalleryState(afterTile: s.focusedTile)))
        s.linkIndex = nil
        return requestGalleryPreviews(&s)
    }

    /// Asks for the chosen widget's previews in each of its families (kept while the gallery is open).
    static func requestGalleryPreviews(_ s: inout AppState) -> [Effect] {
        guard let (widget, _) = galleryChoice(s), var g = s.gallery else { return [] }
        var fx: [Effect] = []
        for family in widget.supportedFamilies {
            let key = widget.kind + "/" + family.rawValue
            guard g.previews[key] == nil else { continue }
            let token = s.editing.token()
            g.previews[key] = .loading
            g.tokens[token] = key
            let context = s.context(for: family, isPreview: true)
            fx.append(
                .edit(
                    .loadPreview(
                        PreviewRequest(
                            token: token, widget: widget, configuration: WidgetConfig(),
                            context: context, live: false))))
        }
        s.replaceTop(.gallery(g))
        return fx
    }

    static func galleryPreviewLoaded(
        _ s: inout AppState, token: UInt64,
        result: Result<AnyEntry, any Error>
    ) -> [Effect] {
        guard var g = s.gallery, let key = g.tokens.removeValue(forKey: token) else { return [] }
        switch result {
        case .success(let e): g.previews[key] = .ready(e)
        case .failure(let e): g.previews[key] = .failed(message(e))
        }
        s.replaceTop(.gallery(g))
        return [.redraw(full: false)]
    }

    static func galleryPerform(_ s: inout AppState, _ c: EditCommand) -> [Effect] {
        guard var g = s.gallery else {
            s.closeTop()
            return []
        }
        let count = galleryCount(s)
        switch c {
        case .choose(let delta):
            g.selected = min(max(0, g.selected + delta), max(0, count - 1))
            g.family = nil
        case .type(let t):
            g.filter += fieldText(t)
            g.selected = 0
            g.family = nil
        case .line(.backspace):
            if !g.filter.isEmpty { g.filter.removeLast() }
            g.selected = 0
            g.family = nil
        case .family(let delta):
            guard let (widget, family) = galleryChoice(s) else { return [] }
            let fams = widget.supportedFamilies
            let i = fams.firstIndex(of: family) ?? 0
            g.family = fams[((i + delta) % fams.count + fams.count) % fams.count]
        case .activate:
            if let p = galleryProblem(s) {
                s.say("\(p.name) cannot be added: \(p.reason)")
                return [.redraw(full: false)]
            }
            return addFromGallery(&s)
        case .cancel:
            s.closeTop()
            return []
        default:
            return []
        }
        s.replaceTop(.gallery(g))
        return requestGalleryPreviews(&s)
    }

    /// Enter: the chosen widget goes after the focused tile in the chosen size, gets the
    /// focus, and opens in the form when it has something worth setting.
    static func addFromGallery(_ s: inout AppState) -> [Effect] {
        guard let (widget, family) = galleryChoice(s), let g = s.gallery else { return [] }
        let tileID = newID(&s, "t")
        let inst = WidgetInstance(id: newID(&s, "w"), kind: widget.kind)
        let tile = TileInstance(id: tileID, family: family, items: [inst])
        var home = s.home
        let at = g.afterTile.flatMap { id in home.tiles.firstIndex { $0.id == id } }.map { $0 + 1 } ?? home.tiles.count
        home.tiles.insert(tile, at: at)
        s.closeTop()
        var fx = changeHome(&s, to: home, what: "add \(widget.displayName)", focus: tileID)
        s.say("added \(widget.displayName): u undoes")
        // Worth setting: anything but secrets (those usually come from the environment).
        if widget.schema.parameters.contains(where: { !$0.isSecret }) {
            fx += startEditing(&s, tileID: tileID, instance: inst, inStack: false)
        }
        return fx
    }
}
