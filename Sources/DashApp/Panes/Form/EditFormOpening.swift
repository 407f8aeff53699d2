import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

/// The form opens on a widget (or a stack's list of widgets) over the pane shown, and closes
/// back to it.
extension Editing {
    // MARK: - Opening and closing

    /// `e` on the home screen: the focused tile's widget (a stack: its list of widgets). (The
    /// detail pane's `e` opens the form through the router: `Output.edit`.)
    static func openForm(_ s: inout AppState) -> [Effect] {
        guard let tileID = s.focusedTile, let tile = s.tile(tileID), let firstItem = tile.items.first else { return [] }
        if tile.items.count > 1 {
            let list = EditForm(
                tileID: tileID, instanceID: nil, kind: "", original: WidgetConfig(), fields: [],
                selected: 0, stackSelection: min(s.stackIndex[tileID] ?? 0, tile.items.count - 1),
                preview: .current, inStack: false)
            return App.route(&s, [.push(.form(list))])
        }
        return startEditing(&s, tileID: tileID, instance: firstItem, inStack: false)
    }

    /// Opens the form on one widget instance, over the pane shown (a stack's widget list: in its
    /// place).
    static func startEditing(_ s: inout AppState, tileID: String, instance inst: WidgetInstance, inStack: Bool)
        -> [Effect]
    {
        guard let widget = s.bundle[inst.kind] else {
            s.say("unknown widget \(inst.kind): nothing to edit")
            return []
        }
        guard !widget.schema.parameters.isEmpty else {
            s.say("\(widget.displayName) has nothing to set")
            return []
        }
        let stackSelection = s.form?.stackSelection ?? 0
        var form = EditForm(
            tileID: tileID, instanceID: inst.id, kind: inst.kind, original: inst.config,
            fields: formFields(widget, inst.config), selected: 0, stackSelection: stackSelection,
            preview: .current, inStack: inStack, previewConfig: nil)
        var st = FormStep(context: PaneContext(app: s))
        // A tile with nothing to show yet (loading, failed) gets a preview at once.
        refreshPreview(&form, widget, &st)
        // Choices that come from the provider start loading now: the row shows a spinner.
        for p in widget.schema.parameters where p.dynamicOptions != nil {
            requestOptions(widget: widget, parameter: p, configuration: inst.config, &st)
        }
        return App.route(&s, [.push(.form(form))] + st.outputs)
    }

    /// The form's fields holding `config`'s values (a parameter it does not set: its default).
    static func formFields(_ widget: Widget, _ config: WidgetConfig) -> [FormField] {
        widget.schema.parameters.map { p -> FormField in
            let v = config[p.key] ?? p.defaultValue
            var text = v.description
            if case .date(let d) = v { text = dateText(d) }
            var flag = false
            if case .bool(let b) = v { flag = b }
            var items: [String] = []
            if case .list(let l) = v { items = l } else if p.rowKind == .list { items = config.list(p.key) }
            return FormField(
                key: p.key, line: LineEditor(p.rowKind == .list || p.rowKind == .bool ? "" : text),
                flag: flag, items: items)
        }
    }

    /// A form's save was refused (another program changed the same lines, the file broke): the
    /// form opens again holding what the refused write held for its widget, over what the file
    /// holds now.
    static func reopenRefusedForm(_ s: inout AppState, written: HomeConfig, problem: String) {
        guard let saving = s.editing.saving, let typed = written.instance(saving.instanceID),
            let inst = s.home.instance(saving.instanceID), s.tile(saving.tileID) != nil,
            let widget = s.bundle[inst.kind]
        else { return }
        let form = EditForm(
            tileID: saving.tileID, instanceID: inst.id, kind: inst.kind, original: inst.config,
            fields: formFields(widget, typed.config), selected: saving.selected, stackSelection: 0,
            preview: .current, problem: problem, inStack: false)
        _ = App.route(&s, [.push(.form(form))])
    }

    /// Leaves the form (a stack's widget: back to its list), nothing saved.
    static func closeForm(_ form: inout EditForm, _ st: inout FormStep) {
        if form.inStack, let tile = st.s.tile(form.tileID), tile.items.count > 1 {
            form.instanceID = nil
            form.fields = []
            form.picker = nil
            form.items = nil
            form.problem = nil
            form.completions = []
            form.completionNote = nil
            form.preview = .current
            form.inStack = false
            return
        }
        // Back to the pane it was opened from (a detail pane), or the home screen; the focus on
        // its tile.
        st.out += [.close, .focus(tile: form.tileID)]
    }
}
