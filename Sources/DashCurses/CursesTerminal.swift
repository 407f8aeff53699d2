import CNcursesw
import DashCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wakes a terminal that is waiting for input, from any thread (provider results).
public struct TerminalWaker: Sendable {
    let fd: Int32
    public func wake() {
        var b: UInt8 = 1
        _ = write(fd, &b, 1)
    }
}

/// The real terminal, through ncursesw. The only code in swiftdash that calls ncurses.
///
/// Waiting is a `poll` on standard input and a wake pipe, with the caller's timeout: the
/// process sleeps until a key, a resize, a signal or a provider result arrives.
public final class CursesTerminal: Terminal {
    public private(set) var size: Size
    public private(set) var colorDepth: ColorDepth
    public let waker: TerminalWaker
    private let wakeRead: Int32
    /// Absolute, clock-change-aware waits (decision 26).
    public let clockWaiter: WallClockWaiter
    private var pairs: [PairKey: Int32] = [:]
    /// Each colour as ncurses numbers it at this terminal's depth: a theme has a few dozen colours,
    /// and finding the nearest palette entry for every cell of every frame cost more than drawing.
    private var cursesColors: [Color: Int32] = [:]
    private var nextPair: Int32 = 1
    private var active = false
    /// Cells written around ncurses, by row: clusters whose width ncurses would get wrong
    /// (overlays) and hyperlinked text (OSC 8; ncurses has no cell for it). ncurses believes
    /// blanks or plain text there, so a row's raw cells are written again after every update
    /// that touches the row (decision 28).
    private var rawRows: [Int: [RawCell]] = [:]
    /// What the width probe found, for the log.
    public internal(set) var widthReport = "not probed"
    /// Whether the terminal's background is dark (its OSC 11 answer to the start-up probe; nil: unsaid).
    public internal(set) var backgroundIsDark: Bool?
    /// How long the width probe took before the first frame, in milliseconds.
    public internal(set) var widthProbeMilliseconds = 0.0
    /// Answers still expected after the probe's timeout (a slow link): gathered until
    /// `lateDeadline`, then the model is rebuilt and the screen laid out again.
    var lateReplies: TerminalReplies?
    var lateDeadline: ContinuousClock.Instant?
    /// Every byte from the terminal passes through here: replies are picked out, keys go on.
    let input = TerminalInput()
    /// Hears of each reply nothing asked for any more and each one dropped unfinished (the log).
    public var onReply: ((String) -> Void)?

    struct PairKey: Hashable {
        var fg: Int32
        var bg: Int32
    }

    public struct Unusable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Checks that the terminal can show a full-screen program before anything is changed:
    /// ncurses' own `initscr` would print its error and exit the process.
    public static func check(environment: [String: String]) throws {
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty else {
            throw Unusable(description: "TERM is not set; set it to your terminal's type, e.g. TERM=xterm-256color")
        }
        let status = sd_terminal_usable(term)
        guard status != 1 else {
            throw Unusable(
                description:
                    "ncurses does not know the terminal type '\(term)'; set TERM to one it knows, e.g. xterm-256color")
        }
        guard status == 0 else {
            throw Unusable(
                description:
                    "the terminal '\(term)' cannot move its cursor, so it cannot show a full-screen program; use `swiftdash render` instead"
            )
        }
    }

