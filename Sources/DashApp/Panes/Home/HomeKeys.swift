import DashCore

/// The home screen's keys: moving the focus, pages, stacks, and what opens from a tile.
enum HomeKeys {
    static let keys = [
        PaneKeys(
            .home,
            [
                KeyRow(
                    "←↓↑→ h j k l", "focus the nearest tile (↑ from the top: the strip)", group: "Move", rank: 0,
                    [
                        (.left, .move(.left)), (.char("h"), .move(.left)), (.right, .move(.right)),
                        (.char("l"), .move(.right)), (.up, .move(.up)), (.char("k"), .move(.up)),
                        (.down, .move(.down)), (.char("j"), .move(.down)),
                    ]),
                KeyRow(
                    "PgUp PgDn [ ]", "previous / next page", group: "Move", rank: 10,
                    [(.pageUp, .page(-1)), (.char("["), .page(-1)), (.pageDown, .page(1)), (.char("]"), .page(1))]),
                KeyRow(
                    "Home g", "the first tile of the page", group: "Move", rank: 20,
                    [(.home, .firstTile), (.char("g"), .firstTile)]),
                .walkLinks, .activate,
                KeyRow(
                    "< >", "rotate a stack", group: "Act", rank: 60,
                    [(.char("<"), .rotate(-1)), (.char(">"), .rotate(1))]),
                .reload, .explain, .close, .listProblems, .toggleHelp, .editWidget,
                KeyRow(
                    "a", "add a widget from the gallery", group: "Customize", rank: 190,
                    [(.char("a"), .edit(.openGallery))]),
                KeyRow(
                    "m", "arrange mode: lift the tile to move it", group: "Customize", rank: 200,
                    [(.char("m"), .edit(.openArrange))]),
                .remove, .undo,
            ])
    ]
}
