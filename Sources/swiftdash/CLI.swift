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
import DashNetworking
import DashScheduler
import DashFiles
import DashCurses
import Logging

/// Prints `swiftdash: error: …` to standard error and exits with status 2 (usage error).
func usageFailure(_ message: String) -> ExitCode {
    printError("swiftdash: error: \(message)")
    return ExitCode(2)
}

/// Prints a runtime error and exits with status 1.
func runtimeFailure(_ message: String) -> ExitCode {
    printError("swiftdash: error: \(message)")
    return ExitCode(1)
}

/// The widgets folder as this process found it at start (a running home screen scans it again
/// when it changes), and the built-in widgets with the extensions' widgets.
let extensionStart = Extensions.start(builtin: BuiltinWidgets.bundle, environment: processEnvironment) { line in
    if extensionNewsToLog {
        Logger(label: "swiftdash").info("\(line)")
        return
    }
    // A one-off command: each extension the folder cannot use, once, as a warning; the process's
    // own restarts are no news to a command that exits.
    let prefix = "extension: "
    guard line.hasPrefix(prefix) else { return }
    printError("swiftdash: warning: " + TextSanitizer.singleLine(String(line.dropFirst(prefix.count))))
}
/// Where the widgets folder's news goes: the home screen's log file once `Home.run` has set it up;
/// before that (and in every other command), standard error (`extensionStart`).
nonisolated(unsafe) var extensionNewsToLog = false
let bundle = extensionStart.bundle

/// The built-in widgets with the extensions' widgets the widgets folder offers now.
func currentBundle() -> WidgetBundle {
    WidgetBundle(BuiltinWidgets.bundle.widgets + extensionStart.folder.current.widgets)
}
/// When main() started, for the "first frame after N ms" log line.
nonisolated(unsafe) var startedAt = ContinuousClock.now
/// Changed once, before any command runs, by `--home`/`--config` (`HomeOption`); read-only after.
nonisolated(unsafe) var processEnvironment = ProcessInfo.processInfo.environment
/// The one place the process's time zone and environment are read; everything below takes
/// them from here.
let appEnvironment = AppEnvironment(bundle: bundle, timeZone: .current, variables: processEnvironment)

/// Parses `--at` (ISO 8601, e.g. 2026-11-23T09:30:00Z).
func parseInstant(_ text: String?) throws -> Date {
    guard let text else { return Date() }
    if let d = try? Date(text, strategy: .iso8601) { return d }
    throw usageFailure("--at '\(text)' is not an ISO 8601 time; use e.g. 2026-11-23T09:30:00Z")
}

/// The largest screen `render` draws (a buffer of 10000x10000 cells would take gigabytes).
let maximumRenderScreen = Size(width: 1000, height: 1000)

/// Parses `--size`: at least one small tile and the status bar, at most `maximumRenderScreen`.
func parseSize(_ text: String) throws -> Size {
    let least = GridMetrics.minimumScreen, most = maximumRenderScreen
    let allowed =
        "size must be COLSxROWS with \(least.width)..\(most.width) columns and \(least.height)..\(most.height) rows,"
        + " e.g. 80x24"
    guard let s = Size(parsing: text), s.width <= most.width, s.height <= most.height else {
        throw usageFailure("--size \(quoted(text)): \(allowed)")
    }
    guard s.width >= least.width, s.height >= least.height else {
        throw usageFailure("--size \(quoted(text)) is too small for one tile and the status bar; \(allowed)")
    }
    return s
}

/// A word the user typed, quoted for an error message after sanitising; says so when nothing is left.
func quoted(_ text: String) -> String {
    let clean = TextSanitizer.singleLine(text)
    guard clean.isEmpty else { return "'\(clean)'" }
    return text.isEmpty ? "'' (empty)" : "(empty after removing control characters)"
}

/// The usage error for a widget kind the bundle does not have, listing the kinds it has.
func unknownWidget(_ kind: String) -> ExitCode {
    let what = TextSanitizer.singleLine(kind).isEmpty ? "unknown widget kind " : "unknown widget "
    return usageFailure("\(what)\(quoted(kind)); available: \(bundle.kinds.joined(separator: ", "))")
}

