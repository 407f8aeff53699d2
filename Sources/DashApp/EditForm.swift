import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender

/// How a parameter is edited in the form.
enum RowKind: Sendable {
    case text, secret, integer, date, path, choice, bool, list
}

extension Parameter {
    var rowKind: RowKind {
        if isSecret { return .secret }
        switch kind {
        case .enumeration, .dynamicEnumeration: return .choice
        case .string: return .text
        case .integer: return .integer
        case .bool: return .bool
        case .date: return .date
        case .filePath: return .path
        case .list: return .list
        }
    }

    /// The options fixed in the schema (an enum's, a dynamic enum's offline ones).
    var fixedOptions: [ParameterOption] {
        switch kind {
        case .enumeration(let o): return o
        case .dynamicEnumeration(let o, _): return o
        default: return []
        }
    }
}

/// What one parameter holds while it is edited.
public struct FormField: Sendable, Equatable {
    public var key: String
    /// The text of text, number, date, path, secret and choice rows.
    public var line: LineEditor
    /// A bool row's value.
    public var flag: Bool
    /// A list row's items.
    public var items: [String]
}

/// An enum row's choices, open.
public struct Picker: Sendable, Equatable {
    public var filter: String
    public var highlighted: Int
}

/// A list row's items, open: one may be edited in place.
public struct ItemsEditor: Sendable, Equatable {
    public var selected: Int
    public var editing: LineEditor?
    /// The item being edited, or nil for a new one inserted after `selected`.
    public var replacing: Int?
}

/// What the form's preview shows.
public enum PreviewState: Sendable {
    /// The tile's own entry (the values are the saved ones).
    case current
    /// A preview for the edited values is on its way; the last one shows meanwhile.
    case loading(token: UInt64, last: AnyEntry?)
    case ready(AnyEntry)
    case failed(String, last: AnyEntry?)
}

/// A Tab completion waiting for its directory listing.
struct PendingCompletion: Sendable {
    var token: UInt64
    var text: String
    /// The directory part as typed ("~/src/"), the rest of the name to complete.
    var directory: String
    var prefix: String
}

/// The Edit Widget form: one widget instance's parameters while they are edited, or a
/// stack's list of widgets.
public struct EditForm: Sendable {
    public var tileID: String
    /// The instance edited; nil while a stack's widget list shows.
    public var instanceID: String?
    public var kind: String
    /// The configuration as saved: Esc returns to it, Save compares with it.
    public var original: WidgetConfig
    public var fields: [FormField]
    /// The selected row: a field, then Save, then Cancel.
    public var selected: Int
    public var picker: Picker?
    public var items: ItemsEditor?
    /// The widget chosen in a stack's list.
    public var stackSelection: Int
    public var preview: PreviewState
    /// Why Save was refused.
    public var problem: String?
    /// File path candidates after a Tab, or why there are none.
    public var completions: [String] = []
    public var completionNote: String?
    /// The pane to go back to (the detail pane the form was opened from).
    public var returnPane: Pane
    /// Opened from a stack's widget list: Save and Esc go back to it.
    var inStack: Bool
    var completion: PendingCompletion?
    /// The configuration of the preview shown or asked for.
    var previewConfig: WidgetConfig?

    public var saveRow: Int { fields.count }
    public var cancelRow: Int { fields.count + 1 }
}

extension Editing {
    /// The command widget's "Run through sh -c" switched: the command keeps meaning the same.
    /// On, its words become one correctly quoted shell line; off, a line is split back into
    /// words by sh's quoting rules (`ShellWords`); a line that does not split stays as it is.
    static func shellSwitched(_ form: inout EditForm, _ key: String) {
        guard key == "shell", let s = form.fields.firstIndex(where: { $0.key == "shell" }),
            let c = form.fields.firstIndex(where: { $0.key == "command" })
        else { return }
        let items = form.fields[c].items
        if form.fields[s].flag {
            if items.count > 1 { form.fields[c].items = [ShellWords.join(items)] }
        } else if items.count == 1, let words = try? ShellWords.split(items[0]), !words.isEmpty {
            form.fields[c].items = words
        }
    }

