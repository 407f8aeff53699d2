import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

/// A tile asking for a look: it shows something new or relevant since the user last focused it.
public struct AttentionMark: Sendable, Hashable {
    /// What the mark is for (a content id or a relevance episode): the bell rings once per key.
    public var key: String
    /// In words, for the status bar and `swiftdash timeline`.
    public var reason: String
    public var instanceID: String
}

/// Smart Stacks' part of `AppState`: the memory kept in the cache (`usage`), each stack's last
/// decision (for the explanation), the attention marks, and when Smart Rotate must look again.
public struct SmartStacksState: Sendable {
    /// Use, seen content, acknowledgements, each stack's shown item (saved with `Effect.saveUsage`).
    public var usage = UsageHistory()
    /// The last Smart Rotate decision of each stack, by tile id.
    public internal(set) var decisions: [String: SmartRotateDecision] = [:]
    /// Marked tiles, by tile id; a mark stays until the tile is focused.
    public internal(set) var attention: [String: AttentionMark] = [:]
    /// The earliest date a stack's decision can change without an event (see `AppState.nextDeadline`).
    public internal(set) var nextDecision: Date?
    /// `usage` changed since it was last handed out to be saved.
    var dirty = false
    /// How many times Smart Stacks went over every tile (tests count it: once per batch).
    var passes = 0
    /// What the last pass saw, and until when its answer holds: a tick that changes nothing
    /// before then needs no pass (SmartStacksQuiet.swift).
    var quiet: SmartStacksQuiet?
    /// The earliest end of a relevance window an attention mark depends on (the last pass's).
    var nextAttentionChange: Date?
    /// Instances whose timeline or shown entry changed since the last pass (a load finished, an
    /// entry's date came): when nothing else changed, the next pass looks at their tiles only.
    var touched: Set<String> = []
    /// How many tiles the passes looked at, whole or in part (tests count it).
    var tilesLooked = 0
    /// Each stack's next decision and each tile's next attention change, with their earliest.
    var decisionDates = TileDeadlines()
    var attentionDates = TileDeadlines()

    public init() {}
}

public enum SmartStacks {
    /// An entry this relevant (or more) marks its tile (a relevance that holds until seen is
    /// "new content" and marks through `contentID` instead).
    public static let attentionThreshold = 0.5
    /// How long the `w` explanation stays in the status bar.
    public static let explanationLifetime: TimeInterval = 12
}

extension AppState {
    /// Takes Smart Stacks' memory from the cache (call before the first message): use history,
    /// seen content, acknowledgements, and the item each stack showed.
    public mutating func restoreUsage(_ history: UsageHistory) {
        smart.usage = history.pruned(for: home)
        for tile in home.tiles where tile.items.count > 1 {
            if let m = smart.usage.stacks[tile.id], let i = tile.items.firstIndex(where: { $0.id == m.shown }) {
                stackIndex[tile.id] = i
            }
        }
    }

    /// Why Smart Rotate may not move a stack now.
    func rotationBlock(_ tileID: String) -> SmartRotateBlock? {
        if pane.kind != .none { return .pane }
        if focusedTile == tileID && !layout.isTooSmall { return .focused }
        return nil
    }

    /// What Smart Stacks remembers of an instance (a fresh record for a new one or another kind).
    func usage(of inst: WidgetInstance) -> InstanceUsage {
        if let u = smart.usage.instances[inst.id], u.kind == inst.kind { return u }
        return InstanceUsage(kind: inst.kind)
    }

    /// The stack's memory, if it is about the item shown now.
    func stackMemory(_ tile: TileInstance) -> StackMemory? {
        guard let shown = shownInstance(tile.id), let m = smart.usage.stacks[tile.id], m.shown == shown.id else {
            return nil
        }
        return m
    }

