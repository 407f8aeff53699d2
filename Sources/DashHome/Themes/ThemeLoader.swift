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
