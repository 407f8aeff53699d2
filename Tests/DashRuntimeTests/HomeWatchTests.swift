import XCTest
import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import DashCore
import DashWidgets
import DashScheduler
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashHomeFiles
@testable import DashRuntime

/// Outside edits of home.yaml: through the message (headless) and through the real watcher.
final class HomeWatchTests: XCTestCase {
    let text = """
        # notes
        tiles:
          - family: small
            widget: note
            config: { text: one }
          - family: small
            widget: note
            config: { text: two }
          - family: small
            widget: note
            config: { text: three }

        """

    func harness(_ text: String? = nil) throws -> AppHarness {
        let text = text ?? self.text
        let home = try HomeConfig.parse(yaml: text, file: "home.yaml", bundle: WidgetBundle([noteWidget]))
        let h = AppHarness(widgets: [noteWidget], home: home, size: Size(width: 80, height: 24), now: start)
        h.useHomeFile(HomeFileState(path: "/cfg/home.yaml", text: text, home: home))
        for id in ["w1", "w2", "w3"] { h.finish(id, entries: [NoteEntry(date: start, text: "shown \(id)")]) }
        return h
    }

    /// Points the harness's home file at a real `home.yaml` holding `content` in a temporary
    /// folder (removed after the test), written through `HomeFile` as the app does.
    func useRealFile(_ h: AppHarness, holding content: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-watch-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("home.yaml")
        try Data(content.utf8).write(to: url)
        var state = h.state.homeFile!
        state.path = url.path
        h.useHomeFile(state)
        let file = HomeFile(url: url, bundle: WidgetBundle([noteWidget]))
        h.homeWriter = { file.write($0, over: $1) }
        return url
    }

    func testAnOutsideEditReplacesTheHomeKeepingFocusAndUnchangedTimelines() throws {
        let h = try harness()
        h.press(.right)
        XCTAssertEqual(h.state.focusedTile, "t2")
        _ = h.takeEffects()
        // The editor removes the first tile, changes the third and adds one.
        let edited = """
            # notes
            tiles:
              - family: small
                widget: note
                config: { text: two }
              - family: small
                widget: note
                config: { text: THREE }
              - family: medium
                widget: note
                config: { text: four }

            """
        h.send(.homeFileChanged(text: edited))
        XCTAssertEqual(h.state.home.tiles.map(\.id), ["t2", "t3", "t4"], "kept tiles keep their ids")
        XCTAssertEqual(h.state.home.allInstances.map(\.id), ["w2", "w3", "w4"])
        XCTAssertEqual(h.state.focusedTile, "t2", "focus stays on its tile")
        XCTAssertEqual(
            h.state.scheduler.instanceIDs.sorted(), ["w2", "w3", "w4"], "the removed widget is unregistered")
        XCTAssertTrue(h.screen.contains("shown w2"), "an unchanged widget keeps its timeline\n\(h.screen)")
        XCTAssertEqual(h.loads.map(\.id).sorted(), ["w3", "w4"], "the changed widget reloads, the new one loads")
        XCTAssertEqual(h.load(of: "w3")?.request.reason, .configurationChanged)
        XCTAssertEqual(h.state.homeFile?.text, edited)
        XCTAssertEqual(h.state.statusText, "home.yaml changed: home screen updated")
        h.skipPendingWork()
    }

    /// Found by a new user: `u` after another program changed the file put our old version back.
    func testAnOutsideChangeEndsTheUndoOfEarlierEdits() throws {
        let h = try harness()
        _ = try useRealFile(h, holding: text)
        h.press(.char("d"))
        XCTAssertEqual(h.state.home.tiles.map(\.id), ["t2", "t3"])
        let ours = try XCTUnwrap(h.state.homeFile?.text)
        let outside = ours.replacingOccurrences(of: "text: three", with: "text: THREE")
        XCTAssertNotEqual(ours, outside)
        h.send(.homeFileChanged(text: outside))
        XCTAssertEqual(
            h.state.statusText, "home.yaml changed; earlier edits can no longer be undone")
        let writes = h.homeWrites.count
        h.press(.char("u"))
        XCTAssertEqual(h.state.home.tiles.map(\.id), ["t2", "t3"], "the removed tile does not come back")
        XCTAssertEqual(h.state.home.tiles[1].items[0].config["text"], .string("THREE"), "the outside change stays")
        XCTAssertEqual(h.homeWrites.count, writes, "nothing is written over the other program's change")
        h.skipPendingWork()
    }

