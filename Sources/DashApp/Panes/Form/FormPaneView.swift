import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

extension EditView {
    // MARK: - The form

    static func footer(_ first: String) -> String { first + " · ↑↓ fields · Ctrl-S save · Esc cancel" }

    /// The form's model, and whether a spinner turns in it (the frame then has a deadline).
    static func formModel(_ s: AppState) -> (FormModel, Bool)? {
        guard let form = s.form, let tile = s.tile(form.tileID) else { return nil }
        guard let instanceID = form.instanceID else { return (stackModel(s, form, tile), false) }
        guard let widget = s.bundle[form.kind] else { return nil }
        let params = widget.schema.parameters
        let errors = Editing.draft(form, widget).errors
        let spin = spinnerFrame(s.now)
        var spinning = false
        let popupOpen = form.picker != nil || form.items != nil
        var rows: [FormRow] = []
        for (i, (f, p)) in zip(form.fields, params).enumerated() {
            let editing = form.selected == i && !popupOpen
            var value = FieldText(f.line.text, cursor: editing ? f.line.cursor : nil, placeholder: "(empty)")
            var trailing: String?
            var warning: String?
            switch p.rowKind {
            case .text:
                break
            case .path:
                if editing { trailing = "Tab" }
            case .integer:
                if case .integer(let r) = p.kind { trailing = "\(r.lowerBound)–\(r.upperBound)" }
            case .date:
                if editing { trailing = "+/- a day" }
            case .secret:
                let variable = p.environmentVariable
                let fromEnvironment = variable.flatMap { s.environment.variables[$0] }.map { !$0.isEmpty } ?? false
                value.masked = true
                value.placeholder =
                    form.original.secretCommands[p.key] != nil
                    ? "(from a command)"
                    : fromEnvironment
                        ? "(from $\(variable!))"
                        : variable.map { "(not set; or $\($0))" } ?? "(not set)"
            case .choice:
                let (all, load) = Editing.options(s, form, widget, p)
                let v = f.line.text
                let title = all.first { $0.value.caseInsensitiveCompare(v) == .orderedSame }?.title
                value = FieldText(label(value: v, title: title), placeholder: "(none)")
                trailing = "▾"
                switch load {
                case .loading?:
                    trailing = spin + " ▾"
                    spinning = true
                case .failed(let why)?:
                    warning = "more choices did not load: \(why)"
                default: break
                }
            case .bool:
                value = FieldText(f.flag ? "[x] yes" : "[ ] no")
            case .list:
                value = FieldText(f.items.joined(separator: ", "), placeholder: "(no items)")
                trailing = "\(f.items.count) ›"
            }
            let modified =
                (try? Editing.value(f, p, schema: widget.schema).get()).map {
                    $0 != (form.original[p.key] ?? p.defaultValue)
                } ?? true
            rows.append(
                FormRow(
                    title: p.title, value: value, trailing: trailing, error: errors[p.key],
                    warning: warning, modified: modified))
        }

        // Help of the selected row, completions, and the popup.
        var help: [String] = []
        var rowError: String?
        var rowWarning: String?
        var notes: [String] = []
        var popup: FormPopup?
        var first: String
        if form.selected < params.count {
            let p = params[form.selected]
            help.append("\(p.title): \(p.help)")
            var allowed = "Allowed: \(p.allowed)"
            // A long list of choices is the picker's to show (Enter); the help names how many.
            if case .enumeration(let options) = p.kind, options.count > 8 {
                allowed = "Allowed: one of \(options.count) choices (Enter lists them)"
            }
            var byDefault = p.display(p.defaultValue)
            if case .date(let d) = p.defaultValue { byDefault = Editing.dateText(d) }
            if !p.isSecret, !byDefault.isEmpty { allowed += "; default \(byDefault)" }
            if let v = p.environmentVariable { allowed += "; or from $\(v)" }
            help.append(allowed)
            // The row's problem in full (the row may have cut it).
            if let e = rows[form.selected].error { rowError = "✗ \(p.title) \(e)" }
            if let w = rows[form.selected].warning { rowWarning = "⚠ \(w)" }
            switch p.rowKind {
            case .text, .secret: first = "type"
            case .integer, .date: first = "+/- step"
            case .path: first = "Tab complete"
            case .choice: first = "Enter choose"
            case .bool: first = "Space switch"
            case .list: first = "Enter edit list"
            }
            if let picker = form.picker {
                let list = Editing.choices(s, form, widget, p, filter: picker.filter)
                let load = Editing.options(s, form, widget, p).load
                var status: String?
                var problem = false
                switch load {
                case .loading?:
                    status = spin + " loading more choices…"
                    spinning = true
                case .failed(let why)?:
                    status = "⚠ \(why) · the fixed choices still work"
                    problem = true
                case .loaded(let more)?:
                    // The count is of what the filter leaves ("1 of 444 choices").
                    let all = p.fixedOptions.count + more.count
                    let left = list.filter { !$0.custom }.count
                    status = picker.filter.isEmpty || left == all ? "\(all) choices" : "\(left) of \(all) choices"
                default: break
                }
                popup = FormPopup(
                    title: p.title,
                    filter: FieldText(
                        picker.filter, cursor: picker.filter.count,
                        placeholder: "type to filter"),
                    status: status, statusIsProblem: problem,
                    lines: list.map { $0.custom ? $0.title : label(value: $0.value, title: $0.title) },
                    highlighted: list.isEmpty ? nil : picker.highlighted,
                    empty: "nothing matches “\(picker.filter)”", footer: "Enter take · Esc close")
                first = "type to filter · ↑↓ choose · Enter take · Esc close · Ctrl-S save"
            } else if let items = form.items {
                var lines = form.fields[form.selected].items
                var editingIndex: Int?
                var field: FieldText?
                if let line = items.editing {
                    if let r = items.replacing {
                        editingIndex = r
                    } else {
                        editingIndex = lines.isEmpty ? 0 : min(items.selected + 1, lines.count)
                        lines.insert("", at: editingIndex!)
                    }
                    field = FieldText(line.text, cursor: line.cursor, placeholder: "new item")
                }
                let editingNow = items.editing != nil
                popup = FormPopup(
                    title: p.title, lines: lines, highlighted: editingNow ? nil : items.selected,
                    editingIndex: editingIndex, editing: field, empty: "no items: a adds one",
                    footer: editingNow ? "Enter keep · Esc drop" : "a add · x remove · K J move")
                first =
                    items.editing != nil
                    ? "type the item · Enter keep · Esc drop"
                    : "↑↓ choose · a add · Enter edit · x remove · K J move · Esc done"
            }
        } else if form.selected == form.saveRow {
            help = [
                "Save: the tile takes the values now and reloads; home.yaml is written.",
                "Ctrl-S saves from any row.",
            ]
            first = "Enter save"
        } else {
            help = ["Cancel: close the form; nothing changes.", "Esc does the same from any row."]
            first = "Enter cancel"
        }
        if !form.completions.isEmpty { notes.append("Tab: " + form.completions.joined(separator: "  ")) }
        if let note = form.completionNote { notes.append(note) }

        // The preview: the tile's family first, then smaller ones for narrow screens.
        let family = s.loadFamily(ofInstance: instanceID)
        let entry = Editing.shownPreview(s, form)
        var caption: String
        switch form.preview {
        case .current: caption = "as on the home screen"
        case .loading:
            caption = spin + " updating the preview…"
            spinning = true
        case .ready: caption = widget.cost == .local ? "live preview" : "preview with sample data"
        case .failed(let why, _): caption = "preview failed: \(why)"
        }
        if !errors.isEmpty { caption = "fix the marked values to update" }
        let preview = FormPreview(
            candidates: previewCandidates(s, widget, family: family, entry: entry),
            title: widget.displayName, caption: caption)

        let position =
            tile.items.count > 1
            ? " · \((tile.items.firstIndex { $0.id == instanceID } ?? 0) + 1) of "
                + "\(tile.items.count) in the stack" : ""
        let model = FormModel(
            title: "Edit Widget · \(widget.displayName)\(position)",
            footer: popupOpen
                ? first
                : form.selected >= params.count ? "\(first) · ↑↓ rows · Esc cancel" : footer(first),
            rows: rows, selectedRow: form.selected < params.count ? form.selected : nil,
            buttons: ["Save", "Cancel"],
            selectedButton: form.selected >= params.count ? form.selected - params.count : nil,
            help: help, rowError: rowError, rowWarning: rowWarning, notes: notes, problem: form.problem,
            popup: popup, preview: preview)
        return (model, spinning)
    }

