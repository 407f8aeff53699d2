import Foundation
import DashActivities
import DashCore
import DashWidgets
import DashScheduler
import DashHome

/// Everything that can happen to the app. Nothing reaches the state but through
/// `App.update(_:_:)` with one of these.
public enum Msg: Sendable {
    case key(Key)
    case mouse(MouseEvent)
    /// A click on a link the last frame drew (the runtime knows where it drew them).
    case click(tile: String, url: String)
    case resize(Size)
    /// The clock moved on: a deadline came, or an event arrived at this time.
    case tick(Date)
    /// A provider answered.
    case loaded(id: String, token: UInt64, result: Result<AnyTimeline, any Error>)
    /// A one-shot command (`render` without `--live`) shows sample data for an instance: loaded
    /// like a provider's answer, and its tile says "sample".
    case sampled(id: String, token: UInt64, timeline: AnyTimeline)
    /// A provider did not answer within its timeout.
    case loadTimedOut(id: String, token: UInt64, after: TimeInterval)
    /// WidgetCenter: reload one instance, a kind, or everything (from a key, the control
    /// socket, or later an action), in the scheduler's own vocabulary. Never charged.
    case widgetCenter(WidgetCenterRequest)
    /// The user's time zone changed under the running program.
    case timeZone(TimeZone)
    /// A timeline handed in by `swiftdash push` for an instance id or every instance of a kind.
    case pushed(target: String, timeline: AnyTimeline)
    /// `home.yaml` changed on disk (the file watcher; nil: it was removed), with the ids its widgets
    /// have for every swiftdash process (`HomeFile.changeMessage`; nil: align with the home on screen).
    case homeFileChanged(text: String?, ids: HomeIDs? = nil)
    /// `home.yaml` changed on disk but could not be read (too large, not UTF-8, …): the watcher says why.
    case homeFileRefused(ConfigFileError)
    /// The theme an `Effect.loadTheme` asked for and its opposite, or why it cannot be used.
    case themeLoaded(name: String, Result<ThemePair, ThemeProblem>)
    /// The runtime wrote the home screen an `Effect.writeHome` asked for (the text written), or not.
    case homeWritten(HomeConfig, Result<String, HomeWriteFailure>)
    /// A write of home.yaml waits for its lock: `holder` says who holds it ("swiftdash (pid 812)").
    case homeLockHeld(by: String)
    /// The browser could not be opened for an `Effect.openURL`: the problem to show.
    case urlNotOpened(String, problem: String)
    /// A click on a button or toggle the last frame drew.
    case control(tile: String, control: TileControl)
    /// A widget's action finished: the action that undoes it (if any), or why it failed.
    case performed(id: String, actionID: UInt64, result: Result<ActionPayload?, any Error>)
    /// Files a widget's timeline reads changed on disk (see `Effect.watchFiles`).
    case filesChanged([String])
    /// The state folder's activities, read again after it changed (issue 39).
    case activitiesChanged(ActivityBook)
    /// A widget bundle's views drew an activity (`Effect.drawActivity`), or could not.
    case activityDrawn(ActivityViewKey, Result<ActivityPresentation, ActivityViewFailure>)
    /// A result for the Edit Widget form or the gallery (options, a preview, a directory).
    case edit(EditMsg)
    /// `swiftdash snapshot` asks (through the control socket) what every tile shows now; `watch`:
    /// it is a tmux status line (`--line --tmux`), showing these tiles (TmuxRefresh.swift).
    case snapshotRequested(any ControlAnswer, watch: TmuxLineWatch? = nil)
    /// A control-socket line that names widgets (`push`, `reload`), answered with the ids on screen now;
    /// `caughtUp`: home.yaml was read again first (ControlRequests.swift).
    case controlRequested(String, any ControlAnswer, caughtUp: Bool = false)
    /// A secret's command ended (`Effect.runSecretCommand`): the first line it printed, or why not.
    case secretCommandFinished(SecretCommand, Result<SecretText, SecretCommandFailure>)
    /// Something in the widgets folder changed (the folder watcher, after a burst settled).
    case extensionsFolderChanged
    /// What the widgets folder offers now (`Effect.scanExtensions`).
    case extensionsScanned(ExtensionCatalog)
}

