import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashApp
import DashHome
import DashHomeFiles
import DashActivities

/// Messages that arrive from other threads (provider results, the control socket), kept
/// until the loop's next turn. Posting wakes the loop.
public final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Msg] = []
    private let wake: @Sendable () -> Void

    public init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    public func post(_ msg: Msg) {
        lock.lock()
        items.append(msg)
        lock.unlock()
        wake()
    }

    var isEmpty: Bool { lock.withLock { items.isEmpty } }

    func drain() -> [Msg] {
        lock.lock()
        defer { lock.unlock() }
        let out = items
        items.removeAll()
        return out
    }
}

/// What the runtime does for effects that leave the process.
public struct RuntimeServices: Sendable {
    /// Writes timeline records to the cache.
    public var saveCache: @Sendable ([InstanceRecord]) -> Void
    /// Opens a URL in the browser; returns a problem to show, or nil.
    public var openURL: @Sendable (String) -> String?
    public var log: @Sendable (String) -> Void
    /// Runs a load and posts its result to the inbox; returns a way to cancel it.
    public var startLoad: @Sendable (LoadJob, Inbox) -> (@Sendable () -> Void)?
    /// The system time zone now (after the terminal said it changed); nil: keep the one we have.
    public var currentTimeZone: @Sendable () -> TimeZone?
    /// Writes Smart Stacks' use history (atomically, to the cache directory).
    public var saveUsage: @Sendable (UsageHistory) -> Void = { _ in }
    /// Writes the home screen over the file the app knows (`HomeFile.write`); the text written or
    /// why not. The last argument hears who holds the file's lock while the write waits for it.
    public var writeHome:
        @Sendable (HomeConfig, HomeFileState?, _ waiting: @escaping @Sendable (String) -> Void) -> Result<
            String, HomeWriteFailure
        > = { _, _, _ in
            .failure(HomeWriteFailure(.noFile, "not saved: this home screen has no file"))
        }
    /// Runs a widget's action and posts `.performed` to the inbox.
    public var perform: @Sendable (ActionJob, Inbox) -> Void = Runtime.concurrentPerform
    /// Watches files (the whole set) and posts `.filesChanged` to the inbox.
    public var watchFiles: @Sendable ([String], Inbox) -> Void = FileWatcher.runtimeWatch
    /// Runs work for the Edit Widget form and the gallery and posts its result to the inbox.
    public var edit: @Sendable (EditEffect, Inbox) -> Void
    /// Loads a theme by name (`ThemeLoader.loadPair`, errors against home.yaml's `theme:` line).
    public var loadTheme: @Sendable (String, HomeConfig) -> Result<ThemePair, ThemeProblem> = { name, _ in
        .failure(ThemeProblem(message: "no themes here to load '\(name)' from"))
    }
    /// home.yaml as it is now, as a message (`HomeFile.currentMessage`); nil: nothing to read.
    public var readHome: @Sendable () -> Msg? = { nil }
    /// Runs a secret's command off the loop and posts `.secretCommandFinished` to the inbox.
    public var runSecretCommand: @Sendable (SecretCommand, Inbox) -> Void
    /// The secret commands `runSecretCommand` started and that still run: the runtime ends them
    /// (and what they started) when it quits.
    public let secretCommands = RunningGroups()

    /// Describes the widgets folder again off the loop and posts `.extensionsScanned` (nothing
    /// here: no folder is watched).
    public var scanExtensions: @Sendable (Inbox) -> Void = { _ in }
    /// Asks tmux to redraw its status line (`TmuxStatus.refresh`), without waiting.
    public var refreshTmuxStatus: @Sendable () -> Void = {}
    /// Asks a widget bundle to draw an activity (the `activity` request, on a thread off the
    /// loop) and posts `.activityDrawn`.
    public var drawActivity: @Sendable (ActivityViewJob, Inbox) -> Void = { job, inbox in
        OffLoopThread.start("activity views") { inbox.post(.activityDrawn(job.key, job.run())) }
    }

