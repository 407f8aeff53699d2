import DashCore

/// The gallery's keys: filter by typing, choose a widget and its size, add it.
extension GalleryState {
    static let keys = [
        PaneKeys(
            .gallery,
            [
                .cancelEdit, .typing, .choose, .take, .filterBackspace,
                KeyRow(
                    "←→ Tab Shift-Tab", "choose the size to add", group: "Lists and gallery", rank: 390,
                    [
                        (.left, .edit(.family(-1))), (.right, .edit(.family(1))),
                        (.tab, .edit(.family(1))), (.backTab, .edit(.family(-1))),
                    ]),
            ])
    ]
}