    /// Smart Rotate's input for a stack, now.
    public func rotationInput(ofTile tile: TileInstance) -> SmartRotateInput {
        let current = min(stackIndex[tile.id] ?? 0, max(0, tile.items.count - 1))
        let memory = stackMemory(tile)
        let items = tile.items.map { inst -> SmartRotateItem in
            let u = usage(of: inst)
            let entries = scheduler.timelineEntries(inst.id).map { e in
                RotationEntry(date: e.date, relevance: e.relevance, seen: e.contentID.map(u.seen.contains) ?? false)
            }
            return SmartRotateItem(id: inst.id, entries: entries, use: u.use)
        }
        return SmartRotateInput(
            items: items, current: current, lastChange: memory?.since,
            pinnedUntil: memory?.pinnedUntil, blocked: rotationBlock(tile.id),
            enabled: tile.rotation.smartRotate, now: now, settings: tile.rotation.settings)
    }
}

extension App {
    /// After every message: Smart Rotate decides each stack, the shown items' content counts as
    /// seen, attention marks tiles. Returns the saves, bells and redraws that follow.
    ///
    /// Each tile's answer depends on its own timelines and memory, the time, and what the user
    /// looks at (focus, pane, page, the stacks' shown items, the tiles: `SmartStacksQuiet`). With
    /// `onlyTouched` (after a tick or load results) and none of those changed, and no decision or
    /// mark due, only the tiles whose timelines changed are looked at (issue 25: a pass over
    /// 10,000 tiles after every slice of results made the first loads quadratic); their earliest
    /// dates are kept per tile (`TileDeadlines`). The answer is the whole pass's.
    static func smartStacks(_ s: inout AppState, onlyTouched: Bool = false) -> [Effect] {
        let tiles: [TileInstance]
        if onlyTouched && SmartStacksQuiet.holds(s) {
            guard !s.smart.touched.isEmpty else { return [] }
            var at: [Int] = []
            at.reserveCapacity(s.smart.touched.count)
            for id in s.smart.touched {
                if let i = s.home.tileIndex(ofInstance: id) { at.append(i) }
            }
            s.smart.touched.removeAll(keepingCapacity: true)
            tiles = Set(at).sorted().map { s.home.tiles[$0] }
        } else {
            s.smart.passes += 1
            s.smart.touched.removeAll(keepingCapacity: true)
            s.smart.decisionDates.removeAll()
            s.smart.attentionDates.removeAll()
            tiles = s.home.tiles
        }
        s.smart.tilesLooked += tiles.count
        var redraw = false
        for tile in tiles where tile.items.count > 1 {
            markSeen(&s, tile)
            let d = SmartRotate.decide(s.rotationInput(ofTile: tile))
            if case .switched = d.why, let inst = tile.items.indices.contains(d.show) ? tile.items[d.show] : nil {
                s.stackIndex[tile.id] = d.show
                s.smart.usage.stacks[tile.id] = StackMemory(
                    shown: inst.id, since: s.now,
                    because: SmartStacks.merit(d.scores[d.show]))
                s.smart.dirty = true
                redraw = true
                markSeen(&s, tile)
            }
            s.smart.decisions[tile.id] = d
            s.smart.decisionDates.set(tile.id, d.nextDecision)
        }
        s.smart.nextDecision = s.smart.decisionDates.earliest()
        var fx = attention(&s, tiles, redraw: &redraw)
        s.smart.nextAttentionChange = s.smart.attentionDates.earliest()
        s.smart.quiet = SmartStacksQuiet(s)
        if s.smart.dirty {
            s.smart.dirty = false
            fx.append(.saveUsage(s.smart.usage))
        }
        if redraw { fx.append(.redraw(full: false)) }
        return fx
    }

    /// The content a stack shows on the visible page counts as seen (a relevance that holds
    /// until seen, such as a new top story, ends).
    static func markSeen(_ s: inout AppState, _ tile: TileInstance) {
        guard !s.layout.isTooSmall, s.layout.tile(tile.id)?.page == s.page, let inst = s.shownInstance(tile.id),
            let content = s.scheduler.shownEntry(inst.id, at: s.now)?.contentID
        else { return }
        var u = s.usage(of: inst)
        guard !u.seen.contains(content) else { return }
        u.markSeen(content)
        s.smart.usage.instances[inst.id] = u
        s.smart.dirty = true
    }