    /// Sets up the terminal: UTF-8 locale, raw keys, keypad, mouse, colours, no cursor.
    /// `askBackground`: ask the terminal for its background colour (OSC 11; `theme: auto`).
    public init(environment: [String: String], askBackground: Bool = false) {
        if setlocale(LC_ALL, "") == nil || !CursesTerminal.localeIsUTF8() {
            _ = setlocale(LC_ALL, "C.UTF-8")
        }
        sd_save_termios()
        clockWaiter = WallClockWaiter(watchTimeZone: (environment["TZ"] ?? "").isEmpty)
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        wakeRead = fds[0]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        waker = TerminalWaker(fd: fds[1])
        sd_install_signal_handlers(fds[1])
        set_escdelay(25)
        sd_prefer_terminal_size()
        // ncurses reads its keys from `input`'s pipe, never from the terminal itself; it sets
        // the terminal's modes through standard output, the same terminal.
        if input.cursesInput.map({ sd_newterm($0) }) != 1 { initscr() }
        // A frame is drawn whole, whatever keys wait in the pipe.
        typeahead(-1)
        sd_forward_winch()
        cbreak()
        noecho()
        nonl()
        intrflush(sd_stdscr(), false)
        keypad(sd_stdscr(), true)
        nodelay(sd_stdscr(), true)
        // The (hidden) cursor ends every update at the top left, so raw writes after an update
        // know where ncurses believes it is and can put it back there.
        leaveok(sd_stdscr(), false)
        curs_set(0)
        sd_disable_flow_control()
        var depth = ColorDepth.none
        if has_colors() {
            start_color()
            use_default_colors()
            let colors = Int(sd_colors())
            let detected = ColorDepth.detect(environment: environment, terminalColors: colors)
            // ncurses can only show what its terminfo entry says it can.
            let capable: ColorDepth =
                colors >= 16_777_216
                ? .trueColor : colors >= 256 ? .indexed256 : colors >= 16 ? .ansi16 : colors >= 8 ? .ansi8 : .none
            depth = min(detected, capable)
        }
        colorDepth = depth
        mousemask(sd_mouse_mask(), nil)
        mouseinterval(0)
        size = Size(width: Int(sd_cols()), height: Int(sd_lines()))
        active = true
        // Bracketed paste: a paste arrives as one `.paste` key, not as typed keys.
        writeRaw("\u{1B}[?2004h")
        chooseWidthModel(environment: environment, askBackground: askBackground)
    }

    static func localeIsUTF8() -> Bool {
        guard let cs = nl_langinfo(nl_item(CODESET)) else { return false }
        return String(cString: cs).uppercased().filter { $0 != "-" } == "UTF8"
    }

    /// Puts the terminal back as it was. Safe to call twice. Keys still arriving (the rest of a
    /// flood) are read and dropped, and whatever the terminal still holds is flushed: none of
    /// it is typed into the shell afterwards (issue 38.7).
    public func shutdown() {
        guard active else { return }
        active = false
        writeRaw("\u{1B}[?2004l")
        mousemask(0, nil)
        input.drainAtExit()
        curs_set(1)
        endwin()
        _ = tcflush(STDIN_FILENO, TCIFLUSH)
    }

    deinit { shutdown() }

    /// A signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) asked the program to quit.
    public var quitSignal: Int32 { sd_signal_received() }

    // MARK: drawing

    private func curses(_ c: Color) -> Int32 {
        if let n = cursesColors[c] { return n }
        let n: Int32
        switch c.degraded(to: colorDepth) {
        case .default: n = -1
        case .ansi(let a): n = Int32(a)
        case .indexed(let i): n = Int32(i)
        case .rgb(let r, let g, let b): n = Int32(r) << 16 | Int32(g) << 8 | Int32(b)
        }
        cursesColors[c] = n
        return n
    }

    private func pair(_ style: Style) -> Int32 {
        guard colorDepth != .none else { return 0 }
        // Cells come in runs of one style: the last answer is usually the next one.
        if let last = lastPair, last.fg == style.foreground, last.bg == style.background { return last.pair }
        let p = newPair(style)
        lastPair = (style.foreground, style.background, p)
        return p
    }

    /// The last colours asked of `pair` and its answer.
    private var lastPair: (fg: Color, bg: Color, pair: Int32)?

    private func newPair(_ style: Style) -> Int32 {
        let key = PairKey(fg: curses(style.foreground), bg: curses(style.background))
        if key.fg == -1 && key.bg == -1 { return 0 }
        if let p = pairs[key] { return p }
        guard nextPair < sd_color_pairs() else { return 0 }
        let p = nextPair
        nextPair += 1
        init_extended_pair(p, key.fg, key.bg)
        pairs[key] = p
        return p
    }

    private func attributes(_ style: Style) -> attr_t {
        var a = sd_a_normal()
        let t = style.attributes
        if t.contains(.bold) { a |= sd_a_bold() }
        if t.contains(.dim) { a |= sd_a_dim() }
        if t.contains(.italic) { a |= sd_a_italic() }
        if t.contains(.underline) { a |= sd_a_underline() }
        if t.contains(.reverse) { a |= sd_a_reverse() }
        return a
    }

