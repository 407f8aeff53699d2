import Foundation
import Yams
import DashCore
import DashWidgets

/// Finds and reads themes: the user's folder first, then the shipped `themes/`.
public enum ThemeLoader {
    /// A theme from its bytes: the size cap, UTF-8 (with the line of a bad byte), then `parse(yaml:)`.
    public static func parse(data: Data, file: String) throws -> Theme {
        let text = try YAMLGuard.text(data, file: file, maxBytes: ConfigLimits.maxThemeBytes, what: "a theme")
        return try parse(yaml: text, file: file)
    }

    public static func parse(yaml text: String, file: String) throws -> Theme {
        guard let root = try YAMLGuard.compose(text, file: file) else {
            throw ConfigFileError(
                file: file, line: nil,
                message: ConfigFile.emptyMessage(text)
                    + ": a theme needs `name`, `dark` and `colors`")
        }
        guard let map = root.mapping else {
            throw ConfigFileError(
                file: file, line: root.mark?.line,
                message: "not a theme: expected `name`, `dark` and `colors`")
        }
        let name = map["name"]?.string ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        if name.isEmpty || TextSanitizer.clean(name) != name {
            throw ConfigFileError(
                file: file, line: map["name"]?.mark?.line ?? root.mark?.line,
                message: "`name` must be a theme name without control characters, such as dark")
        }
        var dark = true
        if let v = map["dark"] {
            guard let b = YAMLGuard.bool(v) else {
                throw ConfigFileError(
                    file: file, line: v.mark?.line,
                    message: "`dark` must be true or false"
                        + (v.string.map { ", not `\(TextSanitizer.clean($0).prefix(40))`" } ?? ""))
            }
            dark = b
        }
        var colors: [ThemeRole: Color] = [:]
        guard let cm = map["colors"]?.mapping else {
            throw ConfigFileError(file: file, line: root.mark?.line, message: "a theme needs a `colors:` mapping")
        }
        for (k, v) in cm {
            guard let key = k.string, let role = ThemeRole(rawValue: key) else {
                throw ConfigFileError(
                    file: file, line: k.mark?.line,
                    message: "unknown colour role `\(shown(k.string ?? ""))`; roles: "
                        + ThemeRole.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard let s = v.string, let c = Color(parsing: s) else {
                throw ConfigFileError(
                    file: file, line: v.mark?.line,
                    message: "`\(shown(v.string ?? ""))` is not a colour (#rrggbb, a name, or 0-255)")
            }
            colors[role] = c
        }
        let base = dark ? Theme.dark : Theme.light
        for role in ThemeRole.allCases where colors[role] == nil { colors[role] = base[role] }
        return Theme(name: name, isDark: dark, colors: colors)
    }

    /// Folders searched for `NAME.yaml`, in order.
    public static func searchPath(paths: AppPaths, executable: String) -> [URL] {
        var dirs = [paths.config.appendingPathComponent("themes")]
        // The repository's themes/ next to the build folder (swift run), or an installed share folder.
        var dir = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            dirs.append(dir.appendingPathComponent("themes"))
            dirs.append(dir.appendingPathComponent("share/swiftdash/themes"))
            dir = dir.deletingLastPathComponent()
        }
        return dirs
    }

    /// Loads a theme by name; `dark` and `light` always exist (built in). The first folder
    /// that has `NAME.yaml` wins; a broken file there is an error against that file and
    /// line (never "no theme named"), and only a missing file moves on to the next folder.
    /// `auto`: `dark` or `light` as the terminal's background is (`backgroundIsDark`: what the
    /// terminal answered, else `COLORFGBG`; dark when nothing says).
    public static func load(_ name: String, searchPath: [URL], backgroundIsDark: Bool? = nil) throws -> Theme {
        if name == "auto" { return try load(backgroundIsDark ?? true ? "dark" : "light", searchPath: searchPath) }
        for dir in searchPath {
            let url = dir.appendingPathComponent("\(name).yaml")
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            return try load(contentsOf: url)
        }
        switch name {
        case "dark": return .dark
        case "light": return .light
        case "terminal": return .terminal
        default:
            var e = ConfigFileError(
                file: name, line: nil,
                message: "no theme named `\(shown(name))`; built in: dark, light, terminal, auto "
                    + "(add your own as ~/.config/swiftdash/themes/NAME.yaml)")
            e.isMissingTheme = true
            throw e
        }
    }

    /// The theme asked for and its opposite (for `t`), with errors against the right file:
    /// a theme that does not exist against the line of `home.yaml` that names it (when it
    /// came from there), a broken theme file against that file and line. `fromHome` is the
    /// home configuration when the name came from its `theme:` line.
    public static func loadPair(
        _ name: String, fromHome home: HomeConfig?, homeFile: String,
        searchPath: [URL], backgroundIsDark: Bool? = nil
    ) throws -> (Theme, Theme) {
        let main: Theme
        do {
            main = try load(name, searchPath: searchPath, backgroundIsDark: backgroundIsDark)
        } catch var e as ConfigFileError where e.isMissingTheme {
            if let home {
                e.file = homeFile
                e.line = home.themeLine
            }
            throw e
        }
        let otherName = main.isDark ? "light" : "dark"
        let other = (try? load(otherName, searchPath: searchPath)) ?? (main.isDark ? .light : .dark)
        return (main, other)
    }
}

/// Where swiftdash keeps its files (XDG base directories).
public struct AppPaths: Sendable {
    public var config: URL
    public var cache: URL
    /// `$XDG_STATE_HOME/swiftdash` (`~/.local/state/swiftdash`): what is not a cache, see `StateFolder`.
    public var state: URL
    public var runtime: URL
    /// Which home screen (`SWIFTDASH_HOME`: `home.yaml`, a named home or a file; `HomeChoice`).
    public var home: HomeChoice
    /// The home screen's file: `home.yaml`, `home-NAME.yaml` beside it, or the file chosen.
    public var homeFile: URL

