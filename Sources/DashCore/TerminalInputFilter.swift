/// What the terminal sent that is an answer to a question, never a key: a report asked for
/// (cursor position, device attributes, background colour) or any other reply it may send.
public enum TerminalReply: Equatable, Sendable {
    /// `CSI row ; column R`, the answer to `CSI 6 n`.
    case cursorPosition(row: Int, column: Int)
    /// `CSI ? … c`, the primary device attributes (the answer to `CSI c`).
    case deviceAttributes
    /// `OSC 11 ; rgb:R/G/B` (or `rgba:R/G/B/A`), each channel 0…1.
    case background(red: Double, green: Double, blue: Double)
    /// A whole reply nothing here reads (another OSC, a DCS, a status report, an OSC 11 this
    /// parser cannot read): what it was, for the log. Its text is never kept.
    case unused(String)
    /// A reply that never ended (its deadline passed) or ran over `TerminalInputFilter.cap`:
    /// its bytes were dropped.
    case abandoned(String, bytes: Int)
}

/// Splits what the terminal sends into keys and replies. Every byte goes through it before
/// the key decoder (ncurses) sees it: a reply of any length, split across reads, 7-bit or
/// 8-bit, ended or not, never reaches the key table (issue 37.2: the `d`s of an unrecognised
/// OSC 11 answer deleted every tile).
///
/// A state machine over bytes, pure: the time is passed in (seconds on any monotonic clock),
/// so its deadlines are tested on a virtual clock.
///
/// - Strings (OSC `ESC ]`/0x9D, DCS `ESC P`/0x90, SOS `ESC X`/0x98, PM `ESC ^`/0x9E, APC
///   `ESC _`/0x9F) are always replies: no key starts that way (Alt-] and its like are given up
///   for it). They end with BEL, `ESC \` or ST (0x9C, unless it continues a UTF-8 character);
///   CAN or SUB cancel one; another ESC ends it unfinished.
/// - Control sequences (`ESC [`/0x9B) are replies when their shape says so (a private `?`,
///   `>` or `=` parameter, a final `c`, `n`, `t`, `$y`, or a cursor position report), else
///   keys (arrows, function keys, the mouse, a paste's brackets), passed on in 7-bit form.
/// - A reply longer than `cap` is read to its end and dropped; one not ended `deadline`
///   seconds after it began is dropped, and what follows is read afresh.
/// - A lone ESC is held until the next byte or `escapeDelay`: it may begin a reply.
public struct TerminalInputFilter: Sendable {
    /// The most bytes of one reply kept; a longer one is dropped whole.
    public static let cap = 4096
    /// Seconds a reply has, from its first byte, to end.
    public static let deadline = 1.0
    /// Seconds a lone ESC waits for what follows before it is the Escape key.
    public static let escapeDelay = 0.025

    /// Cursor position reports still expected: while some are, `CSI 1 ; n R` is a report (it
    /// is also Shift/Ctrl/Alt-F3); otherwise only reports of other rows are (a probe never asks
    /// on row 1).
    public var expectedPositions = 0

    enum StringKind: String { case osc = "OSC", dcs = "DCS", sos = "SOS", pm = "PM", apc = "APC" }

    enum State {
        case ground
        /// After a 7-bit ESC, at `since`.
        case escape(since: Double)
        /// `ESC O`: one more byte makes the key.
        case ss3
        /// A control sequence: parameter and intermediate bytes so far.
        case csi(body: [UInt8], since: Double, length: Int)
        /// A string's body; `escape`: the last byte was ESC (maybe the start of `ESC \`).
        case string(StringKind, body: [UInt8], since: Double, length: Int, escape: Bool)
        /// Raw bytes of an X10 mouse report (`CSI M` and three bytes) still to pass on.
        case mouse(left: Int)
    }

    var state = State.ground
    /// UTF-8 continuation bytes still expected (outside a reply: in keys; inside: in its text).
    var utf8Left = 0
    var keys: [UInt8] = []
    var replies: [TerminalReply] = []

    public init() {}

    /// What `feed` and `expire` found: the bytes that are keys, in order, and the replies.
    public struct Output: Equatable, Sendable {
        public var keys: [UInt8]
        public var replies: [TerminalReply]
    }

    /// Takes bytes read at time `now`. A reply split across reads is completed by the next.
    public mutating func feed(_ bytes: some Sequence<UInt8>, at now: Double) -> Output {
        expireState(at: now)
        for b in bytes { step(b, at: now) }
        return take()
    }

    /// What the passing of time decided: a held ESC is a key, an unfinished reply is dropped.
    public mutating func expire(at now: Double) -> Output {
        expireState(at: now)
        return take()
    }

