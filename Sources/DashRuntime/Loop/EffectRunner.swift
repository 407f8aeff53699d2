import DashWidgets
import DashScheduler
import DashApp
import DashHome

/// What runs the effects `App.update` returns: the home screen's `Runtime` and the one-shot
/// commands' `OneShotRunner` (`render`, `timeline`). One requirement per `Effect` case and no
/// default implementation, so a new effect is a compile error until every runner says what it
/// does with it: runs it, or refuses it with a reason (`OneShotRunner.refused`).
protocol EffectRunner: AnyObject {
    func startLoad(_ job: LoadJob)
    func cancelLoad(id: String, token: UInt64)
    func saveCache(_ records: [InstanceRecord])
    func openURL(_ url: String)
    func redraw(full: Bool)
    func log(_ line: String)
    func quit()
    func saveUsage(_ usage: UsageHistory)
    func bell()
    func loadTheme(_ name: String)
    func writeHome(_ home: HomeConfig)
    func perform(_ job: ActionJob)
    func watchFiles(_ paths: [String])
    func edit(_ work: EditEffect)
    func reply(_ answer: any ControlAnswer, _ text: String)
    func catchUpHome(then next: Msg)
    func runSecretCommand(_ command: SecretCommand)
    func scanExtensions()
    func refreshTmuxStatus()
    func drawActivity(_ job: ActivityViewJob)
}

/// The one interpreter of effects: every case, in order, handed to the runner's requirement for
/// it. No `default:`, so no effect is dropped without a word.
enum EffectInterpreter {
    static func run(_ effects: [Effect], on runner: some EffectRunner) {
        for effect in effects {
            switch effect {
            case .startLoad(let job): runner.startLoad(job)
            case .cancelLoad(let id, let token): runner.cancelLoad(id: id, token: token)
            case .saveCache(let records): runner.saveCache(records)
            case .openURL(let url): runner.openURL(url)
            case .redraw(let full): runner.redraw(full: full)
            case .log(let line): runner.log(line)
            case .quit: runner.quit()
            case .saveUsage(let usage): runner.saveUsage(usage)
            case .bell: runner.bell()
            case .loadTheme(let name): runner.loadTheme(name)
            case .writeHome(let home): runner.writeHome(home)
            case .perform(let job): runner.perform(job)
            case .watchFiles(let paths): runner.watchFiles(paths)
            case .edit(let work): runner.edit(work)
            case .reply(let answer, let text): runner.reply(answer, text)
            case .catchUpHome(let next): runner.catchUpHome(then: next)
            case .runSecretCommand(let command): runner.runSecretCommand(command)
            case .scanExtensions: runner.scanExtensions()
            case .refreshTmuxStatus: runner.refreshTmuxStatus()
            case .drawActivity(let job): runner.drawActivity(job)
            }
        }
    }
}
