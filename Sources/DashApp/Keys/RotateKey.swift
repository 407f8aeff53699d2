import DashHome
extension App {
    /// `<` / `>`: rotate the focused stack; on a tile that is not a stack, say why nothing
    /// happened, as other keys with nothing to do do (the mouse wheel stays quiet).
    static func rotateKey(_ s: inout AppState, by delta: Int) {
        guard let f = s.focusedTile, let t = s.tile(f) else { return }
        guard t.items.count > 1 else {
            s.say("not a stack: < and > rotate stacks")
            return
        }
        rotate(&s, by: delta)
    }
}
