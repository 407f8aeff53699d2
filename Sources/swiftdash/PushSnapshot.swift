import Foundation
import ArgumentParser
import DashCore
import DashWidgets
import DashScheduler
import DashApp
import DashHome
import DashRuntime
import DashActivities
import DashActivityFiles

struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hand a running swiftdash a timeline for a widget that takes pushes (note, extensions).",
        discussion: """
            The timeline, read from --json FILE or standard input, is the extension protocol's \
            `timeline` answer (docs/extensions.md), for example:
              {"entries": [{"title": "Build", "text": "passed"}], "policy": "never"}

            It reaches every instance of a widget kind, or the one instance an id names. Pushes are \
            not charged to the reload budget. Bad input exits with status 2.

            Example (a git post-commit hook):
              git log -1 --format='{"entries":[{"title":"%h","text":"%s"}]}' \\
                | swiftdash push note
            """)

    @Argument(
        help: "A widget kind (every instance of it) or an instance id.", completion: ShellCompletion.kindsAndWidgetIDs)
    var target: String

    @Option(help: "The timeline JSON file; - for standard input.")
    var json: String = "-"

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        try HomeOption.requireExisting()
        let data: Data
        let cap = ControlProtocol.maxPushLine - 1024
        if json == "-" {
            data = FileHandle.standardInput.readData(ofLength: cap + 1)
        } else {
            guard let h = FileHandle(forReadingAtPath: json) else {
                let reason = errno != 0 ? ": " + String(cString: strerror(errno)) : ""
                throw usageFailure("cannot read \(TextSanitizer.singleLine(json))\(reason)")
            }
            data = (try? h.read(upToCount: cap + 1)) ?? Data()
            try? h.close()
        }
        guard data.count <= cap else { throw usageFailure("the timeline is larger than \(cap / 1024) KB") }
        let value: JSONValue
        do { value = try JSONValue.parse(data, maxBytes: cap) } catch {
            throw usageFailure("\(json == "-" ? "standard input" : json): \(error)")
        }
        // Checked here too, so a mistake is reported before it reaches the running program. The ids are
        // the running home screen's (decision 41).
        let home = (try? loadHome(useDefault: false)) ?? HomeConfig.defaultHome(bundle: bundle)
        let instance = home.allInstances.first { $0.id == target }
        let kind = instance?.kind ?? target
        guard let decode = bundle[kind]?.pushDecoder else {
            let takers = bundle.widgets.filter { $0.pushDecoder != nil }.map(\.kind).joined(separator: ", ")
            let shown = TextSanitizer.singleLine(target)
            if instance == nil && bundle[kind] == nil {
                // Neither a widget kind nor an id of this home screen (one removed since, perhaps).
                let ids = home.idList(home.allInstances.filter { bundle[$0.kind]?.pushDecoder != nil })
                throw usageFailure(
                    "no widget kind or id '\(shown)' on the home screen; ids that take pushes: \(ids) "
                        + "(`swiftdash config check` lists every id); widgets that take pushes: \(takers)")
            }
            let what = instance.map { " (\(TextSanitizer.singleLine($0.kind)))" } ?? ""
            throw usageFailure("'\(shown)'\(what) takes no pushes; widgets that do: \(takers)")
        }
        do { _ = try decode(value) } catch { throw usageFailure("\(error)") }
        let paths = AppPaths(environment: processEnvironment)
        let answer: String
        do {
            answer = try ControlSocket.send(
                try ControlProtocol.pushLine(target: target, timeline: value),
                to: paths.socket.path)
        } catch let e as ControlSocket.ClientError {
            throw runtimeFailure(e.description)
        }
        guard answer.hasPrefix("ok") else {
            // The socket's "error: …" reads "swiftdash: error: …" once printed.
            let reason = answer.hasPrefix("error: ") ? String(answer.dropFirst("error: ".count)) : answer
            throw answer.hasPrefix("error: no widget") ? runtimeFailure(reason) : usageFailure(reason)
        }
        printOut("pushed to \(target)")
    }
}

