import Foundation
import Yams
import DashWidgets

extension HomeConfig {
    /// Every problem of a `home.yaml` (`swiftdash config check`), in line order: each key of each
    /// tile, each stack item, each configuration value and each top-level key is read through the
    /// same code as `parse`, which goes on past a problem here instead of stopping at it. What
    /// the YAML reader itself refuses (a syntax error, a duplicate key, a limit) is one problem.
    public static func problems(yaml text: String, file: String, bundle: WidgetBundle) -> [ConfigFileError] {
        var problems = ConfigProblems(collecting: true)
        do {
            _ = try parse(yaml: text, file: file, bundle: bundle, problems: &problems)
        } catch let e as ConfigFileError {
            return [e]
        } catch {
            return [ConfigFileError(file: file, line: nil, message: "\(error)")]
        }
        var seen: Set<String> = []
        let found = problems.found.filter { seen.insert($0.description).inserted }
        // Stable: problems on one line keep the order they were found in.
        return found.enumerated().sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
            .map(\.element)
    }

    /// The lines `swiftdash config check` prints for `problems`: at most `limit`, then how many
    /// more there are.
    public static func checkReport(_ problems: [ConfigFileError], limit: Int = 50) -> [String] {
        var lines = problems.prefix(limit).map(\.description)
        if problems.count > limit {
            let more = problems.count - limit
            lines.append("and \(more) more problem\(more == 1 ? "" : "s") (\(limit) shown)")
        }
        return lines
    }
}
