import DashCore
import DashHome

/// The layers a key passes through, top first. A pane is modal: a key it does not bind goes
/// straight to `.global`, not to the home screen below it (helix's compositor, simplified).
public enum Layer: String, Sendable, CaseIterable {
    case help, link, detail, home, global
    /// Every message, whole, over whatever is shown.
    case messages
    /// The problems of a broken home.yaml.
    case problems
    /// The Edit Widget form; `field`, `value` and `path` sit over it for the selected row's kind.
    case form, field, value, path
    /// The choices of an enum row, a list's items or a stack's widgets, the gallery, arrange mode.
    case picker, list, gallery, arrange
    /// The activity strip above the tiles, while the home screen's focus is on it; an activity's
    /// detail pane (issue 39.2).
    case strip, activity

    /// What the layer is called in the help overlay.
    public var title: String {
        switch self {
        case .help: return "help"
        case .link: return "link pane"
        case .detail: return "detail pane"
        case .home: return "home"
        case .global: return "everywhere"
        case .messages: return "messages"
        case .problems: return "home.yaml's problems"
        case .form: return "Edit Widget form"
        case .field: return "text field"
        case .value: return "yes/no, number or date field"
        case .path: return "file path field"
        case .picker: return "choice list"
        case .list: return "item list"
        case .gallery: return "gallery"
        case .arrange: return "arrange mode"
        case .strip: return "activity strip"
        case .activity: return "activity pane"
        }
    }

    /// A layer that takes typed text: a character (or a paste) it does not bind is typed into
    /// it, never passed on (so `q` in a field types a q).
    public var takesText: Bool { [.form, .picker, .list, .gallery].contains(self) }
}

/// What a key asks for. Layers give a command its meaning (Tab walks a tile's links on the
/// home screen and the pane's links in a detail pane).
public enum Command: Sendable, Equatable {
    case quit, redraw, switchTheme
    case toggleHelp, close
    case move(Direction)
    case page(Int)
    case firstTile
    case walkLinks(Int)
    case activate
    case openInBrowser
    case rotate(Int)
    case reload, reloadAll
    case scrollHelp(Int)
    case scrollPane(Int)
    /// Every problem of a broken home.yaml (the status line shows the first).
    case listProblems
    /// Every message, whole (the status line shows one, shortened at a word when it must be).
    case toggleMessages
    /// Say why a stack shows its item (Smart Rotate).
    case explain
    /// The Edit Widget form, the gallery and arrange mode (see `EditCommand`).
    case edit(EditCommand)
}

public enum Direction: Sendable { case left, right, up, down }

/// One row of the key table as a pane declares it: the keys, what they do, where the help
/// lists it (its group, and its place in the group: `rank`). Which layers bind it comes from
/// the declarations that name it (`PaneKeys`).
public struct KeyRow: Sendable {
    public var label: String
    public var help: String
    public var group: String
    public var rank: Int
    public var keys: [(Key, Command)]

    init(_ label: String, _ help: String, group: String, rank: Int, _ keys: [(Key, Command)]) {
        self.label = label
        self.help = help
        self.group = group
        self.rank = rank
        self.keys = keys
    }
}

/// A pane's keys: the rows bound in one of its layers.
public struct PaneKeys: Sendable {
    public var layer: Layer
    public var rows: [KeyRow]
    init(_ layer: Layer, _ rows: [KeyRow]) {
        self.layer = layer
        self.rows = rows
    }
}

/// One row of the key table: the keys, what they do, where they work (every layer whose
/// declaration names the row).
public struct KeyBinding: Sendable {
    public var label: String
    public var help: String
    public var group: String
    public var layers: Set<Layer>
    public var keys: [(Key, Command)]
    var rank: Int
}

/// The one key table, assembled from the panes' declarations: `App.update` dispatches from it
/// and the help overlay, the man page's KEYS and the README test list it, so they cannot
/// disagree.
public enum KeyTable {
    public static let groups = [
        "Move", "Act", "View", "Customize", "Arrange mode", "Edit Widget", "Lists and gallery",
        "Text fields",
    ]

    /// Every pane's keys, and the keys that work everywhere.
    static let declarations: [PaneKeys] =
        [PaneKeys(.global, KeyRow.everywhere)] + HomeFocus.keys + DetailPane.keys + LinkPane.keys + HelpPane.keys
        + ProblemsPane.keys + MessagesPane.keys + EditForm.keys + GalleryState.keys + ArrangeState.keys
        + ActivityPane.keys

    /// The rows of every declaration, each once with every layer that binds it, in the help's
    /// order: by group, then by rank.
    public static let bindings: [KeyBinding] = assemble(declarations)

    static func assemble(_ declarations: [PaneKeys]) -> [KeyBinding] {
        var rows: [KeyBinding] = []
        var index: [String: Int] = [:]
        for d in declarations {
            for r in d.rows {
                let id = r.group + "\u{0}" + r.label + "\u{0}" + r.help
                if let i = index[id] {
                    rows[i].layers.insert(d.layer)
                } else {
                    index[id] = rows.count
                    rows.append(
                        KeyBinding(
                            label: r.label, help: r.help, group: r.group, layers: [d.layer], keys: r.keys, rank: r.rank)
                    )
                }
            }
        }
        let order = Dictionary(uniqueKeysWithValues: groups.enumerated().map { ($1, $0) })
        return rows.sorted { a, b in
            (order[a.group] ?? groups.count, a.rank) < (order[b.group] ?? groups.count, b.rank)
        }
    }

    /// Mouse actions, listed in the help beside the keys.
    public static let mouse: [(String, String)] = [
        ("click", "focus; open a tile or link; press a button"), ("wheel", "rotate a stack"),
    ]

    /// The command `key` means in `layer`, if the layer binds it.
    public static func command(for key: Key, in layer: Layer) -> Command? {
        for b in bindings where b.layers.contains(layer) {
            if let hit = b.keys.first(where: { $0.0 == key }) { return hit.1 }
        }
        return nil
    }

    /// The first layer of `stack` (top first) that binds `key`, and what it means there.
    public static func dispatch(_ key: Key, through stack: [Layer]) -> (Layer, Command)? {
        for layer in stack {
            if let c = command(for: key, in: layer) { return (layer, c) }
            if layer.takesText, let text = key.typedText { return (layer, .edit(.type(text))) }
        }
        return nil
    }
}