struct Snapshot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what every tile shows: JSON for scripts, or one line for a status bar.",
        usage: "swiftdash snapshot [--json | --line <line> [--tmux]] [<options>]",
        discussion: """
            Asks the running swiftdash (what its tiles show now, pushed entries included); when none \
            runs, reads the timelines the last one saved. The JSON says which ("source": "running" or \
            "cache"); stale entries are marked ("stale": true, "state": "stale", "error": why).

            Line format fields: {kind} {summary} {tile} {instance} {stale} {state}; tmux's own #{…} \
            is left alone. A tile that failed shows as "⚠ kind". The most relevant Live Activity \
            (swiftdash activity --help) comes first, compact ("▶ make 42%"), with one mark for each \
            other; the JSON lists them under "activities".

            Example for tmux:
              set -g status-interval 60
              set -g status-right '#(swiftdash snapshot --line "{kind} {summary}" --tmux --max 60)'
            """)

    @Flag(help: "JSON (the default).")
    var json = false

    @Option(help: "One line, each tile through this format.")
    var line: String?

    @Flag(help: "Escape for tmux's status line and colour stale tiles.")
    var tmux = false

    @Option(help: "With --line: at most this many columns, cut at a word.")
    var max: Int?

    @Option(help: "Only these tiles (tile or widget ids, comma-separated).")
    var tile: String?

    @Option(help: "Only tiles of these kinds (comma-separated).")
    var kind: String?

    @Option(help: "As of this time (ISO 8601); reads the saved timelines, not the running instance.")
    var at: String?

    @Flag(help: "With --line: leave out the most relevant Live Activity (shown first otherwise).")
    var noActivities = false

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        try HomeOption.requireExisting()
        if json && line != nil { throw usageFailure("--json and --line exclude each other") }
        if tmux && line == nil { throw usageFailure("--tmux goes with --line FORMAT") }
        if max != nil && line == nil { throw usageFailure("--max goes with --line FORMAT") }
        if let max, max < 1 { throw usageFailure("--max must be at least 1, got \(max)") }
        if let line {
            let unknown = HomeSnapshot.unknownFields(in: line)
            if !unknown.isEmpty {
                let names = unknown.map { "{\(TextSanitizer.singleLine($0))}" }.joined(separator: ", ")
                let known = HomeSnapshot.lineFields.map { "{\($0)}" }.joined(separator: " ")
                throw usageFailure("unknown field \(names) in --line; the fields are \(known)")
            }
        }
        let paths = AppPaths(environment: processEnvironment)
        StateFolder.migrate(paths)  // usage.json moved out of the cache folder (0.5)
        // A tmux status line says what it shows, so the home screen refreshes it only when that changes.
        let watch = tmux ? TmuxLineWatch(tiles: Self.list(tile), kinds: Self.list(kind)) : nil
        let doc = try (at == nil ? askRunning(paths, watch: watch) : nil) ?? fromCache(paths, at: try parseInstant(at))
        var shown = doc
        shown.tiles = HomeSnapshot.select(doc.tiles, ids: Self.list(tile), kinds: Self.list(kind))
        // The activities come from the state folder whoever answered for the tiles (issue 39.2).
        let now = Date(timeIntervalSince1970: doc.now)
        let book = (try? activityStore().load(at: now)) ?? ActivityBook()
        // What bundles' own views drew, as the running home screen holds it (none from the cache:
        // this command starts no extension).
        let views = ActivityViews(drawn: doc.activityViews ?? [:])
        shown.activityViews = nil
        shown.activities = book.shown(at: now).map { ActivitySummary($0, at: now, views: views) }
        if let line {
            let activity = noActivities ? "" : ActivityLine.status(book, at: now, views: views)
            printOut(HomeSnapshot.line(shown.tiles, format: line, tmux: tmux, max: max, activity: activity))
        } else {
            printOut(HomeSnapshot.json(shown))
        }
    }

    /// A comma-separated option as its non-empty items; nil when not given.
    static func list(_ option: String?) -> [String]? {
        option.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }

    /// What the running instance shows; nil (after a warning, unless none runs) to read the cache.
    func askRunning(_ paths: AppPaths, watch: TmuxLineWatch?) throws -> HomeSnapshotDocument? {
        let answer: String
        do {
            answer = try ControlSocket.send(watch?.controlLine ?? "snapshot", to: paths.socket.path)
        } catch ControlSocket.ClientError.notRunning {
            return nil
        } catch {
            printError("swiftdash: warning: \(error); showing the saved timelines")
            return nil
        }
        switch HomeSnapshot.parseAnswer(answer) {
        case .success(let doc): return doc
        case .failure(let why):
            printError("swiftdash: warning: the running swiftdash answered: \(why); showing the saved timelines")
            return nil
        }
    }

    /// What the saved timelines show at `now`.
    func fromCache(_ paths: AppPaths, at now: Date) throws -> HomeSnapshotDocument {
        let home = try loadHome(useDefault: false)
        let store = TimelineCacheStore(directory: paths.cache)
        let (stored, _) = store.load()
        var cached = Scheduler()
        cached.restore(SecretFingerprint.reveal(stored, home: home, bundle: bundle))
        var state = AppState(
            environment: appEnvironment, home: home, screen: Size(width: 80, height: 24),
            theme: .dark, alternateTheme: .light, now: now, scheduler: cached)
        state.restoreUsage(UsageStore(directory: paths.state).load())
        state.focusedTile = nil
        _ = App.update(&state, .tick(now))
        return HomeSnapshotDocument(now: now.timeIntervalSince1970, source: "cache", tiles: HomeSnapshot.tiles(state))
    }
}
