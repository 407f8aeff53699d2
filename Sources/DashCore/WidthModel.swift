/// The kinds of grapheme cluster whose width terminals disagree on (docs/decisions.md 28).
///
/// For everything else a cluster is as wide as its first printable code point (`wcwidth`),
/// which every terminal agrees with. For these, one terminal adds up the code points
/// (tmux 3.3, xterm) and another measures the cluster as one unit (newer terminals), so
/// no single table is right: the answer is chosen per class, ideally by asking the terminal.
public enum WidthClass: String, CaseIterable, Sendable, Hashable {
    /// A letter with a spacing vowel sign or another spacing mark: Devanagari कि, Thai กำ,
    /// and any other cluster of several spacing code points not covered below.
    case spacingMarks
    /// Consonants joined into one cluster by a virama (क्ष, न्द): one unit, or split after
    /// each virama as terminals with older segmentation rules do.
    case conjuncts
    /// An emoji with a skin-tone modifier: 👍🏽.
    case emojiModifiers
    /// A text-default symbol followed by VS16 (the emoji presentation selector): ❤️, ☀️, 1️⃣.
    case emojiPresentation
    /// An emoji ZWJ sequence: 👨‍👩‍👧, ❤️‍🔥.
    case emojiSequences
}

/// How a terminal measures one class of cluster.
public enum WidthAnswer: String, Sendable, Hashable {
    /// As one grapheme cluster: 2 for an emoji, the first code point's width for text.
    /// For emoji sequences: the width of the first emoji (the rest joins it, as in tmux 3.3).
    case cluster
    /// Code point by code point, as `wcwidth` adds them up (tmux 3.3 and xterm for most classes).
    /// For emoji sequences: every emoji of the sequence side by side.
    case codePoints
}

/// One answer per disputed class: how wide the terminal draws each kind of cluster.
///
/// The model in force is `WidthModel.current`: a task-local override (tests draw with every
/// model side by side) or else the process default, which the curses front end sets from the
/// terminal's own answers before the first frame.
public struct WidthModel: Hashable, Sendable, CustomStringConvertible {
    public var spacingMarks: WidthAnswer
    public var conjuncts: WidthAnswer
    public var emojiModifiers: WidthAnswer
    public var emojiPresentation: WidthAnswer
    public var emojiSequences: WidthAnswer

    public init(
        spacingMarks: WidthAnswer, conjuncts: WidthAnswer, emojiModifiers: WidthAnswer,
        emojiPresentation: WidthAnswer, emojiSequences: WidthAnswer
    ) {
        self.spacingMarks = spacingMarks
        self.conjuncts = conjuncts
        self.emojiModifiers = emojiModifiers
        self.emojiPresentation = emojiPresentation
        self.emojiSequences = emojiSequences
    }

    public init(_ answer: WidthAnswer) {
        self.init(
            spacingMarks: answer, conjuncts: answer, emojiModifiers: answer, emojiPresentation: answer,
            emojiSequences: answer)
    }

    public subscript(_ c: WidthClass) -> WidthAnswer {
        get {
            switch c {
            case .spacingMarks: return spacingMarks
            case .conjuncts: return conjuncts
            case .emojiModifiers: return emojiModifiers
            case .emojiPresentation: return emojiPresentation
            case .emojiSequences: return emojiSequences
            }
        }
        set {
            switch c {
            case .spacingMarks: spacingMarks = newValue
            case .conjuncts: conjuncts = newValue
            case .emojiModifiers: emojiModifiers = newValue
            case .emojiPresentation: emojiPresentation = newValue
            case .emojiSequences: emojiSequences = newValue
            }
        }
    }

    /// Grapheme clusters measured as units: Unicode's answer, and what swiftdash assumed before
    /// it asked terminals. The default where there is no terminal to ask (`render`, tests).
    public static let clusters = WidthModel(.cluster)
    /// Code point by code point throughout (xterm).
    public static let codePoints = WidthModel(.codePoints)
    /// tmux 3.3: code points, except that whatever follows a ZWJ joins the cell before it.
    public static let tmux33 = WidthModel(
        spacingMarks: .codePoints, conjuncts: .codePoints,
        emojiModifiers: .codePoints, emojiPresentation: .codePoints,
        emojiSequences: .cluster)
    /// The wider answer of every class: what to assume when the terminal cannot be asked.
    /// Whatever the terminal really does, it draws no cluster wider than this says, and the
    /// front end pads what it draws narrower.
    public static let widest = WidthModel(
        spacingMarks: widestAnswer(.spacingMarks),
        conjuncts: widestAnswer(.conjuncts),
        emojiModifiers: widestAnswer(.emojiModifiers),
        emojiPresentation: widestAnswer(.emojiPresentation),
        emojiSequences: widestAnswer(.emojiSequences))

    /// The answer under which a class's clusters are never narrower.
    public static func widestAnswer(_ c: WidthClass) -> WidthAnswer {
        c == .emojiPresentation ? .cluster : .codePoints
    }

    /// A model by name: `clusters`, `codepoints`, `tmux` (3.3) or `widest`.
    public init?(name: String) {
        switch name.lowercased() {
        case "clusters", "cluster", "unicode": self = .clusters
        case "codepoints", "code-points", "xterm": self = .codePoints
        case "tmux", "tmux3.3", "tmux33": self = .tmux33
        case "widest": self = .widest
        default: return nil
        }
    }

    public var description: String {
        WidthClass.allCases.map { "\($0.rawValue)=\(self[$0].rawValue)" }.joined(separator: " ")
    }