    public init(environment env: [String: String]) {
        let home = URL(fileURLWithPath: env["HOME"] ?? NSHomeDirectory())
        func xdg(_ key: String, _ fallback: String) -> URL {
            if let v = env[key], v.hasPrefix("/") { return URL(fileURLWithPath: v) }
            return home.appendingPathComponent(fallback)
        }
        config = xdg("XDG_CONFIG_HOME", ".config").appendingPathComponent("swiftdash")
        cache = xdg("XDG_CACHE_HOME", ".cache").appendingPathComponent("swiftdash")
        state = xdg("XDG_STATE_HOME", ".local/state").appendingPathComponent("swiftdash")
        if let r = env["XDG_RUNTIME_DIR"], r.hasPrefix("/") {
            runtime = URL(fileURLWithPath: r).appendingPathComponent("swiftdash")
        } else {
            runtime = URL(fileURLWithPath: "/tmp").appendingPathComponent("swiftdash-\(getuid())")
        }
        self.home = HomeChoice(environment: env)
        homeFile = self.home.file(in: config)
        if let folder = self.home.folder {
            cache = cache.appendingPathComponent(folder)
            state = state.appendingPathComponent(folder)
        }
    }

    public var logFile: URL { state.appendingPathComponent("swiftdash.log") }
    /// One control socket per configuration folder: two swiftdash processes of one user with
    /// different configurations (another `HOME` or `XDG_CONFIG_HOME`) never answer each
    /// other's `swiftdash reload`.
    public var socket: URL {
        // Another home is another configuration: its own socket, so two homes run at once.
        let what = home == .standard ? config : homeFile
        let h = SecretFingerprint.fnv1a(what.standardizedFileURL.path)
        return runtime.appendingPathComponent("control-\(String(h & 0xffff_ffff, radix: 16)).sock")
    }
}

extension AppPaths {
    /// What interactive widgets remember between runs, one file per widget instance.
    public var widgetState: URL { state.appendingPathComponent("widget-state") }
}
