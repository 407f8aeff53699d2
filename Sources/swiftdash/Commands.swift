import Foundation
import ArgumentParser
import DashCore
import DashWidgets
import DashRender
import DashApp
import DashHome
import DashHomeFiles
import DashRuntime
import DashBuiltinWidgets
import DashScheduler
import DashCurses
import Logging

struct Widgets: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every widget: kind, name, sizes and configuration parameters.")

    func run() throws {
        for w in bundle.widgets {
            printOut("\(w.kind) — \(w.displayName)")
            printOut("  \(w.description)")
            printOut(
                "  sizes: \(w.supportedFamilies.map(\.rawValue).joined(separator: ", "))"
                    + (w.cost == .local ? "  (local: reloads are free)" : "  (network: reloads are budgeted)"))
            if let r = w.relevanceHelp { printOut("  relevant (Smart Rotate, attention): \(r)") }
            for p in w.schema.parameters {
                let def = p.display(p.defaultValue)
                // An extension's parameter may have no help, and its title defaults to its key.
                let label = [p.title == p.key ? "" : p.title, p.help].filter { !$0.isEmpty }.joined(separator: ": ")
                printOut("  --set \(p.key)=…" + (label.isEmpty ? "" : "  \(label)"))
                printOut(
                    "      \(p.allowed); default: \(def.isEmpty ? "(empty)" : def)"
                        + (p.environmentVariable.map { "; or $\($0)" } ?? ""))
                if case .list = p.kind { printOut("      \(listHelp)") }
            }
            printOut("")
        }
    }
}

struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw the home screen once to standard output.",
        usage: "swiftdash render [<options>]",
        discussion: """
            Draws your home screen (or the built-in default when you have none) at the given size \
            and time, as plain text or with --ansi as coloured text. Local widgets (clock) run their \
            real timelines; network widgets show what the home screen last cached, or sample data \
            (their title says "sample") when there is none, unless --live.
            """)

    // Unconditional: `--size -5x10` is a bad size, not a missing value and an unknown option.
    @Option(parsing: .unconditional, help: "Screen size as COLSxROWS, e.g. 120x40.")
    var size: String = "80x24"

    @Option(help: "Draw as of this time (ISO 8601), e.g. 2026-11-23T09:30:00Z.")
    var at: String?

    @Flag(help: "Fetch real data for network widgets too.")
    var live = false

    @Flag(help: "Use the built-in default home screen even if you have a home.yaml.")
    var defaultHome = false

    @Option(help: ArgumentHelp(themeHelp))
    var theme: String?

    @Flag(help: "Colour output with ANSI escape sequences.")
    var ansi = false

    @OptionGroup var homeOption: HomeOption

    func run() async throws {
        let screen = try parseSize(size)
        let now = try parseInstant(at)
        let home = try loadHome(useDefault: defaultHome)
        let (th, other) = try loadTheme(theme ?? home.theme, from: home)
        // Live data comes from the provider host, as on the home screen.
        let host = live ? ProviderHosting.start { _ in } : nil
        defer { host?.stop() }
        // Without --live, the timelines the home screen cached are drawn where there are some.
        var scheduler = Scheduler()
        if !live {
            let store = TimelineCacheStore(directory: AppPaths(environment: processEnvironment).cache)
            let cached = store.load(home: home, bundle: bundle, log: { _ in })
            scheduler.restore(OneShot.networkRecords(cached, bundle: bundle))
        }
        var state = AppState(
            environment: ProviderHosting.hosted(appEnvironment, by: host), home: home, screen: screen, theme: th,
            alternateTheme: other, now: now, scheduler: scheduler)
        state.focusedTile = nil
        await OneShot.load(&state, source: live ? .live : .sample)
        emit(AppView.render(state).buffer, ansi: ansi)
    }
}

/// The user's home.yaml, or the default home screen when there is none.
func loadHome(useDefault: Bool) throws -> HomeConfig {
    try loadHomeFile(useDefault: useDefault).home
}

/// The home screen and what the app keeps of its file (nil with `useDefault`: nothing is saved).
func loadHomeFile(useDefault: Bool) throws -> (home: HomeConfig, file: HomeFileState?) {
    guard !useDefault else { return (HomeConfig.defaultHome(bundle: bundle), nil) }
    try HomeOption.requireExisting()
    let file = HomeFile(url: AppPaths(environment: processEnvironment).homeFile, bundle: bundle)
    do {
        let (home, state) = try file.load()
        return (home, state)
    } catch let e as ConfigFileError {
        throw runtimeFailure("\(e.description)\n(fix the file, or run with --default-home; your file was not changed)")
    } catch {
        throw runtimeFailure("\(error)")
    }
}