    /// Puts one cell into ncurses' screen.
    private func put(_ text: String, _ style: Style, x: Int, y: Int, placeholder: Bool = false) {
        var scalars = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        if scalars.count > 4 { scalars = [scalars[0]] }  // cchar_t holds 5 with the terminator
        scalars.append(0)
        var cc = cchar_t()
        var p = pair(style)
        _ = scalars.withUnsafeBufferPointer { buf in
            setcchar(
                &cc, buf.baseAddress, attributes(style) | (placeholder ? sd_a_invis() : 0),
                Int16(truncatingIfNeeded: p), &p)
        }
        mvwadd_wch(sd_stdscr(), Int32(y), Int32(x), &cc)
    }

    public func draw(_ runs: [CellRun], full: Bool) {
        if full { clearok(sd_stdscr(), true) }
        let model = WidthModel.current
        var touched = Set<Int>()
        for run in runs {
            touched.insert(run.y)
            let end = run.x + run.cells.count
            if let row = rawRows[run.y] {
                let kept = row.filter { $0.x >= end || $0.x + $0.width <= run.x }
                rawRows[run.y] = kept.isEmpty ? nil : kept
            }
            var x = run.x
            for cell in run.cells {
                defer { x += 1 }
                if cell.isContinuation { continue }
                switch model.emission(for: cell.text) {
                case .native(let text):
                    put(text, cell.style, x: x, y: run.y)
                    if cell.style.hyperlink != nil {
                        rawRows[run.y, default: []].append(
                            RawCell(x: x, width: max(1, cell.width), text: text, style: cell.style, isOverlay: false))
                    }
                case .overlay(let text, let width):
                    // ncurses gets blanks it measures right, marked so that it rewrites them when
                    // the cluster goes away; the cluster is written over them below.
                    for k in 0..<width { put(" ", cell.style, x: x + k, y: run.y, placeholder: true) }
                    rawRows[run.y, default: []].append(
                        RawCell(x: x, width: width, text: text, style: cell.style, isOverlay: true))
                }
            }
        }
        let rows = (full ? Set(rawRows.keys) : touched).filter { rawRows[$0] != nil }.sorted()
        // The frame reaches the terminal in two writes, ncurses' and the raw cells over it: a
        // terminal that knows synchronized output (mode 2026) shows them as one.
        if !rows.isEmpty { writeRaw("\u{1B}[?2026h") }
        wmove(sd_stdscr(), 0, 0)
        wnoutrefresh(sd_stdscr())
        doupdate()
        guard !rows.isEmpty else { return }
        var out = ""
        for y in rows { out += RawPainter.paint(row: y, cells: rawRows[y] ?? [], depth: colorDepth) }
        // Back where ncurses left the cursor (leaveok is off: the top left).
        out += RawPainter.moveTo(x: 0, y: 0) + "\u{1B}[?2026l"
        writeRaw(out)
    }

    /// The terminal's bell (or its visible flash when the terminal has no audible one).
    public func bell() { _ = beep() }

