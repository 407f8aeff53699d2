import Foundation
import Glibc
import ArgumentParser
import DashWidgets
import DashActivities
import DashActivityFiles

/// `swiftdash run -- CMD ARGS…` (issue 39.3): the command in the foreground, unchanged, while a
/// `command` activity shows its elapsed time, the last line it printed, a progress taken from its
/// output, and ends with its exit status and duration, alerting.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run a command as it is, with a Live Activity showing how it goes.",
        usage: "swiftdash run [--title <title>] -- <command> [<arguments> ...]",
        discussion: """
            The command runs in the foreground exactly as it would without swiftdash: the same \
            input, its output byte for byte (on a terminal it still sees a terminal: swiftdash puts \
            a pseudo-terminal in between, as `script` does, and passes the window size on), and \
            its exit status is run's (a command killed by a signal kills run with the same signal).

            Meanwhile an activity shows its elapsed time, the last line it printed, and a progress \
            where it prints one (42%, [12/80] as ninja and swift build print it, 12/80 as cargo \
            does). It ends with the exit status and the duration, and alerts. When 5 activities \
            are active already, the command runs without one (a warning says so).

            Examples:
              swiftdash run -- make -j8
              swiftdash run --title "nightly tests" -- swift test
            """)

    @Option(help: "The activity's title (default: the command line).")
    var title: String?

    @Argument(parsing: .postTerminator, help: "The command and its arguments, after --.")
    var command: [String] = []

    @OptionGroup var homeOption: HomeOption

    func validate() throws {
        if command.isEmpty { throw ValidationError("give the command to run after --, e.g. swiftdash run -- make") }
    }

    func run() throws {
        let runner = CommandRunner(argv: command)
        let pid: pid_t
        do { pid = try runner.start() } catch {
            printError("swiftdash: \(error.description)")
            Glibc.exit(error.status)
        }
        let line = ActivityInput.text(command.joined(separator: " "))
        let shownTitle = ActivityInput.text(title ?? line, max: 100)
        let id = ActivityStore.newID()
        let store = activityStore()
        let attrs: JSONValue = .object([
            "command": .string(line), "title": .string(shownTitle), "pid": .number(Double(pid)),
        ])
        var activity = Activity(
            id: id, kind: "command", attributes: attrs, content: ActivityContent(state: .object([:])), started: Date())
        // Killed (SIGKILL, a power cut), we leave it to whoever reads next to end it: the home
        // screen follows its owner's pid (`OwnerWatch`).
        activity.owner = ProcessIdentity.current()
        let since = runner.spawnedAt
        // Written only once the command has run a moment (`CommandRunner.startDelay`), while it
        // runs; one that ends before is written once, with its end. Nothing is written before the
        // command starts, so run adds to its time only the start of a process and one write.
        var live = false
        func warn(_ error: any Error) {
            runner.restoreTerminalForMessage {
                printError("swiftdash: warning: no activity for this run: \(error)")
            }
        }
        runner.onStart = { scanner in
            activity.content.state = Self.state(scanner)
            do {
                try store.modify(durable: false, now: { Date() }) { (book, at) throws(ActivityError) in
                    try book.start(activity, at: at, since: since)
                }
                live = true
            } catch {
                warn(error)
            }
        }
        runner.onOutput = { scanner in
            guard live else { return }
            let state = Self.state(scanner)
            do {
                try store.modify(durable: false, now: { Date() }) { (book, at) throws(ActivityError) in
                    guard let old = book[id], !old.isEnded else { return }
                    var content = old.content
                    content.state = state
                    try book.update(id, content: content, at: at)
                }
            } catch {
                // The activity went (ended by hand, or the file is gone): the command goes on.
                live = false
            }
        }
        let ending = runner.wait()
        if live || !runner.started {
            var state = Self.state(runner.scanner).object ?? [:]
            let words: String
            switch ending {
            case .exited(let status):
                state["exit"] = .number(Double(status))
                words = status == 0 ? "succeeded" : "failed, exit \(status)"
            case .signalled(let sig):
                state["signal"] = .number(Double(sig))
                words = "killed by signal \(sig)"
            }
            let startNow = !runner.started
            // Not flushed to the disk: after a power cut the owner is gone, and the next reader
            // ends it (lost) all the same.
            do {
                try store.modify(durable: false, now: { Date() }) { (book, at) throws(ActivityError) in
                    if startNow { try book.start(activity, at: at, since: since) }
                    guard let old = book[id], !old.isEnded else { return }
                    var content = old.content
                    content.state = .object(state)
                    let ran = ActivityTime.span(at.timeIntervalSince(old.started))
                    let alert = ActivityAlert(title: "\(shownTitle) \(words)", body: "after \(ran)", bell: true, date: at)
                    try book.end(id, content: content, alert: alert, at: at)
                }
            } catch {
                if startNow { warn(error) }
            }
        }
        switch ending {
        case .exited(let status): Glibc.exit(status)
        case .signalled(let sig):
            // Die the same way, so whoever started us sees what the command's end was.
            signal(sig, SIG_DFL)
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, sig)
            sigprocmask(SIG_UNBLOCK, &set, nil)
            raise(sig)
            Glibc.exit(128 + sig)
        }
    }

    /// The content state the scanner's findings make.
    static func state(_ s: OutputScanner) -> JSONValue {
        var o: [String: JSONValue] = ["line": .string(s.lastLine)]
        if let p = s.progress {
            if s.progressIsPercent {
                o["progress"] = .number(Double(p.done) / 100)
            } else {
                o["done"] = .number(Double(p.done))
                o["total"] = .number(Double(p.total))
            }
        }
        return .object(o)
    }
}
