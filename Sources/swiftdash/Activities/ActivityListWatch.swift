import Foundation
import ArgumentParser
import DashWidgets
import DashActivities
import DashActivityFiles

struct ActivityList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the activities shown now, or (--ended) those that ended.",
        usage: "swiftdash activity list [--ended] [--json] [<options>]",
        discussion: """
            Each line: id, kind, phase (active, stale, ended), the compact form, the timing or how it \
            ended, and its last line. --ended lists the ended ones, newest first: those still shown \
            and a history of the last 50.
            """)

    @Flag(help: "The ended ones: what ran, how long, how it ended.")
    var ended = false

    @Flag(help: "JSON: one array of activities.")
    var json = false

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        let now = Date()
        let book: ActivityBook
        do { book = try activityStore().load(at: now, history: ended) } catch { throw runtimeFailure(error.description) }
        let list = ended ? book.endedList(at: now) : book.shown(at: now)
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? e.encode(list.map { ActivitySummary($0, at: now) })) ?? Data("[]".utf8)
            printOut(String(decoding: data, as: UTF8.self))
            return
        }
        for a in list { printOut(ActivityLine.listing(a, at: now)) }
    }
}

struct ActivityWatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Follow a process that is already running; end when it exits.",
        usage: "swiftdash activity watch <pid> [--title <title>] [<options>]",
        discussion: """
            Starts a `command` activity for the process and waits (no polling: a pidfd) until it \
            exits. Its exit status is known only while the system still holds it: when the process \
            has exited but its parent has not yet collected it (read from /proc); otherwise the \
            activity ends saying it exited, status unknown. Ctrl-C stops watching and ends the \
            activity so.
            """)

    @Argument(help: "The process id.")
    var pid: Int32

    @Option(help: "The title (default: the process's command line).")
    var title: String?

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        guard pid > 0, ProcessWatch.exists(pid) else { throw usageFailure("no process \(pid)") }
        let command = ProcessWatch.commandLine(pid) ?? "process \(pid)"
        let watch = try ProcessWatch(pid: pid).orFailure()
        let id = ActivityStore.newID()
        let attrs: JSONValue = .object([
            "command": .string(ActivityInput.text(command)), "pid": .number(Double(pid)),
            "title": .string(ActivityInput.text(title ?? command, max: 100)),
        ])
        var activity = Activity(
            id: id, kind: "command", attributes: attrs, content: ActivityContent(state: .object([:])), started: Date())
        // Killed while watching, we leave it to whoever reads next to end it (`OwnerWatch`).
        activity.owner = ProcessIdentity.current()
        try changeActivities { (book, at) throws(ActivityError) in try book.start(activity, at: at) }
        printOut(id)
        let ending = watch.wait()
        var state: [String: JSONValue] = [:]
        switch ending {
        case .exited(let status): state["exit"] = .number(Double(status))
        case .signalled(let n): state["signal"] = .number(Double(n))
        case .unknown: state["outcome"] = .string("unknown")
        case .interrupted:
            state["outcome"] = .string("unknown")
            state["line"] = .string("stopped watching")
        }
        let alert = ActivityAlert(title: ActivityInput.text(title ?? command, max: 100), body: "", bell: true, date: Date())
        try changeActivities { (book, at) throws(ActivityError) in
            guard let old = book[id], !old.isEnded else { return }
            var content = old.content
            content.state = .object(state)
            try book.end(id, content: content, alert: alert, at: at)
        }
    }
}
