import Foundation
import Yams
import DashCore

/// Finds and reads themes: the user's folder first, then the shipped `themes/`.
public enum ThemeLoader {
    public static func parse(yaml text: String, file: String) throws -> Theme {
        guard let root = (try? Yams.compose(yaml: text)) ?? nil, let map = root.mapping else {
            throw ConfigFileError(file: file, line: nil, message: "not a theme: expected `name`, `dark` and `colors`")
        }
        let name = map["name"]?.string ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let dark = map["dark"]?.bool ?? true
        var colors: [ThemeRole: Color] = [:]
        guard let cm = map["colors"]?.mapping else {
            throw ConfigFileError(file: file, line: root.mark?.line, message: "a theme needs a `colors:` mapping")
        }
        for (k, v) in cm {
            guard let key = k.string, let role = ThemeRole(rawValue: key) else {
                throw ConfigFileError(file: file, line: k.mark?.line,
                                      message: "unknown colour role `\(k.string ?? "")`; roles: \(ThemeRole.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let s = v.string, let c = Color(parsing: s) else {
                throw ConfigFileError(file: file, line: v.mark?.line, message: "`\(v.string ?? "")` is not a colour (#rrggbb, a name, or 0-255)")
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

    /// Loads a theme by name; `dark` and `light` always exist (built in).
    public static func load(_ name: String, searchPath: [URL]) throws -> Theme {
        for dir in searchPath {
            let url = dir.appendingPathComponent("\(name).yaml")
            if let text = try? String(contentsOf: url, encoding: .utf8) {
                return try parse(yaml: text, file: url.path)
            }
        }
        switch name {
        case "dark": return .dark
        case "light": return .light
        default:
            throw ConfigFileError(file: name, line: nil, message: "no theme named `\(name)`; built in: dark, light (add your own as ~/.config/swiftdash/themes/NAME.yaml)")
        }
    }
}

/// Where swiftdash keeps its files (XDG base directories).
public struct AppPaths: Sendable {
    public var config: URL
    public var cache: URL
    public var runtime: URL

    public init(environment env: [String: String]) {
        let home = URL(fileURLWithPath: env["HOME"] ?? NSHomeDirectory())
        func xdg(_ key: String, _ fallback: String) -> URL {
            if let v = env[key], v.hasPrefix("/") { return URL(fileURLWithPath: v) }
            return home.appendingPathComponent(fallback)
        }
        config = xdg("XDG_CONFIG_HOME", ".config").appendingPathComponent("swiftdash")
        cache = xdg("XDG_CACHE_HOME", ".cache").appendingPathComponent("swiftdash")
        if let r = env["XDG_RUNTIME_DIR"], r.hasPrefix("/") {
            runtime = URL(fileURLWithPath: r).appendingPathComponent("swiftdash")
        } else {
            runtime = URL(fileURLWithPath: "/tmp").appendingPathComponent("swiftdash-\(getuid())")
        }
    }

    public var homeFile: URL { config.appendingPathComponent("home.yaml") }
    public var logFile: URL { cache.appendingPathComponent("swiftdash.log") }
    public var socket: URL { runtime.appendingPathComponent("control.sock") }
}
