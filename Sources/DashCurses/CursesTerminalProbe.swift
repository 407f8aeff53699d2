import CNcursesw
import DashCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The start-up probe (widths, the background) and the terminal's replies to it, early or late.
extension CursesTerminal {
    /// Sets `WidthModel`'s process default before the first frame: from `SWIFTDASH_WIDTHS`
    /// (`clusters`, `codepoints`, `tmux`, `widest`) if set, else by asking the terminal, with a
    /// short timeout (`SWIFTDASH_WIDTH_PROBE_MS`, 15 by default); where it cannot ask, the
    /// widest answers.
    func chooseWidthModel(environment: [String: String], askBackground: Bool) {
        let choice = environment["SWIFTDASH_WIDTHS"] ?? "probe"
        if let named = WidthModel(name: choice) {
            WidthModel.setProcessDefault(named)
            widthReport = "\(named) (SWIFTDASH_WIDTHS=\(choice))"
            return
        }
        WidthModel.setProcessDefault(.widest)
        guard size.width >= WidthProbe.columnsNeeded, size.height >= 1 else {
            widthReport = "\(WidthModel.widest) (screen too small to ask)"
            return
        }
        let timeout = min(5000, max(0, Int(environment["SWIFTDASH_WIDTH_PROBE_MS"] ?? "") ?? 15))
        let start = ContinuousClock.now
        // The first refresh enters the alternate screen and clears it; the probes print there,
        // concealed, on the second row (a report for row 1 could read as a function key).
        wmove(sd_stdscr(), 0, 0)
        wrefresh(sd_stdscr())
        let row = size.height >= 2 ? 1 : 0
        input.expectPositions(WidthProbe.probes.count)
        writeRaw(WidthProbe.request(row: row, askBackground: askBackground))
        var replies = TerminalReplies()
        let deadline = start + .milliseconds(timeout)
        while !replies.sawDeviceAttributes {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            // Keys typed meanwhile go on to ncurses; the replies are gathered here.
            input.wait(milliseconds: Int32(max(1, (left / .milliseconds(1)).rounded(.up))))
            for reply in input.takeReplies() { replies.record(reply) }
        }
        writeRaw(WidthProbe.cleanup(row: row))
        widthProbeMilliseconds = (ContinuousClock.now - start) / .milliseconds(1)
        applyProbe(replies)
        if !replies.sawDeviceAttributes {
            lateReplies = replies
            lateDeadline = ContinuousClock.now + .seconds(3)
            widthReport += "; no complete answer within \(timeout) ms, still listening"
        }
    }

    /// Builds the model from the reports so far; true when it changed.
    @discardableResult
    func applyProbe(_ replies: TerminalReplies) -> Bool {
        let columns: [Int?] = WidthProbe.probes.indices.map { i in
            i < replies.positions.count ? replies.positions[i].column : nil
        }
        if let bg = replies.background { backgroundIsDark = Theme.isDark(red: bg.red, green: bg.green, blue: bg.blue) }
        let result = WidthProbe.result(columns: columns)
        let changed = result.model != WidthModel.current
        WidthModel.setProcessDefault(result.model)
        widthReport = "\(result) (asked the terminal in \(Self.milliseconds(widthProbeMilliseconds)))"
        return changed
    }

    static func milliseconds(_ ms: Double) -> String {
        let tenths = Int((ms * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }

    /// Reads what the terminal sent (keys on to ncurses) and looks at the replies: late probe
    /// answers are gathered, and once they are complete the model is rebuilt and a resize event
    /// returned so the screen is laid out and drawn again. Any other reply is only noted.
    func takeReplies() -> InputEvent? {
        input.pump()
        let arrived = input.takeReplies()
        guard var replies = lateReplies else {
            for reply in arrived { note(reply) }
            return nil
        }
        for reply in arrived {
            replies.record(reply)
            note(reply)
        }
        let expired = lateDeadline.map { ContinuousClock.now > $0 } ?? true
        guard replies.sawDeviceAttributes || expired else {
            lateReplies = replies
            return nil
        }
        lateReplies = nil
        lateDeadline = nil
        let changed = applyProbe(replies)
        widthReport += replies.sawDeviceAttributes ? "; the answers came late" : "; no answer"
        return changed ? .resize(size) : nil
    }

    /// Tells `onReply` of a reply that arrived with nobody waiting for it, or was dropped.
    func note(_ reply: TerminalReply) {
        switch reply {
        case .unused(let what): onReply?("terminal: ignored a reply (\(what))")
        case .abandoned(let what, let bytes):
            onReply?("terminal: dropped a reply that did not end (\(what), \(bytes) bytes)")
        case .cursorPosition, .deviceAttributes, .background:
            if lateReplies == nil { onReply?("terminal: ignored a late reply to the start-up probe") }
        }
    }
}