/// `backgroundIsDark`: what the terminal said of its background (`theme: auto`); without it,
/// `COLORFGBG`, else dark.
func loadTheme(_ name: String?, from home: HomeConfig? = nil, backgroundIsDark: Bool? = nil) throws -> (Theme, Theme) {
    let paths = AppPaths(environment: processEnvironment)
    let search = ThemeLoader.searchPath(paths: paths, executable: SubprocessTransport.runningExecutable().path)
    let fromHome = home.flatMap { name == $0.theme ? $0 : nil }
    do {
        return try ThemeLoader.loadPair(
            name ?? "dark", fromHome: fromHome, homeFile: paths.homeFile.path, searchPath: search,
            backgroundIsDark: backgroundIsDark ?? Theme.backgroundIsDark(colorfgbg: processEnvironment["COLORFGBG"]))
    } catch let e as ConfigFileError {
        // A theme named on the command line that does not exist is a usage error; a broken
        // theme file, or one home.yaml names, is reported against its own file and line. Each
        // says what to do next, like loadHomeFile's errors.
        let fallback = name == "dark" ? "light" : "dark"
        if e.isMissingTheme && fromHome == nil {
            throw usageFailure("\(e.message)\n(run with --theme dark or --theme light instead)")
        }
        throw runtimeFailure(
            "\(e.description)\n(fix the file, or run with --theme \(fallback); your file was not changed)")
    }
}

func outputDepth(ansi: Bool) -> ColorDepth {
    guard ansi else { return .none }
    return ColorDepth.detect(environment: processEnvironment, terminalColors: 256) == .none
        ? .none
        : (processEnvironment["COLORTERM"].map { ["truecolor", "24bit"].contains($0.lowercased()) } ?? false
            ? .trueColor : .indexed256)
}