    // MARK: - Opening and closing

    /// `e`: the focused tile's widget (a stack: its list of widgets), or the detail pane's.
    static func openForm(_ s: inout AppState) -> [Effect] {
        if case .detail(let tileID, let instanceID, _) = s.pane {
            guard let inst = s.home.allInstances.first(where: { $0.id == instanceID }) else { return [] }
            return startEditing(&s, tileID: tileID, instance: inst, inStack: false, returnPane: s.pane)
        }
        guard let tileID = s.focusedTile, let tile = s.tile(tileID), let firstItem = tile.items.first else { return [] }
        if tile.items.count > 1 {
            s.editing.form = EditForm(
                tileID: tileID, instanceID: nil, kind: "", original: WidgetConfig(), fields: [],
                selected: 0, stackSelection: min(s.stackIndex[tileID] ?? 0, tile.items.count - 1),
                preview: .current, returnPane: .none, inStack: false)
            s.pane = .form
            return []
        }
        return startEditing(&s, tileID: tileID, instance: firstItem, inStack: false, returnPane: .none)
    }

    /// Opens the form on one widget instance.
    static func startEditing(
        _ s: inout AppState, tileID: String, instance inst: WidgetInstance, inStack: Bool,
        returnPane: Pane
    ) -> [Effect] {
        guard let widget = s.bundle[inst.kind] else {
            s.say("unknown widget \(inst.kind): nothing to edit")
            return []
        }
        guard !widget.schema.parameters.isEmpty else {
            s.say("\(widget.displayName) has nothing to set")
            return []
        }
        let fields = widget.schema.parameters.map { p -> FormField in
            let v = inst.config[p.key] ?? p.defaultValue
            var text = v.description
            if case .date(let d) = v { text = dateText(d) }
            var flag = false
            if case .bool(let b) = v { flag = b }
            var items: [String] = []
            if case .list(let l) = v { items = l } else if p.rowKind == .list { items = inst.config.list(p.key) }
            return FormField(
                key: p.key, line: LineEditor(p.rowKind == .list || p.rowKind == .bool ? "" : text),
                flag: flag, items: items)
        }
        let stackSelection = s.editing.form?.stackSelection ?? 0
        s.editing.form = EditForm(
            tileID: tileID, instanceID: inst.id, kind: inst.kind, original: inst.config,
            fields: fields, selected: 0, stackSelection: stackSelection, preview: .current,
            returnPane: returnPane, inStack: inStack, previewConfig: nil)
        s.pane = .form
        // A tile with nothing to show yet (loading, failed) gets a preview at once.
        var fx = refreshPreview(&s, widget)
        // Choices that come from the provider start loading now: the row shows a spinner.
        for p in widget.schema.parameters where p.dynamicOptions != nil {
            fx += requestOptions(&s, widget: widget, parameter: p, configuration: inst.config)
        }
        return fx
    }

    /// Leaves the form (a stack's widget: back to its list), nothing saved.
    static func closeForm(_ s: inout AppState) {
        guard var form = s.editing.form else { return }
        if form.inStack, let tile = s.tile(form.tileID), tile.items.count > 1 {
            form.instanceID = nil
            form.fields = []
            form.picker = nil
            form.items = nil
            form.problem = nil
            form.completions = []
            form.completionNote = nil
            form.preview = .current
            form.inStack = false
            s.editing.form = form
            return
        }
        s.editing.form = nil
        var back = form.returnPane
        if case .detail(_, let instanceID, _) = back, !s.home.allInstances.contains(where: { $0.id == instanceID }) {
            back = .none
        }
        s.pane = back
        if s.tile(form.tileID) != nil { s.focusedTile = form.tileID }
        s.relayout()
    }

    // MARK: - Layers

