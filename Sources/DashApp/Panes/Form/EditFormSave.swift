import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

// The Edit Widget form: its live preview, Save, and a stack's list of widgets.
extension Editing {
    // MARK: - Preview

    /// The entry the preview shows now.
    static func shownPreview(_ s: AppState, _ form: EditForm) -> AnyEntry? {
        switch form.preview {
        case .current: return form.instanceID.flatMap { s.entry(ofInstance: $0) }
        case .loading(_, let last), .failed(_, let last): return last
        case .ready(let e): return e
        }
    }

    /// Asks for a preview of the edited values when they are valid and changed.
    static func refreshPreview(_ form: inout EditForm, _ widget: Widget, _ st: inout FormStep) {
        guard let instanceID = form.instanceID else { return }
        let s = st.s
        let (config, errors) = draft(form, widget)
        guard errors.isEmpty, config != form.previewConfig else { return }
        form.previewConfig = config
        if config == form.original && s.entry(ofInstance: instanceID) != nil {
            form.preview = .current
            return
        }
        let token = st.token()
        form.preview = .loading(token: token, last: shownPreview(s, form))
        let local = widget.cost == .local
        let family = s.loadFamily(ofInstance: instanceID)
        st.effect(
            .edit(
                .loadPreview(
                    PreviewRequest(
                        token: token, widget: widget, configuration: SecretCommands.filled(config, s),
                        context: s.context(for: family, isPreview: !local), live: local))))
    }

    /// A preview asked for arrived (a late one, for values since changed, is dropped).
    static func previewLoaded(
        _ form: inout EditForm, token: UInt64, result: Result<AnyEntry, any Error>, _ st: inout FormStep
    ) {
        guard case .loading(let t, let last) = form.preview, t == token else { return }
        switch result {
        case .success(let e): form.preview = .ready(e)
        case .failure(let e): form.preview = .failed(message(e), last: last)
        }
        st.effect(.redraw(full: false))
    }

    static func optionsLoaded(
        _ s: inout AppState, token: UInt64,
        result: Result<[ParameterOption], any Error>
    ) -> [Effect] {
        guard let key = s.editing.optionTokens.removeValue(forKey: token),
            case .loading(let t)? = s.editing.options[key], t == token
        else { return [] }
        switch result {
        case .success(let options):
            // From the network: cleaned before they reach the screen, and not without end.
            // Only values the schema takes: a choice offered is never refused once picked.
            let head = key.prefix { $0 != "?" }
            let dot = head.lastIndex(of: ".") ?? head.endIndex
            let schema = s.bundle[String(head[..<dot])]?.schema
            let param = String(head[dot...].dropFirst())
            let clean = options.prefix(50_000).compactMap { o -> ParameterOption? in
                let v = TextSanitizer.singleLine(o.value)
                guard !v.isEmpty, (try? schema?.parse(key: param, text: v)) != nil else { return nil }
                return ParameterOption(v, title: TextSanitizer.singleLine(o.title))
            }
            s.editing.options[key] = .loaded(clean)
        case .failure(let e):
            s.editing.options[key] = .failed(message(e))
        }
        return [.redraw(full: false)]
    }

    /// An error as one clean line.
    static func message(_ e: any Error) -> String {
        let text = (e as? LocalizedError)?.errorDescription ?? String(describing: e)
        return DisplayWidth.truncate(TextSanitizer.singleLine(text), to: 200)
    }

    // MARK: - Save

    /// What the form says when Esc is pressed over unsaved edits.
    static let discardQuestion = "Unsaved changes: Esc again discards them, Ctrl-S saves"