    public init(
        saveCache: @escaping @Sendable ([InstanceRecord]) -> Void = { _ in },
        openURL: @escaping @Sendable (String) -> String? = { _ in nil },
        log: @escaping @Sendable (String) -> Void = { _ in },
        startLoad: (@Sendable (LoadJob, Inbox) -> (@Sendable () -> Void)?)? = nil,
        currentTimeZone: @escaping @Sendable () -> TimeZone? = { nil },
        edit: (@Sendable (EditEffect, Inbox) -> Void)? = nil
    ) {
        self.saveCache = saveCache
        self.openURL = openURL
        self.log = log
        self.startLoad = startLoad ?? Runtime.concurrentLoad
        self.currentTimeZone = currentTimeZone
        self.edit = edit ?? EditEffects.run
        let groups = secretCommands
        self.runSecretCommand = { command, inbox in
            SecretCommandRunner.post(
                command, environment: ProcessInfo.processInfo.environment, groups: groups, to: inbox)
        }
    }
}

/// Counters that show the loop is idle when nothing happens.
public struct RuntimeStats: Sendable {
    public var turns = 0
    public var frames = 0
    public var cellsSent = 0
    public var loadsStarted = 0
    /// The most loads running at once (at most `Runtime.maxLoadsInFlight`).
    public var mostLoadsInFlight = 0
    /// Input events handled in the turn of an earlier one (`handlePending`).
    public var eventsCoalesced = 0
}

/// The loop, and nothing else: wait until the next deadline or an event, turn what happened
/// into a `Msg`, let `App.update` decide, run the effects it returns, and draw at most once
/// per turn, sending only changed cells. The runtime owns what is not state: the terminal,
/// the clock, the last frame (with its tap regions) and the loads in flight.
public final class Runtime {
    public private(set) var state: AppState
    public internal(set) var stats = RuntimeStats()
    let terminal: Terminal
    let clock: any DashClock
    public let inbox: Inbox
    let services: RuntimeServices
    /// The last frame sent: what the terminal shows, where links are, when live text changes.
    var lastFrame: HomeFrame?
    /// What each tile drew last: a frame where one tile changed draws one tile.
    let tileCache = TileCellCache()
    /// Called after each frame is sent (the end-to-end crash test uses it).
    public var afterDraw: (() -> Void)?
    var needsDraw = true
    var fullRedraw = false
    var loadsToStart = LoadQueue()
    var cancels: [UInt64: @Sendable () -> Void] = [:]
    /// Writes, theme loads and reads of home.yaml, off the loop thread.
    let fileWork: FileWork
    /// Sees every batch of effects `update` returned before they run (a test's harness records
    /// them; the runtime itself interprets them).
    package var observeEffects: (([Effect]) -> Void)?
    /// home.yaml writes asked for whose outcome has not come back yet, and the watcher's reports
    /// that came meanwhile: they are handled after the outcome, so the echo of our own write is
    /// known as ours (the watcher waits 50 ms; a loaded machine can reorder the two).
    var writesInFlight = 0
    var heldFileReports: [Msg] = []
    /// The texts of home.yaml this runtime wrote last (their echoes are not news).
    var recentWrites: [String] = []
    /// Texts of home.yaml read on purpose after every write queued before (a catch-up, a re-read):
    /// they are current, so they need no re-read of their own.
    let freshReads = FreshReads()

    public init(
        state: AppState, terminal: Terminal, clock: any DashClock, inbox: Inbox,
        services: RuntimeServices = RuntimeServices(), inlineFileWork: Bool = false
    ) {
        self.fileWork = FileWork(inline: inlineFileWork)
        self.state = state
        self.terminal = terminal
        self.clock = clock
        self.inbox = inbox
        self.services = services
        send(.resize(terminal.size))
    }

