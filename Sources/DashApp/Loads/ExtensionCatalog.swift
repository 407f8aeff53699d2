import Foundation
import DashWidgets
import DashScheduler
import DashHome

/// What the widgets folder (and home.yaml's `extensions:`) offers now: the extensions' widgets,
/// which described version of its executable each kind comes from, and why an executable there
/// cannot be used. The runtime describes the folder off the loop (`Effect.scanExtensions`) and
/// hands the result in as `Msg.extensionsScanned`.
public struct ExtensionCatalog: Sendable {
    /// An executable in the folder that offers no widget, and why (not executable, `describe`
    /// failed, answered garbage, timed out, a kind already taken).
    public struct Problem: Sendable, Equatable {
        /// The file's name (what the gallery lists).
        public var name: String
        public var path: String
        public var reason: String
        public init(name: String, path: String, reason: String) {
            self.name = name
            self.path = path
            self.reason = TextSanitizer.singleLine(reason)
        }
    }

    public var widgets: [Widget]
    /// Kind → the version of the executable that described it (a new number each time an
    /// executable is described again: replaced, or made executable).
    public var versions: [String: UInt64]
    public var problems: [Problem]
    /// Live Activity kind → the extension that draws it with its own views (decision 68).
    public var activities: [String: ActivityPresenter] = [:]
    /// Live Activity kind → the version of the executable that declared it.
    public var activityVersions: [String: UInt64] = [:]

    public init(
        widgets: [Widget] = [], versions: [String: UInt64] = [:], problems: [Problem] = [],
        activities: [ActivityPresenter] = [], activityVersions: [String: UInt64] = [:]
    ) {
        self.widgets = widgets
        self.versions = versions
        self.problems = problems
        for a in activities where self.activities[a.kind] == nil { self.activities[a.kind] = a }
        self.activityVersions = activityVersions
    }
}

extension App {
    /// The runtime described the widgets folder again. Widgets of an executable added, replaced
    /// or removed come, change or go in the bundle the gallery and the tiles use; their tiles
    /// start afresh (a removed one shows that its widget is unknown, as it would after a restart);
    /// a home.yaml refused for naming a kind that was missing is read again; the status line says
    /// what changed.
    static func extensionsScanned(_ s: inout AppState, _ new: ExtensionCatalog) -> [Effect] {
        let old = s.extensions
        let changed = Set(old.versions.keys).union(new.versions.keys).filter { old.versions[$0] != new.versions[$0] }
        let activitiesChanged = old.activityVersions != new.activityVersions
        guard !changed.isEmpty || old.problems != new.problems || activitiesChanged else { return [] }
        s.extensions = new
        var drawn: [Effect] = []
        if activitiesChanged {
            // Another bundle draws these kinds now, or none: what the old one drew is forgotten.
            s.activities.drawings.reset()
            drawn = askActivityViews(&s) + [.redraw(full: false)]
        }
        guard !changed.isEmpty || old.problems != new.problems else { return drawn }
        let kept = s.bundle.widgets.filter { old.versions[$0.kind] == nil }
        let keptKinds = Set(kept.map(\.kind))
        s.environment.bundle = WidgetBundle(kept + new.widgets.filter { !keptKinds.contains($0.kind) })
        for t in s.home.tiles {
            for inst in t.items where changed.contains(inst.kind) {
                s.scheduler.unregister(inst.id)
                guard let w = s.bundle[inst.kind] else { continue }
                s.scheduler.register(inst.id, widget: w, configuration: inst.config, family: t.family, at: s.now)
            }
        }
        var fx: [Effect] = []
        fx += sendToGallery(&s, .extensionsChanged(changed))
        // A home.yaml refused while a kind it names was missing may be good now.
        if let file = s.homeFile, file.problem != nil, let text = file.text {
            fx += homeFileChanged(&s, text: text)
        }
        s.relayout()
        let said = extensionNote(old: old, new: new)
        if !said.isEmpty {
            s.say(said)
            fx.append(.log("widgets folder: \(said)"))
        }
        let pumped = pump(&s)
        return drawn + fx + pumped + sendToGallery(&s, .askPreviews) + [.redraw(full: false)]
    }

    /// "new widget: Hello (a adds it) · removed: foo · ⚠ bar: not executable".
    static func extensionNote(old: ExtensionCatalog, new: ExtensionCatalog) -> String {
        let added = new.widgets.filter { old.versions[$0.kind] == nil }.map(\.displayName)
        let removed = old.widgets.filter { new.versions[$0.kind] == nil }.map(\.kind)
        let updated = new.widgets.filter { k in old.versions[k.kind].map { $0 != new.versions[k.kind] } ?? false }
            .map(\.kind)
        var parts: [String] = []
        if !added.isEmpty {
            parts.append("new widget\(added.count == 1 ? "" : "s"): \(added.joined(separator: ", ")) (a adds)")
        }
        if !removed.isEmpty { parts.append("removed: \(removed.joined(separator: ", "))") }
        if !updated.isEmpty { parts.append("updated: \(updated.joined(separator: ", "))") }
        for p in new.problems where !old.problems.contains(p) { parts.append("⚠ \(p.name): \(p.reason)") }
        return parts.joined(separator: " · ")
    }
}
