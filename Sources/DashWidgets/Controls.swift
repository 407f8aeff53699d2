import Foundation

/// A widget's action as the app carries it: the widget's own `Codable` action value, encoded
/// as JSON at the erasure boundary (as entries are for the cache). The app queues, logs and
/// replays it without knowing its type; only the widget's `perform` decodes it.
public struct ActionPayload: Hashable, Sendable, Codable, CustomStringConvertible {
    public var json: String

    public init(json: String) { self.json = json }

    /// Encodes `action` with the stable encoder (sorted keys), so one action is always the
    /// same text: a control is recognised by its action when its tile is drawn again.
    public init<A: Encodable>(_ action: A) {
        let data = (try? JSONEncoder.dash.encode(action)) ?? Data("null".utf8)
        json = String(decoding: data, as: UTF8.self)
    }

    /// The widget's own action value.
    public func decode<A: Decodable>(_ type: A.Type) throws -> A {
        do {
            return try JSONDecoder.dash.decode(A.self, from: Data(json.utf8))
        } catch {
            throw ActionError("not an action this widget knows: \(TextSanitizer.singleLine(json))")
        }
    }

    public var description: String { json }
}

/// Why an action could not run; the status bar shows `message`.
public struct ActionError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var errorDescription: String? { message }
}

/// A button or a toggle in a tile (WidgetKit's `Button(intent:)`, `Toggle(isOn:intent:)`).
public struct TileControl: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case button
        case toggle(isOn: Bool)
    }

    public var kind: Kind
    public var title: String
    /// What activating the control runs (`Widget.perform`).
    public var action: ActionPayload
    /// An action of this control is queued or running: drawn pending (a toggle already flipped).
    public var isPending: Bool

    public init(kind: Kind, title: String, action: ActionPayload, isPending: Bool = false) {
        self.kind = kind
        self.title = title
        self.action = action
        self.isPending = isPending
    }

    /// Which control this is, whatever state it is drawn in: its title and its action.
    public var identity: String { title + "\u{1F}" + action.json }

    public var isOn: Bool? {
        if case .toggle(let on) = kind { return on }
        return nil
    }
}

/// A tap target of a tile in reading order: a link or a control (what Tab walks).
public enum TapTarget: Hashable, Sendable {
    case link(String)
    case control(TileControl)
}

/// A button: activating it (Enter or Space when highlighted, a click) runs `action`.
public func Button<A: Encodable>(_ title: String, action: A) -> TileView {
    .control(TileControl(kind: .button, title: title, action: ActionPayload(action)))
}

/// A toggle drawn `[x] title` / `[ ] title`; activating it runs `action`, and while the action
/// is on its way the toggle shows the other state.
public func Toggle<A: Encodable>(isOn: Bool, _ title: String, action: A) -> TileView {
    .control(TileControl(kind: .toggle(isOn: isOn), title: title, action: ActionPayload(action)))
}

extension TileView {
    /// Marks content an action makes stale (WidgetKit's `invalidatableContent()`): while an
    /// action of the tile is on its way it is drawn pending.
    public func invalidatable() -> TileView { .invalidatable(pending: false, self) }

    /// Links and controls in reading order (what Tab and Shift-Tab walk).
    public var targets: [TapTarget] {
        switch self {
        case .link(let u, let v): return [.link(u)] + v.targets
        case .control(let c): return [.control(c)]
        case .stack(_, _, _, let children): return children.flatMap(\.targets)
        case .padding(_, let v), .lineLimit(_, let v), .frame(_, _, _, let v), .expand(_, _, _, let v),
            .styled(_, let v), .widgetURL(_, let v), .redacted(let v), .invalidatable(_, let v):
            return v.targets
        default: return []
        }
    }

    /// Every control in reading order.
    public var controls: [TileControl] {
        targets.compactMap { if case .control(let c) = $0 { return c } else { return nil } }
    }

    /// The view while actions are on their way (optimistic, as WidgetKit draws it): a control
    /// whose action is in `pending` is marked pending, a toggle among them shows the other
    /// state, and with `anyPending` every invalidatable part is marked pending.
    public func applyingPending(_ pending: Set<ActionPayload>, anyPending: Bool) -> TileView {
        guard anyPending || !pending.isEmpty else { return self }
        func map(_ v: TileView) -> TileView { v.applyingPending(pending, anyPending: anyPending) }
        switch self {
        case .control(var c):
            guard pending.contains(c.action) else { return self }
            c.isPending = true
            if case .toggle(let on) = c.kind { c.kind = .toggle(isOn: !on) }
            return .control(c)
        case .invalidatable(let p, let v): return .invalidatable(pending: p || anyPending, map(v))
        case .stack(let ax, let a, let sp, let children):
            return .stack(ax, alignment: a, spacing: sp, children.map(map))
        case .padding(let i, let v): return .padding(i, map(v))
        case .lineLimit(let n, let v): return .lineLimit(n, map(v))
        case .frame(let w, let h, let a, let v): return .frame(width: w, height: h, alignment: a, map(v))
        case .expand(let h, let vt, let a, let v): return .expand(horizontal: h, vertical: vt, alignment: a, map(v))
        case .styled(let s, let v): return .styled(s, map(v))
        case .link(let u, let v): return .link(u, map(v))
        case .widgetURL(let u, let v): return .widgetURL(u, map(v))
        case .redacted(let v): return .redacted(map(v))
        default: return self
        }
    }
}
