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

/// One row of the key table: the keys, what they do, where they work.
public struct KeyBinding: Sendable {
    public var label: String
    public var help: String
    public var group: String
    public var layers: Set<Layer>
    public var keys: [(Key, Command)]

    init(_ label: String, _ help: String, group: String, in layers: Set<Layer>, _ keys: [(Key, Command)]) {
        self.label = label
        self.help = help
        self.group = group
        self.layers = layers
        self.keys = keys
    }
}

/// The one key table: `App.update` dispatches from it and the help overlay (and the README
/// test) list it, so they cannot disagree.
public enum KeyTable {
    public static let groups = [
        "Move", "Act", "View", "Customize", "Arrange mode", "Edit Widget", "Lists and gallery",
        "Text fields",
    ]

    public static let bindings: [KeyBinding] =
        [
            KeyBinding(
                "←↓↑→ h j k l", "focus the nearest tile that way", group: "Move", in: [.home],
                [
                    (.left, .move(.left)), (.char("h"), .move(.left)), (.right, .move(.right)),
                    (.char("l"), .move(.right)),
                    (.up, .move(.up)), (.char("k"), .move(.up)), (.down, .move(.down)), (.char("j"), .move(.down)),
                ]),
            KeyBinding(
                "PgUp PgDn [ ]", "previous / next page", group: "Move", in: [.home],
                [
                    (.pageUp, .page(-1)), (.char("["), .page(-1)), (.pageDown, .page(1)), (.char("]"), .page(1)),
                ]),
            KeyBinding(
                "Home g", "the first tile of the page", group: "Move", in: [.home],
                [
                    (.home, .firstTile), (.char("g"), .firstTile),
                ]),
            KeyBinding(
                "Tab Shift-Tab", "walk the links and buttons of a tile/pane", group: "Move", in: [.home, .detail],
                [
                    (.tab, .walkLinks(1)), (.backTab, .walkLinks(-1)),
                ]),
            KeyBinding(
                "Enter Space", "open the tile or link; press the button", group: "Act", in: [.home, .detail],
                [
                    (.enter, .activate), (.char(" "), .activate),
                ]),
            KeyBinding(
                "o", "open a web link in the browser", group: "Act", in: [.link, .detail],
                [
                    (.char("o"), .openInBrowser)
                ]),
            KeyBinding(
                "< >", "rotate a stack", group: "Act", in: [.home],
                [
                    (.char("<"), .rotate(-1)), (.char(">"), .rotate(1)),
                ]),
            KeyBinding(
                "r / R", "reload this widget / all widgets", group: "Act", in: [.home, .detail],
                [
                    (.char("r"), .reload), (.char("R"), .reloadAll),
                ]),
            KeyBinding(
                "w", "why a stack shows this item (Smart Rotate)", group: "View", in: [.home, .detail],
                [
                    (.char("w"), .explain)
                ]),
            KeyBinding("t", "switch dark / light", group: "View", in: [.global], [(.char("t"), .switchTheme)]),
            KeyBinding("Ctrl-L", "redraw the screen", group: "View", in: [.global], [(.ctrl("l"), .redraw)]),
            KeyBinding(
                "Esc Backspace", "close a pane (home: drop the highlight)", group: "View",
                in: [.help, .link, .detail, .home, .problems, .messages], [(.escape, .close), (.backspace, .close)]),
            KeyBinding(
                "!", "every problem of a broken home.yaml", group: "View", in: [.home, .problems],
                [
                    (.char("!"), .listProblems)
                ]),
            KeyBinding(
                "Ctrl-G", "every message, whole (again: close it)", group: "View",
                in: [.global], [(.ctrl("g"), .toggleMessages)]),
            KeyBinding(
                "?", "this help (again: close it)", group: "View", in: [.home, .detail, .help],
                [
                    (.char("?"), .toggleHelp)
                ]),
            KeyBinding("q Ctrl-C", "quit", group: "View", in: [.global], [(.char("q"), .quit), (.ctrl("c"), .quit)]),
            KeyBinding(
                "↑↓ j k PgUp PgDn", "scroll this help", group: "View", in: [.help],
                [
                    (.up, .scrollHelp(-1)), (.char("k"), .scrollHelp(-1)), (.down, .scrollHelp(1)),
                    (.char("j"), .scrollHelp(1)),
                    (.pageUp, .scrollHelp(-10)), (.pageDown, .scrollHelp(10)),
                ]),
            KeyBinding(
                "↑↓ j k PgUp PgDn", "scroll a pane longer than the screen", group: "View", in: [.detail, .problems],
                [
                    (.up, .scrollPane(-1)), (.char("k"), .scrollPane(-1)), (.down, .scrollPane(1)),
                    (.char("j"), .scrollPane(1)),
                    (.pageUp, .scrollPane(-10)), (.pageDown, .scrollPane(10)),
                ]),
        ] + editBindings

