import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

extension EditView {
    // MARK: - The gallery

    static func galleryModel(_ s: AppState) -> GalleryModel? {
        guard let g = s.gallery else { return nil }
        let list = g.widgets(s)
        var items: [GalleryItem] = []
        var chosen = 0
        var name: String?
        var description: String?
        if let (widget, family) = g.choice(s) {
            name = widget.displayName
            description = widget.description
            chosen = widget.supportedFamilies.firstIndex(of: family) ?? 0
            items = widget.supportedFamilies.map { f in
                let view: TileView?
                switch g.previews[widget.kind + "/" + f.rawValue] {
                case .ready(let e)?: view = widget.view(for: e, in: s.context(for: f, isPreview: true))
                case .failed(let why)?: view = Text("preview failed: \(why)").foregroundStyle(.negative)
                default: view = nil
                }
                // The preview is drawn at the 80x24 grid; a big screen's tiles are bigger: said.
                let preview = GridMetrics.tileSize(f), real = GridMetrics.tileSize(f, unit: s.layout.unit)
                return GalleryItem(
                    family: f, view: view, caption: "\(f.displayName) \(preview) · sample",
                    realSize: real == preview ? "" : " · \(real) on your home")
            }
        }
        if let p = g.problem(s) {
            name = "⚠ \(p.name) cannot be used"
            description = "\(p.reason) (\(p.path))"
        }
        let broken = g.problems(s)
        let total = s.bundle.widgets.count
        let brokenCount = broken.isEmpty ? "" : " · \(broken.count) broken"
        return GalleryModel(
            filter: FieldText(g.filter, cursor: g.filter.count, placeholder: "type a name"),
            names: list.map(\.displayName) + broken.map { "⚠ \($0.name)" },
            selected: list.isEmpty && broken.isEmpty ? nil : g.selected,
            count: (list.count == total
                ? "\(total) widget\(total == 1 ? "" : "s")" : "\(list.count) of \(total) widgets")
                + brokenCount,
            name: name, description: description, items: items, chosen: chosen,
            empty: list.isEmpty && broken.isEmpty ? "No widget matches “\(g.filter)”." : nil,
            footer: "type to find · ↑↓ widget · ←→ size · Enter add · Esc close")
    }
}

extension GalleryState: StackedPane {
    static func action(for input: PaneInput) -> Action? {
        switch input {
        case .command(let c, let layer): return action(for: c, in: layer)
        case .preview(let token, let result): return .previewLoaded(token: token, result: result)
        case .pointer, .listing: return nil
        }
    }

    var pane: Pane { .gallery(self) }
    func layers(_ s: AppState) -> [Layer] { s.layout.isTooSmall ? [.global] : [.gallery, .global] }
    func draw(_ s: AppState, _ env: RenderEnvironment, into frame: inout HomeFrame) {
        EditView.drawGallery(s, into: &frame)
    }
}
