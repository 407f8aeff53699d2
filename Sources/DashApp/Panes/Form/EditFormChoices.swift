import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

// The Edit Widget form: choices (pickers, dynamic options), list items and file paths.
extension Editing {
    // MARK: - Choices

    struct Choice: Sendable, Equatable {
        var value: String
        var title: String
        /// Not an option: what was typed, allowed by the parameter's pattern.
        var custom: Bool
    }

    /// The key a dynamic enum's options are cached under: the widget, the parameter and the
    /// other values they may depend on (a source, an endpoint); secrets are left out.
    static func optionsKey(_ widget: Widget, _ p: Parameter, _ config: WidgetConfig) -> String {
        let others = widget.schema.parameters.filter { $0.key != p.key && !$0.isSecret }
            .map { "\($0.key)=\((config[$0.key] ?? $0.defaultValue).description)" }
        return widget.kind + "." + p.key + "?" + others.joined(separator: "&")
    }

    /// Starts loading a dynamic enum's options unless they are loaded or loading (the options
    /// are the session's, kept by the app: `Output.options`).
    static func requestOptions(
        widget: Widget, parameter p: Parameter, configuration: WidgetConfig, _ st: inout FormStep
    ) {
        guard let load = p.dynamicOptions else { return }
        let key = optionsKey(widget, p, configuration)
        switch st.s.editing.options[key] {
        case .loading?, .loaded?: return
        default: break
        }
        let token = st.token()
        st.out.append(.options(key: key, .loading(token)))
        let resolved = widget.schema.resolve(configuration, environment: st.s.environment.variables)
        st.effect(
            .edit(
                .loadOptions(
                    OptionsRequest(
                        token: token, kind: widget.kind, key: p.key, configuration: resolved,
                        load: load, remote: widget.remote?.options))))
    }

    /// The options of a choice row now: fixed ones, then loaded ones.
    static func options(
        _ s: AppState, _ form: EditForm, _ widget: Widget,
        _ p: Parameter
    ) -> (all: [ParameterOption], load: OptionsLoad?) {
        var all = p.fixedOptions
        guard p.dynamicOptions != nil else { return (all, nil) }
        let load = s.editing.options[optionsKey(widget, p, draft(form, widget).config)]
        if case .loaded(let more)? = load {
            var seen = Set(all.map { $0.value.lowercased() })
            for o in more where seen.insert(o.value.lowercased()).inserted { all.append(o) }
        }
        return (all, load)
    }

    /// The choices a picker lists for `filter`: matches by value or title, those that start
    /// with it first; for a dynamic enum, the typed text itself when the pattern allows it.
    static func choices(_ s: AppState, _ form: EditForm, _ widget: Widget, _ p: Parameter, filter: String) -> [Choice] {
        let all = options(s, form, widget, p).all
        let f = filter.lowercased()
        var starts: [Choice] = []
        var contains: [Choice] = []
        for o in all {
            let c = Choice(value: o.value, title: o.title, custom: false)
            if f.isEmpty {
                starts.append(c)
                continue
            }
            let v = o.value.lowercased(), t = o.title.lowercased()
            if v.hasPrefix(f) || t.hasPrefix(f) {
                starts.append(c)
            } else if v.contains(f) || t.contains(f) {
                contains.append(c)
            }
        }
        var out = starts + contains
        if case .dynamicEnumeration = p.kind, !f.isEmpty, !out.contains(where: { $0.value.lowercased() == f }),
            (try? widget.schema.parse(key: p.key, text: filter)) != nil
        {
            out.append(Choice(value: filter, title: "use “\(filter)”", custom: true))
        }
        return out
    }

    static func openPicker(
        _ form: inout EditForm, _ widget: Widget, _ p: Parameter, filter: String, _ st: inout FormStep
    ) {
        var highlighted = 0
        if filter.isEmpty {
            let current = form.fields[form.selected].line.text.lowercased()
            highlighted =
                choices(st.s, form, widget, p, filter: "").firstIndex { $0.value.lowercased() == current } ?? 0
        }
        form.picker = Picker(filter: filter, highlighted: highlighted)
        // Options that failed to load are tried again; loaded ones are kept for the session.
        requestOptions(widget: widget, parameter: p, configuration: draft(form, widget).config, &st)
    }

    static func pickerPerform(_ form: inout EditForm, _ c: EditCommand, _ widget: Widget, _ st: inout FormStep) {
        guard var picker = form.picker, let p = parameter(st.s, form, form.selected) else { return }
        let list = choices(st.s, form, widget, p, filter: picker.filter)
        switch c {
        case .choose(let delta):
            picker.highlighted = min(max(0, picker.highlighted + delta), max(0, list.count - 1))
        case .type(let t):
            picker.filter += fieldText(t)
            picker.highlighted = 0
        case .line(.backspace):
            if !picker.filter.isEmpty { picker.filter.removeLast() }
            picker.highlighted = 0
        case .activate, .save:
            form.picker = nil
            if list.indices.contains(picker.highlighted) {
                form.fields[form.selected].line.set(list[picker.highlighted].value)
                form.problem = nil
            }
            refreshPreview(&form, widget, &st)
            if c == .save { save(&form, &st) }
            return
        case .cancel:
            form.picker = nil
            return
        default:
            break
        }
        form.picker = picker
    }

