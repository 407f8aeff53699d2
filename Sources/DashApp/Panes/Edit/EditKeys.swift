import DashCore

/// Rows the editing panes share (the form's lists and pickers, the gallery, arrange mode).
extension KeyRow {
    static let cancelEdit = KeyRow(
        "Esc", "cancel the form (no change); close; leave a mode", group: "Edit Widget", rank: 270,
        [(.escape, .edit(.cancel))])

    static let typing = KeyRow(
        "typing", "edit the field; in a list or gallery: filter it", group: "Lists and gallery", rank: 350, [])

    static let choose = KeyRow(
        "↑↓ PgUp PgDn", "choose a line of the list", group: "Lists and gallery", rank: 360,
        [
            (.up, .edit(.choose(-1))), (.down, .edit(.choose(1))),
            (.pageUp, .edit(.choose(-10))), (.pageDown, .edit(.choose(10))),
        ])

    static let take = KeyRow(
        "Enter", "take the choice, edit the item, add the widget", group: "Lists and gallery", rank: 370,
        [(.enter, .edit(.activate))])

    static let filterBackspace = KeyRow(
        "Backspace", "delete a letter of the filter", group: "Lists and gallery", rank: 380,
        [(.backspace, .edit(.line(.backspace)))])
}
