import Foundation
import DashHome

extension HomeChoice {
    /// The named homes in `config`: `home-NAME.yaml` files whose NAME is a usable name, sorted.
    public static func names(in config: URL) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: config.path)) ?? []
        return files.compactMap { f -> String? in
            guard f.hasPrefix("home-"), f.hasSuffix(".yaml") else { return nil }
            let name = String(f.dropFirst("home-".count).dropLast(".yaml".count))
            return problem(name: name) == nil ? name : nil
        }.sorted()
    }

    /// The homes there are in `config`, for a message: `default (home.yaml), work, play`, or
    /// that there are none but the default.
    public static func listing(in config: URL) -> String {
        let names = names(in: config)
        let standard =
            FileManager.default.fileExists(atPath: config.appendingPathComponent("home.yaml").path)
            ? "default (home.yaml)" : "default (home.yaml, not written yet)"
        return ([standard] + names).joined(separator: ", ")
    }
}
