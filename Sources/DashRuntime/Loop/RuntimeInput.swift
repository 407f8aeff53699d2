import DashCore
import DashApp

/// Keys as they arrive: everything waiting is read, looked through for a quit, and handled in
/// slices (decision 55).
extension Runtime {
    /// The most input events handled in one turn (one frame for all of them).
    static let maxEventsPerTurn = 8192
    /// The most input events read ahead of those handled: a quit behind them is seen.
    static let maxEventsAhead = 65_536
    /// Events handled between two looks at what waits behind them.
    static let sliceOfKeys = 256

    /// Everything already waiting (a paste, a held key, a 10,000-key flood) is handled in this
    /// turn, with one frame for all of it, so keys never pile up behind frames. It is handled
    /// in slices, and before each the events waiting (with any that arrived meanwhile) are looked
    /// through: a Ctrl-C among them quits at once, whatever is queued before it, and so does a
    /// `q` behind keys that only move (`QuitLookahead`, decision 55).
    func handlePending() {
        var pending = heldInput
        heldInput = []
        func readMore() {
            let before = pending.count
            while !state.quitting, pending.count < Self.maxEventsAhead, let e = terminal.readEvent(timeout: 0) {
                if case .wake = e { break }
                pending.append(e)
                // An interrupt ends the batch: nothing queued after it is read.
                if e == .key(.ctrl("c")) { break }
            }
            stats.eventsCoalesced += pending.count - before
        }
        readMore()
        var handled = 0
        var look: QuitLookahead?
        // Events at the front of `pending` already seen to be moves under `look`.
        var moves = 0
        while !pending.isEmpty, !state.quitting {
            // An interrupt is always the last event read (`readMore` stops there).
            if pending.last == .key(.ctrl("c")) {
                handle(.key(.ctrl("c")))
                if state.quitting { return }
            }
            let stack = App.layers(state)
            if look?.stack != stack {
                look = QuitLookahead(state)
                moves = 0
            }
            let keys = pending[moves...].lazy.prefix { if case .key = $0 { true } else { false } }.compactMap {
                e -> Key? in if case .key(let k) = e { k } else { nil }
            }
            if let (quit, more) = look?.scan(keys) {
                moves += more
                if let quit {
                    handle(.key(quit))
                    if state.quitting { return }
                }
            }
            guard handled < Self.maxEventsPerTurn else {
                heldInput = pending
                return
            }
            let n = min(Self.sliceOfKeys, pending.count)
            for e in pending[..<n] {
                if state.quitting { return }
                handle(e)
            }
            handled += n
            pending.removeFirst(n)
            moves = max(0, moves - n)
            readMore()
        }
    }
}