    /// Runs a provider on a thread of its own (see `LoadThreadExecutor`) with the widget's
    /// timeout and posts the result.
    @Sendable public static func concurrentLoad(_ job: LoadJob, _ inbox: Inbox) -> (@Sendable () -> Void)? {
        if let remote = job.request.widget.remote {
            // In another process: a plain thread waits for the answer (its own deadline), and no
            // Swift task runs here, so Swift's worker pool (and libdispatch's 1 Hz pool monitor,
            // decision 21) never starts.
            OffLoopThread.start("load \(job.id)") {
                OffLoopThread.endsWithItsLoad()
                let result = OffLoopThread.counted { Result { try remote.timeline(job.request.configuration, job.context) } }
                post(result, of: job, to: inbox)
            }
            return nil
        }
        let executor = LoadThreadExecutor(name: "load \(job.id)")
        let task = Task.detached(executorPreference: executor) {
            defer { executor.finish() }
            post(await Loads.run(job), of: job, to: inbox)
        }
        return { task.cancel() }
    }

    /// A load's result as its message: a timeout is `loadTimedOut`, anything else `loaded`.
    static func post(_ result: Result<AnyTimeline, any Error>, of job: LoadJob, to inbox: Inbox) {
        if case .failure(let e) = result, let t = e as? LoadTimeoutError {
            inbox.post(.loadTimedOut(id: job.id, token: job.token, after: t.timeout))
        } else {
            inbox.post(.loaded(id: job.id, token: job.token, result: result))
        }
    }

    /// Feeds one message through `update` and runs its effects.
    public func send(_ msg: Msg) {
        run(App.update(&state, msg))
    }

    /// A message from the inbox. The watcher reports our own writes back to us; such an echo must
    /// not read as another program's edit (that forgets the undo history and, when it arrives
    /// after a later write, puts an older text back). And a report may hold what the watcher read
    /// before one of our writes while it arrives after it: applied, it would put our change back
    /// out of the app, and the next save would meet it as a conflict (issue 24.4, seen under
    /// load). So a watcher's report is only a signal: the file is read again on the file thread,
    /// behind every write queued before, and that read (known as one made on purpose,
    /// `freshReads`) is what the app gets. A text this runtime wrote in its last few writes is
    /// dropped: the state already has it or a newer one (unless the file was broken since).
    func deliver(_ msg: Msg) {
        switch msg {
        case .homeFileChanged(let text?, _) where recentWrites.contains(text) && state.homeFile?.problem == nil:
            _ = freshReads.take(text)
        case .homeFileChanged where writesInFlight > 0, .homeFileRefused where writesInFlight > 0:
            heldFileReports.append(msg)
        case .homeFileChanged(let text, _) where freshReads.take(text):
            send(msg)
        case .homeFileChanged:
            reread(else: msg)
        case .homeWritten(_, let result):
            writesInFlight = max(0, writesInFlight - 1)
            if case .success(let text) = result {
                recentWrites.append(text)
                if recentWrites.count > 4 { recentWrites.removeFirst() }
            }
            send(msg)
            if writesInFlight == 0, let last = heldFileReports.last {
                // What came meanwhile may predate our write: the file is read again, once.
                for case .homeFileChanged(let text, _) in heldFileReports { _ = freshReads.take(text) }
                heldFileReports.removeAll()
                reread(else: last)
            }
        default:
            send(msg)
        }
    }

    /// Reads home.yaml again on the file thread, behind the writes queued before, and posts what
    /// it holds as a read made on purpose (`fallback` when there is nothing to read it with).
    func reread(else fallback: Msg) {
        let (read, inbox, fresh) = (services.readHome, inbox, freshReads)
        fileWork.run { inbox.post(fresh.noting(read() ?? fallback)) }
    }

    /// Applies one message of a batch (`App.apply`); `settle()` after the last.
    func apply(_ msg: Msg) {
        run(App.apply(&state, msg))
    }