    static func formLayers(_ s: AppState) -> [Layer] {
        guard let form = s.editing.form else { return [.form, .global] }
        if form.instanceID == nil { return [.list, .global] }
        if form.picker != nil { return [.picker, .global] }
        if let items = form.items { return items.editing != nil ? [.field, .form, .global] : [.list, .global] }
        guard let p = parameter(s, form, form.selected) else { return [.form, .global] }
        switch p.rowKind {
        case .text, .secret: return [.field, .form, .global]
        case .integer, .date: return [.value, .field, .form, .global]
        case .path: return [.path, .field, .form, .global]
        case .bool: return [.value, .form, .global]
        case .choice, .list: return [.form, .global]
        }
    }

    static func parameter(_ s: AppState, _ form: EditForm, _ row: Int) -> Parameter? {
        guard let w = s.bundle[form.kind], w.schema.parameters.indices.contains(row) else { return nil }
        return w.schema.parameters[row]
    }

    // MARK: - Values

    /// A field's value, or what is wrong with it in the schema's words.
    static func value(_ f: FormField, _ p: Parameter, schema: ConfigurationSchema) -> Result<ConfigValue, FieldError> {
        switch p.rowKind {
        case .bool:
            return .success(.bool(f.flag))
        case .list:
            let v = ConfigValue.list(f.items)
            if let e = schema.validate(WidgetConfig([p.key: v])).first { return .failure(FieldError(e.message)) }
            return .success(v)
        default:
            do {
                return .success(try schema.parse(key: p.key, text: f.line.text))
            } catch {
                // A parameter's own check says what is wrong as `config set` and `config check` do.
                return .failure(FieldError(error.byCheck ? error.message : "must be \(p.allowed)"))
            }
        }
    }

    struct FieldError: Error, Sendable {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The configuration the form holds now and every field's problem. A value equal to
    /// the saved one keeps the saved entry (a parameter left unset stays unset in the file).
    static func draft(_ form: EditForm, _ widget: Widget) -> (config: WidgetConfig, errors: [String: String]) {
        var config = form.original
        var errors: [String: String] = [:]
        for (f, p) in zip(form.fields, widget.schema.parameters) {
            switch value(f, p, schema: widget.schema) {
            case .success(let v):
                if v != (form.original[p.key] ?? p.defaultValue) { config[p.key] = v }
            case .failure(let e):
                errors[p.key] = e.message
            }
        }
        return (config, errors)
    }

    /// "2026-11-23" for a date at midnight UTC, else the full ISO 8601 time.
    static func dateText(_ d: Date) -> String {
        let day = Date.ISO8601FormatStyle().year().month().day()
        let text = d.formatted(day)
        if let back = try? Date(text, strategy: day), back == d { return text }
        return d.formatted(.iso8601)
    }

    static func parseDate(_ text: String) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let d = try? Date(t, strategy: .iso8601) { return d }
        return try? Date(t, strategy: Date.ISO8601FormatStyle().year().month().day())
    }

    // MARK: - Commands

    static func formPerform(_ s: inout AppState, _ c: EditCommand, in layer: Layer) -> [Effect] {
        guard let form = s.editing.form else {
            s.pane = .none  // the form went away (its tile did): nothing to edit
            return []
        }
        if form.instanceID == nil { return stackPerform(&s, c) }
        guard let widget = s.bundle[form.kind], s.home.allInstances.contains(where: { $0.id == form.instanceID }) else {
            closeForm(&s)
            return []
        }
        switch layer {
        case .picker: return pickerPerform(&s, c, widget)
        case .list: return itemsPerform(&s, c, widget)
        default: return fieldPerform(&s, c, widget)
        }
    }

