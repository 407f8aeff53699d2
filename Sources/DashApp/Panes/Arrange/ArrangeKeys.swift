import DashCore

/// Arrange mode's keys: move the lifted tile, drop it (onto a tile of its size: a stack), its
/// size, remove, undo.
extension ArrangeState {
    static let keys = [
        PaneKeys(
            .arrange,
            [
                .remove, .undo,
                KeyRow(
                    "←↓↑→ h j k l", "move the lifted tile (dropped: move the focus)", group: "Arrange mode", rank: 230,
                    [
                        (.left, .edit(.moveTile(.left))), (.char("h"), .edit(.moveTile(.left))),
                        (.right, .edit(.moveTile(.right))), (.char("l"), .edit(.moveTile(.right))),
                        (.up, .edit(.moveTile(.up))), (.char("k"), .edit(.moveTile(.up))),
                        (.down, .edit(.moveTile(.down))), (.char("j"), .edit(.moveTile(.down))),
                    ]),
                KeyRow(
                    "PgUp PgDn [ ]", "move the lifted tile to the previous / next page", group: "Arrange mode",
                    rank: 240,
                    [
                        (.pageUp, .edit(.movePage(-1))), (.char("["), .edit(.movePage(-1))),
                        (.pageDown, .edit(.movePage(1))), (.char("]"), .edit(.movePage(1))),
                    ]),
                KeyRow(
                    "Enter Space", "drop (over a tile of its size: stack) / lift", group: "Arrange mode", rank: 250,
                    [(.enter, .edit(.lift)), (.char(" "), .edit(.lift))]),
                KeyRow(
                    "f", "the next size the tile's widgets support", group: "Arrange mode", rank: 260,
                    [(.char("f"), .edit(.cycleFamily))]),
                .cancelEdit,
            ])
    ]
}
