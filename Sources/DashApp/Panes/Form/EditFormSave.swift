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
    static func refreshPreview(_ s: inout AppState, _ widget: Widget) -> [Effect] {
        guard var form = s.form, let instanceID = form.instanceID else { return [] }
        let (config, errors) = draft(form, widget)
        guard errors.isEmpty, config != form.previewConfig else { return [] }
        form.previewConfig = config
        if config == form.original && s.entry(ofInstance: instanceID) != nil {
            form.preview = .current
            s.replaceTop(.form(form))
            return []
        }
        let token = s.editing.token()
        form.preview = .loading(token: token, last: shownPreview(s, form))
        s.replaceTop(.form(form))
        let local = widget.cost == .local
        let family = s.loadFamily(ofInstance: instanceID)
        return [
            .edit(
                .loadPreview(
                    PreviewRequest(
                        token: token, widget: widget, configuration: SecretCommands.filled(config, s),
                        context: s.context(for: family, isPreview: !local), live: local)))
        ]
    }

    static func previewLoaded(_ s: inout AppState, token: UInt64, result: Result<AnyEntry, any Error>) -> [Effect] {
        if var form = s.form, case .loading(let t, let last) = form.preview, t == token {
            switch result {
            case .success(let e): form.preview = .ready(e)
            case .failure(let e): form.preview = .failed(message(e), last: last)
            }
            s.replaceTop(.form(form))
            return [.redraw(full: false)]
        }
        return App.sendToGallery(&s, .previewLoaded(token: token, result: result))
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
    static func save(_ s: inout AppState) -> [Effect] {
        guard var form = s.form, let instanceID = form.instanceID, let widget = s.bundle[form.kind] else {
            return []
        }
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
            s.replaceTop(.form(form))
            return []
        }
        // While home.yaml is broken nothing can be saved: the form stays open with what was typed.
        if let refusal = App.homeWriteRefusal(s) {
            form.problem = "\(refusal); your edits stay here until then"
            s.replaceTop(.form(form))
            return []
        }
        s.replaceTop(.form(form))
        guard config != form.original else {
            closeForm(&s)
            s.say("no changes to \(widget.displayName)")
            return []
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
        closeForm(&s)
        let fx = changeHome(&s, to: home, what: "edit \(widget.displayName)", focus: form.tileID)
        let writes = fx.contains { if case .writeHome = $0 { return true } else { return false } }
        s.editing.saving = writes ? (form.tileID, instanceID, form.selected) : nil
        s.say(
            sharing.flatMap { HomeSharedValue.message($0.shared) }.map(TextSanitizer.singleLine)
                ?? "saved \(widget.displayName): reloading")
        return fx
    }

    // MARK: - A stack's widgets

    static func stackPerform(_ s: inout AppState, _ c: EditCommand) -> [Effect] {
        guard var form = s.form, let tile = s.tile(form.tileID) else {
            closeForm(&s)
            return []
        }
        let n = tile.items.count
        form.stackSelection = min(max(0, form.stackSelection), max(0, n - 1))
        switch c {
        case .choose(let delta):
            form.stackSelection = min(max(0, form.stackSelection + delta), max(0, n - 1))
            s.replaceTop(.form(form))
        case .activate:
            s.replaceTop(.form(form))
            guard tile.items.indices.contains(form.stackSelection) else { return [] }
            return startEditing(
                &s, tileID: tile.id, instance: tile.items[form.stackSelection], inStack: true)
        case .reorder(let delta):
            let i = form.stackSelection, j = i + delta
            guard tile.items.indices.contains(i), tile.items.indices.contains(j) else { return [] }
            var home = s.home
            guard let ti = home.tiles.firstIndex(where: { $0.id == tile.id }) else { return [] }
            let shown = s.shownInstance(tile.id)?.id
            home.tiles[ti].items.swapAt(i, j)
            form.stackSelection = j
            s.replaceTop(.form(form))
            let fx = changeHome(&s, to: home, what: "reorder a stack", focus: tile.id)
            if let shown, let k = s.tile(tile.id)?.items.firstIndex(where: { $0.id == shown }) {
                s.stackIndex[tile.id] = k
            }
            return fx
        case .remove:
            guard tile.items.indices.contains(form.stackSelection) else { return [] }
            let gone = tile.items[form.stackSelection]
            var home = s.home
            guard let ti = home.tiles.firstIndex(where: { $0.id == tile.id }) else { return [] }
            home.tiles[ti].items.remove(at: form.stackSelection)
            form.stackSelection = min(form.stackSelection, home.tiles[ti].items.count - 1)
            s.replaceTop(.form(form))
            let name = s.bundle[gone.kind]?.displayName ?? gone.kind
            let fx = changeHome(&s, to: home, what: "remove \(name) from a stack", focus: tile.id)
            s.say("removed \(name) from the stack: u undoes")
            if s.tile(tile.id)?.items.count == 1 { closeForm(&s) }
            return fx
        case .toggle:
            // Smart Rotate on or off for this stack (issue 11): written to home.yaml like any edit.
            var home = s.home
            guard let ti = home.tiles.firstIndex(where: { $0.id == tile.id }) else { return [] }
            home.tiles[ti].rotation.smartRotate.toggle()
            let on = home.tiles[ti].rotation.smartRotate
            s.replaceTop(.form(form))
            let fx = changeHome(&s, to: home, what: "turn Smart Rotate \(on ? "on" : "off")", focus: tile.id)
            s.say("Smart Rotate \(on ? "on: the most relevant widget comes forward" : "off: < > rotate by hand")")
            return fx
        case .add:
            s.say("to stack, drop a tile on this one in arrange mode (m)")
        case .cancel, .save:
            closeForm(&s)
        default:
            break
        }
        return []
    }
}
