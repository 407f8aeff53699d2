import Foundation
import ArgumentParser
import DashWidgets
import DashApp
import DashHome
import DashHomeFiles
import DashRuntime
import DashBuiltinWidgets

// Changing home.yaml from scripts, through the same code as the in-app editor: `HomeFile`
// (lock, minimal edit, atomic write, home.yaml.bak) and the widgets' schemas. Ids are the ones
// `swiftdash config check` and these commands print: tiles t1, t2… and widgets w1, w2…, the same
// ids a running swiftdash uses (recorded beside the file, `HomeIDs`; decision 41). A running
// swiftdash picks every change up at once.

/// Everything these commands print that came from outside (the file, the arguments) goes
/// through here: no escape sequences reach the terminal.
private func clean(_ s: String) -> String { TextSanitizer.singleLine(s) }

/// A usage problem found while the file is locked (reported with exit status 2).
private struct UsageProblem: Error { var message: String }

private var homeFile: HomeFile { HomeFile(url: AppPaths(environment: processEnvironment).homeFile, bundle: bundle) }

/// Runs a change of home.yaml and turns its errors into the right exit status.
private func change(creating: Bool = false, _ body: (inout HomeConfig) throws -> Void) throws -> HomeFile.Change {
    if creating { try HomeOption.refuseInvalidChoice() } else { try HomeOption.requireExisting() }
    // A named home or a --config file that does not exist yet starts with what the user adds;
    // home.yaml starts from the default home, which swiftdash shows while there is none.
    var fresh: HomeConfig? = nil
    if case .standard = AppPaths(environment: processEnvironment).home {} else { fresh = HomeConfig(tiles: []) }
    do {
        return try homeFile.modify(whenMissing: fresh, body)
    } catch let e as ExitCode {
        throw e
    } catch let e as UsageProblem {
        throw usageFailure(clean(e.message))
    } catch let e as ConfigFileError {
        throw runtimeFailure(clean(e.description) + " (fix the file first; it was not changed)")
    } catch {
        throw runtimeFailure(clean("\(error)"))
    }
}

/// `key=value` arguments as a widget's configuration values, checked by its schema.
func parseAssignments(_ assignments: [String], widget: Widget) throws -> [(key: String, value: ConfigValue)] {
    try assignments.map { a in
        guard let eq = a.firstIndex(of: "="), eq != a.startIndex else {
            throw usageFailure(
                "'\(clean(a))' is not key=value; parameters of \(widget.kind): "
                    + widget.schema.parameters.map(\.key).joined(separator: ", "))
        }
        let key = String(a[..<eq]), text = String(a[a.index(after: eq)...])
        guard TextSanitizer.clean(text, keepNewlines: false) == text else {
            throw usageFailure("\(clean(key)): control characters are not allowed in a value")
        }
        do { return (key, try widget.schema.parse(key: key, text: text)) } catch {
            throw usageFailure(clean("\(widget.kind): \(error)"))
        }
    }
}

/// What a script sees of a widget: `w3 clock (small, in t2)`.
private func describe(_ home: HomeConfig) -> String {
    home.tiles.map { t in
        t.items.map { "\($0.id) \($0.kind)" }.joined(separator: ", ") + " in \(t.id) (\(t.family.rawValue))"
    }.joined(separator: "; ")
}

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check, find or change home.yaml (for scripts).",
        discussion: """
            Changes go through the same code as the in-app editor: only the changed lines are \
            rewritten (your comments stay), the write is atomic, the previous version is kept as \
            home.yaml.bak, and a broken file is never overwritten. A running swiftdash shows the \
            change at once. See also `swiftdash add` and `swiftdash remove`.
            """,
        subcommands: [ConfigCheck.self, ConfigPath.self, ConfigSet.self, ConfigHomes.self])
}

