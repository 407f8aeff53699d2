import DashCore

/// The layers a key passes through, top first. A pane is modal: a key it does not bind goes
/// straight to `.global`, not to the home screen below it (helix's compositor, simplified).
public enum Layer: String, Sendable, CaseIterable {
    case help, link, detail, home, global

    /// What the layer is called in the help overlay.
    public var title: String {
        switch self {
        case .help: return "help"
        case .link: return "link pane"
        case .detail: return "detail pane"
        case .home: return "home"
        case .global: return "everywhere"
        }
    }
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
    /// Say why a stack shows its item (Smart Rotate).
    case explain
    /// Undo the last action of an interactive widget.
    case undo
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
        self.label = label; self.help = help; self.group = group; self.layers = layers; self.keys = keys
    }
}

/// The one key table: `App.update` dispatches from it and the help overlay (and the README
/// test) list it, so they cannot disagree.
public enum KeyTable {
    public static let groups = ["Move", "Act", "View"]

    public static let bindings: [KeyBinding] = [
        KeyBinding("←↓↑→ h j k l", "focus the nearest tile that way", group: "Move", in: [.home], [
            (.left, .move(.left)), (.char("h"), .move(.left)), (.right, .move(.right)), (.char("l"), .move(.right)),
            (.up, .move(.up)), (.char("k"), .move(.up)), (.down, .move(.down)), (.char("j"), .move(.down)),
        ]),
        KeyBinding("PgUp PgDn [ ]", "previous / next page", group: "Move", in: [.home], [
            (.pageUp, .page(-1)), (.char("["), .page(-1)), (.pageDown, .page(1)), (.char("]"), .page(1)),
        ]),
        KeyBinding("Home g", "the first tile of the page", group: "Move", in: [.home], [
            (.home, .firstTile), (.char("g"), .firstTile),
        ]),
        KeyBinding("Tab Shift-Tab", "walk the links and buttons of a tile/pane", group: "Move", in: [.home, .detail], [
            (.tab, .walkLinks(1)), (.backTab, .walkLinks(-1)),
        ]),
        KeyBinding("Enter Space", "open the tile or link; press the button", group: "Act", in: [.home, .detail], [
            (.enter, .activate), (.char(" "), .activate),
        ]),
        KeyBinding("o", "open a web link in the browser", group: "Act", in: [.link, .detail], [
            (.char("o"), .openInBrowser),
        ]),
        KeyBinding("< >", "rotate a stack", group: "Act", in: [.home], [
            (.char("<"), .rotate(-1)), (.char(">"), .rotate(1)),
        ]),
        KeyBinding("r / R", "reload this widget / all widgets", group: "Act", in: [.home, .detail], [
            (.char("r"), .reload), (.char("R"), .reloadAll),
        ]),
        KeyBinding("w", "why a stack shows this item (Smart Rotate)", group: "View", in: [.home, .detail], [
            (.char("w"), .explain),
        ]),
        KeyBinding("u", "undo the last button or toggle pressed", group: "Act", in: [.home], [
            (.char("u"), .undo),
        ]),
        KeyBinding("t", "switch dark / light", group: "View", in: [.global], [(.char("t"), .switchTheme)]),
        KeyBinding("Ctrl-L", "redraw the screen", group: "View", in: [.global], [(.ctrl("l"), .redraw)]),
        KeyBinding("Esc Backspace", "close a pane (home: drop the highlight)", group: "View",
                   in: [.help, .link, .detail, .home], [(.escape, .close), (.backspace, .close)]),
        KeyBinding("?", "this help (again: close it)", group: "View", in: [.home, .detail, .help], [
            (.char("?"), .toggleHelp),
        ]),
        KeyBinding("q Ctrl-C", "quit", group: "View", in: [.global], [(.char("q"), .quit), (.ctrl("c"), .quit)]),
        KeyBinding("↑↓ j k PgUp PgDn", "scroll this help", group: "View", in: [.help], [
            (.up, .scrollHelp(-1)), (.char("k"), .scrollHelp(-1)), (.down, .scrollHelp(1)), (.char("j"), .scrollHelp(1)),
            (.pageUp, .scrollHelp(-10)), (.pageDown, .scrollHelp(10)),
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
        for layer in stack { if let c = command(for: key, in: layer) { return (layer, c) } }
        return nil
    }
}