    /// "BTC · Bitcoin", or one of them when they say the same.
    static func label(value: String, title: String?) -> String {
        guard let title, !title.isEmpty, title.caseInsensitiveCompare(value) != .orderedSame else { return value }
        return value.isEmpty ? title : "\(value) · \(title)"
    }

    static func previewCandidates(
        _ s: AppState, _ widget: Widget, family: WidgetFamily,
        entry: AnyEntry?
    ) -> [(family: WidgetFamily, view: TileView)] {
        let families = [family] + widget.supportedFamilies.filter { $0 < family }.sorted(by: >)
        return families.map { f in
            let ctx = s.context(for: f)
            let view =
                entry.map { widget.view(for: $0, in: ctx) }
                ?? widget.view(for: widget.placeholder(in: ctx), in: ctx).redacted()
            return (f, view)
        }
    }

    /// A stack's widgets: choose one to edit, move, remove.
    static func stackModel(_ s: AppState, _ form: EditForm, _ tile: TileInstance) -> FormModel {
        let selected = min(form.stackSelection, max(0, tile.items.count - 1))
        let rows = tile.items.map { inst -> FormRow in
            let widget = s.bundle[inst.kind]
            let set = inst.config.values.keys.sorted().compactMap { key -> String? in
                guard let v = inst.config[key], let p = widget?.schema.parameter(key) else { return nil }
                return "\(key)=\(p.display(v))"
            }
            return FormRow(
                title: widget?.displayName ?? inst.kind,
                value: FieldText(set.joined(separator: " "), placeholder: "(default settings)"))
        }
        var preview: FormPreview?
        if tile.items.indices.contains(selected), let w = s.bundle[tile.items[selected].kind] {
            preview = FormPreview(
                candidates: previewCandidates(
                    s, w, family: tile.family,
                    entry: s.entry(ofInstance: tile.items[selected].id)),
                title: w.displayName, caption: "in the stack")
        }
        return FormModel(
            title: "Edit Widget · a stack of \(tile.items.count)",
            footer: "Enter edit · K J move · x remove · Space Smart Rotate · Esc close",
            heading: "Choose the widget to edit:", rows: rows, selectedRow: selected, buttons: [],
            selectedButton: nil,
            help: [
                "Enter edits the widget; K and J move it in the stack; x removes it (u undoes).",
                "Smart Rotate: \(tile.rotation.smartRotate ? "on" : "off") — Space turns it \(tile.rotation.smartRotate ? "off" : "on").",
            ],
            preview: preview)
    }
}