    /// Save: refused with the reason while a value is invalid; else the home screen takes
    /// the new configuration at once (the scheduler reloads the widget, not charged), the
    /// step can be undone, and `home.yaml` is written.
    static func save(_ form: inout EditForm, _ st: inout FormStep) {
        let s = st.s
        guard let instanceID = form.instanceID, let widget = s.bundle[form.kind] else { return }
        form.picker = nil
        if var items = form.items, let line = items.editing {
            commitItem(&form, &items, line.text)
        }
        form.items = nil
        let (config, errors) = draft(form, widget)
        let params = widget.schema.parameters
        if let bad = params.firstIndex(where: { errors[$0.key] != nil }) {
            let n = errors.count
            form.problem =
                "Not saved: \(params[bad].title) \(errors[params[bad].key]!)"
                + (n > 1 ? " (and \(n - 1) more)" : "")
            form.selected = bad
            return
        }
        // While home.yaml is broken nothing can be saved: the form stays open with what was typed.
        if let refusal = App.homeWriteRefusal(s) {
            form.problem = "\(refusal); your edits stay here until then"
            return
        }
        guard config != form.original else {
            closeForm(&form, &st)
            st.say("no changes to \(widget.displayName)")
            return
        }
        var home = s.home
        for t in home.tiles.indices {
            for i in home.tiles[t].items.indices where home.tiles[t].items[i].id == instanceID {
                home.tiles[t].items[i].config = config
            }
        }
        // A value written under a YAML anchor changes for every widget that shares it (decision
        // 49): on screen at once, in the same undo step, and said.
        let sharing = s.homeFile.map { HomeText.sharing($0.text, holding: $0.home, to: home) }
        if let sharing, !sharing.shared.isEmpty { home = sharing.home }
        let row = form.selected
        closeForm(&form, &st)
        st.out += [
            .change(home, reason: "edit \(widget.displayName)", focus: form.tileID),
            .saving(tile: form.tileID, instance: instanceID, row: row),
        ]
        st.say(
            sharing.flatMap { HomeSharedValue.message($0.shared) }.map(TextSanitizer.singleLine)
                ?? "saved \(widget.displayName): reloading")
    }

    // MARK: - A stack's widgets

    static func stackPerform(_ form: inout EditForm, _ c: EditCommand, _ st: inout FormStep) {
        let s = st.s
        guard let tile = s.tile(form.tileID) else {
            closeForm(&form, &st)
            return
        }
        let n = tile.items.count
        // A change the file cannot take now is refused (and said) by the router: nothing follows it.
        let writable = App.homeWriteRefusal(s) == nil
        form.stackSelection = min(max(0, form.stackSelection), max(0, n - 1))
        switch c {
        case .choose(let delta):
            form.stackSelection = min(max(0, form.stackSelection + delta), max(0, n - 1))
        case .activate:
            guard tile.items.indices.contains(form.stackSelection) else { return }
            st.out.append(.edit(tile: tile.id, instance: tile.items[form.stackSelection].id, inStack: true))
        case .reorder(let delta):
            let i = form.stackSelection, j = i + delta
            guard tile.items.indices.contains(i), tile.items.indices.contains(j) else { return }
            var home = s.home
            guard let ti = home.tiles.firstIndex(where: { $0.id == tile.id }) else { return }
            let shown = s.shownInstance(tile.id)?.id
            home.tiles[ti].items.swapAt(i, j)
            form.stackSelection = j
            st.out.append(.change(home, reason: "reorder a stack", focus: tile.id))
            if writable, let shown, let k = home.tiles[ti].items.firstIndex(where: { $0.id == shown }) {
                st.out.append(.showItem(tile: tile.id, index: k))
            }
        case .remove:
            guard tile.items.indices.contains(form.stackSelection) else { return }
            let gone = tile.items[form.stackSelection]
            var home = s.home
            guard let ti = home.tiles.firstIndex(where: { $0.id == tile.id }) else { return }
            home.tiles[ti].items.remove(at: form.stackSelection)
            form.stackSelection = min(form.stackSelection, home.tiles[ti].items.count - 1)
            let name = s.bundle[gone.kind]?.displayName ?? gone.kind
            st.out.append(.change(home, reason: "remove \(name) from a stack", focus: tile.id))
            st.say("removed \(name) from the stack: u undoes")
            if writable, home.tiles[ti].items.count == 1 { closeForm(&form, &st) }
        case .toggle:
            // Smart Rotate on or off for this stack (issue 11): written to home.yaml like any edit.
            var home = s.home
            guard let ti = home.tiles.firstIndex(where: { $0.id == tile.id }) else { return }
            home.tiles[ti].rotation.smartRotate.toggle()
            let on = home.tiles[ti].rotation.smartRotate
            st.out.append(.change(home, reason: "turn Smart Rotate \(on ? "on" : "off")", focus: tile.id))
            st.say("Smart Rotate \(on ? "on: the most relevant widget comes forward" : "off: < > rotate by hand")")
        case .add:
            st.say("to stack, drop a tile on this one in arrange mode (m)")
        case .cancel, .save:
            closeForm(&form, &st)
        default:
            break
        }
    }
}
