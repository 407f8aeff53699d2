import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

/// An action to run: what the widget's `perform` is called with.
public struct ActionJob: Sendable {
    /// Identifies this run; a result with another id (it timed out) is ignored.
    public var id: UInt64
    public var instanceID: String
    public var widget: Widget
    public var configuration: WidgetConfig
    public var action: ActionPayload
    /// The control's title, for the status bar and the log.
    public var title: String
    public var context: TimelineContext
    public var timeout: TimeInterval { widget.actionTimeout }
}

/// One action of an instance, from the key press to the reload that shows its effect.
public struct QueuedAction: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Waits for the actions before it on the same instance.
        case queued
        /// `perform` runs; it counts as failed at `deadline`.
        case running(deadline: Date)
        /// Done; the tile keeps its optimistic look until the reload it asked for has answered.
        case settling
    }

    public var id: UInt64
    public var instanceID: String
    public var action: ActionPayload
    public var title: String
    /// Runs an inverse from the undo history (not recorded again).
    public var isUndo: Bool
    public var phase: Phase
    /// The widget's action timeout, once it runs.
    public var timeout: TimeInterval = 0

    public var isRunning: Bool { if case .running = phase { return true } else { return false } }
}

/// The actions of interactive widgets: per instance a queue run one at a time, in order, the
/// undo history, and the files watched for widgets that read one.
public struct ActionState: Sendable {
    /// Per instance, oldest first; the first that is not settling runs.
    public var queues: [String: [QueuedAction]] = [:]
    public var nextID: UInt64 = 1
    public var history = ActionHistory()
    /// Watched files and the instances that read them.
    public var watched: [String: [String]] = [:]
    /// The home screen the watched files were worked out for.
    var watchedFor: HomeConfig?

    public init() {}

    /// Actions of an instance that are not finished (queued, running or settling).
    public func pending(_ instanceID: String) -> [QueuedAction] { queues[instanceID] ?? [] }

    /// When the first running action times out.
    public var nextDeadline: Date? {
        queues.values.joined().compactMap { a -> Date? in
            if case .running(let d) = a.phase { return d }
            return nil
        }.min()
    }
}

// MARK: - What tiles show while actions are on their way

extension AppState {
    /// `view` as it looks with the instance's actions on their way (optimistic).
    public func optimistic(_ view: TileView, instance id: String) -> TileView {
        let pending = actions.pending(id)
        guard !pending.isEmpty else { return view }
        return view.applyingPending(Set(pending.map(\.action)), anyPending: true)
    }

    /// The view a tile shows now, actions on their way applied.
    func displayedView(ofTile tileID: String) -> TileView? {
        guard let view = currentView(ofTile: tileID), let inst = shownInstance(tileID) else { return nil }
        return optimistic(view, instance: inst.id)
    }

    /// Links and controls of a tile in reading order (what Tab walks).
    public func targets(ofTile tileID: String) -> [TapTarget] { displayedView(ofTile: tileID)?.targets ?? [] }

    /// The link or control Tab highlighted in the focused tile.
    public var highlightedTarget: TapTarget? {
        guard let f = focusedTile, let i = linkIndex else { return nil }
        let t = targets(ofTile: f)
        return i < t.count ? t[i] : nil
    }

    /// The control Tab highlighted in the focused tile.
    public var highlightedControl: TileControl? {
        if case .control(let c)? = highlightedTarget { return c }
        return nil
    }
}

extension TimelineContext {
    /// The context of one instance's load or action: its id and where it may keep state
    /// (`$XDG_STATE_HOME/swiftdash/widget-state`, when the environment names a home or a state folder).
    public func forInstance(_ id: String, environment: AppEnvironment) -> TimelineContext {
        var c = self
        c.instanceID = id
        if let dir = environment.widgetStateDirectory { c.stateDirectory = dir }
        return c
    }
}

// MARK: - Running actions