    /// When `expire` next has something to decide (nil: nothing is pending).
    public var nextDeadline: Double? {
        switch state {
        case .escape(let since): return since + Self.escapeDelay
        case .csi(_, let since, _), .string(_, _, let since, _, _): return since + Self.deadline
        case .ground, .ss3, .mouse: return nil
        }
    }

    /// Whether a reply (or a lone ESC) is waiting for more bytes.
    public var isPending: Bool { nextDeadline != nil }

    mutating func take() -> Output {
        defer {
            keys = []
            replies = []
        }
        return Output(keys: keys, replies: replies)
    }

    mutating func expireState(at now: Double) {
        guard let due = nextDeadline, now >= due else { return }
        switch state {
        case .escape:
            keys.append(0x1B)
        case .csi(_, _, let length):
            replies.append(.abandoned("CSI", bytes: length))
        case .string(let kind, _, _, let length, _):
            replies.append(.abandoned(kind.rawValue, bytes: length))
        case .ground, .ss3, .mouse:
            break
        }
        state = .ground
        utf8Left = 0
    }

    static func stringKind(sevenBit b: UInt8) -> StringKind? {
        switch b {
        case UInt8(ascii: "]"): return .osc
        case UInt8(ascii: "P"): return .dcs
        case UInt8(ascii: "X"): return .sos
        case UInt8(ascii: "^"): return .pm
        case UInt8(ascii: "_"): return .apc
        default: return nil
        }
    }

    static func stringKind(eightBit b: UInt8) -> StringKind? {
        switch b {
        case 0x9D: return .osc
        case 0x90: return .dcs
        case 0x98: return .sos
        case 0x9E: return .pm
        case 0x9F: return .apc
        default: return nil
        }
    }

    /// How many continuation bytes a UTF-8 lead byte announces (0: not a lead byte).
    static func continuations(_ b: UInt8) -> Int {
        switch b {
        case 0xC2...0xDF: return 1
        case 0xE0...0xEF: return 2
        case 0xF0...0xF4: return 3
        default: return 0
        }
    }

    mutating func step(_ b: UInt8, at now: Double) {
        switch state {
        case .ground:
            ground(b, at: now)
        case .escape:
            state = .ground
            if b == 0x1B {
                // Escape pressed, then another sequence.
                keys.append(0x1B)
                state = .escape(since: now)
            } else if b == UInt8(ascii: "[") {
                state = .csi(body: [], since: now, length: 2)
            } else if let kind = Self.stringKind(sevenBit: b) {
                state = .string(kind, body: [], since: now, length: 2, escape: false)
            } else if b == UInt8(ascii: "O") {
                keys += [0x1B, b]
                state = .ss3
            } else if b == 0x18 || b == 0x1A {
                // CAN and SUB cancel a sequence.
            } else {
                // Alt with a key (a UTF-8 character's rest follows in the ground state).
                keys += [0x1B, b]
                utf8Left = Self.continuations(b)
            }
        case .ss3:
            keys.append(b)
            state = .ground
        case .mouse(let left):
            keys.append(b)
            state = left > 1 ? .mouse(left: left - 1) : .ground
        case .csi(var body, let since, let length):
            csi(b, body: &body, since: since, length: length + 1, at: now)
        case .string(let kind, var body, let since, let length, let escape):
            string(b, kind: kind, body: &body, since: since, length: length + 1, escape: escape, at: now)
        }
    }

    mutating func ground(_ b: UInt8, at now: Double) {
        if utf8Left > 0, (0x80...0xBF).contains(b) {
            utf8Left -= 1
            keys.append(b)
            return
        }
        utf8Left = 0
        switch b {
        case 0x1B:
            state = .escape(since: now)
        case 0x9B:
            state = .csi(body: [], since: now, length: 1)
        case 0x80...0x9F:
            if let kind = Self.stringKind(eightBit: b) {
                state = .string(kind, body: [], since: now, length: 1, escape: false)
            }
        // Any other C1 control (a stray ST) is no key in a UTF-8 terminal: dropped.
        default:
            keys.append(b)
            utf8Left = Self.continuations(b)
        }
    }

    mutating func csi(_ b: UInt8, body: inout [UInt8], since: Double, length: Int, at now: Double) {
        switch b {
        case 0x20...0x3F:
            if body.count < Self.cap { body.append(b) }
            state = .csi(body: body, since: since, length: length)
        case 0x40...0x7E:
            state = .ground
            if length > Self.cap {
                replies.append(.abandoned("CSI", bytes: length))
            } else if let reply = classify(csi: body, final: b) {
                replies.append(reply)
            } else {
                keys += [0x1B, UInt8(ascii: "[")] + body + [b]
                // An X10 mouse report: three raw bytes follow (any value).
                if b == UInt8(ascii: "M") && body.isEmpty { state = .mouse(left: 3) }
            }
        case 0x1B:
            replies.append(.abandoned("CSI", bytes: length - 1))
            state = .escape(since: now)
        case 0x18, 0x1A:
            replies.append(.abandoned("CSI", bytes: length))
            state = .ground
        default:
            // A byte no control sequence holds: not a key; dropped with what came before.
            replies.append(.abandoned("CSI", bytes: length))
            state = .ground
        }
    }

