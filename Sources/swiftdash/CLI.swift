import Foundation
import ArgumentParser
import DashCore
import DashWidgets
import DashRender
import DashApp
import DashBuiltinWidgets
import DashScheduler
import DashCurses
import Logging

/// Writes text for a terminal to standard error. Everything swiftdash prints passes the same
/// sanitiser as feed text: values quoted in errors (a `--set` value, a widget kind, a YAML
/// line) can carry escape sequences (OSC 52 clipboard writes, title changes, C1, bidi).
func printError(_ text: String) {
    FileHandle.standardError.write(Data((TextSanitizer.clean(text, keepNewlines: true) + "\n").utf8))
}

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

let bundle = Extensions.bundle(builtin: BuiltinWidgets.bundle, environment: processEnvironment) {
    Logger(label: "swiftdash").info("\($0)")
}
/// When main() started, for the "first frame after N ms" log line.
nonisolated(unsafe) var startedAt = ContinuousClock.now
let processEnvironment = ProcessInfo.processInfo.environment
/// The one place the process's time zone and environment are read; everything below takes
/// them from here.
let appEnvironment = AppEnvironment(bundle: bundle, timeZone: .current, variables: processEnvironment)

/// Parses `--at` (ISO 8601, e.g. 2026-11-23T09:30:00Z).
func parseInstant(_ text: String?) throws -> Date {
    guard let text else { return Date() }
    if let d = try? Date(text, strategy: .iso8601) { return d }
    throw usageFailure("--at '\(text)' is not an ISO 8601 time; use e.g. 2026-11-23T09:30:00Z")
}

func parseSize(_ text: String) throws -> Size {
    guard let s = Size(parsing: text) else {
        throw usageFailure("--size '\(text)' is not COLSxROWS between 1x1 and 10000x10000, e.g. 80x24")
    }
    return s
}

func loadTheme(_ name: String?, from home: HomeConfig? = nil) throws -> (Theme, Theme) {
    let paths = AppPaths(environment: processEnvironment)
    let search = ThemeLoader.searchPath(paths: paths, executable: CommandLine.arguments[0])
    let fromHome = home.flatMap { name == $0.theme ? $0 : nil }
    do {
        return try ThemeLoader.loadPair(
            name ?? "dark", fromHome: fromHome, homeFile: paths.homeFile.path, searchPath: search)
    } catch let e as ConfigFileError {
        // A theme named on the command line that does not exist is a usage error; a broken
        // theme file, or one home.yaml names, is reported against its own file and line.
        if e.isMissingTheme && fromHome == nil { throw usageFailure(e.message) }
        throw runtimeFailure(e.description)
    }
}

func outputDepth(ansi: Bool) -> ColorDepth {
    guard ansi else { return .none }
    return ColorDepth.detect(environment: processEnvironment, terminalColors: 256) == .none
        ? .none
        : (processEnvironment["COLORTERM"].map { ["truecolor", "24bit"].contains($0.lowercased()) } ?? false
            ? .trueColor : .indexed256)
}

func emit(_ buffer: CellBuffer, ansi: Bool) {
    if ansi {
        print(ANSI.render(buffer, depth: outputDepth(ansi: true)), terminator: "")
    } else {
        print(buffer.textDump)
    }
}

@main
struct SwiftdashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swiftdash",
        abstract: "A home screen for the terminal: a grid of widget tiles that keep themselves current.",
        discussion: """
            Run with no subcommand to open the home screen; press ? inside for every key.

            Files: $XDG_CONFIG_HOME/swiftdash/home.yaml (your tiles) and themes/ (your themes); \
            $XDG_CACHE_HOME/swiftdash (the last timelines and swiftdash.log). \
            NO_COLOR gives a monochrome screen.
            """,
        subcommands: [
            Home.self, Widgets.self, Preview.self, Render.self, TimelineCommand.self, Reload.self,
            ConfigCommand.self, Add.self, Remove.self, Push.self, Snapshot.self, Bench.self,
        ],
        defaultSubcommand: Home.self
    )

    /// Synchronous commands (the home screen's loop above all) run right here on the main
    /// thread, before any `await`: ArgumentParser would otherwise call them from a task on
    /// the cooperative pool, and the loop's blocking poll() would take one of its threads
    /// away from the providers' loads.
    @MainActor
    static func main() async {
        startedAt = ContinuousClock.now
        do {
            var command = try parseAsRoot()
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            // ArgumentParser's own messages echo what was typed: sanitise them like ours.
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            if !text.isEmpty {
                if code == .success {
                    print(TextSanitizer.clean(text, keepNewlines: true))
                } else {
                    printError(text)
                }
            }
            Glibc.exit(code.rawValue)
        }
    }
}