    func testOurOwnWriteComingBackIsIgnored() throws {
        let h = try harness()
        _ = h.takeEffects()
        XCTAssertTrue(h.send(.homeFileChanged(text: text)).isEmpty)
        // A change of comments only updates what the app knows of the file, nothing else.
        let fx = h.send(.homeFileChanged(text: text.replacingOccurrences(of: "# notes", with: "# my notes")))
        XCTAssertFalse(fx.contains { if case .startLoad = $0 { return true } else { return false } })
        XCTAssertEqual(h.state.homeFile?.text?.hasPrefix("# my notes"), true)
        XCTAssertNil(h.state.note)
    }

    func testABrokenOutsideEditKeepsTheLastGoodHomeAndRefusesWrites() throws {
        let h = try harness()
        let broken = "tiles:\n  - family: small\n    widget: nope\n"
        let url = try useRealFile(h, holding: broken)
        let before = h.state.home
        h.send(.homeFileChanged(text: broken))
        XCTAssertEqual(h.state.home, before, "the last good home stays")
        XCTAssertEqual(
            h.state.statusText?.hasPrefix("⚠ home.yaml:3: unknown widget `nope`"), true, h.state.statusText ?? "")
        XCTAssertTrue(h.screen.contains("home.yaml:3: unknown widget"), h.screen)
        h.press(.right)
        XCTAssertEqual(h.state.statusText?.hasPrefix("⚠ home.yaml:3:"), true, "it stays while the file is broken")
        XCTAssertEqual(App.homeWriteRefusal(h.state)?.hasPrefix("not saved: home.yaml:3: unknown widget"), true)
        // An in-app change is refused before it shows…
        var changed = h.state.home
        changed.tiles.removeLast()
        h.run { Editing.changeHome(&$0, to: changed, what: "a change", focus: nil) }
        XCTAssertEqual(h.state.home, before)
        XCTAssertTrue(h.homeWrites.isEmpty)
        XCTAssertEqual(h.state.statusText?.hasPrefix("not saved: home.yaml:3: unknown widget"), true)
        // …and a write asked for anyway is refused by the file service and undone.
        h.run { s in App.replaceHome(&s, with: changed) + [.writeHome(changed)] }
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), broken, "never overwritten")
        XCTAssertEqual(h.state.home, before)
        // Fixed outside: the status clears.
        h.send(.homeFileChanged(text: text))
        XCTAssertNil(h.state.homeFile?.problem)
        XCTAssertEqual(h.state.statusText, "home.yaml is fixed")
        h.skipPendingWork()
    }

    func testAFormSavedWhileTheFileIsBrokenStaysOpenWithWhatWasTyped() throws {
        // A tester typed a value, pressed Ctrl-S while home.yaml was broken, and lost the value.
        let h = try harness()
        let broken = "tiles:\n  - family: small\n    widget: nope\n"
        let url = try useRealFile(h, holding: broken)
        h.send(.homeFileChanged(text: broken))
        h.press(.char("e"))
        XCTAssertEqual(h.state.pane.kind, .form)
        h.select("text")
        h.press(.ctrl("u"))
        h.type("typed here")
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.pane.kind, .form, "the form stays open")
        XCTAssertEqual(h.field("text")?.line.text, "typed here", "with what was typed")
        let problem = h.state.form?.problem ?? ""
        XCTAssertTrue(problem.hasPrefix("not saved: home.yaml:3: unknown widget"), problem)
        XCTAssertTrue(problem.hasSuffix("your edits stay here until then"), problem)
        XCTAssertTrue(h.homeWrites.isEmpty)
        // Fixed outside: the same Ctrl-S saves.
        try Data(text.utf8).write(to: url)
        h.send(.homeFileChanged(text: text))
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertEqual(h.state.home.allInstances.first?.config["text"], .string("typed here"))
        XCTAssertTrue(try String(contentsOf: url, encoding: .utf8).contains("typed here"))
        h.skipPendingWork()
    }

    /// Opens the focused tile's form, types `value` into its text field and presses Ctrl-S.
    func typeAndSave(_ h: AppHarness, _ value: String) {
        h.press(.char("e"))
        h.select("text")
        h.press(.ctrl("u"))
        h.type(value)
        h.press(.ctrl("s"))
    }

    /// Issue 24.4: 9 of 15 saves were refused while a script edited another tile, and what was
    /// typed was lost. The save is made on the file as the script left it (a three-way merge).
    func testASaveWhileAnotherProgramEditsADifferentTileGoesThrough() throws {
        let h = try harness()
        let url = try useRealFile(h, holding: text)
        // The script's write, before the watcher has told the app.
        let theirs = text.replacingOccurrences(of: "text: three", with: "text: THREE")
        try Data(theirs.utf8).write(to: url)
        typeAndSave(h, "typed")
        XCTAssertEqual(h.state.pane.kind, .none)
        let file = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(file, theirs.replacingOccurrences(of: "text: one", with: "text: typed"))
        XCTAssertEqual(
            h.state.home.allInstances.map { $0.config["text"] }, [.string("typed"), .string("two"), .string("THREE")])
        XCTAssertEqual(h.state.statusText, "saved, with another program's change to home.yaml kept")
        h.skipPendingWork()
    }

    /// The other program changed the same line: refused, and the form opens again with what was typed.
    func testARefusedSaveKeepsTheFormOpenWithWhatWasTyped() throws {
        let h = try harness()
        let url = try useRealFile(h, holding: text)
        let theirs = text.replacingOccurrences(of: "text: one", with: "text: ONE")
        try Data(theirs.utf8).write(to: url)
        typeAndSave(h, "typed")
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), theirs, "their change kept")
        XCTAssertEqual(h.state.pane.kind, .form, "the form is open again")
        XCTAssertEqual(h.field("text")?.line.text, "typed", "with what was typed")
        let problem = h.state.form?.problem ?? ""
        XCTAssertTrue(problem.contains("changed by another program"), problem)
        // Saved again, over the file as it is now.
        h.press(.ctrl("s"))
        XCTAssertEqual(h.state.pane.kind, .none)
        XCTAssertEqual(
            try String(contentsOf: url, encoding: .utf8),
            text.replacingOccurrences(of: "text: one", with: "text: typed"))
        h.skipPendingWork()
    }

    func testAThemeNamedWhileRunningAppliesAtOnceOrSaysWhyNot() throws {
        let h = try harness()
        _ = h.takeEffects()
        h.send(.homeFileChanged(text: "theme: neon\n" + text))
        XCTAssertTrue(
            h.effects.contains { if case .loadTheme("neon") = $0 { return true } else { return false } },
            "\(h.effects)")
        XCTAssertNotEqual(h.state.statusText, "theme neon applies at the next start")
        // A theme that does not exist: said, against its line, and the screen keeps its theme.
        h.send(.themeLoaded(name: "neon", .failure(ThemeProblem(message: "home.yaml:1: no theme named 'neon'"))))
        XCTAssertEqual(h.state.theme.name, "dark")
        XCTAssertEqual(h.state.statusText, "⚠ home.yaml:1: no theme named 'neon'; keeping theme dark")
        // One that loads applies now, with its opposite for `t`.
        let neon = Theme(name: "neon", isDark: false, colors: [:])
        h.send(.themeLoaded(name: "neon", .success(ThemePair(neon, .dark))))
        XCTAssertEqual(h.state.theme.name, "neon")
        XCTAssertEqual(h.state.alternateTheme.name, "dark")
        XCTAssertEqual(h.state.statusText, "theme neon")
        // An answer for a theme the file no longer names changes nothing.
        h.send(.themeLoaded(name: "old", .success(ThemePair(.light, .dark))))
        XCTAssertEqual(h.state.theme.name, "neon")
    }

    func testAWriteEffectGoesThroughTheServiceAndItsTextIsRemembered() throws {
        let h = try harness()
        let url = try useRealFile(h, holding: text)
        // What an editor does: commit the change (applied, and a write asked for).
        var new = h.state.home
        new.tiles[1].items[0].config["text"] = .string("deux")
        let fx = h.run { Editing.changeHome(&$0, to: new, what: "a change", focus: nil) }
        XCTAssertTrue(fx.contains { if case .writeHome = $0 { return true } else { return false } })
        XCTAssertEqual(h.homeWrites, [new])
        XCTAssertEqual(h.state.home, new)
        XCTAssertEqual(h.load(of: "w2")?.request.reason, .configurationChanged, "the changed widget reloads")
        let written = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(lineDiff(text, written), "+8:     config: { text: deux }\n-8:     config: { text: two }")
        XCTAssertEqual(h.state.homeFile?.text, written)
        XCTAssertTrue(h.send(.homeFileChanged(text: written)).isEmpty, "the watcher's echo of our write is ignored")
        h.skipPendingWork()
    }

    func testTheWatcherSeesEditsInPlaceRenamesAndRemovalWithinASecond() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-watch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("home.yaml")
        try Data("a: 1\n".utf8).write(to: url)
        let seen = Seen()
        let watcher = try HomeFileWatcher(file: url, initial: "a: 1\n") { seen.add($0) }
        defer { watcher.stop() }

        // In place (truncate and write, like `cat > home.yaml`).
        let h = try FileHandle(forWritingTo: url)
        try h.truncate(atOffset: 0)
        try h.write(contentsOf: Data("a: 2\n".utf8))
        try h.close()
        XCTAssertEqual(seen.next(within: 1), .some("a: 2\n"))

        // Renamed over (vim, most editors): a new file moved onto the name.
        let tmp = dir.appendingPathComponent("home.yaml.swp")
        try Data("a: 3\n".utf8).write(to: tmp)
        XCTAssertEqual(rename(tmp.path, url.path), 0)
        XCTAssertEqual(seen.next(within: 1), .some("a: 3\n"))

        // Other files in the directory are not reported.
        try Data("x".utf8).write(to: dir.appendingPathComponent("other.yaml"))
        XCTAssertEqual(seen.next(within: 0.2), String??.none, "no event for another file")

        // Removed.
        try FileManager.default.removeItem(at: url)
        XCTAssertEqual(seen.next(within: 1), .some(nil))
    }

    func testTheRuntimePicksUpAnEditorsChange() throws {
        let (dir, url, _, fileState, woke, inbox, runtime) = try runtimeOnRealFile("watch")
        defer { try? FileManager.default.removeItem(at: dir) }
        let watcher = try HomeFileWatcher(file: url, initial: fileState.text) { inbox.post(.homeFileRead($0)) }
        defer { watcher.stop() }
        runtime.turn()
        let edited = text.replacingOccurrences(of: "text: three", with: "text: drei")
        try Data(edited.utf8).write(to: url, options: .atomic)
        XCTAssertEqual(woke.wait(timeout: .now() + 1), .success, "the loop is woken within a second")
        runtime.turn()
        // The report is a signal: the file thread reads the file again, and that read comes back.
        let read = Date().addingTimeInterval(30)
        while runtime.state.home.tiles[2].items[0].config.string("text") != "drei" && Date() < read {
            _ = woke.wait(timeout: .now() + 1)
            runtime.turn()
        }
        XCTAssertEqual(runtime.state.home.tiles[2].items[0].config.string("text"), "drei")
        XCTAssertEqual(runtime.state.home.tiles[2].items[0].id, "w3")
        // An in-app change written by the runtime's service; its echo is ignored.
        var new = runtime.state.home
        new.tiles.removeFirst()
        let before = runtime.state.homeFile?.text
        runtime.run([.writeHome(new)])
        // The write runs off the loop thread; its outcome comes back as a message.
        let end = Date().addingTimeInterval(30)
        while runtime.state.homeFile?.text == before && Date() < end {
            _ = woke.wait(timeout: .now() + 1)
            runtime.turn()
        }
        let written = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(runtime.state.homeFile?.text, written)
        XCTAssertFalse(written.contains("text: one"))
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("home.yaml.bak"), encoding: .utf8), edited)
    }
}

