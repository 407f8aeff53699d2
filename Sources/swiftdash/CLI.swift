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

/// Prints `swiftdash: error: …` to standard error and exits with status 2 (usage error).
func usageFailure(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("swiftdash: error: \(message)\n".utf8))
    return ExitCode(2)
}

/// Prints a runtime error and exits with status 1.
func runtimeFailure(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("swiftdash: error: \(message)\n".utf8))
    return ExitCode(1)
}

let bundle = BuiltinWidgets.bundle
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
    let search = ThemeLoader.searchPath(paths: AppPaths(environment: processEnvironment), executable: CommandLine.arguments[0])
    do {
        let main = try ThemeLoader.load(name ?? "dark", searchPath: search)
        let other = (try? ThemeLoader.load(main.isDark ? "light" : "dark", searchPath: search)) ?? (main.isDark ? .light : .dark)
        return (main, other)
    } catch let e as ConfigFileError {
        if let home, name == home.theme {
            let file = AppPaths(environment: processEnvironment).homeFile.path
            throw runtimeFailure("\(file)\(home.themeLine.map { ":\($0)" } ?? ""): \(e.message)")
        }
        throw usageFailure(e.message)
    }
}

func outputDepth(ansi: Bool) -> ColorDepth {
    guard ansi else { return .none }
    return ColorDepth.detect(environment: processEnvironment, terminalColors: 256) == .none ? .none
        : (processEnvironment["COLORTERM"].map { ["truecolor", "24bit"].contains($0.lowercased()) } ?? false ? .trueColor : .indexed256)
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
        subcommands: [Home.self, Widgets.self, Preview.self, Render.self, TimelineCommand.self, Reload.self,
                      ConfigCommand.self, Add.self, Remove.self, Bench.self],
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
            exit(withError: error)
        }
    }
}