    /// The user rotated a stack by hand (`<` `>`, the wheel): the item rotated to counts as used,
    /// and Smart Rotate leaves the stack alone for its pause.
    static func noteManualRotation(_ s: inout AppState, tile tileID: String) {
        guard let tile = s.tile(tileID), tile.items.count > 1, let inst = s.shownInstance(tileID) else { return }
        var u = s.usage(of: inst)
        u.use.add(at: s.now, tile.rotation.settings)
        s.smart.usage.instances[inst.id] = u
        s.smart.usage.stacks[tileID] = StackMemory(
            shown: inst.id, since: s.now,
            pinnedUntil: s.now.addingTimeInterval(tile.rotation.pause))
        s.smart.dirty = true
    }

    /// The user opened (tapped) a stack's item: it counts as used.
    static func noteOpen(_ s: inout AppState, tile tileID: String) {
        guard let tile = s.tile(tileID), tile.items.count > 1, let inst = s.shownInstance(tileID) else { return }
        var u = s.usage(of: inst)
        u.use.add(at: s.now, tile.rotation.settings)
        s.smart.usage.instances[inst.id] = u
        s.smart.dirty = true
    }

    /// Marks tiles that show something new or relevant since the user last focused them, clears
    /// the mark of the focused one, and rings the bell for `attention: bell` once per mark.
    static func attention(_ s: inout AppState, _ tiles: [TileInstance], redraw: inout Bool) -> [Effect] {
        var fx: [Effect] = []
        for tile in tiles {
            s.smart.attentionDates.set(tile.id, nil)
            guard tile.attention != .none else {
                if s.smart.attention.removeValue(forKey: tile.id) != nil { redraw = true }
                continue
            }
            guard let inst = s.shownInstance(tile.id), let entry = s.scheduler.shownEntry(inst.id, at: s.now) else {
                continue
            }
            if tile.items.count > 1 { baselineHiddenItems(&s, tile, shown: inst.id) }
            let before = s.usage(of: inst)
            var u = before
            let content = entry.contentID
            // A relevance episode: from the first relevant entry to the first one that is not.
            var reason: String? = nil
            if let r = attentionRelevance(entry, at: s.now) {
                if let end = r.duration.map({ entry.date.addingTimeInterval($0) }) {
                    s.smart.attentionDates.set(tile.id, end)
                }
                if u.relevantSince == nil { u.relevantSince = "r:" + String(entry.date.timeIntervalSince1970) }
                reason = r.reason ?? "relevant now"
            } else {
                u.relevantSince = nil
            }
            let looking = s.focusedTile == tile.id && s.pane.kind == .none && !s.layout.isTooSmall
            if looking {
                u.started = true
                if let c = content { u.acknowledged = c }
                if let k = u.relevantSince { u.acknowledgedRelevant = k }
                if s.smart.attention.removeValue(forKey: tile.id) != nil { redraw = true }
            } else {
                // The first content seen is the baseline, and so is a relevance it starts with:
                // a first run (or a tile just added) is calm until something changes.
                if u.started != true {
                    u.started = true
                    if let c = content { u.acknowledged = c }
                    if let k = u.relevantSince { u.acknowledgedRelevant = k }
                }
                if u.acknowledged == nil, let c = content { u.acknowledged = c }
                var mark: AttentionMark? = nil
                if let k = u.relevantSince, k != u.acknowledgedRelevant, let reason {
                    mark = AttentionMark(key: k, reason: reason, instanceID: inst.id)
                } else if let c = content, c != u.acknowledged {
                    mark = AttentionMark(
                        key: "c:" + c, reason: "new: " + TextSanitizer.singleLine(entry.summary),
                        instanceID: inst.id)
                }
                if let mark, s.smart.attention[tile.id]?.key != mark.key {
                    let wasMarked = s.smart.attention[tile.id] != nil
                    s.smart.attention[tile.id] = mark
                    redraw = true
                    if tile.attention == .bell, !wasMarked, u.lastBell != mark.key {
                        u.lastBell = mark.key
                        fx.append(.bell)
                    }
                }
            }
            if u != before {
                s.smart.usage.instances[inst.id] = u
                s.smart.dirty = true
            }
        }
        return fx
    }

