import DashWidgets

extension TileView {
    /// The view without a first line that only repeats `title`, which the tile's frame already
    /// shows ("Calendar" in a tile titled Calendar). A first row that says more keeps the rest
    /// of what it says (`Calendar · next 7 days` keeps `next 7 days`, still on the right).
    public func droppingLeadingTitle(_ title: String) -> TileView {
        let key = title.trimmingCharacters(in: .whitespaces).lowercased()
        guard !key.isEmpty else { return self }
        switch TitleDrop.drop(self, key) {
        case .unchanged: return self
        case .removed: return .empty
        case .changed(let v): return v
        }
    }
}

enum TitleDrop {
    case unchanged
    /// The view was nothing but the title.
    case removed
    case changed(TileView)

    static func drop(_ view: TileView, _ key: String) -> TitleDrop {
        func inside(_ v: TileView, _ wrap: (TileView) -> TileView) -> TitleDrop {
            switch drop(v, key) {
            case .unchanged: return .unchanged
            case .removed: return .removed
            case .changed(let c): return .changed(wrap(c))
            }
        }
        switch view {
        case .text(let s, _):
            return s.trimmingCharacters(in: .whitespaces).lowercased() == key ? .removed : .unchanged
        case .stack(let axis, let alignment, let spacing, let children):
            // The first line of a column, the start of a row.
            guard let i = children.firstIndex(where: { !isBlank($0) }) else { return .unchanged }
            var rest = children
            switch drop(children[i], key) {
            case .unchanged: return .unchanged
            case .removed: rest.remove(at: i)
            case .changed(let c): rest[i] = c
            }
            if rest.allSatisfy(isBlank) { return .removed }
            return .changed(.stack(axis, alignment: alignment, spacing: spacing, rest))
        case .padding(let e, let v): return inside(v) { .padding(e, $0) }
        case .lineLimit(let n, let v): return inside(v) { .lineLimit(n, $0) }
        case .frame(let w, let h, let a, let v): return inside(v) { .frame(width: w, height: h, alignment: a, $0) }
        case .expand(let h, let vertical, let a, let v):
            return inside(v) { .expand(horizontal: h, vertical: vertical, alignment: a, $0) }
        case .styled(let s, let v): return inside(v) { .styled(s, $0) }
        case .link(let u, let v): return inside(v) { .link(u, $0) }
        case .widgetURL(let u, let v): return inside(v) { .widgetURL(u, $0) }
        case .invalidatable(let p, let v): return inside(v) { .invalidatable(pending: p, $0) }
        default: return .unchanged
        }
    }

    /// Draws nothing: an empty view or a spacer.
    static func isBlank(_ v: TileView) -> Bool {
        switch v {
        case .empty, .spacer: return true
        default: return false
        }
    }
}
