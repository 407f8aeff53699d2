import DashCore
import DashWidgets
import DashRender

/// The Edit Widget form as a component: its state is `EditForm`; its commands are `Editing`'s
/// form functions, each over the form and a `FormStep`.

extension EditForm: PaneComponent {
    public enum Action: Sendable {
        /// A key's command in one of the form's layers (the layer gives it its meaning).
        case key(EditCommand, in: Layer)
        /// A preview asked for arrived.
        case previewLoaded(token: UInt64, result: Result<AnyEntry, any Error>)
        /// A directory listed for a file path's completion.
        case directoryListed(token: UInt64, result: Result<[DirectoryEntry], any Error>)
    }

    static func action(for command: Command, in layer: Layer) -> Action? {
        guard case .edit(let c) = command else { return nil }
        return .key(c, in: layer)
    }

    static func reduce(into form: inout EditForm, _ action: Action, _ context: PaneContext) -> [Output] {
        var st = FormStep(context: context)
        switch action {
        case .key(let c, let layer): Editing.formPerform(&form, c, in: layer, &st)
        case .previewLoaded(let token, let result): Editing.previewLoaded(&form, token: token, result: result, &st)
        case .directoryListed(let token, let result): Editing.directoryListed(&form, token: token, result: result, &st)
        }
        return st.outputs
    }
}

/// One step of the form: the context it reads, what it asks of the app so far, and how many of
/// the context's tokens it named work with.
struct FormStep {
    let context: PaneContext
    var out: [Output] = []
    var tokens = 0

    init(context: PaneContext) { self.context = context }

    /// The app as it was when the step began (read only).
    var s: AppState { context.app }

    mutating func token() -> UInt64 {
        defer { tokens += 1 }
        return context.token(tokens)
    }

    mutating func say(_ text: String) { out.append(.say(text)) }
    mutating func effect(_ e: Effect) { out.append(.effect(e)) }

    /// The outputs, the tokens taken first (later outputs may name work with tokens of their own).
    var outputs: [Output] { (tokens > 0 ? [.tookTokens(tokens)] : []) + out }
}

extension EditForm: StackedPane {
    static func action(for input: PaneInput) -> Action? {
        switch input {
        case .command(let c, let layer): return action(for: c, in: layer)
        case .preview(let token, let result): return .previewLoaded(token: token, result: result)
        case .listing(let token, let result): return .directoryListed(token: token, result: result)
        case .pointer: return nil
        }
    }

    var pane: Pane { .form(self) }
    func layers(_ s: AppState) -> [Layer] { s.layout.isTooSmall ? [.global] : Editing.formLayers(s, self) }
    func draw(_ s: AppState, _ env: RenderEnvironment, into frame: inout HomeFrame) {
        EditView.drawForm(s, into: &frame)
    }
}