    // MARK: - Lists

    static func commitItem(_ form: inout EditForm, _ items: inout ItemsEditor, _ text: String) {
        // "a, b" typed into one item makes two: the file writes a list comma-separated.
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var list = form.fields[form.selected].items
        if let i = items.replacing, list.indices.contains(i) {
            list.replaceSubrange(i...i, with: parts)
            items.selected = min(i, max(0, list.count - 1))
        } else {
            let at = list.isEmpty ? 0 : min(items.selected + 1, list.count)
            list.insert(contentsOf: parts, at: at)
            items.selected = parts.isEmpty ? items.selected : at + parts.count - 1
        }
        form.fields[form.selected].items = list
        items.replacing = nil
    }

    static func itemsPerform(_ form: inout EditForm, _ c: EditCommand, _ widget: Widget, _ st: inout FormStep) {
        guard var items = form.items else { return }
        var list = form.fields[form.selected].items
        var changed = false
        switch c {
        case .choose(let delta):
            items.selected = min(max(0, items.selected + delta), max(0, list.count - 1))
        case .activate:
            if list.indices.contains(items.selected) {
                items.editing = LineEditor(list[items.selected])
                items.replacing = items.selected
            } else {
                items.editing = LineEditor()
                items.replacing = nil
            }
        case .add:
            items.editing = LineEditor()
            items.replacing = nil
        case .remove:
            guard list.indices.contains(items.selected) else { break }
            list.remove(at: items.selected)
            items.selected = min(items.selected, max(0, list.count - 1))
            changed = true
        case .reorder(let delta):
            let j = items.selected + delta
            guard list.indices.contains(items.selected), list.indices.contains(j) else { break }
            list.swapAt(items.selected, j)
            items.selected = j
            changed = true
        case .cancel:
            form.items = nil
            return
        case .save:
            form.items = nil
            save(&form, &st)
            return
        default:
            break
        }
        form.fields[form.selected].items = list
        form.items = items
        if changed {
            form.problem = nil
            refreshPreview(&form, widget, &st)
        }
    }

    // MARK: - File paths

    /// "~" and "~/…" with the user's home directory.
    static func expandHome(_ path: String, _ env: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = env["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    /// Tab in a file path: list the directory typed so far; the answer completes the name.
    static func complete(_ form: inout EditForm, _ st: inout FormStep) {
        let text = form.fields[form.selected].line.text
        let directory: String, prefix: String
        if let slash = text.lastIndex(of: "/") {
            directory = String(text[...slash])
            prefix = String(text[text.index(after: slash)...])
        } else if text == "~" {
            directory = "~/"
            prefix = ""
        } else {
            directory = ""
            prefix = text
        }
        let expanded = expandHome(directory, st.s.environment.variables)
        let token = st.token()
        form.completion = PendingCompletion(token: token, text: text, directory: directory, prefix: prefix)
        st.effect(.edit(.listDirectory(DirectoryRequest(token: token, directory: expanded.isEmpty ? "." : expanded))))
    }

    static func directoryListed(
        _ form: inout EditForm, token: UInt64, result: Result<[DirectoryEntry], any Error>, _ st: inout FormStep
    ) {
        guard let pending = form.completion, pending.token == token,
            let widget = st.s.bundle[form.kind], form.fields.indices.contains(form.selected),
            form.fields[form.selected].line.text == pending.text
        else { return }
        form.completion = nil
        form.completions = []
        form.completionNote = nil
        switch result {
        case .failure(let e):
            form.completionNote = "cannot list \(pending.directory.isEmpty ? "." : pending.directory): \(message(e))"
        case .success(let entries):
            let showHidden = pending.prefix.hasPrefix(".")
            let matches = entries.filter { e in
                e.name.hasPrefix(pending.prefix) && (showHidden || !e.name.hasPrefix("."))
                    && !e.name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            }.sorted { $0.name < $1.name }
            if matches.isEmpty {
                form.completionNote = "no file starts with “\(pending.prefix)”"
            } else if matches.count == 1 {
                let only = matches[0]
                form.fields[form.selected].line.set(pending.directory + only.name + (only.isDirectory ? "/" : ""))
            } else {
                var common = matches[0].name
                for m in matches.dropFirst() { common = String(common.commonPrefix(with: m.name)) }
                if common.count > pending.prefix.count {
                    form.fields[form.selected].line.set(pending.directory + common)
                }
                form.completions = matches.prefix(200).map { $0.name + ($0.isDirectory ? "/" : "") }
            }
        }
        st.effect(.redraw(full: false))
        refreshPreview(&form, widget, &st)
    }
}