struct ConfigCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check home.yaml: a one-line summary and exit 0, or every problem as file:line: message and exit 1.",
        discussion: """
            Every problem of the file is listed in one run, in line order (at most 50, then how many \
            more), and so is a problem of the theme it names. A file in a themes folder, or one with \
            `colors:` and no `tiles:`, is checked as a theme.
            """)

    @Argument(
        help: "The file to check (default: your home.yaml); a theme file is checked as a theme.",
        completion: .file(extensions: ["yaml", "yml"]))
    var file: String?

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        if file == nil { try HomeOption.requireExisting() }
        let url = file.map { URL(fileURLWithPath: $0) } ?? AppPaths(environment: processEnvironment).homeFile
        let path = file ?? url.path
        if file != nil, ThemeLoader.isTheme(url) { return try checkTheme(url, path: path) }
        let homeFile = HomeFile(url: url, bundle: bundle)
        let text: String?
        let ids: HomeIDs?
        do {
            // The file and the ids recorded for it, read while no one writes them.
            (text, ids) = try homeFile.whileNotWritten { (try homeFile.read(), homeFile.recordedIDs()) }
        } catch let e as ConfigFileError {
            printOut(clean(e.description))
            throw ExitCode(1)
        } catch {
            throw runtimeFailure(clean("\(error)"))
        }
        guard let text else {
            if file != nil { throw runtimeFailure("cannot read \(clean(path)): no such file") }
            let n = HomeConfig.defaultHome(bundle: bundle).tiles.count
            printOut("\(clean(path)): no file yet; swiftdash shows the built-in default home (\(n) tiles)")
            return
        }
        let search = ThemeLoader.searchPath(
            paths: AppPaths(environment: processEnvironment), executable: SubprocessTransport.runningExecutable().path)
        let problems = HomeConfig.checkProblems(yaml: text, file: path, bundle: bundle, themeSearchPath: search)
        guard problems.isEmpty else {
            for line in HomeConfig.checkReport(problems) { printOut(clean(line)) }
            throw ExitCode(1)
        }
        let parsed = try HomeConfig.parse(yaml: text, file: path, bundle: bundle)
        let home = ids.map { parsed.adoptingIDs(from: $0) } ?? parsed
        let stacks = home.tiles.filter { $0.items.count > 1 }.count
        let widgets = home.allInstances.count
        printOut(
            "\(clean(path)): ok — \(home.tiles.count) tile\(home.tiles.count == 1 ? "" : "s")"
                + (stacks > 0 ? " (\(stacks) stack\(stacks == 1 ? "" : "s"))" : "")
                + ", \(widgets) widget\(widgets == 1 ? "" : "s")"
                + (home.theme.map { ", theme \(clean($0))" } ?? "") + ": " + clean(describe(home)))
    }
}

/// `swiftdash config check THEME.yaml`: the theme's first problem with its line, or a summary.
private func checkTheme(_ url: URL, path: String) throws {
    do {
        let theme = try ThemeLoader.load(contentsOf: url)
        printOut("\(clean(path)): ok — theme \(clean(theme.name)) (\(theme.isDark ? "dark" : "light"))")
    } catch let e as ConfigFileError {
        var shown = e
        shown.file = path
        printOut(clean(shown.description))
        throw ExitCode(1)
    }
}

struct ConfigPath: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "path", abstract: "Print where home.yaml is (whether or not it exists yet).")

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        printOut(AppPaths(environment: processEnvironment).homeFile.path)
    }
}

struct ConfigSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set configuration values of one widget.",
        usage: "swiftdash config set <id> [<key=value> ...] [<home options>]",
        discussion: """
            ID is a widget (w3) or a tile with one widget (t2); `swiftdash config check` lists them. \
            Values are checked like the in-app form checks them (`swiftdash widgets` lists each \
            widget's parameters).

            A list is written in YAML flow syntax, each item as it is passed on (quote an item \
            that holds a comma or is empty): command='[cut, "-d,", -f1, notes.csv]'. A list \
            without brackets is split at commas (a command is one line).

            A value written once under a YAML anchor (&x) is changed where it is written, so every \
            widget that shares it (*x, <<: *x) changes too; set prints which. A widget that reaches \
            a value through an alias gets a value of its own.

            Example: swiftdash config set w2 coin=ETH currency=EUR
            """)

    @Argument(help: "The widget (w3) or single-widget tile (t2).", completion: ShellCompletion.settableIDs)
    var id: String

    @Argument(help: ArgumentHelp("Values to set. \(listHelp)", valueName: "key=value"))
    var assignments: [String] = []

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        guard !assignments.isEmpty else { throw usageFailure("give at least one key=value") }
        var lines: [String] = []
        let result = try change { home in
            guard let (ti, ii) = locate(id, in: home, forSet: true) else {
                throw UsageProblem(message: "no widget '\(id)'; the widgets are: \(describe(home))")
            }
            let inst = home.tiles[ti].items[ii]
            guard let widget = bundle[inst.kind] else { throw UsageProblem(message: "unknown widget \(inst.kind)") }
            for (key, value) in try parseAssignments(assignments, widget: widget) {
                home.tiles[ti].items[ii].config[key] = value
                home.tiles[ti].items[ii].config.secretCommands[key] = nil  // a value replaces a command
                let shown = widget.schema.parameter(key)?.display(value) ?? value.description
                lines.append("\(inst.id) \(inst.kind): \(key) = \(shown)")
            }
        }
        for l in lines { printOut(clean(l)) }
        // A value written under a YAML anchor changed for the widgets that share it: said with their ids.
        for v in result.shared { printOut(clean("\(v.message) (\(v.others.joined(separator: ", ")))")) }
        if !result.wrote { printOut("(no change)") }
    }
}