extension HomeWatchTests {
    /// The real runtime over a real home.yaml holding `text` in a new folder (removed by the
    /// caller), on a virtual clock, its writes through `HomeFile`; `woke` is signalled when a
    /// message arrives.
    func runtimeOnRealFile(_ name: String) throws -> (
        dir: URL, url: URL, file: HomeFile, state: HomeFileState, woke: DispatchSemaphore, inbox: Inbox,
        runtime: Runtime
    ) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftdash-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("home.yaml")
        try Data(text.utf8).write(to: url)
        let bundle = WidgetBundle([noteWidget])
        let file = HomeFile(url: url, bundle: bundle)
        let (home, fileState) = try file.load()
        var state = AppState(
            bundle: bundle, home: home, screen: Size(width: 80, height: 24), theme: .dark,
            alternateTheme: .light, timeZone: TimeZone(identifier: "UTC")!, now: start)
        state.homeFile = fileState
        let woke = DispatchSemaphore(value: 0)
        let inbox = Inbox(wake: { woke.signal() })
        var services = RuntimeServices(startLoad: { _, _ in nil })
        services.writeHome = { file.write($0, over: $1, waiting: $2) }
        services.readHome = { file.currentMessage() }
        let runtime = Runtime(
            state: state, terminal: HeadlessTerminal(size: Size(width: 80, height: 24)),
            clock: VirtualClock(now: start), inbox: inbox, services: services)
        return (dir, url, file, fileState, woke, inbox, runtime)
    }

    /// A save while another swiftdash holds home.yaml's lock (a script's `config set`): the loop
    /// hands the write to its file thread and goes on, keys move the focus meanwhile, and the write
    /// goes through once the lock is free. The status line says who holds the lock.
    func testAWriteWaitingForTheLockNeverFreezesKeysOrDrawing() throws {
        let (dir, url, file, _, woke, _, runtime) = try runtimeOnRealFile("lock")
        defer { try? FileManager.default.removeItem(at: dir) }
        runtime.turn()
        // Another process holds the lock.
        let fd = open(file.lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        // It signs the lock as every holder does (this test process stands in for it).
        let pid = Array("\(getpid())\n".utf8)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        var new = runtime.state.home
        new.tiles.removeFirst()
        runtime.run([.writeHome(new)])
        // The loop came back before the lock was free: nothing written, nothing refused yet.
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), text)
        XCTAssertEqual(runtime.state.homeFile?.text, text)
        let focused = runtime.state.focusedTile
        runtime.handle(.key(.right))
        runtime.turn()
        XCTAssertNotEqual(runtime.state.focusedTile, focused, "keys are handled while the write waits")
        // The file thread reports the holder while it waits.
        let told = Date().addingTimeInterval(30)
        while !(runtime.state.statusText ?? "").contains("holds the lock") && Date() < told {
            _ = woke.wait(timeout: .now() + 1)
            runtime.turn()
        }
        XCTAssertEqual(
            runtime.state.statusText,
            "saving when \(LockHolderName.ofThisProcess) (pid \(getpid())) lets go of home.yaml (it holds the lock)")
        flock(fd, LOCK_UN)
        close(fd)
        let end = Date().addingTimeInterval(30)
        while runtime.state.homeFile?.text == text && Date() < end {
            _ = woke.wait(timeout: .now() + 1)
            runtime.turn()
        }
        let written = try String(contentsOf: url, encoding: .utf8)
        XCTAssertFalse(written.contains("text: one"), written)
        XCTAssertEqual(runtime.state.homeFile?.text, written)
    }
}

/// What the watcher reported, in order, waited for with a deadline.
final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String?] = []
    private let signal = DispatchSemaphore(value: 0)

    func add(_ text: String?) {
        lock.lock()
        items.append(text)
        lock.unlock()
        signal.signal()
    }

    /// The next report, or nil (outer) when none comes within `seconds`.
    func next(within seconds: Double) -> String?? {
        guard signal.wait(timeout: .now() + seconds) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return items.removeFirst()
    }
}

/// This process as /proc names it (what another swiftdash reads of a lock it holds).
enum LockHolderName {
    static var ofThisProcess: String {
        let raw = FileManager.default.contents(atPath: "/proc/self/comm") ?? Data()
        return String(decoding: raw.prefix(15).filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
    }
}
