import DashCore

/// The Edit Widget form's keys: its rows (`form`), the layer over the selected row for its kind
/// (`field`, `value`, `path`), an enum's choices (`picker`) and a list's items (`list`).
extension EditForm {
    static let keys = [
        PaneKeys(.form, [.cancelEdit, nextField, enter, save, .typing]),
        PaneKeys(.field, textField),
        PaneKeys(.value, [toggle, step]),
        PaneKeys(.path, [complete]),
        PaneKeys(.picker, [.cancelEdit, save, .typing, .choose, .take, .filterBackspace]),
        PaneKeys(.list, [.cancelEdit, save, smartRotate, .choose, .take, addItem, removeItem, moveItem]),
    ]

    static let nextField = KeyRow(
        "↑↓ Tab Shift-Tab", "previous / next field", group: "Edit Widget", rank: 280,
        [(.up, .edit(.field(-1))), (.down, .edit(.field(1))), (.tab, .edit(.field(1))), (.backTab, .edit(.field(-1)))])
    static let enter = KeyRow(
        "Enter", "open a choice or list; next field; press button", group: "Edit Widget", rank: 290,
        [(.enter, .edit(.activate))])
    static let save = KeyRow(
        "Ctrl-S", "save: the tile reloads, home.yaml is written", group: "Edit Widget", rank: 300,
        [(.ctrl("s"), .edit(.save))])
    static let toggle = KeyRow(
        "Space", "switch a yes/no field", group: "Edit Widget", rank: 310, [(.char(" "), .edit(.toggle))])
    static let smartRotate = KeyRow(
        "Space", "a stack's widget list: turn Smart Rotate on / off", group: "Edit Widget", rank: 320,
        [(.char(" "), .edit(.toggle))])
    static let step = KeyRow(
        "+ -", "number one up / down, date a day later / earlier", group: "Edit Widget", rank: 330,
        [(.char("+"), .edit(.step(1))), (.char("="), .edit(.step(1))), (.char("-"), .edit(.step(-1)))])
    static let complete = KeyRow(
        "Tab", "complete a file path (empty: next field)", group: "Edit Widget", rank: 340, [(.tab, .edit(.complete))])
    static let addItem = KeyRow(
        "a Insert", "add an item after this one", group: "Lists and gallery", rank: 400,
        [(.char("a"), .edit(.add)), (.insert, .edit(.add))])
    static let removeItem = KeyRow(
        "x Delete", "remove the item", group: "Lists and gallery", rank: 410,
        [(.char("x"), .edit(.remove)), (.delete, .edit(.remove))])
    static let moveItem = KeyRow(
        "K J", "move the item up / down", group: "Lists and gallery", rank: 420,
        [(.char("K"), .edit(.reorder(-1))), (.char("J"), .edit(.reorder(1)))])

    /// readline's keys in a one-line text field.
    static let textField = [
        KeyRow(
            "← → Home End", "move the cursor", group: "Text fields", rank: 430,
            [
                (.left, .edit(.line(.left))), (.right, .edit(.line(.right))),
                (.home, .edit(.line(.home))), (.end, .edit(.line(.end))),
            ]),
        KeyRow(
            "Ctrl-A Ctrl-E", "to the start / end of the text", group: "Text fields", rank: 440,
            [(.ctrl("a"), .edit(.line(.home))), (.ctrl("e"), .edit(.line(.end)))]),
        KeyRow(
            "Alt-B Alt-F", "a word back / forward", group: "Text fields", rank: 450,
            [(.alt("b"), .edit(.line(.wordLeft))), (.alt("f"), .edit(.line(.wordRight)))]),
        KeyRow(
            "Backspace Delete Ctrl-D", "delete before / under the cursor", group: "Text fields", rank: 460,
            [
                (.backspace, .edit(.line(.backspace))), (.delete, .edit(.line(.delete))),
                (.ctrl("d"), .edit(.line(.delete))),
            ]),
        KeyRow(
            "Ctrl-U Ctrl-K", "delete to the start / end of the text", group: "Text fields", rank: 470,
            [(.ctrl("u"), .edit(.line(.killToStart))), (.ctrl("k"), .edit(.line(.killToEnd)))]),
        KeyRow(
            "Ctrl-W Alt-D", "delete the word before / after the cursor", group: "Text fields", rank: 480,
            [(.ctrl("w"), .edit(.line(.killWordBack))), (.alt("d"), .edit(.line(.killWordForward)))]),
        KeyRow(
            "Ctrl-Y", "put back what was deleted last", group: "Text fields", rank: 490,
            [(.ctrl("y"), .edit(.line(.yank)))]),
    ]
}
