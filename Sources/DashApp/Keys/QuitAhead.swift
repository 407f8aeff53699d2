import DashCore

/// Whether keys waiting to be handled would quit, judged without handling them (issue 37.7): a
/// key that means quit in the layers showing now comes after keys that only move within them
/// (focus, page, scroll, or bound to nothing), which never open, close or type into a layer, so
/// they cannot change what the quit key means. The runtime then quits at once instead of working
/// through a flood of such keys first (decision 55). Anything else before the quit key (`e`
/// opens the form, where `q` types a q) says no: those keys are handled in order.
public struct QuitLookahead {
    /// The layers the judgement holds for (`App.layers` when it was made).
    public let stack: [Layer]
    enum Kind { case quit, move, other }
    private var kinds: [Key: Kind] = [:]

    public init(_ s: AppState) { stack = App.layers(s) }

    mutating func kind(_ k: Key) -> Kind {
        if let known = kinds[k] { return known }
        let kind: Kind
        if let (_, command) = KeyTable.dispatch(k, through: stack) {
            switch command {
            case .quit: kind = .quit
            case .move, .page, .firstTile, .scrollHelp, .scrollPane: kind = .move
            default: kind = .other
            }
        } else if case .alt = k {
            // An unbound Alt+key is Esc and the key (`App.key`): Esc may close a layer.
            kind = .other
        } else {
            kind = .move
        }
        kinds[k] = kind
        return kind
    }

    /// The quit key `keys` reach in order through moves only, if any, and how many moves came
    /// before it or before the first key that is neither (a caller that keeps those keys need not
    /// look at them again while the layers stay the same).
    public mutating func scan(_ keys: some Sequence<Key>) -> (quit: Key?, moves: Int) {
        var moves = 0
        for k in keys {
            switch kind(k) {
            case .quit: return (k, moves)
            case .move: moves += 1
            case .other: return (nil, moves)
            }
        }
        return (nil, moves)
    }
}

extension App {
    /// Whether handling `keys` in order from `s` would quit, seen without handling them
    /// (`QuitLookahead`).
    public static func quitsAhead(_ s: AppState, _ keys: some Sequence<Key>) -> Bool {
        var look = QuitLookahead(s)
        return look.scan(keys).quit != nil
    }
}
