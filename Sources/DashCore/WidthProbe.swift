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
    /// row's start, then a position request; then the device-attributes request.
    public static func request(row: Int) -> String {
        var out = "\u{1B}[0m"
        for (_, cluster) in probes {
            out += RawPainter.moveTo(x: 0, y: row) + "\u{1B}[8m" + cluster + "\u{1B}[0m\u{1B}[6n"
        }
        // OSC 11 asks for the background colour (`theme: auto`); a terminal that does not know it
        // says nothing, and the device attributes still end the wait.
        return out + "\u{1B}]11;?\u{1B}\\" + "\u{1B}[c"
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

/// Picks terminal reports out of input bytes: cursor position reports (`ESC [ row ; col R`)
/// and the primary device attributes (`ESC [ ? … c`). Everything else (keys typed meanwhile)
/// is kept, in order, to be handed back to the input reader.
public struct TerminalReplies: Sendable {
    public private(set) var positions: [(row: Int, column: Int)] = []
    public private(set) var sawDeviceAttributes = false
    /// The background colour the terminal reported (OSC 11), each channel 0…1.
    public private(set) var background: (red: Double, green: Double, blue: Double)?
    public private(set) var other: [UInt8] = []
    private var pending: [UInt8] = []

    public init() {}

    /// Adds bytes as they arrive; a report split across reads is completed by the next.
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        for b in bytes {
            if pending.isEmpty {
                if b == 0x1B { pending = [b] } else { other.append(b) }
                continue
            }
            pending.append(b)
            switch classify(pending) {
            case .incomplete: continue
            case .position(let r, let c):
                positions.append((r, c))
                pending = []
            case .deviceAttributes:
                sawDeviceAttributes = true
                pending = []
            case .background(let r, let g, let b):
                background = (r, g, b)
                pending = []
            case .notAReport:
                // Not ours: give back the escape and look again at what followed it.
                let rest = pending.dropFirst()
                other.append(0x1B)
                pending = []
                feed(rest)
            }
        }
    }

    /// Ends the input: an unfinished sequence is not a report.
    public mutating func finish() {
        other += pending
        pending = []
    }

    /// `ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by BEL or `ESC \` (1 to 4 hex digits a channel);
    /// anything else after `ESC ]`, or longer than 64 bytes, is not ours.
    static func classifyBackground(_ s: [UInt8]) -> Parse {
        let prefix = Array("\u{1B}]11;rgb:".utf8)
        for (i, b) in s.enumerated() where i < prefix.count {
            if b != prefix[i] { return .notAReport }
        }
        guard s.count > prefix.count else { return .incomplete }
        guard s.count <= 64 else { return .notAReport }
        let body: ArraySlice<UInt8>
        if s.last == 0x07 {
            body = s[prefix.count..<(s.count - 1)]
        } else if s.count >= 2, s[s.count - 2] == 0x1B, s.last == UInt8(ascii: "\\") {
            body = s[prefix.count..<(s.count - 2)]
        } else if s.last == 0x1B || s.last.map({ $0 == UInt8(ascii: "/") || isHex($0) }) == true {
            return .incomplete
        } else {
            return .notAReport
        }
        let parts = body.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .notAReport }
        var channels: [Double] = []
        for p in parts {
            guard (1...4).contains(p.count), p.allSatisfy(isHex),
                let v = Int(String(decoding: p, as: UTF8.self), radix: 16)
            else { return .notAReport }
            channels.append(Double(v) / Double((1 << (4 * p.count)) - 1))
        }
        return .background(channels[0], channels[1], channels[2])
    }

    static func isHex(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
    }

    /// Takes the bytes that were not reports.
    public mutating func takeOther() -> [UInt8] {
        defer { other = [] }
        return other
    }

    enum Parse { case incomplete, position(Int, Int), deviceAttributes, background(Double, Double, Double), notAReport }

    func classify(_ s: [UInt8]) -> Parse {
        // s[0] is ESC.
        guard s.count >= 2 else { return .incomplete }
        if s[1] == UInt8(ascii: "]") { return Self.classifyBackground(s) }
        guard s[1] == UInt8(ascii: "[") else { return .notAReport }
        guard s.count >= 3 else { return .incomplete }
        if s[2] == UInt8(ascii: "?") {
            // ESC [ ? digits ; digits … c
            for b in s.dropFirst(3) {
                if b == UInt8(ascii: "c") { return b == s.last ? .deviceAttributes : .notAReport }
                if !(b >= 0x30 && b <= 0x39) && b != UInt8(ascii: ";") { return .notAReport }
            }
            return s.count > 40 ? .notAReport : .incomplete
        }
        var numbers: [Int] = [0]
        var digits = 0
        for b in s.dropFirst(2) {
            if b >= 0x30 && b <= 0x39 {
                numbers[numbers.count - 1] = min(numbers[numbers.count - 1] * 10 + Int(b - 0x30), 100_000)
                digits += 1
            } else if b == UInt8(ascii: ";") && numbers.count == 1 && digits > 0 {
                numbers.append(0)
                digits = 0
            } else if b == UInt8(ascii: "R") && numbers.count == 2 && digits > 0 && b == s.last {
                return .position(numbers[0], numbers[1])
            } else {
                return .notAReport
            }
        }
        return s.count > 16 ? .notAReport : .incomplete
    }
}