    // MARK: the model in force

    /// Set by tests (and previews) for one scope: `WidthModel.$scoped.withValue(.tmux33) { … }`.
    @TaskLocal public static var scoped: WidthModel?

    /// Written once before the first frame (and again only if the terminal's answers come late),
    /// always from the thread that draws; read by that thread.
    nonisolated(unsafe) private static var processDefault = WidthModel.clusters

    /// The model every width in this process is measured with.
    public static var current: WidthModel { scoped ?? processDefault }

    /// Makes `model` the process-wide default (the curses front end, from the terminal's answers).
    public static func setProcessDefault(_ model: WidthModel) { processDefault = model }

    // MARK: measuring

    /// The code points of a cluster as they are sent to a terminal: a ZWJ that does not join two
    /// emoji is left out (tmux joins whatever non-ASCII character follows a ZWJ into the cell
    /// before it, even after a cursor move; other terminals ignore it: without it they agree),
    /// and so are zero-width code points before the first printable one.
    public static func terminalScalars(_ ch: Character) -> [Unicode.Scalar] {
        let all = Array(ch.unicodeScalars)
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(all.count)
        for (i, s) in all.enumerated() {
            if out.isEmpty && DisplayWidth.of(scalar: s) <= 0 { continue }
            if s.value == 0x200D {
                let next = i + 1 < all.count ? all[i + 1] : nil
                guard let n = next, n.value > 0x7F, n.properties.isEmoji, let first = out.first,
                    first.properties.isEmoji, first.value > 0x7F
                else { continue }
            }
            out.append(s)
        }
        return out
    }

    /// The text of `terminalScalars`.
    public static func terminalText(_ ch: Character) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: terminalScalars(ch))
        return String(s)
    }

    /// The disputed class a cluster belongs to, or nil when every terminal agrees on it.
    public static func disputedClass(of ch: Character) -> WidthClass? {
        if ch.isASCII { return nil }
        return classify(terminalScalars(ch))
    }

    static func classify(_ scalars: [Unicode.Scalar]) -> WidthClass? {
        guard scalars.count > 1 else { return nil }
        if scalars.contains(where: { $0.value == 0x200D }) { return .emojiSequences }
        if scalars.count == 2 && scalars.allSatisfy(isRegionalIndicator) { return nil }
        if scalars.dropFirst().contains(where: { $0.properties.isEmojiModifier }) { return .emojiModifiers }
        if scalars.contains(where: { $0.value == 0xFE0F }) && DisplayWidth.of(scalar: scalars[0]) == 1 {
            return .emojiPresentation
        }
        let spacing = scalars.filter { DisplayWidth.of(scalar: $0) > 0 }.count
        guard spacing > 1 else { return nil }
        return splitAfterViramas(scalars).count > 1 ? .conjuncts : .spacingMarks
    }

    static func isRegionalIndicator(_ s: Unicode.Scalar) -> Bool { (0x1F1E6...0x1F1FF).contains(s.value) }

    /// Columns a grapheme cluster takes under this model (0 for control and lone zero-width
    /// characters). ASCII and single code points are `wcwidth`'s answer whatever the model.
    public func width(of ch: Character) -> Int {
        if ch.isASCII {
            let v = ch.asciiValue ?? 0
            return (v >= 0x20 && v < 0x7f) ? 1 : 0
        }
        return width(Self.terminalScalars(ch))
    }

    func width(_ scalars: [Unicode.Scalar]) -> Int {
        guard let first = scalars.first else { return 0 }
        let base = max(0, min(2, DisplayWidth.of(scalar: first)))
        guard scalars.count > 1 else { return base }
        switch Self.classify(scalars) {
        case nil:
            // A flag is two regional indicators that wcwidth counts 1 each: one 2-column glyph.
            if scalars.count == 2 && scalars.allSatisfy(Self.isRegionalIndicator) { return 2 }
            return base
        case .emojiSequences:
            let parts = scalars.split { $0.value == 0x200D }.map(Array.init)
            if emojiSequences == .cluster { return width(parts[0]) }
            return parts.reduce(0) { $0 + width($1) }
        case .emojiModifiers:
            return emojiModifiers == .cluster ? 2 : Self.sumOfWidths(scalars)
        case .emojiPresentation:
            return emojiPresentation == .cluster ? 2 : Self.sumOfWidths(scalars)
        case .spacingMarks, .conjuncts:
            let pieces = conjuncts == .codePoints ? Self.splitAfterViramas(scalars) : [scalars]
            return pieces.reduce(0) { total, piece in
                let first = piece.first.map { max(0, min(2, DisplayWidth.of(scalar: $0))) } ?? 0
                return total + (spacingMarks == .cluster ? first : Self.sumOfWidths(piece))
            }
        }
    }

    static func sumOfWidths(_ scalars: some Sequence<Unicode.Scalar>) -> Int {
        scalars.reduce(0) { $0 + max(0, DisplayWidth.of(scalar: $1)) }
    }

    /// The pieces of a cluster cut after each virama that a spacing code point follows.
    static func splitAfterViramas(_ scalars: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        var pieces: [[Unicode.Scalar]] = [[]]
        var afterVirama = false
        for s in scalars {
            if afterVirama && DisplayWidth.of(scalar: s) > 0 { pieces.append([]) }
            pieces[pieces.count - 1].append(s)
            if s.properties.canonicalCombiningClass == .virama {
                afterVirama = true
            } else if DisplayWidth.of(scalar: s) > 0 {
                afterVirama = false
            }
        }
        return pieces
    }
}