    /// Smart Stacks and visibility, once after a batch (`App.settle`).
    func settle() {
        run(App.settle(&state))
    }

    /// One turn without waiting: the time, then the messages that arrived, then a frame if
    /// anything visible changed, then the loads asked for (after the frame: they compete for
    /// the same cores). Returns seconds until the next deadline (nil: sleep until input).
    @discardableResult
    public func turn() -> Double? {
        stats.turns += 1
        send(.tick(clock.now))
        applyBacklog()
        if let live = lastFrame?.nextLiveChange, state.now >= live { needsDraw = true }
        if needsDraw { draw() }
        startLoads()
        let next = [state.nextDeadline, lastFrame?.nextLiveChange].compactMap { $0 }.min()
        // Deadlines are the clock's dates; the terminal waits on the wall clock (the same dates
        // for the system clock; a test clock that stands still never wakes by itself).
        nextWake = next.flatMap { clock.wallDate(of: $0) }
        // Messages left for the next slice: look at the keys, then come straight back.
        if backlog.hasMore {
            nextWake = Date()
            return 0
        }
        return next.flatMap { clock.secondsUntil($0) }
    }

    /// How long one turn applies arrived messages (by `clock`) before it draws and lets the
    /// loop read a key; the rest wait in `backlog` for the next turn (RuntimeBacklog.swift).
    public var sliceSeconds = 0.010
    /// Messages taken from the inbox and not applied yet.
    var backlog = RuntimeBacklog()
    /// How long the last pass over every tile after a batch took (`settle`): a slice applies
    /// results for a few times that, so the passes stay a fraction of the work.
    var settleSeconds = 0.0

    /// The wall-clock time the last turn asked to be woken at (nil: only input wakes it).
    public private(set) var nextWake: Date?

    /// Turns one input event into messages.
    public func handle(_ event: InputEvent) {
        switch event {
        case .wake:
            return
        case .key(let k):
            send(.tick(clock.now))
            send(.key(k))
        case .mouse(let m):
            send(.tick(clock.now))
            if m.kind == .press, let (tile, hit) = control(at: m.point) {
                send(.control(tile: tile, control: hit))
            } else if m.kind == .press, let (tile, url) = link(at: m.point) {
                send(.click(tile: tile, url: url))
            } else {
                send(.mouse(m))
            }
        case .resize(let size):
            // Every cell is sent again: the terminal may also have changed how it draws
            // (a late width-probe answer arrives as a resize).
            lastFrame = nil
            send(.resize(size))
        case .clockChanged:
            // Every deadline is a wall-clock date: look again at what is due and what shows.
            send(.tick(clock.now))
            needsDraw = true
        case .timeZoneChanged:
            if let tz = services.currentTimeZone() { send(.timeZone(tz)) }
        }
    }

    /// The link the last frame drew at `p`, if any.
    func link(at p: Point) -> (String, String)? {
        guard let frame = lastFrame else { return nil }
        for (tile, regions) in frame.tapRegions {
            if let r = regions.first(where: { $0.rect.contains(p) }) { return (tile, r.url) }
        }
        return nil
    }

    /// Runs what `update` returned, through the one interpreter (Runtime+Effects.swift).
    func run(_ effects: [Effect]) {
        observeEffects?(effects)
        EffectInterpreter.run(effects, on: self)
    }

    /// Loads running at once, whatever the file says (each runs on a thread of its own, and may
    /// start a process): the rest wait here, in order, and start as results come back.
    public static let maxLoadsInFlight = 24
    /// This runtime's bound (`maxLoadsInFlight`; a test of a thousand results at once raises it).
    public var loadLimit = Runtime.maxLoadsInFlight

    /// The loads started whose result has not come back.
    var loadsInFlight: Set<UInt64> = []

