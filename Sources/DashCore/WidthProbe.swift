/// Asking a terminal how wide it draws one cluster of each disputed class: print it, ask for
/// the cursor position (`ESC [ 6 n`), and read the column from the report. The requests for
/// all probes go out at once and end with a device-attributes request (`ESC [ c`) that every
/// terminal answers, so its answer marks the end: no need to wait for a timeout when a
/// terminal does not report positions.
public enum WidthProbe {
    /// One cluster per class, in the order they are decided (conjuncts after spacing marks,
    /// whose answer they depend on).
    public static let probes: [(WidthClass, String)] = [
        (.spacingMarks, "\u{915}\u{93F}"),  // कि: 1 as a cluster, 2 by code points
        (.conjuncts, "\u{915}\u{94D}\u{937}"),  // क्ष: 1 as a cluster, 2 split
        (.emojiModifiers, "\u{1F44D}\u{1F3FD}"),  // 👍🏽: 2 or 4
        (.emojiPresentation, "\u{2764}\u{FE0F}"),  // ❤️: 2 or 1
        (.emojiSequences, "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"),  // 👨‍👩‍👧: 2 or 6
    ]

    /// Columns the probes need on the row they are printed on.
    public static let columnsNeeded = 8

    /// The bytes that ask, on screen row `row` (0-based): each probe printed concealed at the
    /// row's start, then a position request; then (`askBackground`) the background colour; then
    /// the device-attributes request.
    public static func request(row: Int, askBackground: Bool) -> String {
        var out = "\u{1B}[0m"
        for (_, cluster) in probes {
            out += RawPainter.moveTo(x: 0, y: row) + "\u{1B}[8m" + cluster + "\u{1B}[0m\u{1B}[6n"
        }
        // OSC 11 asks for the background colour, only for `theme: auto` (decision 55); a terminal
        // that does not know it says nothing, and the device attributes still end the wait.
        return out + (askBackground ? "\u{1B}]11;?\u{1B}\\" : "") + "\u{1B}[c"
    }

    /// The bytes that erase what the probes printed and put the cursor at the top left.
    public static func cleanup(row: Int) -> String {
        RawPainter.moveTo(x: 0, y: row) + "\u{1B}[0m\u{1B}[2K" + RawPainter.moveTo(x: 0, y: 0)
    }

    /// What the answers say. `columns` holds the reported cursor columns (1-based, as the
    /// terminal sends them), one per probe in order, nil for a missing one.
    public struct Result: Hashable, Sendable, CustomStringConvertible {
        public var model: WidthModel
        /// The classes whose answer the terminal gave; the others took the widest answer.
        public var measured: Set<WidthClass>
        /// The width measured for each probe (nil: no answer).
        public var widths: [Int?]

        public var description: String {
            let parts = WidthClass.allCases.map { c in
                "\(c.rawValue)=\(model[c].rawValue)\(measured.contains(c) ? "" : " (assumed)")"
            }
            return parts.joined(separator: ", ")
        }
    }

    /// Builds the model from the reported columns. Each class takes the answer whose predicted
    /// width was measured; when both predict it (conjuncts when spacing marks add up anyway), or
    /// the width is missing or unexpected, the class takes its widest answer.
    public static func result(columns: [Int?]) -> Result {
        var model = WidthModel.widest
        var measured: Set<WidthClass> = []
        let widths = probes.indices.map { i in i < columns.count ? columns[i].map { $0 - 1 } : nil }
        for (i, (cls, cluster)) in probes.enumerated() {
            guard let measuredWidth = widths[i], let ch = cluster.first else { continue }
            var asCluster = model, byCodePoints = model
            asCluster[cls] = .cluster
            byCodePoints[cls] = .codePoints
            let a = asCluster.width(of: ch), b = byCodePoints.width(of: ch)
            if a == b {
                if a == measuredWidth { measured.insert(cls) }
                continue
            }
            if measuredWidth == a {
                model[cls] = .cluster
                measured.insert(cls)
            } else if measuredWidth == b {
                model[cls] = .codePoints
                measured.insert(cls)
            }
        }
        return Result(model: model, measured: measured, widths: widths)
    }
}

/// What the terminal answered to the start-up probe: the replies `TerminalInputFilter` picked
/// out of the input (keys typed meanwhile went on to the key decoder), gathered.
public struct TerminalReplies: Sendable {
    public private(set) var positions: [(row: Int, column: Int)] = []
    public private(set) var sawDeviceAttributes = false
    /// The background colour the terminal reported (OSC 11), each channel 0…1.
    public private(set) var background: (red: Double, green: Double, blue: Double)?

    public init() {}

    /// Notes one reply; replies nothing asked for are ignored.
    public mutating func record(_ reply: TerminalReply) {
        switch reply {
        case .cursorPosition(let row, let column): positions.append((row, column))
        case .deviceAttributes: sawDeviceAttributes = true
        case .background(let r, let g, let b): background = (r, g, b)
        case .unused, .abandoned: break
        }
    }
}
