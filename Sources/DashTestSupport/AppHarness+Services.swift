import Foundation
import DashCore
import DashWidgets
import DashApp
import DashHome
import DashHomeFiles
import DashRuntime

/// The fake services an `AppHarness` gives the runtime: each records what it was handed, on the
/// test's thread (the runtime's file work runs inline there), and nothing leaves the process.
final class HarnessWork: @unchecked Sendable {
    var loads: [LoadJob] = []
    var opened: [String] = []
    var savedUsage: UsageHistory?
    var homeWrites: [HomeConfig] = []
    var actionJobs: [ActionJob] = []
    var watchedFiles: [String] = []
    var edits: [EditEffect] = []
    /// Secrets' commands the app asked to run (none runs: a test answers `.secretCommandFinished`).
    var secretCommands: [SecretCommand] = []
    /// How often the app asked to describe the widgets folder again (a test answers `.extensionsScanned`).
    var extensionScans = 0
    /// Activities the app asked a widget bundle to draw (a test runs them: `runActivityViews`).
    var activityJobs: [ActivityViewJob] = []
    var homeWriter: (@Sendable (HomeConfig, HomeFileState?) -> Result<String, HomeWriteFailure>)?
    var homeReader: (@Sendable () -> Msg?)?
    let bundle: WidgetBundle

    init(bundle: WidgetBundle) { self.bundle = bundle }

    /// A test that answers work with a message of its own (`.loaded`, `.performed`, a form's
    /// result) answered that work.
    func answered(by msg: Msg) {
        switch msg {
        case .loaded(_, let token, _), .loadTimedOut(_, let token, _):
            loads.removeAll { $0.token == token }
        case .performed(let id, let actionID, _):
            actionJobs.removeAll { $0.instanceID == id && $0.id == actionID }
        case .edit(.optionsLoaded(let token, _)), .edit(.previewLoaded(let token, _)),
            .edit(.directoryListed(let token, _)):
            edits.removeAll { $0.token == token }
        default:
            break
        }
    }

    var services: RuntimeServices {
        var s = RuntimeServices(
            openURL: { [unowned self] url in
                opened.append(url)
                return nil
            },
            startLoad: { [unowned self] job, _ in
                loads.append(job)
                return { [unowned self] in loads.removeAll { $0.token == job.token } }
            },
            edit: { [unowned self] e, _ in edits.append(e) })
        s.saveUsage = { [unowned self] in savedUsage = $0 }
        s.perform = { [unowned self] job, _ in actionJobs.append(job) }
        s.watchFiles = { [unowned self] paths, _ in watchedFiles = paths }
        s.runSecretCommand = { [unowned self] command, _ in secretCommands.append(command) }
        s.scanExtensions = { [unowned self] _ in extensionScans += 1 }
        s.drawActivity = { [unowned self] job, _ in activityJobs.append(job) }
        s.writeHome = { [unowned self] home, base, _ in
            homeWrites.append(home)
            if let homeWriter { return homeWriter(home, base) }
            return Self.inMemory(home, over: base, bundle: bundle)
        }
        s.readHome = { [unowned self] in homeReader?() }
        s.loadTheme = { name, _ in
            switch name {
            case Theme.light.name: return .success(ThemePair(.light, .dark))
            case Theme.dark.name: return .success(ThemePair(.dark, .light))
            default: return .failure(ThemeProblem(message: "no theme \(name) in a test"))
            }
        }
        return s
    }

    /// A home.yaml that lives in memory: the app's minimal edit of the text it knows (nothing
    /// known, no file: written as nothing, which the app takes as "no file to update").
    static func inMemory(_ home: HomeConfig, over base: HomeFileState?, bundle: WidgetBundle) -> Result<
        String, HomeWriteFailure
    > {
        guard let base else { return .success("") }
        do {
            return .success(try HomeText.edit(base.text, holding: base.home, to: home, bundle: bundle, file: base.path))
        } catch {
            return .failure(HomeWriteFailure(.notSaved, "not saved: \(error)"))
        }
    }
}

extension AppHarness {
    /// How often the app asked the runtime to describe the widgets folder again.
    public var extensionScans: Int { work.extensionScans }

    /// Activities the app asked widget bundles to draw, not yet answered, oldest first.
    public var activityViewJobs: [ActivityViewJob] { work.activityJobs }

    /// Runs every open `activity` request for real (blocking: the extension answers), in order,
    /// and feeds the answers back.
    public func runActivityViews() {
        while !work.activityJobs.isEmpty {
            let job = work.activityJobs.removeFirst()
            send(.activityDrawn(job.key, job.run()))
        }
    }
}

extension EditEffect {
    /// The token its answer comes back with.
    var token: UInt64 {
        switch self {
        case .loadOptions(let r): return r.token
        case .loadPreview(let r): return r.token
        case .listDirectory(let r): return r.token
        }
    }
}