    /// The entry's relevance when it is enough for attention now: past the threshold, not only
    /// until seen, and within its duration.
    static func attentionRelevance(_ e: AnyEntry, at now: Date) -> Relevance? {
        guard let r = e.relevance, !r.untilSeen, r.score.isFinite, r.score >= SmartStacks.attentionThreshold,
            r.duration.map({ now < e.date.addingTimeInterval($0) }) ?? true
        else { return nil }
        return r
    }

    /// A stack's items not shown take their first entry as their baseline too, as a shown one
    /// does: a first run is calm, and an item that becomes relevant later is news when Smart
    /// Rotate brings it forward (it was never shown, so its first sight must not swallow that).
    static func baselineHiddenItems(_ s: inout AppState, _ tile: TileInstance, shown: String) {
        for item in tile.items where item.id != shown {
            var u = s.usage(of: item)
            guard u.started != true, let e = s.scheduler.shownEntry(item.id, at: s.now) else { continue }
            u.started = true
            u.acknowledged = e.contentID
            if attentionRelevance(e, at: s.now) != nil {
                u.acknowledgedRelevant = "r:" + String(e.date.timeIntervalSince1970)
            }
            s.smart.usage.instances[item.id] = u
            s.smart.dirty = true
        }
    }

    /// `w`: says in the status bar why the focused stack (or the stack under the detail pane)
    /// shows its item, or what makes a single tile relevant.
    static func explain(_ s: inout AppState, tile t: String) {
        s.say(SmartStacks.sentence(s, tile: t) ?? "nothing to explain here")
        s.note?.expires = s.now.addingTimeInterval(SmartStacks.explanationLifetime)
    }
}

extension SmartStacks {
    /// "0.61"
    static func number(_ v: Double) -> String { FixedFormat.decimal(v, places: 2) }

    /// "14:15" in the user's zone.
    static func clock(_ d: Date, _ s: AppState) -> String {
        LiveDateFormatter(timeZone: s.timeZone).format(d, .time(seconds: false), now: s.now).text
    }

    /// What speaks for an item: its relevance with the reason, else its use.
    static func merit(_ score: SmartRotateScore) -> String? {
        if score.relevance > 0 {
            let reason = score.reason.map(TextSanitizer.singleLine) ?? "its entry is relevant"
            return "\(reason) (relevance \(number(score.relevance)))"
        }
        if score.use > 0 { return "you use it often (use \(FixedFormat.decimal(score.use, places: 1)))" }
        return nil
    }

    /// The name of a stack item: its label, else the widget's name.
    static func name(_ inst: WidgetInstance, _ s: AppState) -> String {
        let label = inst.config.string("label")
        return label.isEmpty ? (s.bundle[inst.kind]?.displayName ?? inst.kind) : label
    }

