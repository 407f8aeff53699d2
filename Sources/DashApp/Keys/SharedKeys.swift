import DashCore

/// Rows of the key table that several panes bind: declared once here, named in each pane's
/// declaration (`PaneKeys`), listed once in the help. A row only one pane binds lives in that
/// pane's folder.
extension KeyRow {
    /// The keys that work everywhere (the `.global` layer).
    static let everywhere: [KeyRow] = [
        KeyRow("t", "switch dark / light", group: "View", rank: 90, [(.char("t"), .switchTheme)]),
        KeyRow("Ctrl-L", "redraw the screen", group: "View", rank: 100, [(.ctrl("l"), .redraw)]),
        KeyRow(
            "Ctrl-G", "every message, whole (again: close it)", group: "View", rank: 130,
            [(.ctrl("g"), .toggleMessages)]),
        KeyRow("q Ctrl-C", "quit", group: "View", rank: 150, [(.char("q"), .quit), (.ctrl("c"), .quit)]),
    ]

    static let walkLinks = KeyRow(
        "Tab Shift-Tab", "walk the links and buttons of a tile/pane", group: "Move", rank: 30,
        [(.tab, .walkLinks(1)), (.backTab, .walkLinks(-1))])

    static let activate = KeyRow(
        "Enter Space", "open the tile, link or activity; press the button", group: "Act", rank: 40,
        [(.enter, .activate), (.char(" "), .activate)])

    static let openInBrowser = KeyRow(
        "o", "open a web link in the browser", group: "Act", rank: 50, [(.char("o"), .openInBrowser)])

    static let reload = KeyRow(
        "r / R", "reload this widget / all widgets", group: "Act", rank: 70,
        [(.char("r"), .reload), (.char("R"), .reloadAll)])

    static let explain = KeyRow(
        "w", "why a stack shows this item (Smart Rotate)", group: "View", rank: 80, [(.char("w"), .explain)])

    static let close = KeyRow(
        "Esc Backspace", "close a pane (home: drop the highlight)", group: "View", rank: 110,
        [(.escape, .close), (.backspace, .close)])

    static let listProblems = KeyRow(
        "!", "every problem of a broken home.yaml", group: "View", rank: 120, [(.char("!"), .listProblems)])

    static let toggleHelp = KeyRow(
        "?", "this help (again: close it)", group: "View", rank: 140, [(.char("?"), .toggleHelp)])

    static let scrollPane = KeyRow(
        "↑↓ j k PgUp PgDn", "scroll a pane longer than the screen", group: "View", rank: 170,
        [
            (.up, .scrollPane(-1)), (.char("k"), .scrollPane(-1)), (.down, .scrollPane(1)),
            (.char("j"), .scrollPane(1)), (.pageUp, .scrollPane(-10)), (.pageDown, .scrollPane(10)),
        ])

    static let editWidget = KeyRow(
        "e", "edit the widget's settings", group: "Customize", rank: 180, [(.char("e"), .edit(.openForm))])

    static let remove = KeyRow(
        "d", "remove the tile (of a stack: the widget shown)", group: "Customize", rank: 210,
        [(.char("d"), .edit(.remove))])

    static let undo = KeyRow(
        "u Ctrl-R", "undo / redo the last change: a move, remove, resize, edit, button or toggle",
        group: "Customize", rank: 220, [(.char("u"), .edit(.undo)), (.ctrl("r"), .edit(.redo))])
}
