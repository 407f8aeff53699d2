import Foundation
import ArgumentParser
import DashWidgets
import DashHome
import DashActivities
import DashActivityFiles

/// `swiftdash activity …`: Live Activities from any script (issue 39.3).
struct ActivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "Start, update and end Live Activities: something happening now, on the home screen and tmux line.",
        discussion: """
            An activity is ActivityKit's model in the terminal: a KIND, static attributes (JSON), a \
            content state that changes (JSON), a stale date and a relevance score. It is active until \
            it ends (with a final state) or ends itself after 8 hours; an ended one stays shown until \
            its dismissal (default: up to 4 hours; immediate; or a date). At most 5 are active at \
            once. They live in $XDG_STATE_HOME/swiftdash/activities.json, so they outlast a restart \
            of the home screen and can be started while none runs.

            Built-in kinds:
              generic  attributes: title, subtitle, url
                       state: title, subtitle, status, progress (0-1 or "n of m"),
                       done and total, eta (a date, shown counting down)
              timer    attributes: title; state: end (the date it counts down to)
              command  what `swiftdash run` and `activity watch` start

            A final state may say how it ended: exit (a status), signal, outcome (success or \
            failure). Dates: ISO 8601, seconds since 1970, or from now: +90s, +10m, +1h30m.

            Example:
              id=$(swiftdash activity start generic --attributes '{"title":"Deploy"}' \\
                     --state '{"status":"uploading","progress":0.2}')
              swiftdash activity update "$id" --state '{"status":"migrating","progress":"3 of 5"}'
              swiftdash activity end "$id" --state '{"status":"live","outcome":"success"}'
            """,
        subcommands: [
            ActivityStart.self, ActivityUpdate.self, ActivityEnd.self, ActivityList.self, ActivityWatch.self,
        ])
}

/// Where the activities of the chosen home live.
func activityStore() -> ActivityStore {
    ActivityStore(directory: AppPaths(environment: processEnvironment).state)
}

/// Runs a change of the store; a refusal is a usage error (status 2), a file problem a runtime one.
func changeActivities<T>(
    durable: Bool = true, _ body: (inout ActivityBook, Date) throws(ActivityError) -> T
) throws -> T {
    do { return try activityStore().modify(durable: durable, now: { Date() }, body) } catch {
        switch error {
        case .invalid(let why) where why.hasPrefix("cannot ") || why.contains("activities file"):
            throw runtimeFailure(why)
        default: throw usageFailure(error.description)
        }
    }
}

/// Parses what the user typed into activity values; a mistake is a usage error.
func activityInput<T>(_ body: () throws(ActivityError) -> T) throws -> T {
    do { return try body() } catch { throw usageFailure(error.description) }
}

struct ActivityStart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start an activity; prints its id.",
        usage: "swiftdash activity start <kind> [--state <json>] [<options>]",
        discussion: "Refused (status 2) when 5 are active. See `swiftdash activity --help` for the kinds.")

    @Argument(help: "The kind: generic, timer, command, or a kind of your own (drawn as generic).")
    var kind: String

    @Option(help: "Static attributes, a JSON object (at most 4 KB).")
    var attributes: String = "{}"

    @Option(help: "The content state, a JSON object (at most 4 KB).")
    var state: String = "{}"

    @Option(help: "When the content goes stale without an update (ISO 8601, seconds since 1970, or +10m).")
    var staleDate: String?

    @Option(help: "How relevant among the others (higher shows first); default 0.")
    var relevance: String?

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        let now = Date()
        let (attrs, content) = try activityInput { () throws(ActivityError) in
            try ActivityInput.checkName(kind, what: "the kind")
            let attrs = try ActivityInput.object(attributes, what: "--attributes")
            var content = ActivityContent(state: try ActivityInput.object(state, what: "--state"))
            if let staleDate { content.staleDate = try ActivityInput.staleDate(staleDate, now: now) }
            if let relevance { content.relevanceScore = try ActivityInput.relevance(relevance) }
            if kind == "timer", content.state["end"] == nil, attrs["end"] == nil {
                throw .invalid("a timer needs the date it counts down to: --state '{\"end\":\"+25m\"}'")
            }
            return (attrs, content)
        }
        let id = ActivityStore.newID()
        try changeActivities { (book, at) throws(ActivityError) in
            try book.start(Activity(id: id, kind: kind, attributes: attrs, content: content, started: at), at: at)
        }
        printOut(id)
    }
}

struct ActivityUpdate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update", abstract: "Give an active activity a new content state.",
        usage: "swiftdash activity update <id> --state <json> [<options>]",
        discussion: """
            --alert expands the strip for a moment and rings the terminal bell where the home \
            screen allows it: plain text (the title) or {"title": …, "body": …, "bell": false}.
            """)

    @Argument(help: "The activity's id (as `activity start` printed it).")
    var id: String

    @Option(help: "The new content state, a JSON object (at most 4 KB).")
    var state: String

    @Option(help: "A new stale date (ISO 8601, seconds since 1970, or +10m).")
    var staleDate: String?

    @Option(help: "A new relevance score.")
    var relevance: String?

    @Option(help: "Alert with this update: text, or a JSON object with title, body, bell.")
    var alert: String?

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        let now = Date()
        let (newState, stale, score, alertValue) = try activityInput { () throws(ActivityError) in
            let s = try ActivityInput.object(state, what: "--state")
            let stale = try staleDate.map { (t) throws(ActivityError) in try ActivityInput.staleDate(t, now: now) }
            let score = try relevance.map { (t) throws(ActivityError) in try ActivityInput.relevance(t) }
            let a = try alert.map { (t) throws(ActivityError) in try ActivityInput.alert(t, at: now) }
            return (s, stale, score, a)
        }
        try changeActivities { (book, at) throws(ActivityError) in
            guard let old = book[id] else { throw .unknown(id) }
            var content = old.content
            content.state = newState
            if let stale { content.staleDate = stale }
            if let score { content.relevanceScore = score }
            var a = alertValue
            a?.date = at
            try book.update(id, content: content, alert: a, at: at)
        }
    }
}

struct ActivityEnd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "end", abstract: "End an activity, with its final state.",
        usage: "swiftdash activity end <id> [--state <json>] [<options>]",
        discussion: """
            An ended activity stays shown with its final state until dismissed: --dismiss default \
            (up to 4 hours), immediate, or a date (ISO 8601, seconds since 1970, +10m; at most 4 \
            hours on). `activity list --ended` keeps it afterwards.
            """)

    @Argument(help: "The activity's id.")
    var id: String

    @Option(help: "The final content state, a JSON object; e.g. {\"outcome\":\"success\"} or {\"exit\":3}.")
    var state: String?

    @Option(help: "When it leaves the screen: default, immediate, or a date.")
    var dismiss: String = "default"

    @Option(help: "Alert as it ends: text, or a JSON object with title, body, bell.")
    var alert: String?

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        let now = Date()
        let (final, dismissal, alertValue) = try activityInput { () throws(ActivityError) in
            (
                try state.map { (t) throws(ActivityError) in try ActivityInput.object(t, what: "--state") },
                try ActivityInput.dismissal(dismiss, now: now),
                try alert.map { (t) throws(ActivityError) in try ActivityInput.alert(t, at: now) }
            )
        }
        try changeActivities { (book, at) throws(ActivityError) in
            guard let old = book[id] else { throw .unknown(id) }
            var content = old.content
            if let final { content.state = final }
            var a = alertValue
            a?.date = at
            try book.end(id, content: content, dismissal: dismissal, alert: a, at: at)
        }
    }
}
