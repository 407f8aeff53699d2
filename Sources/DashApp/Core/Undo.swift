import DashHome
extension AppState {
    /// Records that the last undoable step went to `source`'s history.
    mutating func noteUndoable(_ source: UndoSource) {
        undoJournal.append(source)
        if undoJournal.count > 200 { undoJournal.removeFirst(undoJournal.count - 200) }
    }
}

extension App {
    /// `u` on the home screen: undoes the last change of either kind — an arrange, remove,
    /// resize or edit step (`Editing`), or a button or toggle pressed (`Actions`) — whichever
    /// came last. A kind whose history has run dry (undone in arrange mode) gives way to the other.
    static func undoLast(_ s: inout AppState) -> [Effect] {
        while let last = s.undoJournal.popLast() {
            switch last {
            case .action where !s.actions.history.steps.isEmpty: return undoAction(&s)
            case .edit where !s.editing.history.undo.isEmpty: return Editing.undo(&s)
            default: continue
            }
        }
        if !s.actions.history.steps.isEmpty { return undoAction(&s) }
        return Editing.undo(&s)
    }
}
