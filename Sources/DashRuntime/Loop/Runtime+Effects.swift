import DashWidgets
import DashScheduler
import DashApp
import DashHome

/// The home screen runs every effect: through its services, its file thread and its terminal.
/// What comes back is a message, never a write to the state.
extension Runtime: EffectRunner {
    func startLoad(_ job: LoadJob) { loadsToStart.append(job) }

    func cancelLoad(id: String, token: UInt64) {
        loadsToStart.cancel(token)
        loadsInFlight.remove(token)
        cancels.removeValue(forKey: token)?()
    }

    func saveCache(_ records: [InstanceRecord]) { services.saveCache(records) }

    func openURL(_ url: String) {
        if let problem = services.openURL(url) { send(.urlNotOpened(url, problem: problem)) }
    }

    func redraw(full: Bool) {
        needsDraw = true
        if full { fullRedraw = true }
    }

    func log(_ line: String) { services.log(line) }

    /// `state.quitting` ends `run()`.
    func quit() {}

    func saveUsage(_ usage: UsageHistory) { services.saveUsage(usage) }

    func bell() { terminal.bell() }

    func loadTheme(_ name: String) {
        let (load, home, inbox) = (services.loadTheme, state.home, inbox)
        fileWork.run { inbox.post(.themeLoaded(name: name, load(name, home))) }
    }

    func writeHome(_ home: HomeConfig) {
        writesInFlight += 1
        fileWork.writeHome(home, over: state.homeFile, with: services.writeHome, to: inbox)
    }

    func perform(_ job: ActionJob) { services.perform(job, inbox) }

    func watchFiles(_ paths: [String]) { services.watchFiles(paths, inbox) }

    func edit(_ work: EditEffect) { services.edit(work, inbox) }

    func reply(_ answer: any ControlAnswer, _ text: String) { answer.fulfil(text) }

    func catchUpHome(then next: Msg) {
        let (read, inbox, fresh) = (services.readHome, inbox, freshReads)
        fileWork.run {
            if let m = read() { inbox.post(fresh.noting(m)) }
            inbox.post(next)
        }
    }

    func runSecretCommand(_ command: SecretCommand) { services.runSecretCommand(command, inbox) }

    func scanExtensions() { services.scanExtensions(inbox) }

    func refreshTmuxStatus() { services.refreshTmuxStatus() }

    func drawActivity(_ job: ActivityViewJob) { services.drawActivity(job, inbox) }
}
