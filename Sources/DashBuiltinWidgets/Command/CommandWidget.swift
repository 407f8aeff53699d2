import Foundation
import DashWidgets

/// The output of one run of the command.
public struct CommandEntry: TimelineEntry, Hashable {
    public var date: Date
    public var label: String
    /// The command as written (for the detail pane).
    public var commandLine: String
    public var lines: [OutputLine]
    /// Lines beyond those kept.
    public var omittedLines: Int
    /// The output passed the size cap and the command was stopped there.
    public var truncated: Bool
    /// The cap, in bytes (for the note that says it was reached).
    public var outputLimit: Int
    public var exitStatus: Int32
    public var duration: Double
    /// Seconds between runs; 0 runs only on demand.
    public var interval: Int
    public var showsTail: Bool
    public var isPlaceholder: Bool

    public var summary: String {
        let first = lines.first { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }?.text ?? "(no output)"
        let status = exitStatus == 0 ? "" : " (exit \(exitStatus))"
        return "\(label): \(first.trimmingCharacters(in: .whitespaces))" + status
    }

    /// A command that fails is worth a look.
    public var relevance: Relevance? {
        guard !isPlaceholder, exitStatus != 0 else { return nil }
        return Relevance(score: 0.8, duration: TimeInterval(max(60, interval * 2)))
    }
}

/// A configuration checked and turned into what to run.
struct CommandSpec: Sendable, Hashable {
    var argv: [String]
    var shell: Bool
    var interval: Int
    var timeout: Int
    var outputLimit: Int
    var colors: Bool
    var tail: Bool
    var directory: String
    var label: String
    /// What the tile is titled with when there is no label.
    var display: String