    func writeRaw(_ s: String) {
        var bytes = Array(s.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(STDOUT_FILENO, $0.baseAddress! + off, $0.count - off) }
            if n <= 0 { break }
            off += n
        }
    }

    // MARK: input

    /// Waits for input until an absolute wall-clock deadline (see `WallClockWaiter`).
    public func readEvent(deadline: Double?, timeout: Double?) -> InputEvent? {
        if let e = takeReplies() { return e }
        if let e = poll() { return e }
        // A held ESC or an unfinished reply is decided at its deadline, without a key to wake us.
        var until = deadline
        if let s = input.secondsToDeadline {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let due = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + s
            until = min(until ?? due, due)
        }
        let woke = clockWaiter.wait(input: STDIN_FILENO, wake: wakeRead, until: until)
        if woke.contains(.wake) {
            var buf = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &buf, buf.count) > 0 {}
            if quitSignal != 0 { return .key(.ctrl("c")) }
        }
        if let e = takeReplies() { return e }
        if let e = poll() { return e }
        if woke.contains(.clockChanged) { return .clockChanged }
        if woke.contains(.timeZoneChanged) { return .timeZoneChanged }
        // A signal (SIGWINCH) or a wake-up: ncurses reports KEY_RESIZE from poll() above.
        return woke.isEmpty || woke.contains(.wake) ? .wake : nil
    }

    public func readEvent(timeout: Double?) -> InputEvent? {
        // Keys ncurses already has come first (a flood is read one event at a time).
        if lateReplies == nil, !input.hasUnsent, let e = poll() { return e }
        if let e = takeReplies() { return e }
        if let e = poll() { return e }
        var wait = timeout
        if let s = input.secondsToDeadline { wait = min(wait ?? s, s) }
        let ms: Int32 = wait.map { Int32(max(0, min(Double(Int32.max - 1), ($0 * 1000).rounded(.up)))) } ?? -1
        let r = sd_wait(wakeRead, ms)
        if r & 2 != 0 {
            var buf = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &buf, buf.count) > 0 {}
            if quitSignal != 0 { return .key(.ctrl("c")) }
        }
        if let e = takeReplies() { return e }
        // After a SIGWINCH, ncurses reports KEY_RESIZE from here.
        return poll() ?? (r & 6 != 0 ? .wake : nil)
    }

    /// The next character ncurses has (with `wait`, up to 100 ms more for a paste's body).
    /// Function keys inside a paste are skipped.
    private func nextCharacter(wait: Bool) -> Character? {
        var ch: wint_t = 0
        for _ in 0..<64 {
            var r = wget_wch(sd_stdscr(), &ch)
            if r == ERR && wait && input.wait(milliseconds: 100) { r = wget_wch(sd_stdscr(), &ch) }
            if r == ERR { return nil }
            if r == sd_key_code_yes() {
                // A resize while an Escape sequence is read (Esc, then the window changes) is
                // kept for the next poll; dropping it left the old layout on the new screen.
                if Int32(bitPattern: ch) == sd_key_resize() { resizePending = true }
                continue
            }
            guard let s = Unicode.Scalar(UInt32(ch)) else { return nil }
            return Character(s)
        }
        return nil
    }

    /// ncurses reported KEY_RESIZE: the new size. The whole screen is drawn again; what was
    /// written around ncurses is gone with it.
    private func resized() -> InputEvent {
        size = Size(width: Int(sd_cols()), height: Int(sd_lines()))
        rawRows = [:]
        return .resize(size)
    }

    /// A KEY_RESIZE that `nextCharacter` met inside an Escape sequence.
    private var resizePending = false

    /// One pending key or event from ncurses, without waiting.
    private func poll() -> InputEvent? {
        // A quit signal (Ctrl-C) comes before every key still queued (issue 37.7).
        if quitSignal != 0 { return .key(.ctrl("c")) }
        if resizePending {
            resizePending = false
            return resized()
        }
        var ch: wint_t = 0
        let r = wget_wch(sd_stdscr(), &ch)
        if r == ERR { return nil }
        let code = Int32(bitPattern: ch)
        if r == sd_key_code_yes() {
            switch code {
            case sd_key_resize():
                return resized()
            case sd_key_mouse():
                var ev = MEVENT()
                guard getmouse(&ev) == OK else { return nil }
                let p = Point(x: Int(ev.x), y: Int(ev.y))
                switch sd_mouse_kind(ev.bstate) {
                case 1: return .mouse(MouseEvent(kind: .press, point: p))
                case 2: return .mouse(MouseEvent(kind: .release, point: p))
                case 4: return .mouse(MouseEvent(kind: .wheelUp, point: p))
                case 5: return .mouse(MouseEvent(kind: .wheelDown, point: p))
                default: return nil
                }
            case sd_key_up(): return .key(.up)
            case sd_key_down(): return .key(.down)
            case sd_key_left(): return .key(.left)
            case sd_key_right(): return .key(.right)
            case sd_key_home(): return .key(.home)
            case sd_key_end(): return .key(.end)
            case sd_key_ppage(): return .key(.pageUp)
            case sd_key_npage(): return .key(.pageDown)
            case sd_key_enter(): return .key(.enter)
            case sd_key_btab(): return .key(.backTab)
            case sd_key_backspace(): return .key(.backspace)
            case sd_key_dc(): return .key(.delete)
            case sd_key_ic(): return .key(.insert)
            case sd_key_f0()...(sd_key_f0() + 63): return .key(.function(Int(code - sd_key_f0())))
            default: return nil
            }
        }
        switch code {
        case 27:
            // Alt+key and bracketed paste arrive as ESC and more (ncurses knows neither).
            return EscapeSequence.decode(next: nextCharacter).map { .key($0) }
        case 9: return .key(.tab)
        case 10, 13: return .key(.enter)
        case 127, 8: return .key(.backspace)
        case 1...26: return .key(.ctrl(Character(Unicode.Scalar(UInt8(code + 96)))))
        default:
            guard let s = Unicode.Scalar(UInt32(bitPattern: code)) else { return nil }
            return .key(.char(Character(s)))
        }
    }
}