struct Home: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home",
        abstract: "Open the home screen in the terminal (the default command).",
        usage: "swiftdash [home] [<options>]",
        discussion: """
            Arrows or h/j/k/l move between tiles, Enter opens one, Tab walks its links, Esc closes \
            a pane, PgUp/PgDn change page, r/R reload, t switches dark/light, ? lists every key, \
            q quits. Logs go to $XDG_STATE_HOME/swiftdash/swiftdash.log (~/.local/state; rotated at \
            1 MB, one old file kept); --log-level or SWIFTDASH_LOG chooses how much.
            """)

    @Option(help: ArgumentHelp(themeHelp))
    var theme: String?

    @Flag(help: "Use the built-in default home screen even if you have a home.yaml.")
    var defaultHome = false

    @Flag(help: "Do not watch home.yaml and the widgets folder for changes (they show at the next start).")
    var noWatch = false

    @Flag(
        help: ArgumentHelp(
            "Inside tmux, do not ask tmux to redraw its status line when a value `snapshot --line` shows changes."))
    var noTmuxRefresh = false

    @OptionGroup var homeOption: HomeOption

    @Option(
        help: ArgumentHelp(
            "How much the log says: trace, debug, info (the default), notice, warning, error or critical.",
            discussion: "Without it, the SWIFTDASH_LOG environment variable.", valueName: "level"),
        completion: .list(Logger.Level.allCases.map(\.rawValue)))
    var logLevel: String?

    func validate() throws {
        // A level that is no level is a usage error (exit 2), before anything else is looked at.
        if case .failure(let e) = FileLogHandler.level(option: logLevel, environment: processEnvironment) {
            throw ValidationError(e.description)
        }
    }

    func run() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw runtimeFailure("the home screen needs a terminal; to draw to a file or a pipe use `swiftdash render`")
        }
        let paths = AppPaths(environment: processEnvironment)
        let level = (try? FileLogHandler.level(option: logLevel, environment: processEnvironment).get()) ?? .info
        let moved = StateFolder.migrate(paths)
        FileLogHandler.bootstrap(file: paths.logFile, level: level)
        extensionNewsToLog = true
        let logger = Logger(label: "swiftdash")
        for line in moved { logger.notice("state: \(line)") }
        let (home, homeFileState) = try loadHomeFile(useDefault: defaultHome)
        var (chosen, other) = try loadTheme(theme ?? home.theme, from: home)

        do { try CursesTerminal.check(environment: processEnvironment) } catch { throw runtimeFailure("\(error)") }
        // The background is asked for only when the theme follows it (decision 55).
        let terminal = CursesTerminal(
            environment: processEnvironment, askBackground: (theme ?? home.theme) == "auto")
        // `theme: auto` follows the background the terminal reported to the start-up probe.
        let backgroundIsDark =
            terminal.backgroundIsDark ?? Theme.backgroundIsDark(colorfgbg: processEnvironment["COLORFGBG"])
        if (theme ?? home.theme) == "auto", let dark = terminal.backgroundIsDark {
            (chosen, other) = try loadTheme("auto", from: home, backgroundIsDark: dark)
        }
        logger.info("starting with \(home.tiles.count) tiles, theme \(chosen.name)")
        defer { terminal.shutdown() }
        let mono = terminal.colorDepth == .none
        let inbox = Inbox(wake: terminal.waker.wake)
        let store = TimelineCacheStore(directory: paths.cache)
        var scheduler = Scheduler()
        scheduler.restore(store.load(home: home, bundle: bundle, log: { logger.warning("cache: \($0)") }))
        // The built-in providers run in the provider host (issue 15): this process only draws.
        let host = ProviderHosting.start { logger.info("\($0)") }
        let environment = ProviderHosting.hosted(appEnvironment, by: host)
        defer { host?.stop() }
        let clock = Self.clock(processEnvironment)
        var state = AppState(
            environment: environment, home: home, screen: terminal.size,
            theme: mono ? .monochrome : chosen, alternateTheme: mono ? .monochrome : other,
            now: clock.now, scheduler: scheduler)
        let usageStore = UsageStore(directory: paths.state)
        state.restoreUsage(usageStore.load { logger.warning("\($0)") })
        state.homeFile = homeFileState
        state.extensions = extensionStart.catalog
        // Inside tmux a changed value redraws tmux's status line (decision 51).
        state.tmuxRefresh.enabled = processEnvironment["TMUX"] != nil && !noTmuxRefresh
        let env = processEnvironment
        // Off the loop: a reload of every tile is a file synced per tile (issue 25).
        let cacheWriter = CacheWriter { records in
            for p in store.save(records, bundle: currentBundle()) { logger.warning("\(p)") }
        }
        var services = RuntimeServices(
            saveCache: { cacheWriter.save($0) },
            openURL: { Browser.open($0, environment: env) },
            log: { logger.info("\($0)") },
            currentTimeZone: { WallClockWaiter.systemTimeZone() })
        services.scanExtensions = { extensionStart.folder.scan(posting: $0) }
        services.refreshTmuxStatus = { TmuxStatus.refresh(environment: env) }
        // Off the loop too: while a thousand tiles first load, every pass saved the history.
        let usageWriter = OffLoopWriter<UsageHistory>(name: "usage writer", merge: { $1 }) { history in
            do { try usageStore.save(history) } catch { logger.warning("usage: cannot save: \(error)") }
        }
        services.saveUsage = { usageWriter.save($0) }
        // The file read and written with the widgets the folder offers now (one may have come).
        let homeURL = paths.homeFile
        @Sendable func homeFile() -> HomeFile { HomeFile(url: homeURL, bundle: currentBundle()) }
        services.writeHome = { homeFile().write($0, over: $1, waiting: $2) }
        // A theme home.yaml names while running applies at once, or says why it cannot.
        let themeSearch = ThemeLoader.searchPath(paths: paths, executable: SubprocessTransport.runningExecutable().path)
        let homePath = paths.homeFile.path
        services.loadTheme = { name, home in
            do {
                let (main, other) = try ThemeLoader.loadPair(
                    name, fromHome: home, homeFile: homePath, searchPath: themeSearch,
                    backgroundIsDark: backgroundIsDark)
                return .success(ThemePair(main, other))
            } catch {
                return .failure(ThemeProblem(message: "\(error)"))
            }
        }
        // The ids on screen are the ones every swiftdash command uses (decision 41).
        if let homeFileState { homeFile().showing(homeFileState) }
        if homeFileState != nil, !noWatch { services.readHome = { homeFile().currentMessage() } }
        let server: ControlSocket.Server?
        do {
            let testClock = clock as? ScaledClock
            server = try ControlSocket.Server(path: paths.socket.path) { line in
                // `clock DATE`: an end-to-end test moves the test clock on (only on a test clock).
                if let testClock, line.hasPrefix("clock ") {
                    guard let date = ISO8601DateFormatter().date(from: String(line.dropFirst(6))) else {
                        return "error: clock takes a date like 2026-11-23T09:30:00Z"
                    }
                    testClock.jump(to: date)
                    inbox.post(.tick(testClock.now))
                    return "ok"
                }
                return ControlProtocol.serve(line, post: inbox.post)
            }
        } catch {
            logger.warning("control socket: \(error)")
            // Say it on screen too: `swiftdash reload` will not reach this instance.
            state.note = StatusNote("swiftdash reload cannot reach this instance: \(error)", at: state.now)
            state.note?.expires = state.now.addingTimeInterval(15)
            server = nil
        }
        let runtime = Runtime(state: state, terminal: terminal, clock: clock, inbox: inbox, services: services)
        let frameEvents = TestEvents(environment: processEnvironment)
        terminal.onReply = { line in
            logger.info("\(line)")
            frameEvents?.say(line)
        }
        runtime.afterDraw = { [weak runtime] in
            guard let runtime else { return }
            frameEvents?.say("frame \(runtime.stats.frames)")
            // Freed heap back to the system at frames 1, 2, 4, … 64, then every 64th (issue 35.4).
            let frames = runtime.stats.frames
            if frames.nonzeroBitCount == 1 || frames % 64 == 0 { _ = glibcMallocTrim(0) }
            guard frames == 1 else { return }
            let ms = (ContinuousClock.now - startedAt) / .milliseconds(1)
            logger.info("first frame after \(String(format: "%.1f", ms)) ms from main()")
        }
        if processEnvironment["SWIFTDASH_TEST_CRASH"] == "after-first-frame" {
            // For the end-to-end test that a crash still restores the terminal.
            runtime.afterDraw = { fatalError("crash requested by SWIFTDASH_TEST_CRASH") }
        }
        if processEnvironment["SWIFTDASH_TEST_HANG"] == "after-first-frame" {
            // For the end-to-end test that SIGTERM ends a loop that never comes back.
            runtime.afterDraw = { while true { pause() } }
        }
        // Outside edits of home.yaml come in as messages (inotify; nothing wakes while it is quiet).
        var watcher: HomeFileWatcher?
        if let homeFileState, !noWatch {
            do {
                watcher = try HomeFileWatcher(file: paths.homeFile, initial: homeFileState.text) { read in
                    // A file read is aligned with the ids every process gives its widgets; a
                    // refused one says why.
                    if case .success(let text) = read {
                        inbox.post(homeFile().changeMessage(text))
                    } else {
                        inbox.post(.homeFileRead(read))
                    }
                }
            } catch { logger.warning("\(error); outside edits of home.yaml show at the next start") }
        }
        // Extensions added to, replaced in or removed from the widgets folder arrive at once
        // (decision 50): the watcher's report goes through `update`, which asks for a scan.
        var folderWatcher: FolderWatcher?
        if !noWatch {
            do {
                folderWatcher = try FolderWatcher(folder: extensionStart.folder.directory) {
                    inbox.post(.extensionsFolderChanged)
                }
            } catch { logger.warning("\(error); extensions added to the widgets folder show at the next start") }
        }
        // Live Activities from the state folder, and every change a script makes to them (issue 39).
        let activityWatcher = HomeActivities.start(activityStore(), inbox: inbox, watch: !noWatch, logger: logger)
        runtime.run()
        activityWatcher?.0.stop()
        cacheWriter.flush()
        usageWriter.flush()
        watcher?.stop()
        folderWatcher?.stop()
        server?.stop()
        terminal.shutdown()
        logger.info("quit after \(runtime.stats.turns) turns, \(runtime.stats.frames) frames")
        if terminal.quitSignal != 0 { throw ExitCode(128 + terminal.quitSignal) }
    }

    /// The clock the home screen runs on: the system's, unless an end-to-end test set
    /// `SWIFTDASH_TEST_CLOCK` (`DATE` standing still, or `DATE*RATE`; see `ScaledClock`).
    static func clock(_ environment: [String: String]) -> any DashClock {
        environment["SWIFTDASH_TEST_CLOCK"].flatMap { ScaledClock.parse($0) } ?? SystemClock()
    }
}

struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ask a running swiftdash to reload its timelines (all, one kind, or one widget).",
        discussion: """
            Like WidgetCenter's reloadTimelines(ofKind:). These reloads are not charged to the daily budget. \
            A widget's id (w3) is the one `swiftdash config check` prints and the running swiftdash uses.
            """)

    @Argument(
        help: "A widget kind, or one widget's id (w3); all when omitted.",
        completion: ShellCompletion.kindsAndWidgetIDs)
    var kind: String?

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        try HomeOption.requireExisting()
        var what = kind ?? "all widgets"
        if let kind, bundle[kind] == nil {
            // One widget, by the id every swiftdash process gives it (decision 41).
            let home = (try? loadHome(useDefault: false)) ?? HomeConfig.defaultHome(bundle: bundle)
            guard let inst = home.allInstances.first(where: { $0.id == kind }) else {
                let shown = TextSanitizer.singleLine(kind)
                if let tile = home.tiles.first(where: { $0.id == kind }) {
                    throw usageFailure("'\(shown)' is a tile; reload its widgets by id: \(home.idList(tile.items))")
                }
                guard HomeIDs.looksLikeWidgetID(kind) else { throw unknownWidget(kind) }
                throw usageFailure("no widget '\(shown)' on the home screen; its widgets: \(home.idList())")
            }
            what = "\(inst.id) (\(inst.kind))"
        }
        let paths = AppPaths(environment: processEnvironment)
        do {
            let answer = try ControlSocket.send(ControlProtocol.reloadLine(kind: kind), to: paths.socket.path)
            guard answer == "ok" else {
                throw runtimeFailure(answer.hasPrefix("error: ") ? String(answer.dropFirst("error: ".count)) : answer)
            }
            printOut("asked swiftdash to reload \(TextSanitizer.singleLine(what))")
        } catch let e as ControlSocket.ClientError {
            throw runtimeFailure(e.description)
        }
    }
}