    /// Keys on the form's rows (the form, field, value and path layers).
    static func fieldPerform(_ s: inout AppState, _ c: EditCommand, _ widget: Widget) -> [Effect] {
        guard var form = s.editing.form else { return [] }
        let params = widget.schema.parameters
        let p = params.indices.contains(form.selected) ? params[form.selected] : nil

        // A list item edited in place takes the keys first.
        if var items = form.items, var line = items.editing {
            switch c {
            case .type(let t):
                line.insert(fieldText(t))
                items.editing = line
            case .line(let e):
                line.apply(e)
                items.editing = line
            case .activate, .save:
                items.editing = nil
                commitItem(&form, &items, line.text)
                form.items = c == .save ? nil : items
                form.problem = nil
                s.editing.form = form
                let fx = refreshPreview(&s, widget)
                return c == .save ? fx + save(&s) : fx
            case .cancel:
                items.editing = nil
                items.replacing = nil
            default:
                return []
            }
            form.items = items
            s.editing.form = form
            return []
        }

        var changed = false
        var fx: [Effect] = []
        switch c {
        case .field(let delta):
            let n = form.fields.count + 2
            form.selected = ((form.selected + delta) % n + n) % n
            form.completions = []
            form.completionNote = nil
        case .type(let t):
            guard let p else { break }
            switch p.rowKind {
            case .text, .secret, .path, .date:
                form.fields[form.selected].line.insert(fieldText(t))
                changed = true
            case .integer:
                let allowed = t.filter { $0.isASCII && $0.isNumber }
                form.fields[form.selected].line.insert(allowed)
                changed = !allowed.isEmpty
            case .choice:
                let filter = fieldText(t).trimmingCharacters(in: .whitespaces)
                s.editing.form = form
                return openPicker(&s, widget, p, filter: filter)
            case .bool:
                switch t.lowercased() {
                case "y", "t", "1":
                    form.fields[form.selected].flag = true
                    changed = true
                case "n", "f", "0":
                    form.fields[form.selected].flag = false
                    changed = true
                default: break
                }
            case .list:
                break
            }
        case .line(let e):
            guard p != nil else { break }
            form.fields[form.selected].line.apply(e)
            changed = true
        case .toggle:
            guard let p, p.rowKind == .bool else { break }
            form.fields[form.selected].flag.toggle()
            shellSwitched(&form, p.key)
            changed = true
        case .step(let delta):
            guard let p else { break }
            changed = step(&form.fields[form.selected].line, p, by: delta, now: s.now)
        case .complete:
            guard let p, p.rowKind == .path else { break }
            if form.fields[form.selected].line.isEmpty {
                // Nothing to complete: Tab goes on to the next field, as elsewhere in the form.
                form.selected += 1
                break
            }
            s.editing.form = form
            return complete(&s)
        case .activate:
            if form.selected == form.saveRow {
                s.editing.form = form
                return save(&s)
            }
            if form.selected == form.cancelRow {
                closeForm(&s)
                return []
            }
            guard let p else { break }
            switch p.rowKind {
            case .choice:
                s.editing.form = form
                return openPicker(&s, widget, p, filter: "")
            case .bool:
                form.fields[form.selected].flag.toggle()
                shellSwitched(&form, p.key)
                changed = true
            case .list:
                let empty = form.fields[form.selected].items.isEmpty
                form.items = ItemsEditor(selected: 0, editing: empty ? LineEditor() : nil, replacing: nil)
            default:
                let n = form.fields.count + 2
                form.selected = (form.selected + 1) % n
            }
        case .save:
            s.editing.form = form
            return save(&s)
        case .cancel:
            closeForm(&s)
            return []
        default:
            break
        }
        if changed {
            form.problem = nil
            form.completions = []
            form.completionNote = nil
        }
        s.editing.form = form
        if changed { fx += refreshPreview(&s, widget) }
        return fx
    }

    /// Typed or pasted text made safe for a one-line field.
    static func fieldText(_ t: String) -> String {
        TextSanitizer.clean(t)
    }