/// Everything the program does besides computing the next state, returned by `update` and
/// run by the runtime (which turns results back into messages).
public enum Effect: Sendable {
    /// Run a provider; its result comes back as `.loaded` (or `.loadTimedOut`).
    case startLoad(LoadJob)
    /// A load whose result is no longer wanted.
    case cancelLoad(id: String, token: UInt64)
    /// Write these timeline records to the cache.
    case saveCache([InstanceRecord])
    case openURL(String)
    /// Something visible changed: draw a frame (`full`: clear the terminal first, Ctrl-L).
    case redraw(full: Bool)
    /// A line for the log file.
    case log(String)
    case quit
    /// Write Smart Stacks' use history and memory to the cache (`UsageStore`).
    case saveUsage(UsageHistory)
    /// Ring the terminal bell (a tile with `attention: bell` shows something new).
    case bell
    /// Load the theme `home.yaml` now names (and its opposite for `t`); the outcome comes back as
    /// `.themeLoaded`.
    case loadTheme(String)
    /// Write this home screen to `home.yaml`: only the changed lines, atomically, the previous
    /// version kept; refused while the file is broken. The outcome comes back as `.homeWritten`.
    case writeHome(HomeConfig)
    /// Run a widget's action; its result comes back as `.performed`.
    case perform(ActionJob)
    /// Watch these files (the whole set, replacing the last); a change comes back as `.filesChanged`.
    case watchFiles([String])
    /// Work for the Edit Widget form or the gallery; the result comes back as `.edit`.
    case edit(EditEffect)
    /// Answer a control-socket client that waits for the loop (`snapshot`).
    case reply(any ControlAnswer, String)
    /// Read home.yaml now (the runtime's `readHome`, which may post `.homeFileChanged`), then handle
    /// `then`: a request named an id the app does not know yet.
    case catchUpHome(then: Msg)
    /// Run a secret's command off the loop (no shell unless asked, a timeout); the outcome comes
    /// back as `.secretCommandFinished` and is kept in memory only (SecretCommands.swift).
    case runSecretCommand(SecretCommand)
    /// Describe the widgets folder's new and changed executables off the loop (unchanged ones
    /// keep their process); the outcome comes back as `.extensionsScanned`.
    case scanExtensions
    /// Ask tmux to redraw its status line (`tmux refresh-client -S`, no shell, output discarded):
    /// a value `snapshot --line` shows changed (TmuxRefresh.swift).
    case refreshTmuxStatus
    /// Ask a widget bundle to draw an activity with its own views, off the loop; the answer comes
    /// back as `.activityDrawn`.
    case drawActivity(ActivityViewJob)
}

extension Effect: CustomStringConvertible {
    public var description: String {
        switch self {
        case .startLoad(let j): return "startLoad(\(j.id), \(j.request.reason))"
        case .cancelLoad(let id, let token): return "cancelLoad(\(id), \(token))"
        case .saveCache(let r): return "saveCache(\(r.map(\.id).joined(separator: ",")))"
        case .openURL(let u): return "openURL(\(u))"
        case .redraw(let full): return full ? "redraw(full)" : "redraw"
        case .log(let l): return "log(\(l))"
        case .quit: return "quit"
        case .saveUsage: return "saveUsage"
        case .bell: return "bell"
        case .writeHome(let h): return "writeHome(\(h.tiles.map(\.id).joined(separator: ",")))"
        case .loadTheme(let name): return "loadTheme(\(name))"
        case .perform(let j): return "perform(\(j.instanceID), \(j.title))"
        case .watchFiles(let paths): return "watchFiles(\(paths.joined(separator: ",")))"
        case .edit(let e): return "edit(\(e))"
        case .reply(_, let text): return "reply(\(text.utf8.count) bytes)"
        case .catchUpHome: return "catchUpHome"
        case .runSecretCommand(let c): return "runSecretCommand(\(c))"
        case .scanExtensions: return "scanExtensions"
        case .refreshTmuxStatus: return "refreshTmuxStatus"
        case .drawActivity(let j): return "drawActivity(\(j.key.id), \(j.presenter.kind))"
        }
    }
}
