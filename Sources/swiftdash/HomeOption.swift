import Foundation
import ArgumentParser
import DashWidgets
import DashHome
import DashHomeFiles

/// `--home NAME` and `--config FILE`: which home screen a command uses (decision 47). Every
/// command that reads or changes the home screen, or talks to a running one, takes them. The
/// choice is put in the process's environment (`HomeChoice.variable`) before the command runs,
/// so every `AppPaths` after it, and the provider host and extensions it starts, use that home.
struct HomeOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Use the home screen NAME: home-NAME.yaml beside home.yaml, with its own cache and state.",
            discussion: "`swiftdash config homes` lists them; SWIFTDASH_HOME=NAME does the same.",
            valueName: "name"),
        completion: ShellCompletion.homeNames)
    var home: String?

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("Use this file as the home screen instead of home.yaml.", valueName: "file"),
        completion: .file(extensions: ["yaml", "yml"]))
    var configFile: String?

    func validate() throws {
        if home != nil, configFile != nil {
            throw ValidationError("--home and --config name two home screens; give one")
        }
        if let home, home != "default", let problem = HomeChoice.problem(name: home) {
            throw ValidationError("--home \(quoted(home)): \(problem)")
        }
        if let configFile, configFile.isEmpty { throw ValidationError("--config needs a file") }
        HomeOption.choose(home: home, file: configFile)
    }

    /// Puts the choice in the environment every later `AppPaths` reads (`processEnvironment`)
    /// and in the process's own, for its children.
    static func choose(home: String?, file: String?) {
        var value = home
        if let file {
            let cwd = FileManager.default.currentDirectoryPath
            value =
                URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true))
                .standardizedFileURL.path
        }
        guard let value else { return }
        processEnvironment[HomeChoice.variable] = value
        setenv(HomeChoice.variable, value, 1)
    }

    /// Refuses `SWIFTDASH_HOME` set by hand to something no home can be called: said, not
    /// ignored (it would otherwise read or write the default home). Every command, `add` too.
    static func refuseInvalidChoice() throws {
        guard AppPaths(environment: processEnvironment).home == .standard,
            let v = processEnvironment[HomeChoice.variable], !v.isEmpty, v != "default",
            let problem = HomeChoice.problem(name: v)
        else { return }
        throw usageFailure("\(HomeChoice.variable)=\(quoted(v)): \(problem), or an absolute file path")
    }

    /// Refuses a named home that has no file (a typo would otherwise open an empty home and
    /// write a stray file), naming the homes there are; `add` creates one.
    static func requireExisting() throws {
        try refuseInvalidChoice()
        let paths = AppPaths(environment: processEnvironment)
        switch paths.home {
        case .standard:
            return
        case .named(let name):
            guard !FileManager.default.fileExists(atPath: paths.homeFile.path) else { return }
            // A name no home has is a mistake in the command line, as a bad name is.
            throw usageFailure(
                "no home '\(name)' (\(paths.homeFile.path)); homes: \(HomeChoice.listing(in: paths.config))\n"
                    + "(start it with `swiftdash add --home \(name) KIND`)")
        case .file(let path):
            guard !FileManager.default.fileExists(atPath: path) else { return }
            throw runtimeFailure(
                "no file \(quoted(path)) for --config\n(start it with `swiftdash add --config FILE KIND`)")
        }
    }
}

struct ConfigHomes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "homes",
        abstract: "List the home screens: default (home.yaml) and each home-NAME.yaml (`swiftdash --home NAME`).")

    func run() throws {
        let paths = AppPaths(environment: processEnvironment)
        let standard = paths.config.appendingPathComponent("home.yaml")
        let exists = FileManager.default.fileExists(atPath: standard.path)
        printOut("default\t\(standard.path)\(exists ? "" : " (not written yet)")")
        for name in HomeChoice.names(in: paths.config) {
            printOut("\(name)\t\(HomeChoice.named(name).file(in: paths.config).path)")
        }
    }
}
