import Foundation
import Yams
import DashCore
import DashWidgets
import DashHome

extension HomeConfig {
    /// Every problem `swiftdash config check` reports for a `home.yaml`: those of the file
    /// (`problems`), and those of the theme it names, found as the home screen finds it — a theme
    /// that does not exist against the `theme:` line, a broken theme file against its own file
    /// and line (after the problems of home.yaml).
    public static func checkProblems(
        yaml text: String, file: String, bundle: WidgetBundle, themeSearchPath: [URL]
    ) -> [ConfigFileError] {
        var found = problems(yaml: text, file: file, bundle: bundle)
        // The theme line is read even when a tile is broken: a partial read keeps it.
        var partial = ConfigProblems(collecting: true)
        guard let home = try? parse(yaml: text, file: file, bundle: bundle, problems: &partial),
            let name = home.theme
        else { return found }
        do {
            _ = try ThemeLoader.loadPair(name, fromHome: home, homeFile: file, searchPath: themeSearchPath)
        } catch let e as ConfigFileError {
            // A missing theme is home.yaml's problem, in its line's place; a broken file's comes last.
            let at =
                e.file == file ? found.firstIndex { ($0.line ?? 0) > (e.line ?? 0) } ?? found.endIndex : found.endIndex
            found.insert(e, at: at)
        } catch {
            found.append(ConfigFileError(file: file, line: home.themeLine, message: "\(error)"))
        }
        return found
    }
}

extension ThemeLoader {
    /// A theme file, read within the limits and parsed (`swiftdash config check THEME`).
    public static func load(contentsOf url: URL) throws -> Theme {
        let data = try ConfigFile.read(url, maxBytes: ConfigLimits.maxThemeBytes, what: "a theme")
        return try parse(data: data, file: url.path)
    }

    /// Whether a file to check is a theme rather than a home screen: it is in a `themes` folder,
    /// or it has `colors:` and no `tiles:`.
    public static func isTheme(_ url: URL) -> Bool {
        if url.deletingLastPathComponent().lastPathComponent == "themes" { return true }
        guard let data = try? ConfigFile.read(url, maxBytes: ConfigLimits.maxThemeBytes, what: "a theme"),
            let text = try? YAMLGuard.text(data, file: url.path, maxBytes: ConfigLimits.maxThemeBytes, what: "a theme"),
            let map = (try? YAMLGuard.compose(text, file: url.path))??.mapping
        else { return false }
        return map["colors"] != nil && map["tiles"] == nil
    }
}
