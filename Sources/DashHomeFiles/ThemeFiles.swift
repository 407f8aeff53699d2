import Foundation
import DashCore
import DashHome

extension ThemeLoader {
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