    /// `+` / `-` on a number or a date. Text that is not a number or a date yet gets the
    /// character typed instead (a minus sign, the dashes of an ISO date).
    static func step(_ line: inout LineEditor, _ p: Parameter, by delta: Int, now: Date) -> Bool {
        let t = line.text.trimmingCharacters(in: .whitespaces)
        let typed = delta < 0 ? "-" : "+"
        switch p.kind {
        case .integer(let range):
            func clamp(_ v: Int) -> Int { min(max(v, range.lowerBound), range.upperBound) }
            if let v = Int(t) {
                line.set(String(clamp(v + delta)))
            } else if t.isEmpty {
                if delta < 0 && range.lowerBound < 0 { line.insert("-") } else { line.set(String(clamp(0))) }
            } else {
                return false
            }
        case .date:
            if let d = parseDate(t) {
                line.set(dateText(d.addingTimeInterval(Double(delta) * 86_400)))
            } else if t.isEmpty {
                let today = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
                line.set(dateText(Date(timeIntervalSince1970: today)))
            } else {
                line.insert(typed)
            }
        default:
            line.insert(typed)
        }
        return true
    }

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

    /// Starts loading a dynamic enum's options unless they are loaded or loading.
    static func requestOptions(
        _ s: inout AppState, widget: Widget, parameter p: Parameter,
        configuration: WidgetConfig
    ) -> [Effect] {
        guard let load = p.dynamicOptions else { return [] }
        let key = optionsKey(widget, p, configuration)
        switch s.editing.options[key] {
        case .loading?, .loaded?: return []
        default: break
        }
        let token = s.editing.token()
        s.editing.options[key] = .loading(token)
        s.editing.optionTokens[token] = key
        let resolved = widget.schema.resolve(configuration, environment: s.environment.variables)
        return [
            .edit(
                .loadOptions(
                    OptionsRequest(
                        token: token, kind: widget.kind, key: p.key, configuration: resolved,
                        load: load, remote: widget.remote?.options)))
        ]
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

    static func openPicker(_ s: inout AppState, _ widget: Widget, _ p: Parameter, filter: String) -> [Effect] {
        guard var form = s.editing.form else { return [] }
        var highlighted = 0
        if filter.isEmpty {
            let current = form.fields[form.selected].line.text.lowercased()
            highlighted = choices(s, form, widget, p, filter: "").firstIndex { $0.value.lowercased() == current } ?? 0
        }
        form.picker = Picker(filter: filter, highlighted: highlighted)
        s.editing.form = form
        // Options that failed to load are tried again; loaded ones are kept for the session.
        let key = optionsKey(widget, p, draft(form, widget).config)
        if case .failed? = s.editing.options[key] { s.editing.options[key] = nil }
        return requestOptions(&s, widget: widget, parameter: p, configuration: draft(form, widget).config)
    }

    static func pickerPerform(_ s: inout AppState, _ c: EditCommand, _ widget: Widget) -> [Effect] {
        guard var form = s.editing.form, var picker = form.picker,
            let p = parameter(s, form, form.selected)
        else { return [] }
        let list = choices(s, form, widget, p, filter: picker.filter)
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
            s.editing.form = form
            return refreshPreview(&s, widget) + (c == .save ? save(&s) : [])
        case .cancel:
            form.picker = nil
            s.editing.form = form
            return []
        default:
            break
        }
        form.picker = picker
        s.editing.form = form
        return []
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

    static func itemsPerform(_ s: inout AppState, _ c: EditCommand, _ widget: Widget) -> [Effect] {
        guard var form = s.editing.form, var items = form.items else { return [] }
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
            s.editing.form = form
            return []
        case .save:
            form.items = nil
            s.editing.form = form
            return save(&s)
        default:
            break
        }
        form.fields[form.selected].items = list
        form.items = items
        if changed { form.problem = nil }
        s.editing.form = form
        return changed ? refreshPreview(&s, widget) : []
    }

    // MARK: - File paths