@main
struct SwiftdashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swiftdash",
        abstract: "A home screen for the terminal: a grid of widget tiles that keep themselves current.",
        discussion: """
            Run with no subcommand to open the home screen; press ? inside for every key.

            Files: $XDG_CONFIG_HOME/swiftdash/home.yaml (your tiles) and themes/ (your themes); \
            $XDG_STATE_HOME/swiftdash (what swiftdash remembers: usage, timers, the log); \
            $XDG_CACHE_HOME/swiftdash (the last timelines; safe to delete). \
            NO_COLOR gives a monochrome screen.

            Exit status: 0 done, 1 a runtime error (a broken file, nothing running to ask), \
            2 a usage error (a bad option, kind or id); the home screen ended by a signal: 128+N.
            """,
        version: versionText,
        subcommands: [
            Home.self, Widgets.self, Preview.self, Render.self, TimelineCommand.self, Reload.self,
            ConfigCommand.self, Add.self, Remove.self, Push.self, Snapshot.self, ActivityCommand.self, RunCommand.self,
            Bench.self, NewWidget.self,
            ManualSections.self,
        ],
        defaultSubcommand: Home.self
    )

    /// Synchronous commands (the home screen's loop above all) run right here on the main
    /// thread, before any `await`: ArgumentParser would otherwise call them from a task on
    /// the cooperative pool, and the loop's blocking poll() would take one of its threads
    /// away from the providers' loads.
    @MainActor
    static func main() async {
        // One program with the helper (decision 62): started as swiftdash-fetch, it is the helper.
        if FetchHelper.isInvoked(as: CommandLine.arguments.first) { await FetchHelper.main(CommandLine.arguments) }
        startedAt = ContinuousClock.now
        stopWritesForTests()
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `run` wraps other commands, so its own start counts: it is parsed alone, without the
        // whole command tree (about a fifth of what run adds to a short command). Help, a
        // mistake or anything unusual takes the usual way below, with its usual messages.
        if arguments.first == "run", let run = try? RunCommand.parseAsRoot(Array(arguments.dropFirst())) as? RunCommand {
            do { try run.run() } catch { Glibc.exit(exitCode(for: error).rawValue) }
            Glibc.exit(0)
        }
        let (path, unknown) = commandPath(arguments)
        if let unknown { Glibc.exit(usageFailure(unknownCommand(unknown, under: path)).rawValue) }
        do {
            var command = try parseAsRoot(arguments)
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            // ArgumentParser's own messages echo what was typed: sanitise them like ours.
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            if code == .validationFailure {
                // A usage error: status 2 like every other bad input, ending with what to do.
                printError(usageMessage(text, path: path))
                Glibc.exit(2)
            }
            if !text.isEmpty {
                if code == .success {
                    // Help, --version, a completion script, the manual's JSON: printed whole (the
                    // terminal form of the sanitiser has no cap, and keeps tabs and newlines).
                    printOut(text)
                } else {
                    printError(text)
                }
            }
            Glibc.exit(code.rawValue)
        }
    }

    /// For the tests of a writer killed mid-write (`SWIFTDASH_TEST_STOP_WRITE=MOMENT:NAME`, a
    /// moment of `AtomicFile.Moment` and a file name): a write of that file stops at that moment,
    /// says so on stderr and waits there to be killed. Ignored unless a test sets it.
    static func stopWritesForTests() {
        guard let spec = processEnvironment["SWIFTDASH_TEST_STOP_WRITE"], let colon = spec.firstIndex(of: ":"),
            let moment = AtomicFile.Moment(rawValue: String(spec[..<colon]))
        else { return }
        let name = String(spec[spec.index(after: colon)...])
        AtomicFile.moments = { now, target in
            guard now == moment, URL(fileURLWithPath: target).lastPathComponent == name else { return }
            let line = Array("swiftdash-test: stopped writing \(name) at \(moment.rawValue)\n".utf8)
            _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            while true { pause() }
        }
    }

    /// The commands the leading words of `arguments` name (the root first), and the first word
    /// that names none where a command is expected: the root's default command and `config`
    /// take no positional arguments, so such a word is a mistyped command.
    static func commandPath(_ arguments: [String]) -> (path: [ParsableCommand.Type], unknown: String?) {
        var path: [ParsableCommand.Type] = [SwiftdashCommand.self]
        for word in arguments {
            let subcommands = path[path.count - 1].configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-") else { break }
            if word == "help" && path.count == 1 { continue }  // `swiftdash help config set`
            guard let next = subcommands.first(where: { names($0).contains(word) }) else { return (path, word) }
            path.append(next)
        }
        return (path, nil)
    }

    static func names(_ command: ParsableCommand.Type) -> [String] {
        [command._commandName] + command.configuration.aliases
    }

    /// `unknown command 'widgts'; did you mean 'widgets'?` and the commands there are.
    static func unknownCommand(_ word: String, under path: [ParsableCommand.Type]) -> String {
        let names = path.dropFirst().map { $0._commandName }
        let commands = path[path.count - 1].configuration.subcommands.filter { $0.configuration.shouldDisplay }
            .map { $0._commandName }
        let closest = commands.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
        let guess = closest.flatMap { $0.1 <= min(2, word.count - 1) ? "; did you mean '\($0.0)'?" : nil } ?? ""
        let under = names.isEmpty ? "" : " for `\((["swiftdash"] + names).joined(separator: " "))`"
        return "unknown command \(quoted(word))\(under)\(guess)\n"
            + "commands: \(commands.joined(separator: ", "))\n"
            + "run `\((["swiftdash", "help"] + names).joined(separator: " "))` for what each does"
    }

    /// ArgumentParser's message for a usage error (what was wrong, the usage), with our prefix
    /// and a last line that says where the options are explained.
    static func usageMessage(_ text: String, path: [ParsableCommand.Type]) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        // Its last line, "See 'swiftdash render --help' for more information.", gives way to ours.
        if let last = lines.last, last.hasPrefix("  See '") { lines.removeLast() }
        if let first = lines.first, first.hasPrefix("Error: ") {
            lines[0] = "swiftdash: error: " + first.dropFirst("Error: ".count)
        }
        let names = path.dropFirst().map { $0._commandName }
        let command = (["swiftdash", "help"] + (names.isEmpty ? ["home"] : names)).joined(separator: " ")
        let hint = names.isEmpty ? ", or `swiftdash help` for the commands" : ""
        return (lines + ["run `\(command)` for every option\(hint)"]).joined(separator: "\n")
    }

    /// Levenshtein distance, for "did you mean".
    static func editDistance(_ a: String, _ b: String) -> Int {
        let b = Array(b)
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, y) in b.enumerated() {
                let next = min(diagonal + (x == y ? 0 : 1), row[j + 1] + 1, row[j] + 1)
                diagonal = row[j + 1]
                row[j + 1] = next
            }
        }
        return row[b.count]
    }
}

/// glibc's malloc_trim (not in the Glibc module): gives the pages of freed heap back to the system;
/// glibc keeps them otherwise (what starting and the first loads freed: 1.2 MB on the default
/// home; issue 35.4).
@_silgen_name("malloc_trim")
func glibcMallocTrim(_ pad: UInt) -> Int32