    func startLoads() {
        let room = max(0, loadLimit - loadsInFlight.count)
        for job in loadsToStart.take(room) {
            stats.loadsStarted += 1
            loadsInFlight.insert(job.token)
            if let cancel = services.startLoad(job, inbox) { cancels[job.token] = cancel }
        }
        stats.mostLoadsInFlight = max(stats.mostLoadsInFlight, loadsInFlight.count)
    }

    func draw() {
        if fullRedraw { tileCache.clear() }
        let frame = AppView.render(state, cache: tileCache)
        // A frame of another size (a resize) is compared with nothing: every cell is sent.
        let previous = fullRedraw || lastFrame?.buffer.size != frame.buffer.size ? nil : lastFrame?.buffer
        let runs = FrameDiff.runs(from: previous, to: frame.buffer)
        if !runs.isEmpty || fullRedraw {
            terminal.draw(runs, full: fullRedraw)
            stats.frames += 1
            afterDraw?()
            stats.cellsSent += runs.reduce(0) { $0 + $1.cells.count }
        }
        fullRedraw = false
        lastFrame = frame
        needsDraw = false
    }

    /// Events read and not handled yet (more than one turn handles): the next turn starts here.
    var heldInput: [InputEvent] = []

    /// A step of the app applied to the state like a message (a test's harness runs state functions
    /// such as `Editing.changeHome` this way); its effects run as `update`'s do.
    package func perform(_ step: (inout AppState) -> [Effect]) {
        run(step(&state))
    }

    /// Everything the services posted is applied and the loads asked for start, without drawing or
    /// waiting (a test's harness, after each message: its services answer on the caller's thread).
    package func applyPending() {
        while !inbox.isEmpty || backlog.hasMore { applyBacklog(slice: .infinity) }
        startLoads()
    }

    /// An input event and everything already waiting behind it, then their frame at once: what a
    /// key changed reaches the screen before the next slice of arrived work (issue 25.3: a key
    /// waited for one more slice of load results and the passes after it).
    public func handleInput(_ event: InputEvent) {
        handle(event)
        handlePending()
        if needsDraw && !state.quitting { draw() }
    }

    /// Runs until the user quits.
    public func run() {
        while !state.quitting {
            let timeout = turn()
            if state.quitting { break }
            if !heldInput.isEmpty {
                // Events read ahead in the last turn: no wait for more.
                handlePending()
                if needsDraw && !state.quitting { draw() }
                continue
            }
            // The terminal turns the deadline into whole seconds: a date from outside (a policy
            // `after` 1e300) is held to ±31,000 years so that conversion cannot trap.
            let deadline = nextWake.map { w in
                w.timeIntervalSince1970.isNaN ? 0 : min(max(w.timeIntervalSince1970, -1e12), 1e12)
            }
            if let event = terminal.readEvent(deadline: deadline, timeout: timeout) { handleInput(event) }
        }
        // What changed since the last turn (results that arrived meanwhile) is saved too, and a
        // write of home.yaml still under way finishes (a held lock gives up after 5 s).
        fileWork.waitUntilDone(seconds: 10)
        send(.tick(clock.now))
        applyBacklog(slice: .infinity)
        for (_, cancel) in cancels { cancel() }
        // A secret's command still running (waiting for a passphrase, say) ends with the program.
        services.secretCommands.stopAll()
    }
}

/// The texts of home.yaml the runtime read on purpose, after the writes queued before it (see
/// `Runtime.freshReads`): written by the file thread, taken by the loop.
final class FreshReads: @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [String?] = []

    /// Notes the text of a read's message, and returns the message.
    func noting(_ msg: Msg) -> Msg {
        if case .homeFileChanged(let text, _) = msg {
            lock.withLock {
                texts.append(text)
                if texts.count > 64 { texts.removeFirst() }
            }
        }
        return msg
    }

    /// Whether `text` was read on purpose (and forgets it).
    func take(_ text: String?) -> Bool {
        lock.withLock {
            guard let i = texts.firstIndex(where: { $0 == text }) else { return false }
            texts.remove(at: i)
            return true
        }
    }
}
