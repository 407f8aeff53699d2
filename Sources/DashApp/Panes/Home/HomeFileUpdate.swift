import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashHome

extension App {
    /// `home.yaml` changed on disk (`text` nil: it was removed). Our own write coming back is
    /// ignored (same text). A good file replaces the home screen, keeping focus and every
    /// unchanged widget's timeline; a broken one keeps the last good home and shows its
    /// `file:line: message` in the status bar until it is fixed (writes are refused meanwhile).
    /// `ids`: what every swiftdash process calls the file's widgets (`HomeFile.changeMessage`); without
    /// them the file's widgets are aligned with the home on screen.
    static func homeFileChanged(_ s: inout AppState, text: String?, ids: HomeIDs? = nil) -> [Effect] {
        // While the file is refused or broken, even the text we last knew is news: it fixes it.
        guard var file = s.homeFile, text != file.text || file.problem != nil else { return [] }
        let name = URL(fileURLWithPath: file.path).lastPathComponent
        // Our undo steps were taken against the file as we wrote it; replaying one now would
        // put back our version over whatever the other program (or instance) wrote.
        let forgot = forgetEditHistory(&s)
        guard let text else {
            file.text = nil
            file.problem = nil
            s.homeFile = file
            s.say("\(name) was removed; your next change writes it again")
            return [.log("\(file.path) was removed"), .redraw(full: false)]
        }
        let parsed: HomeConfig
        do {
            parsed = try HomeConfig.parse(yaml: text, file: name, bundle: s.bundle)
        } catch {
            let problem = TextSanitizer.singleLine("\(error)")
            file.text = text
            file.problem = problem
            // How many there are, said beside the first (`AppState.statusText`).
            s.homeProblems = (problem, HomeConfig.problems(yaml: text, file: name, bundle: s.bundle))
            s.homeFile = file
            s.note = nil  // the problem shows in its place until the file is fixed
            return [
                .log("\(file.path) is broken, keeping the last good home screen: \(problem)"), .redraw(full: false),
            ]
        }
        let wasBroken = file.problem != nil
        let adopted = parsed.adoptingIDs(from: ids ?? HomeIDs(s.home))
        file.text = text
        file.problem = nil
        file.home = adopted
        s.homeFile = file
        var fx: [Effect] = [.log("\(file.path) changed on disk")]
        if adopted.theme != s.home.theme, let theme = adopted.theme {
            if theme == s.alternateTheme.name {
                swap(&s.theme, &s.alternateTheme)
            } else if theme != s.theme.name {
                fx.append(.loadTheme(theme))
            }
        }
        if !adopted.sameContent(as: s.home) {
            fx += replaceHome(&s, with: adopted)
            // A note that still offers `u` would now be wrong: say so instead.
            if forgot {
                s.say("\(name) changed; earlier edits can no longer be undone")
            } else if s.note == nil {
                s.say("\(name) changed: home screen updated")
            }
        } else {
            s.home.theme = adopted.theme
            if wasBroken { s.say("\(name) is fixed") }
        }
        return fx + [.redraw(full: false)]
    }

    /// The runtime wrote what `Effect.writeHome(home)` asked for, or could not.
    static func homeWritten(_ s: inout AppState, _ home: HomeConfig, _ result: Result<String, HomeWriteFailure>)
        -> [Effect]
    {
        guard var file = s.homeFile else {
            if case .failure(let f) = result { s.say(f.message) }
            return [.redraw(full: false)]
        }
        switch result {
        case .success(let text):
            s.editing.saving = nil
            let previous = file.text
            // A value written under a YAML anchor was changed for every widget sharing it (decision 49).
            let sharing = HomeText.sharing(previous, holding: file.home, to: home)
            file.text = text
            file.home = sharing.home
            file.problem = nil
            s.homeFile = file
            // A save merged with another program's change to other lines: the file as it is now
            // shows, with both changes.
            let name = URL(fileURLWithPath: file.path).lastPathComponent
            if let written = try? HomeConfig.parse(yaml: text, file: name, bundle: s.bundle),
                !written.sameContent(as: sharing.home)
            {
                s.homeFile?.text = previous
                s.homeFile?.home = home
                let fx = homeFileChanged(&s, text: text)
                s.say("saved, with another program's change to \(name) kept")
                return fx
            }
            return sharedValuesChanged(&s, sharing)
        case .failure(let f):
            var fx: [Effect] = [.log(f.message)]
            switch f.reason {
            case .broken:
                // Refused: the screen goes back to what the file last held.
                fallthrough
            case .changedElsewhere, .refused:
                fx += replaceHome(&s, with: file.home)
                if let current = f.current { fx += homeFileChanged(&s, text: current, ids: f.currentIDs) }
            case .notSaved, .noFile:
                // The change stays on screen; the next write includes it (it writes `s.home`).
                break
            }
            s.say(TextSanitizer.singleLine(f.message))
            // A form's save that was refused: the form opens again with what was typed.
            if [.changedElsewhere, .broken, .refused].contains(f.reason) {
                let problem = TextSanitizer.singleLine(f.message) + "; what you typed is still here"
                Editing.reopenRefusedForm(&s, written: home, problem: problem)
            }
            s.editing.saving = nil
            return fx + [.redraw(full: false)]
        }
    }