    init(_ c: WidgetConfig) throws {
        // A list is the argv byte for byte (empty items and commas kept); a text is one line.
        let items: [String]
        if case .string(let line)? = c["command"] {
            items = line.isEmpty ? [] : [line]
        } else {
            items = c.list("command")
        }
        guard !items.isEmpty, !(items.count == 1 && items[0].allSatisfy(\.isWhitespace)) else {
            throw CommandError("no command set: give the program and its arguments")
        }
        shell = c.bool("shell")
        if shell {
            // The first item is the script; any further items are its arguments $1, $2…
            argv = ["/bin/sh", "-c", items[0]] + (items.count > 1 ? ["sh"] + items.dropFirst() : [])
            display = ([items[0]] + items.dropFirst().map(CommandSpec.quoted)).joined(separator: " ")
        } else if items.count == 1 {
            argv = try CommandSpec.words(items[0])
            display = items[0]
        } else {
            argv = items
            display = items.map(CommandSpec.quoted).joined(separator: " ")
        }
        guard !argv.isEmpty else { throw CommandError("no command set: give the program and its arguments") }
        interval = min(86400, max(0, c.int("interval") ?? 60))
        timeout = min(600, max(1, c.int("timeout") ?? 10))
        outputLimit = min(4096, max(1, c.int("outputLimit") ?? 256)) * 1024
        colors = c.bool("colors")
        tail = c.bool("tail")
        directory = (c.string("directory").trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
        label = TextSanitizer.singleLine(c.string("label"))
    }

    /// Splits a command line into words like a shell does, without expanding anything:
    /// 'single' and "double" quotes group, a backslash escapes the next character.
    static func words(_ s: String) throws -> [String] {
        var out: [String] = []
        var word = ""
        var inWord = false
        var quote: Character? = nil
        var escaped = false
        for ch in s {
            if escaped {
                word.append(ch)
                escaped = false
                inWord = true
                continue
            }
            if let q = quote {
                if ch == q { quote = nil } else if ch == "\\" && q == "\"" { escaped = true } else { word.append(ch) }
                continue
            }
            switch ch {
            case "\\":
                escaped = true
                inWord = true
            case "'", "\"":
                quote = ch
                inWord = true
            case " ", "\t", "\n":
                if inWord {
                    out.append(word)
                    word = ""
                    inWord = false
                }
            default:
                word.append(ch)
                inWord = true
            }
        }
        if quote != nil { throw CommandError("unclosed quote in the command: \(s)") }
        if inWord { out.append(word) }
        return out
    }

    static func quoted(_ w: String) -> String {
        let special = " \t'\"\\$|;&<>()*?[]{}~`#!"
        guard w.isEmpty || w.contains(where: { special.contains($0) }) else { return w }
        return "'" + w.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// What the tile is titled with.
    var title: String { label.isEmpty ? TextSanitizer.singleLine(display) : label }
}

/// The runs in progress, for the whole process: a load for a command that is still
/// running (a reload asked for while the last run has not ended, or the same command in
/// two tiles) waits for that run and shares its result, so runs of one configuration
/// never overlap.
public actor CommandRunRegistry {
    public static let shared = CommandRunRegistry()
    private var inFlight: [CommandSpec: Task<CommandResult, Error>] = [:]
    private var started = 0
    public init() {}

    func run(_ spec: CommandSpec, environment: [String: String]) async throws -> CommandResult {
        if let running = inFlight[spec] { return try await running.value }
        started += 1
        let task = Task.detached {
            try await CommandRunner.run(
                spec.argv, directory: spec.directory.isEmpty ? nil : spec.directory,
                environment: environment, timeout: Double(spec.timeout),
                outputCap: spec.outputLimit)
        }
        inFlight[spec] = task
        defer { inFlight[spec] = nil }
        return try await task.value
    }

    /// Runs started so far (joined loads do not count).
    public var runsStarted: Int { started }
}

/// The command widget: the output of a program the user names, every `interval` seconds
/// or on demand.
public enum CommandWidget {
    public static let kind = "command"

    public static let schema = ConfigurationSchema([
        Parameter(
            key: "command", title: "Command",
            help: "The program and its arguments, as a list, each item one argument as written "
                + "(or one line, split into words without a shell); with shell: true, one line for sh -c "
                + "(further list items are its $1, $2…)",
            kind: .list(itemPattern: nil), default: .list(["uptime"])
        ).textAsOneItem(),
        Parameter(
            key: "shell", title: "Run through sh -c",
            help: "Needed for pipes, redirections and variables; off runs the program directly",
            kind: .bool, default: .bool(false)),
        Parameter(
            key: "interval", title: "Interval", help: "Seconds between runs; 0 runs it only when asked (r)",
            kind: .integer(0...86400), default: .int(60)),
        Parameter(
            key: "timeout", title: "Timeout", help: "Seconds before the command and what it started are killed",
            kind: .integer(1...600), default: .int(10)),
        Parameter(
            key: "outputLimit", title: "Output limit",
            help: "Kilobytes of output read; the command is stopped past it",
            kind: .integer(1...4096), default: .int(256)),
        Parameter(
            key: "colors", title: "Colours", help: "Keep the output's colours and bold (SGR) as styles",
            kind: .bool, default: .bool(false)),
        Parameter(
            key: "tail", title: "Show the end", help: "Show the last lines of the output instead of the first",
            kind: .bool, default: .bool(false)),
        Parameter(
            key: "directory", title: "Working folder",
            help: "Where the command runs; empty for the home screen's",
            kind: .filePath, default: .string("")),
        Parameter(
            key: "label", title: "Label", help: "The tile's title; the command when empty",
            kind: .string(pattern: #"[^\n]{0,60}"#), default: .string("")
        ).allowing("a title of at most 60 characters"),
    ])

    public static let widget = make()

    public static func make(runs: CommandRunRegistry = .shared) -> Widget {
        Widget(
            kind: kind, displayName: "Command",
            description: "The output of a command you name, every N seconds or on demand",
            supportedFamilies: [.small, .medium, .large, .extraLarge],
            // The command's own timeout (at most 600 s) ends it first.
            schema: schema, cost: .local, timeout: 610,
            provider: CommandProvider(runs: runs),
            view: { entry, ctx in CommandViews.tile(entry, ctx) },
            detail: { link, entry, ctx in CommandViews.detail(link, entry, ctx) })
    }

    static let link = DeepLink.make(kind: kind, "output")
}

struct CommandProvider: TimelineProvider {
    let runs: CommandRunRegistry

    func placeholder(in context: TimelineContext) -> CommandEntry {
        var e = CommandSamples.entry(now: context.now)
        e.isPlaceholder = true
        return e
    }

    func snapshot(for configuration: WidgetConfig, in context: TimelineContext) async -> CommandEntry {
        var sample = CommandSamples.entry(now: context.now)
        if let spec = try? CommandSpec(configuration), spec.display != "uptime" {
            sample.label = spec.title
            sample.commandLine = spec.display
        }
        // The gallery and `preview` never run the command: running it is what the user adds.
        return sample
    }

    func timeline(for configuration: WidgetConfig, in context: TimelineContext) async throws -> Timeline<CommandEntry> {
        let spec = try CommandSpec(configuration)
        var env = ProcessInfo.processInfo.environment
        if context.size.width > 0 {
            env["COLUMNS"] = String(context.size.width)
            env["LINES"] = String(context.size.height)
        }
        let result = try await runs.run(spec, environment: env)
        if result.timedOut, result.backgroundHeldOutput {
            throw CommandError(CommandResult.heldOutputMessage(spec.argv[0], seconds: spec.timeout))
        }
        if result.timedOut {
            throw CommandError(
                "\(spec.argv[0]) did not finish within \(spec.timeout) s: "
                    + "it and its process group were killed")
        }
        let parsed = TerminalOutput.parse(result.output, colors: spec.colors, keepLast: spec.tail)
        let status: Int32
        switch result.ending {
        case .exited(let s): status = s
        case .signalled(let sig):
            // Stopped at the output cap: that was us, and the output is what we wanted.
            if !result.truncated { throw CommandError("\(spec.argv[0]) was killed by signal \(sig)") }
            status = 0
        }
        if status != 0 && parsed.lines.isEmpty {
            throw CommandError("\(spec.argv[0]) exited with status \(status) and printed nothing")
        }
        let entry = CommandEntry(
            date: context.now, label: spec.title,
            commandLine: TextSanitizer.singleLine(spec.display),
            lines: parsed.lines, omittedLines: parsed.omittedLines, truncated: result.truncated,
            outputLimit: spec.outputLimit, exitStatus: status, duration: result.duration,
            interval: spec.interval, showsTail: spec.tail, isPlaceholder: false)
        let next = context.now.addingTimeInterval(Double(spec.interval))
        let policy: ReloadPolicy = spec.interval > 0 ? .after(next) : .never
        return Timeline(entries: [entry], policy: policy)
    }
}

/// Sample output for the placeholder, the gallery and `preview`.
enum CommandSamples {
    static func entry(now: Date) -> CommandEntry {
        let lines = [
            OutputLine([StyledRun(" 09:41:07 up 3 days,  4:12,  2 users,  load average: 0.52, 0.58, 0.59")])
        ]
        return CommandEntry(
            date: now, label: "uptime", commandLine: "uptime", lines: lines, omittedLines: 0,
            truncated: false, outputLimit: 256 * 1024, exitStatus: 0, duration: 0.01, interval: 60,
            showsTail: false, isPlaceholder: false)
    }
}