    /// "~" and "~/…" with the user's home directory.
    static func expandHome(_ path: String, _ env: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = env["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    /// Tab in a file path: list the directory typed so far; the answer completes the name.
    static func complete(_ s: inout AppState) -> [Effect] {
        guard var form = s.editing.form else { return [] }
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
        let expanded = expandHome(directory, s.environment.variables)
        let token = s.editing.token()
        form.completion = PendingCompletion(token: token, text: text, directory: directory, prefix: prefix)
        s.editing.form = form
        return [.edit(.listDirectory(DirectoryRequest(token: token, directory: expanded.isEmpty ? "." : expanded)))]
    }

    static func directoryListed(
        _ s: inout AppState, token: UInt64,
        result: Result<[DirectoryEntry], any Error>
    ) -> [Effect] {
        guard var form = s.editing.form, let pending = form.completion, pending.token == token,
            let widget = s.bundle[form.kind], form.fields.indices.contains(form.selected),
            form.fields[form.selected].line.text == pending.text
        else { return [] }
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
        s.editing.form = form
        return [.redraw(full: false)] + refreshPreview(&s, widget)
    }

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
        guard var form = s.editing.form, let instanceID = form.instanceID else { return [] }
        let (config, errors) = draft(form, widget)
        guard errors.isEmpty, config != form.previewConfig else { return [] }
        form.previewConfig = config
        if config == form.original && s.entry(ofInstance: instanceID) != nil {
            form.preview = .current
            s.editing.form = form
            return []
        }
        let token = s.editing.token()
        form.preview = .loading(token: token, last: shownPreview(s, form))
        s.editing.form = form
        let local = widget.cost == .local
        let family = s.loadFamily(ofInstance: instanceID)
        return [
            .edit(
                .loadPreview(
                    PreviewRequest(
                        token: token, widget: widget, configuration: config,
                        context: s.context(for: family, isPreview: !local), live: local)))
        ]
    }

    static func previewLoaded(_ s: inout AppState, token: UInt64, result: Result<AnyEntry, any Error>) -> [Effect] {
        if var form = s.editing.form, case .loading(let t, let last) = form.preview, t == token {
            switch result {
            case .success(let e): form.preview = .ready(e)
            case .failure(let e): form.preview = .failed(message(e), last: last)
            }
            s.editing.form = form
            return [.redraw(full: false)]
        }
        return galleryPreviewLoaded(&s, token: token, result: result)
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

    /// Save: refused with the reason while a value is invalid; else the home screen takes
    /// the new configuration at once (the scheduler reloads the widget, not charged), the
    /// step can be undone, and `home.yaml` is written.
    static func save(_ s: inout AppState) -> [Effect] {
        guard var form = s.editing.form, let instanceID = form.instanceID, let widget = s.bundle[form.kind] else {
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
            s.editing.form = form
            return []
        }
        // While home.yaml is broken nothing can be saved: the form stays open with what was typed.
        if let refusal = App.homeWriteRefusal(s) {
            form.problem = "\(refusal); your edits stay here until then"
            s.editing.form = form
            return []
        }
        s.editing.form = form
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
        closeForm(&s)
        let fx = changeHome(&s, to: home, what: "edit \(widget.displayName)", focus: form.tileID)
        s.say("saved \(widget.displayName): reloading")
        return fx
    }

    // MARK: - A stack's widgets

    static func stackPerform(_ s: inout AppState, _ c: EditCommand) -> [Effect] {
        guard var form = s.editing.form, let tile = s.tile(form.tileID) else {
            closeForm(&s)
            return []
        }
        let n = tile.items.count
        form.stackSelection = min(max(0, form.stackSelection), max(0, n - 1))
        switch c {
        case .choose(let delta):
            form.stackSelection = min(max(0, form.stackSelection + delta), max(0, n - 1))
            s.editing.form = form
        case .activate:
            s.editing.form = form
            guard tile.items.indices.contains(form.stackSelection) else { return [] }
            return startEditing(
                &s, tileID: tile.id, instance: tile.items[form.stackSelection], inStack: true,
                returnPane: form.returnPane)
        case .reorder(let delta):
            let i = form.stackSelection, j = i + delta
            guard tile.items.indices.contains(i), tile.items.indices.contains(j) else { return [] }
            var home = s.home
            guard let ti = home.tiles.firstIndex(where: { $0.id == tile.id }) else { return [] }
            let shown = s.shownInstance(tile.id)?.id
            home.tiles[ti].items.swapAt(i, j)
            form.stackSelection = j
            s.editing.form = form
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
            s.editing.form = form
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
            s.editing.form = form
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
