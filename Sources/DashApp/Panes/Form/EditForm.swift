import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

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
    /// Opened from a stack's widget list: Save and Esc go back to it.
    var inStack: Bool
    var completion: PendingCompletion?
    /// The configuration of the preview shown or asked for.
    var previewConfig: WidgetConfig?
    /// Esc was pressed over unsaved edits: a second Esc discards them.
    var confirmingDiscard = false

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

    // MARK: - Layers

    static func formLayers(_ s: AppState, _ form: EditForm) -> [Layer] {
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
                if v != (form.original[p.key] ?? p.defaultValue) {
                    config[p.key] = v
                    config.secretCommands[p.key] = nil  // a value typed in replaces the command
                }
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

    /// A key's command in one of the form's layers.
    static func formPerform(_ form: inout EditForm, _ c: EditCommand, in layer: Layer, _ st: inout FormStep) {
        if form.confirmingDiscard, c != .cancel {
            form.confirmingDiscard = false
            if form.problem == discardQuestion { form.problem = nil }
        }
        if form.instanceID == nil { return stackPerform(&form, c, &st) }
        guard let widget = st.s.bundle[form.kind], st.s.home.allInstances.contains(where: { $0.id == form.instanceID })
        else { return closeForm(&form, &st) }
        switch layer {
        case .picker: pickerPerform(&form, c, widget, &st)
        case .list: itemsPerform(&form, c, widget, &st)
        default: fieldPerform(&form, c, widget, &st)
        }
    }

    /// Keys on the form's rows (the form, field, value and path layers).
    static func fieldPerform(_ form: inout EditForm, _ c: EditCommand, _ widget: Widget, _ st: inout FormStep) {
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
                refreshPreview(&form, widget, &st)
                if c == .save { save(&form, &st) }
                return
            case .cancel:
                items.editing = nil
                items.replacing = nil
            default:
                return
            }
            form.items = items
            return
        }

        var changed = false
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
                return openPicker(&form, widget, p, filter: filter, &st)
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
            changed = step(&form.fields[form.selected].line, p, by: delta, now: st.s.now)
        case .complete:
            guard let p, p.rowKind == .path else { break }
            if form.fields[form.selected].line.isEmpty {
                // Nothing to complete: Tab goes on to the next field, as elsewhere in the form.
                form.selected += 1
                break
            }
            return complete(&form, &st)
        case .activate:
            if form.selected == form.saveRow { return save(&form, &st) }
            if form.selected == form.cancelRow { return closeForm(&form, &st) }
            guard let p else { break }
            switch p.rowKind {
            case .choice:
                return openPicker(&form, widget, p, filter: "", &st)
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
            return save(&form, &st)
        case .cancel:
            // One key does not throw edits away: the first Esc asks, a second one discards.
            let (config, errors) = draft(form, widget)
            if !form.confirmingDiscard, config != form.original || !errors.isEmpty {
                form.confirmingDiscard = true
                form.problem = discardQuestion
                return
            }
            return closeForm(&form, &st)
        default:
            break
        }
        if changed {
            form.problem = nil
            form.completions = []
            form.completionNote = nil
            refreshPreview(&form, widget, &st)
        }
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
}
