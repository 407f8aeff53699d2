import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

/// readline's moves and deletions in a one-line text field.
public enum LineEdit: Sendable, Equatable {
    case left, right, home, end, wordLeft, wordRight
    case backspace, delete, killToStart, killToEnd, killWordBack, killWordForward, yank
}

/// What a key asks of the Edit Widget form, the gallery or arrange mode; the layer gives it
/// its meaning (Enter takes a choice in a picker and drops a tile in arrange mode).
public enum EditCommand: Sendable, Equatable {
    case openForm, openGallery, openArrange
    /// Text typed (or pasted) into a layer that takes text.
    case type(String)
    case line(LineEdit)
    /// The previous / next field of the form.
    case field(Int)
    case activate, save, cancel, toggle, complete
    /// A number or a date up or down.
    case step(Int)
    /// The highlight of a picker, a list, the gallery up or down.
    case choose(Int)
    /// A list's item (or a stack's widget) added, removed, moved.
    case add, remove
    case reorder(Int)
    /// The size the gallery adds.
    case family(Int)
    case moveTile(Direction), movePage(Int), lift, cycleFamily
    case undo, redo
}

/// Results that come back for the form and the gallery.
public enum EditMsg: Sendable {
    case optionsLoaded(token: UInt64, result: Result<[ParameterOption], any Error>)
    case previewLoaded(token: UInt64, result: Result<AnyEntry, any Error>)
    case directoryListed(token: UInt64, result: Result<[DirectoryEntry], any Error>)
}

/// Work the form and the gallery ask the runtime for (see `EditEffects`).
public enum EditEffect: Sendable, CustomStringConvertible {
    /// Load a dynamic enum's options (may use the network).
    case loadOptions(OptionsRequest)
    /// Draw a widget with a configuration: its snapshot, or for a local widget its timeline.
    case loadPreview(PreviewRequest)
    /// List a directory for file path completion.
    case listDirectory(DirectoryRequest)

    public var description: String {
        switch self {
        case .loadOptions(let r): return "loadOptions(\(r.kind).\(r.key))"
        case .loadPreview(let r):
            return "loadPreview(\(r.widget.kind), \(r.context.family.rawValue)\(r.live ? ", live" : ""))"
        case .listDirectory(let r): return "listDirectory(\(r.directory))"
        }
    }
}

public struct OptionsRequest: Sendable {
    public var token: UInt64
    public var kind: String
    public var key: String
    /// The configuration resolved (defaults, secrets from the environment).
    public var configuration: WidgetConfig
    public var load: @Sendable (WidgetConfig) async throws -> [ParameterOption]
    /// The same, asked of the provider host (blocking, with its own deadline); nil: `load`.
    public var remote: (@Sendable (String, WidgetConfig) throws -> [ParameterOption])? = nil
}

public struct PreviewRequest: Sendable {
    public var token: UInt64
    public var widget: Widget
    public var configuration: WidgetConfig
    public var context: TimelineContext
    /// Run the real timeline (local widgets) instead of the snapshot.
    public var live: Bool
}

public struct DirectoryRequest: Sendable, Equatable {
    public var token: UInt64
    public var directory: String
}

public struct DirectoryEntry: Sendable, Hashable {
    public var name: String
    public var isDirectory: Bool
    public init(name: String, isDirectory: Bool) {
        self.name = name
        self.isDirectory = isDirectory
    }
}

/// One undoable step: the home screen as it was before it, and where the focus was.
public struct EditSnapshot: Sendable {
    public var home: HomeConfig
    public var focus: String?
    public var stackIndex: [String: Int]
    /// What the step did ("move Clock"), for the status bar.
    public var what: String
}

/// Undo and redo of arrange, remove, add and edit steps.
public struct EditHistory: Sendable {
    public static let limit = 100
    public var undo: [EditSnapshot] = []
    public var redo: [EditSnapshot] = []

    mutating func record(_ s: EditSnapshot) {
        undo.append(s)
        if undo.count > Self.limit { undo.removeFirst(undo.count - Self.limit) }
        redo.removeAll()
    }
}

/// A dynamic enum's options as loaded this session.
public enum OptionsLoad: Sendable {
    case loading(UInt64)
    case loaded([ParameterOption])
    case failed(String)
}

/// The state of the Edit Widget form, the gallery and arrange mode, and the undo history.
public struct EditingState: Sendable {
    public var history = EditHistory()
    /// Which widget's form sent the write on its way (and the row it was on): if the write is
    /// refused the form opens again with what the write held (`Editing.reopenRefusedForm`).
    var saving: (tileID: String, instanceID: String, selected: Int)?
    /// Dynamic enum options loaded this session, by kind, parameter and the values asked with.
    var options: [String: OptionsLoad] = [:]
    var optionTokens: [UInt64: String] = [:]
    var nextToken: UInt64 = 1
    /// The highest number used in an id ("t7", "w7"), so new ids never repeat one.
    var lastID = 0

    public init() {}

    mutating func token() -> UInt64 {
        defer { nextToken += 1 }
        return nextToken
    }
}

extension Key {
    /// The text a key types into a field: a printable character or a paste.
    var typedText: String? {
        switch self {
        case .char(let c):
            guard let v = c.unicodeScalars.first?.value, v >= 0x20, v != 0x7F else { return nil }
            return String(c)
        case .paste(let s): return s
        default: return nil
        }
    }
}

/// The Edit Widget form, the gallery and arrange mode: their layers, their commands and the
/// results that come back for them. All pure, like `App.update`.
public enum Editing {
    /// What a command does in one of the editing layers, or (e, a, m, d, u) on the home screen.
    public static func perform(_ s: inout AppState, _ c: EditCommand, in layer: Layer) -> [Effect] {
        switch layer {
        case .home, .detail:
            switch c {
            case .openForm: return openForm(&s)
            case .openGallery:
                s.linkIndex = nil
                return App.route(&s, GalleryState.open(PaneContext(app: s), afterTile: s.focusedTile))
            case .openArrange:
                let out = ArrangeState.open(s)
                if case .push = out.first { s.linkIndex = nil }
                return App.route(&s, out)
            case .remove: return removeFocused(&s)
            case .undo: return App.undoLast(&s)
            case .redo: return redo(&s)
            default: return []
            }
        case .arrange:
            return arrangeEdit(&s, c)
        default:
            return []
        }
    }

    /// A result for the form or the gallery.
    public static func receive(_ s: inout AppState, _ m: EditMsg) -> [Effect] {
        switch m {
        case .optionsLoaded(let token, let result):
            return optionsLoaded(&s, token: token, result: result)
        case .previewLoaded(let token, let result):
            return App.send(&s, .preview(token: token, result: result))
        case .directoryListed(let token, let result):
            return App.send(&s, .listing(token: token, result: result))
        }
    }
}