public enum Actions {
    /// The message a failed action is shown with: one clean line, not too long.
    static func message(_ error: any Error) -> String {
        let raw: String
        if let e = error as? LocalizedError, let d = e.errorDescription {
            raw = d
        } else {
            raw = String(describing: error)
        }
        return TextSanitizer.clean(raw, keepNewlines: false, maxCharacters: 160)
    }
}

extension App {
    /// A control was activated (Enter or Space on the highlighted one, or a click): its action
    /// joins the instance's queue, and the tile shows it at once.
    static func activateControl(_ s: inout AppState, tile: String, control: TileControl) -> [Effect] {
        guard let inst = s.shownInstance(tile), let widget = s.bundle[inst.kind] else { return [] }
        let title = TextSanitizer.singleLine(control.title)
        guard widget.isInteractive else {
            s.say("\(widget.displayName) has no actions")
            return []
        }
        if s.actions.pending(inst.id).contains(where: { $0.action == control.action }) {
            s.say("“\(title)” is on its way")
            return []
        }
        return enqueueAction(&s, instance: inst.id, action: control.action, title: title, isUndo: false)
    }

    /// A click on a control the last frame drew.
    static func clickControl(_ s: inout AppState, tile: String, control: TileControl) -> [Effect] {
        guard s.pane.kind == .none, !s.layout.isTooSmall, s.layout.tile(tile) != nil else { return [] }
        s.focusedTile = tile
        s.linkIndex = nil
        return activateControl(&s, tile: tile, control: control) + [.redraw(full: false)]
    }

    static func enqueueAction(
        _ s: inout AppState, instance: String, action: ActionPayload, title: String,
        isUndo: Bool
    ) -> [Effect] {
        let id = s.actions.nextID
        s.actions.nextID += 1
        s.actions.queues[instance, default: []].append(
            QueuedAction(id: id, instanceID: instance, action: action, title: title, isUndo: isUndo, phase: .queued))
        return startNextAction(&s, instance) + [.redraw(full: false)]
    }

    /// Starts the instance's next queued action unless one runs.
    static func startNextAction(_ s: inout AppState, _ instance: String) -> [Effect] {
        guard var queue = s.actions.queues[instance], !queue.contains(where: \.isRunning),
            let i = queue.firstIndex(where: { $0.phase == .queued })
        else { return [] }
        guard let inst = s.home.allInstances.first(where: { $0.id == instance }),
            let widget = s.bundle[inst.kind]
        else {
            s.actions.queues[instance] = nil
            return []
        }
        queue[i].phase = .running(deadline: s.now.addingTimeInterval(widget.actionTimeout))
        queue[i].timeout = widget.actionTimeout
        s.actions.queues[instance] = queue
        let a = queue[i]
        let context = Loads.context(
            family: s.loadFamily(ofInstance: instance), now: s.now, environment: s.environment,
            colorScheme: s.colorScheme
        ).forInstance(instance, environment: s.environment)
        let job = ActionJob(
            id: a.id, instanceID: instance, widget: widget, configuration: inst.config,
            action: a.action, title: a.title, context: context)
        return [.perform(job), .log("\(instance): \(a.isUndo ? "undo " : "")action \(a.title): \(a.action.json)")]
    }