/// The tile and item an id names: `wN` a widget, `tN` a tile (with `forSet`, one with a single widget).
private func locate(_ id: String, in home: HomeConfig, forSet: Bool) -> (Int, Int)? {
    for (ti, t) in home.tiles.enumerated() {
        if t.id == id, !forSet || t.items.count == 1 { return (ti, 0) }
        if let ii = t.items.firstIndex(where: { $0.id == id }) { return (ti, ii) }
    }
    return nil
}

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a widget to the end of the home screen.",
        usage: "swiftdash add <kind> [--set <key=value> ...] [<options>]",
        discussion: """
            Prints the new tile's and widget's ids.

            Example:
              swiftdash add clock --family medium --set timeZone=Asia/Tokyo
            """)

    @Argument(help: "The widget kind (see `swiftdash widgets`).", completion: ShellCompletion.kinds)
    var kind: String

    @Option(
        help: "small, medium, large or extraLarge (default: the smallest the widget has).",
        completion: ShellCompletion.families)
    var family: String?

    @Option(
        name: .customLong("set"), parsing: .singleValue, help: ArgumentHelp(setHelp, valueName: "key=value"))
    var settings: [String] = []

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        guard let widget = bundle[kind] else {
            throw unknownWidget(kind)
        }
        let fam: WidgetFamily
        if let family {
            guard let f = WidgetFamily(rawValue: family) else {
                throw usageFailure("unknown family '\(clean(family))'; use small, medium, large or extraLarge")
            }
            guard widget.supports(f) else {
                throw usageFailure(
                    "\(kind) has no \(f.rawValue) size; it supports "
                        + widget.supportedFamilies.map(\.rawValue).joined(separator: ", "))
            }
            fam = f
        } else {
            fam = widget.supportedFamilies.first ?? .small
        }
        var config = WidgetConfig()
        for (key, value) in try parseAssignments(settings, widget: widget) { config[key] = value }
        let result = try change(creating: true) { home in
            home.tiles.append(
                TileInstance(
                    id: home.nextTileID(), family: fam,
                    items: [WidgetInstance(id: home.nextInstanceID(), kind: kind, config: config)]))
        }
        guard let tile = result.after.tiles.last, let inst = tile.items.first else { return }
        printOut("added \(inst.id) \(inst.kind) in \(tile.id) (\(tile.family.rawValue))")
    }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove a tile (t2) or one widget (w3; from a stack, only that widget).")

    @Argument(
        help: "The tile or widget id (see `swiftdash config check`).", completion: ShellCompletion.tileAndWidgetIDs)
    var id: String

    @OptionGroup var homeOption: HomeOption

    func run() throws {
        var removed = ""
        _ = try change { home in
            guard let (ti, ii) = locate(id, in: home, forSet: false) else {
                throw UsageProblem(message: "no tile or widget '\(id)'; the home screen has: \(describe(home))")
            }
            let tile = home.tiles[ti]
            if tile.id == id || tile.items.count == 1 {
                home.tiles.remove(at: ti)
                removed = "\(tile.id) (\(tile.items.map(\.kind).joined(separator: ", ")), \(tile.family.rawValue))"
            } else {
                let inst = home.tiles[ti].items.remove(at: ii)
                removed = "\(inst.id) \(inst.kind) from the stack \(tile.id)"
            }
        }
        printOut("removed \(clean(removed))")
    }
}

/// How `--set` and `config set` spell a list, for their help.
let listHelp = #"A list: key='[a, "b,c", ""]' (YAML flow syntax), each item byte for byte."#

/// The help of a `--set` option.
let setHelp = "Set a parameter. " + listHelp

/// What `--theme` takes, the same for every command that has it.
let themeHelp =
    "Theme name: dark, light, terminal (the terminal's own colours), auto (dark or light as the "
    + "terminal's background is), or one of yours in ~/.config/swiftdash/themes."
