/// A key the user pressed, already decoded from the terminal's byte sequences.
public enum Key: Hashable, Sendable {
    case char(Character)
    case ctrl(Character)
    case enter, escape, tab, backTab, backspace, delete, insert
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)
    /// Alt (Meta) with a key: the terminal sent ESC and the key together (readline's M-b, M-f).
    case alt(Character)
    /// Text pasted with the terminal's bracketed paste, as one event.
    case paste(String)
}

public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case press, release, wheelUp, wheelDown }
    public var kind: Kind
    public var point: Point
    public init(kind: Kind, point: Point) {
        self.kind = kind
        self.point = point
    }
}

public enum InputEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(Size)
    /// Another thread asked the waiting loop to wake up (a provider result arrived).
    case wake
    /// The wall clock was set (NTP step, `date -s`, resume from suspend): deadlines moved.
    case clockChanged
    /// The system time zone changed (/etc/localtime).
    case timeZoneChanged
}

/// What the runtime needs from a terminal: its size, a way to show changed cells, and
/// a way to wait for input with a deadline. `CursesTerminal` and `HeadlessTerminal` are the two.
public protocol Terminal: AnyObject {
    var size: Size { get }
    var colorDepth: ColorDepth { get }
    /// Shows changed runs of cells (see `FrameDiff`). `full` asks for a clear first (Ctrl-L).
    func draw(_ runs: [CellRun], full: Bool)
    /// Waits at most `timeout` seconds (forever when nil) for one event.
    func readEvent(timeout: Double?) -> InputEvent?
    /// Waits for one event until the wall-clock time `deadline` (seconds since 1970; nil:
    /// forever). `timeout` is the same wait relative to now, for terminals that cannot wait
    /// for an absolute time (the default does that).
    func readEvent(deadline: Double?, timeout: Double?) -> InputEvent?
    /// Rings the terminal bell.
    func bell()
}

extension Terminal {
    public func readEvent(deadline: Double?, timeout: Double?) -> InputEvent? { readEvent(timeout: timeout) }
    public func bell() {}
}

/// An in-memory terminal for tests: it keeps what was drawn and replays queued events.
public final class HeadlessTerminal: Terminal {
    public private(set) var screen: CellBuffer
    public var colorDepth: ColorDepth
    public private(set) var drawCalls = 0
    public private(set) var cellsWritten = 0
    public var events: [InputEvent] = []
    /// Every timeout the runtime asked to wait, in order: shows that an idle loop sleeps.
    public private(set) var waits: [Double?] = []
    /// How often the bell rang.
    public private(set) var bells = 0

    public init(size: Size, colorDepth: ColorDepth = .trueColor) {
        self.screen = CellBuffer(size: size)
        self.colorDepth = colorDepth
    }

    public var size: Size { screen.size }

    public func resize(to size: Size) {
        screen = CellBuffer(size: size)
        events.append(.resize(size))
    }

    public func draw(_ runs: [CellRun], full: Bool) {
        drawCalls += 1
        if full { screen = CellBuffer(size: screen.size) }
        for run in runs {
            for (i, cell) in run.cells.enumerated() { screen[run.x + i, run.y] = cell }
            cellsWritten += run.cells.count
        }
    }

    public func bell() { bells += 1 }

    public func readEvent(timeout: Double?) -> InputEvent? {
        waits.append(timeout)
        return events.isEmpty ? nil : events.removeFirst()
    }
}