    /// The widgets that share a value the save changed under its YAML anchor take it on screen
    /// too (the file has it already), and the status line says how many and where. The form's
    /// save does this itself (`Editing.save`); this is for a save made while an earlier write was
    /// on its way. The undo step the save recorded puts the value back for all of them.
    static func sharedValuesChanged(_ s: inout AppState, _ sharing: HomeSharing) -> [Effect] {
        guard let message = HomeSharedValue.message(sharing.shared) else { return [] }
        let written = Dictionary(sharing.home.allInstances.map { ($0.id, $0.config) }, uniquingKeysWith: { a, _ in a })
        var home = s.home
        for shared in sharing.shared {
            for t in home.tiles.indices {
                for i in home.tiles[t].items.indices where shared.others.contains(home.tiles[t].items[i].id) {
                    let id = home.tiles[t].items[i].id
                    home.tiles[t].items[i].config[shared.key] = written[id]?[shared.key]
                }
            }
        }
        let fx = reconcile(&s, to: home, focus: nil)
        s.say(TextSanitizer.singleLine(message))
        return fx + [.redraw(full: false)]
    }

    /// Why an in-app change cannot be saved now (the file is broken), or nil. The editor checks
    /// this before applying a change, so a refused change never shows.
    public static func homeWriteRefusal(_ s: AppState) -> String? {
        s.homeFile?.problem.map { "not saved: \($0); fix the file first" }
    }

    /// An outside change of the home screen (home.yaml edited, a write refused) put in place:
    /// `reconcile` with the focus kept on its tile (or the one now in its place).
    public static func replaceHome(_ s: inout AppState, with home: HomeConfig) -> [Effect] {
        reconcile(&s, to: home, focus: nil)
    }
}

extension HomeConfig {
    /// This home (read from the file: ids by position) with the ids of `previous` for the
    /// same tiles and widgets, so an outside edit keeps focus and timelines (see
    /// `adoptingIDs(from: HomeIDs)`, the one alignment every process uses).
    public func adoptingIDs(from previous: HomeConfig) -> HomeConfig {
        adoptingIDs(from: HomeIDs(previous))
    }

    /// An id for a new tile that no tile of this home has.
    public func nextTileID() -> String {
        "t\((tiles.compactMap { Int($0.id.dropFirst()) }.max() ?? 0) + 1)"
    }

    /// An id for a new widget instance that no instance of this home has.
    public func nextInstanceID() -> String {
        "w\((allInstances.compactMap { Int($0.id.dropFirst()) }.max() ?? 0) + 1)"
    }
}

extension App {
    /// Drops the edit steps `u` and Ctrl-R would replay; true if there were any.
    static func forgetEditHistory(_ s: inout AppState) -> Bool {
        let had = !s.editing.history.undo.isEmpty || !s.editing.history.redo.isEmpty
        s.editing.history = EditHistory()
        s.undoJournal.removeAll { $0 == .edit }
        return had
    }
}

extension App {
    /// The theme home.yaml now names, loaded: it applies at once (a terminal without colour stays
    /// monochrome); one that does not exist or is broken says why, and the screen keeps its theme.
    static func themeLoaded(_ s: inout AppState, _ name: String, _ result: Result<ThemePair, ThemeProblem>)
        -> [Effect]
    {
        guard s.home.theme == name else { return [] }  // the file moved on meanwhile
        switch result {
        case .success(let pair):
            if s.theme.name == Theme.monochrome.name {
                s.say("theme \(TextSanitizer.singleLine(name)): this terminal shows no colour", about: "theme")
                return [.redraw(full: false)]
            }
            s.theme = pair.main
            s.alternateTheme = pair.other
            s.say("theme \(TextSanitizer.singleLine(name))", about: "theme")
            return [.redraw(full: true)]
        case .failure(let problem):
            s.say("⚠ \(problem.message); keeping theme \(s.theme.name)", about: "theme")
            return [.redraw(full: false)]
        }
    }
}