    /// An action answered: on success the tile reloads (a manual reload, free) and the inverse
    /// goes on the undo history; on failure the tile goes back and the status bar says why.
    /// Either way the next action of the instance starts.
    static func actionPerformed(
        _ s: inout AppState, id: String, actionID: UInt64,
        result: Result<ActionPayload?, any Error>
    ) -> [Effect] {
        guard var queue = s.actions.queues[id],
            let i = queue.firstIndex(where: { $0.id == actionID && $0.isRunning })
        else {
            return [.log("\(id): late result of action \(actionID) ignored")]
        }
        let a = queue[i]
        var fx: [Effect] = [.redraw(full: false)]
        switch result {
        case .success(let inverse):
            queue[i].phase = .settling
            s.actions.queues[id] = queue
            if !a.isUndo, let inverse {
                s.actions.history.push(ActionHistory.Step(instanceID: id, title: a.title, inverse: inverse))
                s.noteUndoable(.action)
            }
            fx += widgetCenter(&s, .reloadInstance(id))
            s.say(a.isUndo ? "undone: \(a.title)" : "\(a.title): done" + (inverse == nil ? "" : " · u undoes"))
            fx.append(.log("\(id): action \(a.title) done"))
        case .failure(let error):
            queue.remove(at: i)
            s.actions.queues[id] = queue.isEmpty ? nil : queue
            let why = Actions.message(error)
            s.say("\(a.isUndo ? "undo of " : "")\(a.title) failed: \(why)")
            fx.append(.log("\(id): action \(a.title) failed: \(why)"))
        }
        return fx + startNextAction(&s, id) + settleActions(&s)
    }

    /// `u`: runs the inverse of the last action that has one.
    static func undoAction(_ s: inout AppState) -> [Effect] {
        while let step = s.actions.history.pop() {
            guard s.home.allInstances.contains(where: { $0.id == step.instanceID }) else { continue }
            return enqueueAction(&s, instance: step.instanceID, action: step.inverse, title: step.title, isUndo: true)
        }
        s.say("nothing to undo")
        return []
    }

    /// Files a timeline reads changed on disk: their instances reload, free.
    static func filesChanged(_ s: inout AppState, _ paths: [String]) -> [Effect] {
        var ids: [String] = []
        for p in paths { for id in s.actions.watched[p] ?? [] where !ids.contains(id) { ids.append(id) } }
        guard !ids.isEmpty else { return [] }
        for id in ids { s.scheduler.reload(id, reason: .widgetCenter) }
        return [.log("changed on disk: \(paths.joined(separator: ", ")); reloading \(ids.joined(separator: ", "))")]
            + pump(&s)
    }

    /// After the scheduler ran (every message that reaches `pump`): actions that ran too long
    /// fail, settled ones let go of the tile, and the watched files follow the home screen.
    static func actionPump(_ s: inout AppState) -> [Effect] {
        var fx: [Effect] = []
        for (id, queue) in s.actions.queues {
            for a in queue {
                if case .running(let deadline) = a.phase, s.now >= deadline {
                    let timedOut = LoadTimeoutError(timeout: a.timeout)
                    fx += actionPerformed(&s, id: id, actionID: a.id, result: .failure(timedOut))
                }
            }
        }
        fx += settleActions(&s)
        fx += watchFiles(&s)
        return fx
    }

    /// Drops settled actions whose reload has answered (or that have nothing to wait for).
    static func settleActions(_ s: inout AppState) -> [Effect] {
        var changed = false
        for (id, queue) in s.actions.queues where queue.contains(where: { $0.phase == .settling }) {
            guard !s.scheduler.isLoading(id) else { continue }
            let kept = queue.filter { $0.phase != .settling }
            s.actions.queues[id] = kept.isEmpty ? nil : kept
            changed = true
        }
        return changed ? [.redraw(full: false)] : []
    }

    /// The files the home screen's widgets read, watched; an effect when the set changed.
    static func watchFiles(_ s: inout AppState) -> [Effect] {
        guard s.actions.watchedFor != s.home else { return [] }
        s.actions.watchedFor = s.home
        var watched: [String: [String]] = [:]
        for tile in s.home.tiles {
            for inst in tile.items {
                guard let w = s.bundle[inst.kind] else { continue }
                let ctx = Loads.context(family: tile.family, now: s.now, environment: s.environment)
                    .forInstance(inst.id, environment: s.environment)
                for path in w.watchedFiles(for: inst.config, in: ctx) { watched[path, default: []].append(inst.id) }
            }
        }
        let changed = Set(watched.keys) != Set(s.actions.watched.keys)
        s.actions.watched = watched
        return changed ? [.watchFiles(watched.keys.sorted())] : []
    }
}