    /// The keys of the Edit Widget form, the gallery and arrange mode.
    static let editBindings: [KeyBinding] = [
        KeyBinding(
            "e", "edit the widget's settings", group: "Customize", in: [.home, .detail],
            [
                (.char("e"), .edit(.openForm))
            ]),
        KeyBinding(
            "a", "add a widget from the gallery", group: "Customize", in: [.home],
            [
                (.char("a"), .edit(.openGallery))
            ]),
        KeyBinding(
            "m", "arrange mode: lift the tile to move it", group: "Customize", in: [.home],
            [
                (.char("m"), .edit(.openArrange))
            ]),
        KeyBinding(
            "d", "remove the tile (of a stack: the widget shown)", group: "Customize", in: [.home, .arrange],
            [
                (.char("d"), .edit(.remove))
            ]),
        KeyBinding(
            "u Ctrl-R", "undo / redo the last change: a move, remove, resize, edit, button or toggle",
            group: "Customize",
            in: [.home, .arrange], [(.char("u"), .edit(.undo)), (.ctrl("r"), .edit(.redo))]),
        KeyBinding(
            "←↓↑→ h j k l", "move the lifted tile (dropped: move the focus)", group: "Arrange mode",
            in: [.arrange],
            [
                (.left, .edit(.moveTile(.left))), (.char("h"), .edit(.moveTile(.left))),
                (.right, .edit(.moveTile(.right))), (.char("l"), .edit(.moveTile(.right))),
                (.up, .edit(.moveTile(.up))), (.char("k"), .edit(.moveTile(.up))),
                (.down, .edit(.moveTile(.down))), (.char("j"), .edit(.moveTile(.down))),
            ]),
        KeyBinding(
            "PgUp PgDn [ ]", "move the lifted tile to the previous / next page", group: "Arrange mode",
            in: [.arrange],
            [
                (.pageUp, .edit(.movePage(-1))), (.char("["), .edit(.movePage(-1))),
                (.pageDown, .edit(.movePage(1))), (.char("]"), .edit(.movePage(1))),
            ]),
        KeyBinding(
            "Enter Space", "drop (over a tile of its size: stack) / lift", group: "Arrange mode",
            in: [.arrange], [(.enter, .edit(.lift)), (.char(" "), .edit(.lift))]),
        KeyBinding(
            "f", "the next size the tile's widgets support", group: "Arrange mode", in: [.arrange],
            [
                (.char("f"), .edit(.cycleFamily))
            ]),
        KeyBinding(
            "Esc", "cancel the form (no change); close; leave a mode", group: "Edit Widget",
            in: [.form, .picker, .list, .gallery, .arrange], [(.escape, .edit(.cancel))]),
        KeyBinding(
            "↑↓ Tab Shift-Tab", "previous / next field", group: "Edit Widget", in: [.form],
            [
                (.up, .edit(.field(-1))), (.down, .edit(.field(1))),
                (.tab, .edit(.field(1))), (.backTab, .edit(.field(-1))),
            ]),
        KeyBinding(
            "Enter", "open a choice or list; next field; press button", group: "Edit Widget",
            in: [.form], [(.enter, .edit(.activate))]),
        KeyBinding(
            "Ctrl-S", "save: the tile reloads, home.yaml is written", group: "Edit Widget",
            in: [.form, .picker, .list], [(.ctrl("s"), .edit(.save))]),
        KeyBinding(
            "Space", "switch a yes/no field", group: "Edit Widget", in: [.value],
            [
                (.char(" "), .edit(.toggle))
            ]),
        KeyBinding(
            "Space", "a stack's widget list: turn Smart Rotate on / off", group: "Edit Widget", in: [.list],
            [
                (.char(" "), .edit(.toggle))
            ]),
        KeyBinding(
            "+ -", "number one up / down, date a day later / earlier", group: "Edit Widget", in: [.value],
            [
                (.char("+"), .edit(.step(1))), (.char("="), .edit(.step(1))), (.char("-"), .edit(.step(-1))),
            ]),
        KeyBinding(
            "Tab", "complete a file path (empty: next field)", group: "Edit Widget", in: [.path],
            [
                (.tab, .edit(.complete))
            ]),
        KeyBinding(
            "typing", "edit the field; in a list or gallery: filter it", group: "Lists and gallery",
            in: [.form, .picker, .gallery], []),
        KeyBinding(
            "↑↓ PgUp PgDn", "choose a line of the list", group: "Lists and gallery",
            in: [.picker, .list, .gallery],
            [
                (.up, .edit(.choose(-1))), (.down, .edit(.choose(1))),
                (.pageUp, .edit(.choose(-10))), (.pageDown, .edit(.choose(10))),
            ]),
        KeyBinding(
            "Enter", "take the choice, edit the item, add the widget", group: "Lists and gallery",
            in: [.picker, .list, .gallery], [(.enter, .edit(.activate))]),
        KeyBinding(
            "Backspace", "delete a letter of the filter", group: "Lists and gallery", in: [.picker, .gallery],
            [
                (.backspace, .edit(.line(.backspace)))
            ]),
        KeyBinding(
            "←→ Tab Shift-Tab", "choose the size to add", group: "Lists and gallery", in: [.gallery],
            [
                (.left, .edit(.family(-1))), (.right, .edit(.family(1))),
                (.tab, .edit(.family(1))), (.backTab, .edit(.family(-1))),
            ]),
        KeyBinding(
            "a Insert", "add an item after this one", group: "Lists and gallery", in: [.list],
            [
                (.char("a"), .edit(.add)), (.insert, .edit(.add)),
            ]),
        KeyBinding(
            "x Delete", "remove the item", group: "Lists and gallery", in: [.list],
            [
                (.char("x"), .edit(.remove)), (.delete, .edit(.remove)),
            ]),
        KeyBinding(
            "K J", "move the item up / down", group: "Lists and gallery", in: [.list],
            [
                (.char("K"), .edit(.reorder(-1))), (.char("J"), .edit(.reorder(1))),
            ]),
        KeyBinding(
            "← → Home End", "move the cursor", group: "Text fields", in: [.field],
            [
                (.left, .edit(.line(.left))), (.right, .edit(.line(.right))),
                (.home, .edit(.line(.home))), (.end, .edit(.line(.end))),
            ]),
        KeyBinding(
            "Ctrl-A Ctrl-E", "to the start / end of the text", group: "Text fields", in: [.field],
            [
                (.ctrl("a"), .edit(.line(.home))), (.ctrl("e"), .edit(.line(.end))),
            ]),
        KeyBinding(
            "Alt-B Alt-F", "a word back / forward", group: "Text fields", in: [.field],
            [
                (.alt("b"), .edit(.line(.wordLeft))), (.alt("f"), .edit(.line(.wordRight))),
            ]),
        KeyBinding(
            "Backspace Delete Ctrl-D", "delete before / under the cursor", group: "Text fields", in: [.field],
            [
                (.backspace, .edit(.line(.backspace))), (.delete, .edit(.line(.delete))),
                (.ctrl("d"), .edit(.line(.delete))),
            ]),
        KeyBinding(
            "Ctrl-U Ctrl-K", "delete to the start / end of the text", group: "Text fields", in: [.field],
            [
                (.ctrl("u"), .edit(.line(.killToStart))), (.ctrl("k"), .edit(.line(.killToEnd))),
            ]),
        KeyBinding(
            "Ctrl-W Alt-D", "delete the word before / after the cursor", group: "Text fields", in: [.field],
            [
                (.ctrl("w"), .edit(.line(.killWordBack))), (.alt("d"), .edit(.line(.killWordForward))),
            ]),
        KeyBinding(
            "Ctrl-Y", "put back what was deleted last", group: "Text fields", in: [.field],
            [
                (.ctrl("y"), .edit(.line(.yank)))
            ]),
    ]

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