    /// One sentence on why a stack shows its item ("shown because: BTC moved +6.10% in 24 h
    /// (relevance 0.61); stays at least until 14:15"), or what makes a single tile relevant.
    public static func sentence(_ s: AppState, tile tileID: String) -> String? {
        guard let tile = s.tile(tileID), let shown = s.shownInstance(tileID) else { return nil }
        guard tile.items.count > 1 else {
            guard let e = s.scheduler.shownEntry(shown.id, at: s.now) else { return "not a stack; no entry yet" }
            let item = SmartRotateItem(id: shown.id, entries: [RotationEntry(date: e.date, relevance: e.relevance)])
            let score = SmartRotate.score(item, at: s.now, .standard)
            return "not a stack; " + (merit(score).map { "relevant: " + $0 } ?? "its entry is not relevant now")
        }
        let d = s.smart.decisions[tileID] ?? SmartRotate.decide(s.rotationInput(ofTile: tile))
        let i = min(d.show, d.scores.count - 1)
        let score = d.scores[i]
        let remembered = s.stackMemory(tile)
        let because = "shown because: " + (merit(score) ?? remembered?.because ?? "no other item is more relevant")
        let next = d.nextDecision.map { "; next check at " + clock($0, s) } ?? ""
        switch d.why {
        case .off:
            return "Smart Rotate is off for this stack (smartRotate: false); < > rotate it"
        case .single:
            return because
        case .blocked(.focused):
            return because + "; Smart Rotate waits while the stack is focused"
        case .blocked(.pane):
            return because + "; Smart Rotate waits while a pane is open"
        case .pinned(let until):
            return "shown because you chose it; Smart Rotate resumes at \(clock(until, s))"
        case .dwell(let until):
            return because + "; stays at least until \(clock(until, s))"
        case .switched:
            return because + (d.nextDecision.map { "; stays at least until " + clock($0, s) } ?? "")
        case .best:
            return because + next
        case .withinMargin(let b):
            let other = tile.items.indices.contains(b) ? name(tile.items[b], s) : "another item"
            return because + "; \(other) scores higher, but not by \(number(tile.rotation.settings.margin))" + next
        }
    }

    /// `swiftdash timeline`'s account of every stack: each item's relevance and use, the item
    /// shown and why, and when the next decision can happen.
    public static func report(_ s: AppState) -> String {
        var out: [String] = []
        for tile in s.home.tiles where tile.items.count > 1 {
            let r = tile.rotation
            let d = s.smart.decisions[tile.id] ?? SmartRotate.decide(s.rotationInput(ofTile: tile))
            let settings =
                r.smartRotate
                ? "Smart Rotate on, dwell \(span(r.dwell)), pause \(span(r.pause))"
                : "Smart Rotate off"
            out.append("stack \(tile.id) (\(tile.family.rawValue), \(tile.items.count) items): \(settings)")
            out.append("      item               relevance   use   score")
            for (i, inst) in tile.items.enumerated() {
                let sc = d.scores[i]
                let mark = i == d.show ? "  ▶ " : "    "
                let label = DisplayWidth.truncate("\(inst.id) \(inst.kind)", to: 18)
                let pad = String(repeating: " ", count: max(0, 19 - DisplayWidth.of(label)))
                var line =
                    mark + label + pad + "  " + number(sc.relevance) + "     "
                    + FixedFormat.decimal(sc.use, places: 1) + "   " + number(sc.combined)
                if let reason = sc.reason { line += "  " + TextSanitizer.singleLine(reason) }
                if sc.seen { line += "  (its news was seen)" }
                out.append(line)
            }
            let inst = tile.items[d.show]
            out.append("  shown: \(inst.id) \(inst.kind) — \(sentence(s, tile: tile.id) ?? "")")
            let next =
                d.nextDecision.map { "\($0.formatted(.iso8601)) (\(relative($0.timeIntervalSince(s.now))))" }
                ?? (r.smartRotate ? "on the next event (a key, a new timeline)" : "never (Smart Rotate is off)")
            out.append("  next decision: \(next)")
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    /// "15 min", "1 h", "90 s".
    static func span(_ seconds: TimeInterval) -> String {
        let t = Int(clamping: seconds.rounded())
        if t % 3600 == 0 && t > 0 { return "\(t / 3600) h" }
        if t % 60 == 0 && t > 0 { return "\(t / 60) min" }
        return "\(t) s"
    }

    /// "in 12 min", "now".
    static func relative(_ seconds: TimeInterval) -> String {
        let t = Int(clamping: seconds.rounded())
        if t <= 0 { return "now" }
        if t < 60 { return "in \(t) s" }
        if t < 3600 { return "in \(t / 60) min" }
        return "in \(t / 3600) h \(t % 3600 / 60) min"
    }
}