    mutating func string(
        _ b: UInt8, kind: StringKind, body: inout [UInt8], since: Double, length: Int, escape: Bool, at now: Double
    ) {
        if escape {
            if b == UInt8(ascii: "\\") {
                finish(kind, body: body, length: length)
            } else {
                // ESC ends the string unfinished and begins what follows.
                replies.append(.abandoned(kind.rawValue, bytes: length - 2))
                state = .escape(since: now)
                step(b, at: now)
            }
            return
        }
        if utf8Left > 0, (0x80...0xBF).contains(b) {
            utf8Left -= 1
        } else {
            utf8Left = 0
            switch b {
            case 0x07, 0x9C:
                finish(kind, body: body, length: length)
                return
            case 0x1B:
                state = .string(kind, body: body, since: since, length: length, escape: true)
                return
            case 0x18, 0x1A:
                replies.append(.abandoned(kind.rawValue, bytes: length))
                state = .ground
                return
            default:
                utf8Left = Self.continuations(b)
            }
        }
        if body.count < Self.cap { body.append(b) }
        state = .string(kind, body: body, since: since, length: length, escape: false)
    }

    mutating func finish(_ kind: StringKind, body: [UInt8], length: Int) {
        state = .ground
        utf8Left = 0
        if length > Self.cap {
            replies.append(.abandoned(kind.rawValue, bytes: length))
        } else if kind == .osc {
            replies.append(Self.classify(osc: body))
        } else {
            replies.append(.unused(kind.rawValue))
        }
    }

    /// A control sequence that is a reply, or nil for a key.
    mutating func classify(csi body: [UInt8], final: UInt8) -> TerminalReply? {
        let first = body.first
        let isPrivate = first == UInt8(ascii: "?") || first == UInt8(ascii: ">") || first == UInt8(ascii: "=")
        switch final {
        case UInt8(ascii: "c"):
            if first == UInt8(ascii: "?") { return .deviceAttributes }
            return .unused("device attributes")
        case UInt8(ascii: "R"):
            let numbers = body.drop { $0 == UInt8(ascii: "?") }.split(
                separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            guard numbers.count >= 2, numbers.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy(Self.isDigit) })
            else { return isPrivate ? .unused("report") : nil }
            let row = Self.number(numbers[0]), column = Self.number(numbers[1])
            if row == 1 && expectedPositions == 0 && !isPrivate { return nil }  // Shift-F3 and the like
            expectedPositions = max(0, expectedPositions - 1)
            return .cursorPosition(row: row, column: column)
        case UInt8(ascii: "n"), UInt8(ascii: "t"):
            return .unused("status report")
        case UInt8(ascii: "y") where body.last == UInt8(ascii: "$"):
            return .unused("mode report")
        default:
            // A mouse report in SGR form starts with `<`: a key. Other private ones are replies.
            return isPrivate ? .unused("report") : nil
        }
    }

    static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }

    static func number(_ digits: some Collection<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    static func isHex(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
    }

    /// `11;rgb:R/G/B` or `11;rgba:R/G/B/A` (1 to 4 hex digits a channel) is the background;
    /// any other OSC is unused.
    static func classify(osc body: [UInt8]) -> TerminalReply {
        let text = String(decoding: body, as: UTF8.self)
        let number = text.prefix { $0 != ";" }
        let name = "OSC \(number.count <= 4 && number.allSatisfy(\.isASCII) ? String(number) : "?")"
        guard number == "11" else { return .unused(name) }
        let spec = text.dropFirst(3)
        let channels: Int
        let rest: Substring
        if spec.hasPrefix("rgb:") {
            (channels, rest) = (3, spec.dropFirst(4))
        } else if spec.hasPrefix("rgba:") {
            (channels, rest) = (4, spec.dropFirst(5))
        } else {
            return .unused(name)
        }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == channels else { return .unused(name) }
        var values: [Double] = []
        for p in parts {
            let bytes = Array(p.utf8)
            guard (1...4).contains(bytes.count), bytes.allSatisfy(isHex), let v = Int(p, radix: 16) else {
                return .unused(name)
            }
            values.append(Double(v) / Double((1 << (4 * bytes.count)) - 1))
        }
        return .background(red: values[0], green: values[1], blue: values[2])
    }
}
