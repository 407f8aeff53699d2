import DashWidgets

/// A pane over the home screen, carrying its own state: the pane shown is the one source of
/// truth for what it shows (its scroll, its highlighted link, the form's fields), so closing
/// a pane forgets its state and Esc back to an earlier one finds it as it was left. The panes
/// open form a stack (`AppState.panes`); only the router (PaneRouter.swift) changes it.
public enum Pane: Sendable {
    /// No pane: the home screen (what `AppState.pane` says when the stack is empty; never on it).
    case none
    /// A widget's detail view for a deep link (Panes/Detail).
    case detail(DetailPane)
    /// An http(s) link: shows the URL, `o` opens it in the browser (Panes/Link).
    case external(LinkPane)
    /// The keys, from the key table (Panes/Help).
    case help(HelpPane)
    /// The Edit Widget form (Panes/Form).
    indirect case form(EditForm)
    /// The widget gallery (Panes/Gallery).
    case gallery(GalleryState)
    /// Arrange mode (Panes/Arrange).
    case arrange(ArrangeState)
    /// Every problem of a broken home.yaml (Panes/Problems).
    case problems(ProblemsPane)
    /// A Live Activity's detail, the Lock Screen presentation (Panes/Activity).
    case activity(ActivityPane)

    /// Which pane, without its state (for comparisons and the key layers).
    public enum Kind: Sendable, Hashable { case none, detail, external, help, form, gallery, arrange, problems, activity }

    public var kind: Kind {
        switch self {
        case .none: return .none
        case .detail: return .detail
        case .external: return .external
        case .help: return .help
        case .form: return .form
        case .gallery: return .gallery
        case .arrange: return .arrange
        case .problems: return .problems
        case .activity: return .activity
        }
    }

    /// The pane as a component (nil: the home screen): how the router and the view reach it.
    var component: (any StackedPane)? {
        switch self {
        case .none: return nil
        case .detail(let d): return d
        case .external(let l): return l
        case .help(let h): return h
        case .form(let f): return f
        case .gallery(let g): return g
        case .arrange(let a): return a
        case .problems(let p): return p
        case .activity(let a): return a
        }
    }

    /// The same pane on the same subject (a detail pane on the same link of the same
    /// instance), whatever its scroll: opening it again is not a new level to step back to.
    func isSame(as other: Pane) -> Bool {
        switch (self, other) {
        case (.detail(let a), .detail(let b)):
            return a.tileID == b.tileID && a.instanceID == b.instanceID && a.link == b.link
        case (.external(let a), .external(let b)): return a == b
        default: return kind == other.kind
        }
    }
}

/// Each pane's state, read where the pane is shown (nil when another pane shows). Read only:
/// a pane's state changes through its `reduce`, which the router puts back on the stack
/// (PaneRouter.swift).
extension AppState {
    public var detailPane: DetailPane? { if case .detail(let d) = pane { d } else { nil } }
    public var helpPane: HelpPane? { if case .help(let h) = pane { h } else { nil } }
    public var form: EditForm? { if case .form(let f) = pane { f } else { nil } }
    public var gallery: GalleryState? { if case .gallery(let g) = pane { g } else { nil } }
    public var arrange: ArrangeState? { if case .arrange(let a) = pane { a } else { nil } }
}
